"""Session 13. Call 43, at the session's start, before any model of the session changed: a sixteenth
blind set (late16) kept outside the repository and every helper's view until the session's first-round
models are final. Real-size configurations no set has captured (Llama 3.2 3B, Qwen3-4B, Gemma 3 4B, GPT-2 XL,
Whisper medium, ConvNeXt-L, ViT-L/16, EfficientNet-B4, ResNet-50 checkpointed, DiT-XL/2, the SD 1.5 UNet
checkpointed), new technique mixes on the reduced families, one compiled step and generate points. Step
times of technique pairs in three processes alone on the GPU (issue 14), peak reserved for issue 18's bands.
Call 44 (after it): pick6, `plan --fit`'s top three on three models no set had timed (issue 14's third
criterion), and dev18 (NOT blind): resv14's Phi-3 float32 snapshots and steptime28b's Qwen3-0.6B profiles."""
from gt_jobs import J, T, G, maker, timer, timing_jobs
from gt_jobs7 import T5B
from gt_jobs9 import MI, G2, P3, OL, MX, QM, GR, tv
from gt_jobs11 import df
from gt_jobs21 import Q3_06B
from gt_jobs23 import BERT
from gt_jobs26 import TL

LL3B = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=3072, intermediate_size=8192, num_hidden_layers=28, num_attention_heads=24,
    num_key_value_heads=8, head_dim=128, vocab_size=128256, max_position_embeddings=131072,
    tie_word_embeddings=True, rope_theta=500000.0, rms_norm_eps=1e-5))
Q3_4B = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=2560, intermediate_size=9728, num_hidden_layers=36, num_attention_heads=32,
    num_key_value_heads=8, head_dim=128, vocab_size=151936, tie_word_embeddings=True,
    rope_theta=1000000.0, rms_norm_eps=1e-6, max_position_embeddings=40960))
GE3_4B = ("Gemma3ForCausalLM", "Gemma3TextConfig", dict(
    hidden_size=2560, intermediate_size=10240, num_hidden_layers=34, num_attention_heads=8,
    num_key_value_heads=4, head_dim=256, vocab_size=262208, sliding_window=1024, query_pre_attn_scalar=256,
    rope_local_base_freq=10000.0, rope_theta=1000000.0, max_position_embeddings=131072))
GXL = ("GPT2LMHeadModel", "GPT2Config", dict(n_embd=1600, n_layer=48, n_head=25, n_positions=1024))
WHM = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=1024, encoder_layers=24, decoder_layers=24, encoder_attention_heads=16, decoder_attention_heads=16,
    encoder_ffn_dim=4096, decoder_ffn_dim=4096, vocab_size=51865, num_mel_bins=80))
QW05 = ("Qwen2ForCausalLM", "Qwen2Config", dict(
    hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
    num_key_value_heads=2, vocab_size=151936, max_position_embeddings=32768, tie_word_embeddings=True,
    rope_theta=1000000.0, rms_norm_eps=1e-6))

B = maker("late16-", "late16", heldout=True)
C = maker("late16-", "late16-compile", heldout=True, timeout=300)


