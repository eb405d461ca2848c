"""Session 12. Call 41, at the session's start, before any model of the session changed: a fifteenth
blind set (late15) kept outside the repository and every helper's view until the session's first-round
models are final. Real-size configurations no set has captured (TinyLlama 1.1B, SmolLM2-360M, Qwen3-1.7B,
Gemma 2 2B, GPT-2 large, T5-large, BERT-large, Whisper small, ViT-H/14, ResNet-152, ResNet-18), new
technique mixes on the reduced families, one compiled step and generate points. Step times of technique
pairs (checkpointing, LoRA, AMP vs fp32, accumulation vs a larger batch) in three processes alone on the
GPU, for issue 14; peak reserved for issue 18's bands.
Beside it, dev16 (not blind): fp32 and bf16 GEMMs at the small shapes of small models (the SD 1.5 UNet's
fp32 GEMMs ran below the large-shape calibration)."""
from gt_jobs import J, T, G, maker, timer, timing_jobs
from gt_jobs9 import QW05, MI, G2, GE3, P3, OL, MX, QM, GR, tv
from gt_jobs11 import df
from gt_jobs23 import BERT, GE3_1B, T5S

TL = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=2048, intermediate_size=5632, num_hidden_layers=22, num_attention_heads=32,
    num_key_value_heads=4, vocab_size=32000, max_position_embeddings=2048, tie_word_embeddings=False,
    rms_norm_eps=1e-5))
SMOL = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=960, intermediate_size=2560, num_hidden_layers=32, num_attention_heads=15,
    num_key_value_heads=5, vocab_size=49152, max_position_embeddings=8192, tie_word_embeddings=True,
    rope_theta=100000.0, rms_norm_eps=1e-5))
Q3_17B = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=2048, intermediate_size=6144, num_hidden_layers=28, num_attention_heads=16,
    num_key_value_heads=8, head_dim=128, vocab_size=151936, tie_word_embeddings=True,
    rope_theta=1000000.0, rms_norm_eps=1e-6, max_position_embeddings=40960))
G2_2B = ("Gemma2ForCausalLM", "Gemma2Config", dict(
    hidden_size=2304, intermediate_size=9216, num_hidden_layers=26, num_attention_heads=8,
    num_key_value_heads=4, head_dim=256, vocab_size=256000, sliding_window=4096,
    query_pre_attn_scalar=256, final_logit_softcapping=30.0, attn_logit_softcapping=50.0))
GL = ("GPT2LMHeadModel", "GPT2Config", dict(n_embd=1280, n_layer=36, n_head=20, n_positions=1024))
T5L = ("T5ForConditionalGeneration", "T5Config", dict(d_model=1024, d_ff=4096, num_layers=24,
                                                     num_decoder_layers=24, num_heads=16, d_kv=64))
BL = ("BertForSequenceClassification", "BertConfig", dict(hidden_size=1024, num_hidden_layers=24,
                                                        num_attention_heads=16, intermediate_size=4096))
WHS = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=768, encoder_layers=12, decoder_layers=12, encoder_attention_heads=12, decoder_attention_heads=12,
    encoder_ffn_dim=3072, decoder_ffn_dim=3072, vocab_size=51865, num_mel_bins=80))

B = maker("late15-", "late15", heldout=True)
C = maker("late15-", "late15-compile", heldout=True, timeout=300)


def blind_jobs():
    return [
        B("tinyllama-s2048-b4-bf16-ckpt", T(*TL, b=4, seq=2048, ckpt="block", family="llama"), mem=40),
        B("smollm2-360m-s2048-b8-bf16", T(*SMOL, b=8, seq=2048, family="llama"), mem=50),
        B("qwen3-17b-s1024-b4-bf16-lora16-ckpt", T(*Q3_17B, b=4, seq=1024, lora=16, ckpt="block", family="qwen3")),
        B("gemma2-2b-s1024-b2-bf16-lora16", T(*G2_2B, b=2, seq=1024, lora=16, family="gemma2"), mem=40),
        B("qwen25-05b-s2048-b8-fp16", T(*QW05, b=8, seq=2048, prec="fp16", family="qwen2"), mem=50),
        B("gpt2-large-s1024-b8-bf16", T(*GL, b=8, seq=1024), mem=50),
        B("phi3-f-s1024-b4-fp32-ckpt", T(*P3, b=4, seq=1024, prec="fp32", ckpt="block", family="phi3")),
        B("mistral-e-s2048-b4x2-bf16-ckpt", T(*MI, b=4, seq=2048, accum=2, ckpt="block", family="mistral")),
        B("olmo2-f-s1024-b8-bf16-lora16", T(*OL, b=8, seq=1024, lora=16, family="olmo2")),
        B("mixtral-f-s2048-b2-bf16-ckpt", T(*MX, b=2, seq=2048, ckpt="block", family="mixtral")),
        B("qwen2moe-f-s1024-b4-fp16", T(*QM, b=4, seq=1024, prec="fp16", family="qwen2moe")),
        B("granite-f-s2048-b2-fp32", T(*GR, b=2, seq=2048, prec="fp32", family="granite")),
        B("gemma3-1b-s2048-b2-bf16-ckpt", T(*GE3_1B, b=2, seq=2048, ckpt="block", family="gemma3"), mem=40),
        B("gemma2-f-s2048-b2-bf16w", T(*G2, b=2, seq=2048, prec="bf16w", family="gemma2")),
        B("t5-large-s512-b8-bf16", T(*T5L, io="s2s", b=8, seq=512), mem=40),
        B("bert-large-s512-b16-bf16", T(*BL, io="cls", b=16, seq=512), mem=40),
        B("whisper-small-b16-fp32", T(*WHS, io="whisper", b=16, seq=64, family="whisper")),
        B("vith14-b16-bf16-ckpt", tv("vit_h_14", 16, ckpt="block")),
        B("resnet152-b128-fp16", tv("resnet152", 128, prec="fp16"), mem=40),
        B("resnet18-b512-bf16", tv("resnet18", 512), mem=40),
        B("convnext-base-b64-bf16-ckpt", tv("convnext_base", 64, ckpt="block")),
        B("efficientnet-b2-b96-bf16-ckpt", tv("efficientnet_b2", 96, ckpt="block")),
        B("dit-l-2-b32-bf16", df("dit-l-2", 32, family="dit"), mem=40),
        B("sd15-unet-b8-fp16", df("sd15-unet", 8, prec="fp16", family="unet"), mem=50),
        C("gpt2-medium-s1024-b8-bf16-compile",
          T("GPT2LMHeadModel", "GPT2Config", dict(n_embd=1024, n_layer=24, n_head=16, n_positions=1024),
            b=8, seq=1024, compile=True, iters=4), mem=40),
        J("late15-gen-tinyllama-bf16-dynamic-inf", "late15-generate", 30, heldout=True, timeout=240,
          spec=G("tinyllama", "bf16", "dynamic", "inference", [(8, 1500, 300), (32, 400, 100)])),
        J("late15-gen-llama32-1b-fp16-static-nograd", "late15-generate", 30, heldout=True, timeout=240,
          spec=G("llama32-1b", "fp16", "static", "no_grad", [(4, 1024, 256)])),
    ]


