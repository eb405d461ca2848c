"""Session 11. Call 38, at the session's start, before any model of the session changed: a fourteenth
blind set (late14) kept outside the repository and every helper's view until the session's models are
final. Real-size configurations no set has captured (Qwen3-0.6B, Gemma 3 1B, Whisper base, T5-small,
BERT-base, GPT-2 small), new technique mixes on the reduced families, vision variants not timed before
(ResNet-34, ConvNeXt-T checkpointed, EfficientNet-B1, DiT-B/2), one compiled step and generate points.
Step times of technique pairs (checkpointing, LoRA, AMP vs fp32, accumulation vs a larger batch) in three
processes alone on the GPU, for issue 14; peak reserved for issue 18's bands.
Beside it, dev13 (not blind): the same host-bound rows timed in three separate processes each, to measure
how much one lent host's step time moves between processes, and technique pairs at two batch sizes on
small models where host time and GPU time cross."""
from gt_jobs import J, T, G, GPT2, GPT2_MEDIUM, LLAMA_SMALL, maker, timer, timing_jobs, dev_timing_jobs
from gt_jobs7 import LL1B
from gt_jobs9 import QW05, MI, G2, GE3, P3, OL, MX, QM, GR, WH, tv
from gt_jobs11 import df
from gt_jobs21 import Q3_06B

GS = ("GPT2LMHeadModel", "GPT2Config", GPT2)
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
T5S = ("T5ForConditionalGeneration", "T5Config", {})
BERT = ("BertForSequenceClassification", "BertConfig", {})
GE3_1B = ("Gemma3ForCausalLM", "Gemma3TextConfig", dict(
    hidden_size=1152, intermediate_size=6912, num_hidden_layers=26, num_attention_heads=4,
    num_key_value_heads=1, head_dim=256, vocab_size=262144, sliding_window=512, query_pre_attn_scalar=256,
    rope_local_base_freq=10000.0, max_position_embeddings=32768))
WHB = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8, decoder_attention_heads=8,
    encoder_ffn_dim=2048, decoder_ffn_dim=2048, vocab_size=51865, num_mel_bins=80))

B = maker("late14-", "late14", heldout=True)
C = maker("late14-", "late14-compile", heldout=True, timeout=300)


def blind_jobs():
    return [
        B("qwen3-06b-s2048-b4-bf16-ckpt", T(*Q3_06B, b=4, seq=2048, ckpt="block", family="qwen3")),
        B("llama32-1b-s4096-b1-bf16-lora16-ckpt", T(*LL1B, b=1, seq=4096, lora=16, ckpt="block", family="llama")),
        B("gemma3-1b-s1024-b4-bf16-lora16", T(*GE3_1B, b=4, seq=1024, lora=16, family="gemma3"), mem=40),
        B("olmo2-f-s2048-b4-bf16-ckpt", T(*OL, b=4, seq=2048, ckpt="block", family="olmo2")),
        B("mistral-e-s512-b16-fp16-lora16", T(*MI, b=16, seq=512, prec="fp16", lora=16, family="mistral")),
        B("granite-f-s1024-b8-bf16w", T(*GR, b=8, seq=1024, prec="bf16w", family="granite")),
        B("phi3-f-s2048-b2-bf16", T(*P3, b=2, seq=2048, family="phi3")),
        B("mixtral-f-s1024-b8-bf16-lora16", T(*MX, b=8, seq=1024, lora=16, family="mixtral")),
        B("qwen2moe-f-s2048-b2-bf16-ckpt", T(*QM, b=2, seq=2048, ckpt="block", family="qwen2moe")),
        B("gemma2-f-s1024-b4-fp32", T(*G2, b=4, seq=1024, prec="fp32", family="gemma2")),
        B("qwen25-05b-s512-b32-bf16w", T(*QW05, b=32, seq=512, prec="bf16w", family="qwen2")),
        B("llama-small-s1024-b8-bf16-sgd", T(*L, b=8, seq=1024, opt="sgd")),
        B("gpt2-s1024-b16-bf16-ckpt", T(*GS, b=16, seq=1024, ckpt="block")),
        B("gpt2-medium-s1024-b4-bf16-lora16", T(*GM, b=4, seq=1024, lora=16, lora_targets=["c_attn"])),
        B("t5-small-s512-b32-fp32", T(*T5S, io="s2s", b=32, seq=512, prec="fp32")),
        B("bert-base-s512-b32-bf16-ckpt", T(*BERT, io="cls", b=32, seq=512, ckpt="block")),
        B("whisper-base-b32-bf16", T(*WHB, io="whisper", b=32, seq=64, family="whisper")),
        B("vitb16-b128-fp16", tv("vit_b_16", 128, prec="fp16")),
        B("vitl16-b32-fp32", tv("vit_l_16", 32, prec="fp32")),
        B("convnext-tiny-b128-bf16-ckpt", tv("convnext_tiny", 128, ckpt="block")),
        B("resnet34-b256-bf16", tv("resnet34", 256)),
        B("efficientnet-b1-b128-fp32", tv("efficientnet_b1", 128, prec="fp32")),
        B("dit-b-2-b64-bf16", df("dit-b-2", 64, family="dit"), mem=40),
        B("sd15-unet-b4-bf16-ckpt", df("sd15-unet", 4, ckpt="block", family="unet"), mem=40),
        C("qwen25-05b-s1024-b8-bf16-compile", T(*QW05, b=8, seq=1024, compile=True, iters=4), mem=40),
        J("late14-gen-qwen25-15b-bf16-static-inf", "late14-generate", 30, heldout=True, timeout=240,
          spec=G("qwen25-15b", "bf16", "static", "inference", [(4, 2000, 200), (16, 800, 100)])),
        J("late14-gen-gpt2-medium-fp32-dynamic-nograd", "late14-generate", 30, heldout=True, timeout=240,
          spec=G("gpt2-medium", "fp32", "dynamic", "no_grad", [(8, 512, 128)])),
    ]