def blind_jobs():
    return [
        B("llama32-3b-s2048-b2-bf16-ckpt", T(*LL3B, b=2, seq=2048, ckpt="block", family="llama"), mem=80),
        B("qwen3-4b-s1024-b4-bf16-lora16-ckpt", T(*Q3_4B, b=4, seq=1024, lora=16, ckpt="block", family="qwen3"),
          mem=40),
        B("gemma3-4b-s1024-b2-bf16-lora16", T(*GE3_4B, b=2, seq=1024, lora=16, family="gemma3"), mem=50),
        B("gpt2-xl-s1024-b4-bf16-ckpt", T(*GXL, b=4, seq=1024, ckpt="block"), mem=50),
        B("qwen3-06b-s2048-b4-fp32", T(*Q3_06B, b=4, seq=2048, prec="fp32", family="qwen3"), mem=60),
        B("tinyllama-s1024-b8-fp16-lora16", T(*TL, b=8, seq=1024, prec="fp16", lora=16, family="llama"), mem=40),
        B("mistral-e-s1024-b8-fp16-lora16-ckpt", T(*MI, b=8, seq=1024, prec="fp16", lora=16, ckpt="block",
                                                   family="mistral")),
        B("phi3-f-s2048-b2-bf16-ckpt", T(*P3, b=2, seq=2048, ckpt="block", family="phi3")),
        B("olmo2-f-s2048-b2-fp32-ckpt", T(*OL, b=2, seq=2048, prec="fp32", ckpt="block", family="olmo2")),
        B("mixtral-f-s1024-b4-fp32", T(*MX, b=4, seq=1024, prec="fp32", family="mixtral")),
        B("qwen2moe-f-s2048-b2-bf16w-ckpt", T(*QM, b=2, seq=2048, prec="bf16w", ckpt="block", family="qwen2moe")),
        B("granite-f-s1024-b4-bf16-lora16-ckpt", T(*GR, b=4, seq=1024, lora=16, ckpt="block", family="granite")),
        B("gemma2-f-s1024-b4-fp16-ckpt", T(*G2, b=4, seq=1024, prec="fp16", ckpt="block", family="gemma2")),
        B("t5-base-s1024-b8-fp32", T(*T5B, io="s2s", b=8, seq=1024, prec="fp32"), mem=40),
        B("bert-base-s128-b128-fp32", T(*BERT, io="cls", b=128, seq=128, prec="fp32")),
        B("whisper-medium-b8-bf16-ckpt", T(*WHM, io="whisper", b=8, seq=64, ckpt="block", family="whisper"),
          mem=40),
        B("vitl16-b64-fp16", tv("vit_l_16", 64, prec="fp16"), mem=40),
        B("convnext-large-b64-bf16", tv("convnext_large", 64), mem=40),
        B("efficientnet-b4-b64-bf16-ckpt", tv("efficientnet_b4", 64, ckpt="block")),
        B("resnet50-b256-fp32-ckpt", tv("resnet50", 256, prec="fp32", ckpt="block"), mem=40),
        B("dit-xl-2-b32-bf16-ckpt", df("dit-xl-2", 32, ckpt="block", family="dit"), mem=40),
        B("sd15-unet-b16-bf16-ckpt", df("sd15-unet", 16, ckpt="block", family="unet"), mem=40),
        C("qwen25-05b-s1024-b8-bf16-compile", T(*QW05, b=8, seq=1024, compile=True, iters=4, family="qwen2"),
          mem=40),
        J("late16-gen-qwen25-15b-bf16-static-nograd", "late16-generate", 30, heldout=True, timeout=240,
          spec=G("qwen25-15b", "bf16", "static", "no_grad", [(16, 512, 256)])),
        J("late16-gen-mistral-7b-bf16-dynamic-inf", "late16-generate", 40, heldout=True, timeout=240,
          spec=G("mistral-7b", "bf16", "dynamic", "inference", [(2, 4096, 64), (24, 700, 200)])),
    ]


t = timer("late16-", "late16-timing")


def timing_groups():
    lm = [
        t("t-llama32-3b-s1024-b4-bf16", T(*LL3B, b=4, seq=1024)),
        t("t-llama32-3b-s1024-b4-bf16-ckpt", T(*LL3B, b=4, seq=1024, ckpt="block")),
        t("t-llama32-3b-s1024-b4-bf16-lora16", T(*LL3B, b=4, seq=1024, lora=16)),
        t("t-llama32-3b-s1024-b4-bf16-lora16-ckpt", T(*LL3B, b=4, seq=1024, lora=16, ckpt="block")),
        t("t-gpt2-xl-s1024-b8-bf16", T(*GXL, b=8, seq=1024)),
        t("t-gpt2-xl-s1024-b4x2-bf16", T(*GXL, b=4, seq=1024, accum=2)),
        t("t-qwen3-4b-s1024-b4-bf16-lora16", T(*Q3_4B, b=4, seq=1024, lora=16)),
        t("t-qwen3-4b-s1024-b4-bf16-lora16-ckpt", T(*Q3_4B, b=4, seq=1024, lora=16, ckpt="block")),
        t("t-tinyllama-s1024-b8-bf16", T(*TL, b=8, seq=1024)),
        t("t-tinyllama-s1024-b8-fp32", T(*TL, b=8, seq=1024, prec="fp32")),
    ]
    enc = [
        t("t-convnext-large-b64-bf16", tv("convnext_large", 64)),
        t("t-convnext-large-b64-fp32", tv("convnext_large", 64, prec="fp32")),
        t("t-vitl16-b64-bf16", tv("vit_l_16", 64)),
        t("t-vitl16-b64-bf16-ckpt", tv("vit_l_16", 64, ckpt="block")),
        t("t-efficientnet-b4-b64-bf16", tv("efficientnet_b4", 64)),
        t("t-efficientnet-b4-b64-bf16-ckpt", tv("efficientnet_b4", 64, ckpt="block")),
        t("t-resnet50-b256-bf16", tv("resnet50", 256)),
        t("t-resnet50-b128x2-bf16", tv("resnet50", 128, accum=2)),
        t("t-bert-base-s512-b32-bf16", T(*BERT, io="cls", b=32, seq=512)),
        t("t-bert-base-s512-b32-fp32", T(*BERT, io="cls", b=32, seq=512, prec="fp32")),
        t("t-whisper-medium-b8-bf16", T(*WHM, io="whisper", b=8, seq=64)),
        t("t-whisper-medium-b8-bf16-ckpt", T(*WHM, io="whisper", b=8, seq=64, ckpt="block")),
    ]
    dif = [
        t("t-dit-xl-2-b32-bf16", df("dit-xl-2", 32)),
        t("t-dit-xl-2-b32-bf16-ckpt", df("dit-xl-2", 32, ckpt="block")),
        t("t-sd15-unet-b16-bf16", df("sd15-unet", 16)),
        t("t-sd15-unet-b16-bf16-ckpt", df("sd15-unet", 16, ckpt="block")),
        t("t-t5-base-s512-b32-bf16", T(*T5B, io="s2s", b=32, seq=512)),
        t("t-t5-base-s512-b16x2-bf16", T(*T5B, io="s2s", b=16, seq=512, accum=2)),
        t("t-mixtral-f-s1024-b4-bf16", T(*MX, b=4, seq=1024)),
        t("t-mixtral-f-s1024-b4-bf16-lora16", T(*MX, b=4, seq=1024, lora=16)),
    ]
    return timing_jobs("late16-", "late16-timing", (("lm", lm), ("enc-vision", enc), ("diffusion", dif)))


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()


