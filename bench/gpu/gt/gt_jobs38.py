"""Session 16. Call 55, at the session's start, before any model of the session changed: a twenty-second
blind set (late22) kept outside the repository until evaluated with the session-start binaries (commit
below the job list's). New shapes: Qwen2.5-1.5B at s4096, Gemma 3 1B at s4096, Granite 3 2B bf16-loaded LoRA,
TinyLlama fp16 LoRA checkpointed, GPT-2 XL without checkpointing, BERT-base s512 fp16, T5-base fp16, Whisper
medium checkpointed, ViT-B/16 at b256, ConvNeXt-B fp16, EfficientNet-B3 checkpointed, ResNet-101 fp16,
DiT-XL/2 fp16, the SD 1.5 UNet with LoRA, a Qwen1.5-MoE bf16-loaded LoRA, Phi-3 mini bf16-loaded LoRA at
s2048; three compiled decoders (vocabularies 49k, 32k and 152k); generate points of TinyLlama, GPT-2 medium
and Qwen2.5-1.5B. Step times of technique pairs in three processes alone on the GPU: accumulation against a
larger batch where the GPU, not the host, bounds the step; checkpointing, LoRA, AMP against fp32.
Beside it, dev25 (NOT blind): snapshots of two compiled decoder steps the compiled model under-predicts: late21's
Qwen3-0.6B b8 (peak allocated -8.1%, one logits' worth) and Qwen2.5-0.5B b4 (-2.6%)."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs11 import df
from gt_jobs23 import GE3_1B, BERT, T5S
from gt_jobs26 import TL, SMOL, GL
from gt_jobs29 import GXL, WHM
from gt_jobs31 import P3M, GR2B, QMOE
from gt_jobs37 import Q3_06

QW15 = GEN_MODELS["qwen25-15b"]
QW05 = GEN_MODELS["qwen25-05b"]
GM = GEN_MODELS["gpt2-medium"]
BL = ("BertForSequenceClassification", "BertConfig", dict(hidden_size=1024, num_hidden_layers=24,
                                                        num_attention_heads=16, intermediate_size=4096))
W = dict(prec="bf16w", build_bf16=True)

t = timer("late22-", "late22-timing")


def timing_groups():
    lm = [
        t("t-qwen25-15b-s1024-b16-bf16", T(*QW15, b=16, seq=1024)),
        t("t-qwen25-15b-s1024-b8x2-bf16", T(*QW15, b=8, seq=1024, accum=2)),
        t("t-qwen25-15b-s1024-b16-bf16-ckpt", T(*QW15, b=16, seq=1024, ckpt="block")),
        t("t-tinyllama-s2048-b8-bf16", T(*TL, b=8, seq=2048)),
        t("t-tinyllama-s2048-b8-bf16-lora16", T(*TL, b=8, seq=2048, lora=16)),
        t("t-gpt2-large-s1024-b8-bf16", T(*GL, b=8, seq=1024)),
        t("t-gpt2-large-s1024-b8-fp32", T(*GL, b=8, seq=1024, prec="fp32")),
        t("t-gpt2-large-s1024-b4x2-bf16", T(*GL, b=4, seq=1024, accum=2)),
    ]
    vis = [
        t("t-resnet101-b128-bf16", tv("resnet101", 128)),
        t("t-resnet101-b128-fp32", tv("resnet101", 128, prec="fp32")),
        t("t-vitb16-b256-bf16", tv("vit_b_16", 256)),
        t("t-vitb16-b128x2-bf16", tv("vit_b_16", 128, accum=2)),
        t("t-efficientnet-b3-b128-bf16", tv("efficientnet_b3", 128, res=300)),
        t("t-efficientnet-b3-b128-bf16-ckpt", tv("efficientnet_b3", 128, res=300, ckpt="block")),
        t("t-convnext-base-b128-bf16", tv("convnext_base", 128)),
        t("t-convnext-base-b128-bf16-ckpt", tv("convnext_base", 128, ckpt="block")),
    ]
    oth = [
        t("t-bert-large-s512-b32-bf16", T(*BL, io="cls", b=32, seq=512)),
        t("t-bert-large-s512-b32-fp32", T(*BL, io="cls", b=32, seq=512, prec="fp32")),
        t("t-t5-base-s512-b32-bf16", T(*T5S, io="s2s", b=32, seq=512)),
        t("t-t5-base-s512-b32-bf16-ckpt", T(*T5S, io="s2s", b=32, seq=512, ckpt="block")),
        t("t-dit-l-2-b64-bf16", df("dit-l-2", 64)),
        t("t-dit-l-2-b64-bf16-lora16", df("dit-l-2", 64, lora=16)),
        t("t-sd15-unet-b8-bf16", df("sd15-unet", 8)),
        t("t-sd15-unet-b8-bf16-ckpt", df("sd15-unet", 8, ckpt="block")),
    ]
    return timing_jobs("late22-", "late22-timing", (("lm", lm), ("vision", vis), ("other", oth)))


B = maker("late22-", "late22", heldout=True)
C = maker("late22-", "late22-compile", heldout=True, timeout=300)


def blind_jobs():
    bw = dict(prec="bf16w")
    return [
        J("late22-gen-tinyllama-fp16-static-nograd", "late22-generate", 40, heldout=True, timeout=240,
          spec=G("tinyllama", "fp16", "static", "no_grad", [(64, 512, 256), (8, 3000, 128)])),
        J("late22-gen-gpt2-medium-fp32-dynamic-inf", "late22-generate", 30, heldout=True, timeout=240,
          spec=G("gpt2-medium", "fp32", "dynamic", "inference", [(16, 512, 256)])),
        J("late22-gen-qwen25-15b-bf16-static-inf", "late22-generate", 40, heldout=True, timeout=240,
          spec=G("qwen25-15b", "bf16", "static", "inference", [(4, 4000, 100), (48, 700, 200)])),
        B("qwen25-15b-s4096-b2-bf16-lora16-ckpt", T(*QW15, b=2, seq=4096, lora=16, ckpt="block", family="qwen2"),
          mem=30),
        B("gemma3-1b-s4096-b2-bf16-ckpt", T(*GE3_1B, b=2, seq=4096, ckpt="block", family="gemma3"), mem=40),
        B("granite3-2b-s1024-b8-bf16w-lora16", T(*GR2B, b=8, seq=1024, lora=16, family="granite", **bw), mem=40),
        B("tinyllama-s2048-b8-fp16-lora16-ckpt", T(*TL, b=8, seq=2048, prec="fp16", lora=16, ckpt="block",
                                                   family="llama"), mem=30),
        B("gpt2-xl-s1024-b4-bf16", T(*GXL, b=4, seq=1024), mem=60),
        B("bert-base-s512-b64-fp16", T(*BERT, io="cls", b=64, seq=512, prec="fp16"), mem=40),
        B("t5-base-s512-b32-fp16", T(*T5S, io="s2s", b=32, seq=512, prec="fp16"), mem=40),
        B("whisper-medium-b16-bf16-ckpt", T(*WHM, io="whisper", b=16, seq=64, ckpt="block", family="whisper"),
          mem=30),
        B("phi3-mini-s2048-b4-bf16w-lora16-ckpt", T(*P3M, b=4, seq=2048, lora=16, ckpt="block", family="phi3",
                                                    **bw), mem=20),
        B("qwen15-moe-s1024-b4-bf16w-lora16", T(*QMOE, b=4, seq=1024, lora=16, family="qwen2moe", **bw), mem=60),
        B("vitb16-b256-bf16", tv("vit_b_16", 256), mem=40),
        B("convnext-base-b96-fp16", tv("convnext_base", 96, prec="fp16"), mem=40),
        B("efficientnet-b3-b96-bf16-ckpt", tv("efficientnet_b3", 96, res=300, ckpt="block"), mem=30),
        B("resnet101-b192-fp16", tv("resnet101", 192, prec="fp16"), mem=40),
        B("dit-xl-2-b32-fp16", df("dit-xl-2", 32, prec="fp16", family="dit"), mem=40),
        B("sd15-unet-b8-bf16-lora16", df("sd15-unet", 8, lora=16, family="unet"), mem=30),
        C("smollm2-360m-s1024-b8-bf16-compile", T(*SMOL, b=8, seq=1024, compile=True, iters=4, family="llama"),
          mem=40),
        C("tinyllama-s1024-b4-bf16-compile", T(*TL, b=4, seq=1024, compile=True, iters=4, family="llama"),
          mem=40),
        C("qwen25-15b-s1024-b4-bf16-compile", T(*QW15, b=4, seq=1024, compile=True, iters=4, family="qwen2"),
          mem=50),
    ]


D = maker("dev25-", "dev25", heldout=False, timeout=300)


def compile_snaps():
    return [
        D("qwen3-06b-s1024-b8-bf16-compile-snap", T(*Q3_06, b=8, seq=1024, compile=True, iters=4, family="qwen3",
                                                    snap=True), mem=40),
        D("qwen25-05b-s1024-b4-bf16-compile-snap", T(*QW05, b=4, seq=1024, compile=True, iters=4, family="qwen2",
                                                     snap=True), mem=40),
    ]


def call55():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs() + compile_snaps()