t = timer("late15-", "late15-timing")


def timing_groups():
    lm = [
        t("t-tinyllama-s1024-b4-bf16", T(*TL, b=4, seq=1024)),
        t("t-tinyllama-s1024-b4-bf16-ckpt", T(*TL, b=4, seq=1024, ckpt="block")),
        t("t-smollm2-360m-s1024-b16-bf16", T(*SMOL, b=16, seq=1024)),
        t("t-smollm2-360m-s1024-b16-fp32", T(*SMOL, b=16, seq=1024, prec="fp32")),
        t("t-qwen3-17b-s1024-b4-bf16", T(*Q3_17B, b=4, seq=1024)),
        t("t-qwen3-17b-s1024-b4-bf16-lora16", T(*Q3_17B, b=4, seq=1024, lora=16)),
        t("t-gpt2-large-s1024-b8-bf16", T(*GL, b=8, seq=1024)),
        t("t-gpt2-large-s1024-b4x2-bf16", T(*GL, b=4, seq=1024, accum=2)),
        t("t-gemma2-2b-s1024-b2-bf16-lora16", T(*G2_2B, b=2, seq=1024, lora=16)),
        t("t-gemma2-2b-s1024-b2-bf16-lora16-ckpt", T(*G2_2B, b=2, seq=1024, lora=16, ckpt="block")),
    ]
    enc = [
        t("t-resnet152-b128-bf16", tv("resnet152", 128)),
        t("t-resnet152-b128-fp32", tv("resnet152", 128, prec="fp32")),
        t("t-resnet18-b256-bf16", tv("resnet18", 256)),
        t("t-resnet18-b128x2-bf16", tv("resnet18", 128, accum=2)),
        t("t-convnext-base-b64-bf16", tv("convnext_base", 64)),
        t("t-convnext-base-b64-bf16-ckpt", tv("convnext_base", 64, ckpt="block")),
        t("t-vith14-b16-bf16", tv("vit_h_14", 16)),
        t("t-vith14-b16-bf16-ckpt", tv("vit_h_14", 16, ckpt="block")),
        t("t-bert-large-s512-b16-bf16", T(*BL, io="cls", b=16, seq=512)),
        t("t-bert-large-s512-b16-bf16-ckpt", T(*BL, io="cls", b=16, seq=512, ckpt="block")),
        t("t-whisper-small-b16-bf16", T(*WHS, io="whisper", b=16, seq=64)),
        t("t-whisper-small-b16-fp32", T(*WHS, io="whisper", b=16, seq=64, prec="fp32")),
    ]
    dif = [
        t("t-dit-l-2-b32-bf16", df("dit-l-2", 32)),
        t("t-dit-l-2-b32-bf16-ckpt", df("dit-l-2", 32, ckpt="block")),
        t("t-sd15-unet-b8-bf16", df("sd15-unet", 8)),
        t("t-sd15-unet-b8-bf16-lora16", df("sd15-unet", 8, lora=16)),
        t("t-t5-large-s512-b8-bf16", T(*T5L, io="s2s", b=8, seq=512)),
        t("t-t5-large-s512-b8-fp32", T(*T5L, io="s2s", b=8, seq=512, prec="fp32")),
        t("t-efficientnet-b2-b96-bf16", tv("efficientnet_b2", 96)),
        t("t-efficientnet-b2-b96-bf16-ckpt", tv("efficientnet_b2", 96, ckpt="block")),
    ]
    return timing_jobs("late15-", "late15-timing", (("lm", lm), ("enc-vision", enc), ("diffusion", dif)))


def calib():
    """dev16 (NOT blind): fp32 and bf16 GEMMs at small models' shapes, alone on the GPU."""
    return [J("dev16-calibration-small-gemm", "dev16-calibration", 20, exclusive=True, timeout=120,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev16-calibration-small-gemm.json", "--budget", "90",
                   "--small-gemm"])]


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs() + calib()