p = timer("pick6-", "pick6")


def picks():
    """`vramkit plan --fit --gpu h200` at commit 9929335 (session 12's final models), top three each:
    --model llama3.2-3b --seq 1024 --global-batch 32: bf16 b8x4 1.679 s, fp16 b8x4 1.690 s, bf16 selective b8x4 1.756 s;
    --model vit-l16 --global-batch 256: bf16 b256 0.319 s, fp16 b256 0.320 s, bf16 b128x2 0.326 s;
    --model dit-xl-2 --global-batch 64: bf16 b64 0.183 s, fp16 b64 0.189 s, bf16 selective b64 0.202 s."""
    ll = [p("llama32-3b-s1024-bf16-b8x4", T(*LL3B, b=8, seq=1024, accum=4)),
          p("llama32-3b-s1024-fp16-b8x4", T(*LL3B, b=8, seq=1024, accum=4, prec="fp16")),
          p("llama32-3b-s1024-bf16-sel-b8x4", T(*LL3B, b=8, seq=1024, accum=4, ckpt="selective"))]
    vi = [p("vitl16-bf16-b256x1", tv("vit_l_16", 256)),
          p("vitl16-fp16-b256x1", tv("vit_l_16", 256, prec="fp16")),
          p("vitl16-bf16-b128x2", tv("vit_l_16", 128, accum=2))]
    dt = [p("dit-xl-2-bf16-b64x1", df("dit-xl-2", 64)),
          p("dit-xl-2-fp16-b64x1", df("dit-xl-2", 64, prec="fp16")),
          p("dit-xl-2-bf16-sel-b64x1", df("dit-xl-2", 64, ckpt="selective"))]
    return timing_jobs("pick6-", "pick6", (("llama32-3b", ll), ("vit-l16", vi), ("dit-xl-2", dt)))


def call44():
    """pick6, then dev18 (NOT blind): resv14's and steptime28b's captures (their job lists, on their branches,
    are folded in here: both had named themselves call43)."""
    from gt_jobs import maker as mk
    LP3 = ("LlamaForCausalLM", "LlamaConfig", dict(
        hidden_size=1280, intermediate_size=3584, num_hidden_layers=10, num_attention_heads=20,
        num_key_value_heads=4, vocab_size=32064, tie_word_embeddings=False))
    M = mk("dev18-", "dev18-families", heldout=False)
    snaps = [M("phi3-f-s1024-b4-fp32-ckpt-snap",
               T(*P3, b=4, seq=1024, prec="fp32", ckpt="block", family="phi3", snap=True)),
             M("phi3-f-s2048-b2-fp32-snap", T(*P3, b=2, seq=2048, prec="fp32", family="phi3", snap=True)),
             M("llama-p3-s1024-b4-fp32-ckpt-snap",
               T(*LP3, b=4, seq=1024, prec="fp32", ckpt="block", family="llama", snap=True)),
             M("phi3-f-s1024-b4-bf16-snap", T(*P3, b=4, seq=1024, family="phi3", snap=True))]
    D = mk("dev18-", "dev18-profile", heldout=False, timeout=240)
    profs = [D("prof-qwen3-06b-s1024-b8-bf16", T(*Q3_06B, b=8, seq=1024, iters=4, profile=True, family="qwen3"),
               mem=60),
             D("prof-qwen3-06b-s1024-b8-fp32", T(*Q3_06B, b=8, seq=1024, prec="fp32", iters=4, profile=True,
                                                  family="qwen3"), mem=80)]
    for j in profs:
        j["exclusive"] = True  # alone on the GPU: the gaps between kernels are what is measured
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + picks() + snaps + profs
