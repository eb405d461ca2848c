"""Session 17. Call 60, at the session's start, before any model of the session changed: a twenty-sixth blind
set (late26), kept outside the repository until evaluated once with the session-start binaries (commit below this
job list's). It aims at the kinds of workload the band table (bands.json "kinds") holds no blind row of yet:
Qwen3 under bf16 and fp16 AMP, OLMo 2 under fp16 AMP, Phi-3 in pure bf16, ConvNeXt in fp32, Adafactor on GPT-2
and T5, SGD with momentum on ResNet and ViT, selective checkpointing on Llama and DiT, and the world-size-1
parallel wrappers (FSDP2, ZeRO-1, TP, DDP) on decoders other than the Llama-small they were built on; Gemma 3
compiled (its sliding-window masks under Inductor were never measured); three generate points. Step times of
technique pairs in three processes alone on the GPU (AMP against fp32, checkpointing, LoRA, accumulation
against a larger batch) on models never timed: Qwen3-1.7B at s2048, Llama 3.2 1B, OLMo 2 1B, ViT-L/16,
ResNet-152, ConvNeXt-S, EfficientNet-B2, the SD 1.5 UNet with LoRA."""
from gt_jobs import J, sharded_maker, T, G, maker, timer, timing_jobs, S
from gt_jobs7 import LL1B
from gt_jobs9 import tv
from gt_jobs11 import df
from gt_jobs23 import GE3_1B, T5S
from gt_jobs26 import TL, Q3_17B, GL
from gt_jobs29 import QW05
from gt_jobs31 import P3M, OL1B
from gt_jobs37 import Q3_06

W = dict(prec="bf16w")
t = timer("late26-", "late26-timing")


def timing_groups():
    lm = [
        t("t-qwen3-17b-s2048-b4-bf16", T(*Q3_17B, b=4, seq=2048)),
        t("t-qwen3-17b-s2048-b4-bf16-ckpt", T(*Q3_17B, b=4, seq=2048, ckpt="block")),
        t("t-qwen3-17b-s2048-b4-bf16-lora16", T(*Q3_17B, b=4, seq=2048, lora=16)),
        t("t-llama32-1b-s1024-b8-bf16", T(*LL1B, b=8, seq=1024)),
        t("t-llama32-1b-s1024-b8-fp32", T(*LL1B, b=8, seq=1024, prec="fp32")),
        t("t-olmo2-1b-s1024-b8-bf16", T(*OL1B, b=8, seq=1024)),
        t("t-olmo2-1b-s1024-b4x2-bf16", T(*OL1B, b=4, seq=1024, accum=2)),
    ]
    vis = [
        t("t-vitl16-b64-bf16", tv("vit_l_16", 64)),
        t("t-vitl16-b64-fp32", tv("vit_l_16", 64, prec="fp32")),
        t("t-resnet152-b128-bf16", tv("resnet152", 128)),
        t("t-resnet152-b128-bf16-ckpt", tv("resnet152", 128, ckpt="block")),
        t("t-convnext-small-b128-bf16", tv("convnext_small", 128)),
        t("t-convnext-small-b64x2-bf16", tv("convnext_small", 64, accum=2)),
        t("t-efficientnet-b2-b128-bf16", tv("efficientnet_b2", 128, res=288)),
        t("t-efficientnet-b2-b128-fp32", tv("efficientnet_b2", 128, res=288, prec="fp32")),
    ]
    oth = [
        t("t-sd15-unet-b16-bf16", df("sd15-unet", 16)),
        t("t-sd15-unet-b16-bf16-lora16", df("sd15-unet", 16, lora=16)),
    ]
    return timing_jobs("late26-", "late26-timing", (("lm", lm), ("vision", vis), ("other", oth)))


B = maker("late26-", "late26", heldout=True)
C = maker("late26-", "late26-compile", heldout=True, timeout=300)


SH = sharded_maker("late26-", "late26-sharded")


def blind_jobs():
    return [
        J("late26-gen-llama32-1b-bf16-dynamic-inf", "late26-generate", 40, heldout=True, timeout=240,
          spec=G("llama32-1b", "bf16", "dynamic", "inference", [(16, 2048, 256)])),
        J("late26-gen-qwen25-05b-fp16-dynamic-nograd", "late26-generate", 40, heldout=True, timeout=240,
          spec=G("qwen25-05b", "fp16", "dynamic", "no_grad", [(64, 1024, 200)])),
        J("late26-gen-mistral-7b-bf16-static-inf", "late26-generate", 50, heldout=True, timeout=300,
          spec=G("mistral-7b", "bf16", "static", "inference", [(8, 3500, 128)])),
        B("qwen3-17b-s2048-b4-bf16", T(*Q3_17B, b=4, seq=2048, family="qwen3"), mem=75),
        B("qwen3-06b-s1024-b8-fp16", T(*Q3_06, b=8, seq=1024, prec="fp16", family="qwen3"), mem=40),
        B("olmo2-1b-s1024-b4-fp16", T(*OL1B, b=4, seq=1024, prec="fp16", family="olmo2"), mem=40),
        B("phi3-mini-s1024-b2-bf16w", T(*P3M, b=2, seq=1024, family="phi3", **W), mem=60),
        B("convnext-small-b64-fp32", tv("convnext_small", 64, prec="fp32"), mem=30),
        B("gpt2-large-s1024-b4-bf16-adafactor", T(*GL, b=4, seq=1024, opt="adafactor"), mem=40),
        B("t5-base-s512-b16-fp32-adafactor", T(*T5S, io="s2s", b=16, seq=512, prec="fp32", opt="adafactor"),
          mem=30),
        B("resnet152-b128-bf16-sgd", tv("resnet152", 128, opt="sgd"), mem=30),
        B("vitl16-b32-fp32-sgd", tv("vit_l_16", 32, prec="fp32", opt="sgd"), mem=30),
        B("llama32-1b-s2048-b4-bf16-sel", T(*LL1B, b=4, seq=2048, ckpt="selective", family="llama"), mem=50),
        B("dit-l-2-b64-bf16-sel", df("dit-l-2", 64, ckpt="selective", family="dit"), mem=40),
        B("gemma3-1b-s2048-b4-bf16w-lora16-ckpt", T(*GE3_1B, b=4, seq=2048, lora=16, ckpt="block",
                                                    family="gemma3", **W), mem=30),
        SH("ws1-fsdp2-tinyllama-s1024-b4-ckpt", "fsdp2", TL, b=4, seq=1024, ckpt="block"),
        SH("ws1-zero1-qwen25-05b-s1024-b8", "zero1", QW05, b=8, seq=1024),
        SH("ws1-tp-llama32-1b-s1024-b4", "tp", LL1B, b=4, seq=1024),
        SH("ws1-ddp-qwen3-06b-s1024-b8", "ddp", Q3_06, b=8, seq=1024),
        C("gemma3-1b-s1024-b4-bf16-compile", T(*GE3_1B, b=4, seq=1024, compile=True, iters=4, family="gemma3"),
          mem=50),
    ]


def call60():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()