t = timer("late14-", "late14-timing")


def timing_groups():
    lm = [
        t("t-qwen3-06b-s1024-b8-bf16", T(*Q3_06B, b=8, seq=1024)),
        t("t-qwen3-06b-s1024-b8-bf16-ckpt", T(*Q3_06B, b=8, seq=1024, ckpt="block")),
        t("t-gemma3-1b-s1024-b4-bf16", T(*GE3_1B, b=4, seq=1024)),
        t("t-gemma3-1b-s1024-b4-bf16-lora16", T(*GE3_1B, b=4, seq=1024, lora=16)),
        t("t-olmo2-f-s1024-b8-bf16", T(*OL, b=8, seq=1024)),
        t("t-olmo2-f-s1024-b8-fp32", T(*OL, b=8, seq=1024, prec="fp32")),
        t("t-granite-f-s1024-b8-bf16", T(*GR, b=8, seq=1024)),
        t("t-granite-f-s1024-b4x2-bf16", T(*GR, b=4, seq=1024, accum=2)),
        t("t-phi3-f-s1024-b4-bf16-lora16", T(*P3, b=4, seq=1024, lora=16)),
        t("t-phi3-f-s1024-b4-bf16-lora16-ckpt", T(*P3, b=4, seq=1024, lora=16, ckpt="block")),
        t("t-mixtral-f-s1024-b4-bf16", T(*MX, b=4, seq=1024)),
    ]
    enc = [
        t("t-vitl16-b32-bf16", tv("vit_l_16", 32)),
        t("t-vitl16-b32-fp32", tv("vit_l_16", 32, prec="fp32")),
        t("t-resnet34-b256-bf16", tv("resnet34", 256)),
        t("t-resnet34-b128x2-bf16", tv("resnet34", 128, accum=2)),
        t("t-convnext-tiny-b128-bf16", tv("convnext_tiny", 128)),
        t("t-convnext-tiny-b128-bf16-ckpt", tv("convnext_tiny", 128, ckpt="block")),
        t("t-efficientnet-b1-b96-bf16", tv("efficientnet_b1", 96)),
        t("t-efficientnet-b1-b96-fp32", tv("efficientnet_b1", 96, prec="fp32")),
        t("t-bert-base-s512-b32-bf16", T(*BERT, io="cls", b=32, seq=512)),
        t("t-bert-base-s512-b32-bf16-ckpt", T(*BERT, io="cls", b=32, seq=512, ckpt="block")),
        t("t-whisper-base-b32-bf16", T(*WHB, io="whisper", b=32, seq=64)),
    ]
    dif = [
        t("t-dit-b-2-b64-bf16", df("dit-b-2", 64)),
        t("t-dit-b-2-b64-bf16-ckpt", df("dit-b-2", 64, ckpt="block")),
        t("t-sd15-unet-b4-bf16", df("sd15-unet", 4)),
        t("t-sd15-unet-b4-fp32", df("sd15-unet", 4, prec="fp32")),
        t("t-gpt2-medium-s1024-b8-bf16", T(*GM, b=8, seq=1024)),
        t("t-gpt2-medium-s1024-b8-bf16-lora16", T(*GM, b=8, seq=1024, lora=16, lora_targets=["c_attn"])),
        t("t-t5-small-s512-b32-bf16", T(*T5S, io="s2s", b=32, seq=512)),
        t("t-t5-small-s512-b32-fp32", T(*T5S, io="s2s", b=32, seq=512, prec="fp32")),
    ]
    return timing_jobs("late14-", "late14-timing", (("lm", lm), ("enc-vision", enc), ("diffusion", dif)))


def dev_timing():
    """Dev (not blind): three host-bound rows, each group run as three separate processes (between-process
    spread on one host), and technique pairs at two batch sizes on small models."""
    d = timer("dev13-", "dev13-timing")

    def rep(k):
        return [d("t-whisper-f-b32-bf16-r%d" % k, T(*WH, io="whisper", b=32, seq=64)),
                d("t-gemma3-e-s1024-b4-bf16-lora16-ckpt-r%d" % k, T(*GE3, b=4, seq=1024, lora=16, ckpt="block")),
                d("t-convnext-tiny-b32-bf16-r%d" % k, tv("convnext_tiny", 32))]
    pairs = []
    for b in (16, 64):
        pairs += [d("t-whisper-f-b%d-bf16" % b, T(*WH, io="whisper", b=b, seq=64)),
                  d("t-whisper-f-b%d-fp32" % b, T(*WH, io="whisper", b=b, seq=64, prec="fp32"))]
    for b in (2, 8):
        pairs += [d("t-gemma3-e-s1024-b%d-bf16-lora16" % b, T(*GE3, b=b, seq=1024, lora=16)),
                  d("t-gemma3-e-s1024-b%d-bf16-lora16-ckpt" % b, T(*GE3, b=b, seq=1024, lora=16, ckpt="block"))]
    groups = (("rep1", rep(1)), ("rep2", rep(2)), ("rep3", rep(3)), ("pairs", pairs))
    return dev_timing_jobs("dev13-", "dev13-timing", groups)


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs() + dev_timing()
