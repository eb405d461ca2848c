"""Session 18. Call 67: a thirtieth blind set (late30), kept outside the repository until evaluated once with
the binaries of the commit below this job list's (the session's models: kernel-timed convolutions, 58c85e4;
compiled-backward phases in analyze, 8bf59c4). It aims at the band table's kinds with rows but no blind row
(world-size-1 DDP and FSDP2 on GPT-2, FSDP2 on Llama 3.2 1B without checkpointing, TP and DDP with
checkpointing on TinyLlama, OLMo 2 with Adafactor, Qwen3 with SGD) and at new sizes of known families (Gemma 3 4B
LoRA, Granite 3 2B checkpointed, SmolLM2 1.7B fp16 AMP, Mistral 7B pure-bf16 LoRA checkpointed, Whisper-small
bf16, ViT-B/16 b256 checkpointed, DiT-XL/2, T5-large fp32 Adafactor, EfficientNet-B4 fp16); four generate
points; step times of technique pairs on GPU-bound models never timed at these sizes (Qwen3-4B plain/LoRA/
checkpointed, Llama 3.2 3B b8 against b4x2, Gemma 2 2B bf16 against fp32, ViT-B/16 b128 checkpointed, DiT-L/2
bf16 against fp32, ResNet-101 b256 against b128x2), one process per group alone on the GPU, 7 steps, the median
of steps 3..7."""
from gt_jobs import J, sharded_maker, T, G, maker, timer, timing_jobs, S
from gt_jobs7 import LL1B
from gt_jobs9 import tv
from gt_jobs11 import df
from gt_jobs14 import GS
from gt_jobs26 import TL, Q3_17B, G2_2B, WHS, T5L
from gt_jobs29 import LL3B, Q3_4B, GE3_4B
from gt_jobs31 import SM17, GR2B, MI7B, OL1B

W = dict(prec="bf16w")
t = timer("late30-", "late30-timing")


def timing_groups():
    lm = [
        t("t-qwen3-4b-s1024-b4-bf16", T(*Q3_4B, b=4, seq=1024)),
        t("t-qwen3-4b-s1024-b4-bf16-lora16", T(*Q3_4B, b=4, seq=1024, lora=16)),
        t("t-qwen3-4b-s1024-b4-bf16-ckpt", T(*Q3_4B, b=4, seq=1024, ckpt="block")),
        t("t-llama32-3b-s1024-b8-bf16", T(*LL3B, b=8, seq=1024)),
        t("t-llama32-3b-s1024-b4x2-bf16", T(*LL3B, b=4, seq=1024, accum=2)),
        t("t-gemma2-2b-s1024-b4-bf16", T(*G2_2B, b=4, seq=1024)),
        t("t-gemma2-2b-s1024-b4-fp32", T(*G2_2B, b=4, seq=1024, prec="fp32")),
    ]
    vis = [
        t("t-vitb16-b128-bf16", tv("vit_b_16", 128)),
        t("t-vitb16-b128-bf16-ckpt", tv("vit_b_16", 128, ckpt="block")),
        t("t-dit-l-2-b64-bf16", df("dit-l-2", 64)),
        t("t-dit-l-2-b64-fp32", df("dit-l-2", 64, prec="fp32")),
        t("t-resnet101-b256-bf16", tv("resnet101", 256)),
        t("t-resnet101-b128x2-bf16", tv("resnet101", 128, accum=2)),
    ]
    return timing_jobs("late30-", "late30-timing", (("lm", lm), ("vision", vis)))


B = maker("late30-", "late30", heldout=True)


SH = sharded_maker("late30-", "late30-sharded")


def blind_jobs():
    return [
        J("late30-gen-qwen25-15b-fp16-dynamic-nograd", "late30-generate", 40, heldout=True, timeout=240,
          spec=G("qwen25-15b", "fp16", "dynamic", "no_grad", [(16, 1024, 256)])),
        J("late30-gen-tinyllama-bf16-static-nograd", "late30-generate", 40, heldout=True, timeout=240,
          spec=G("tinyllama", "bf16", "static", "no_grad", [(128, 256, 128)])),
        J("late30-gen-gpt2-medium-bf16-dynamic-nograd", "late30-generate", 30, heldout=True, timeout=240,
          spec=G("gpt2-medium", "bf16", "dynamic", "no_grad", [(48, 256, 512)])),
        J("late30-gen-mistral-7b-fp16-dynamic-inf", "late30-generate", 50, heldout=True, timeout=300,
          spec=G("mistral-7b", "fp16", "dynamic", "inference", [(4, 6000, 64)])),
        B("olmo2-1b-s1024-b8-bf16-adafactor", T(*OL1B, b=8, seq=1024, opt="adafactor", family="olmo2"), mem=50),
        B("qwen3-17b-s1024-b8-bf16-sgd", T(*Q3_17B, b=8, seq=1024, opt="sgd", family="qwen3"), mem=70),
        B("gemma3-4b-s1024-b2-bf16-lora16", T(*GE3_4B, b=2, seq=1024, lora=16, family="gemma3"), mem=50),
        B("granite-2b-s2048-b2-bf16-ckpt", T(*GR2B, b=2, seq=2048, ckpt="block", family="granite"), mem=50),
        B("smollm2-17b-s1024-b8-fp16", T(*SM17, b=8, seq=1024, prec="fp16", family="llama"), mem=60),
        B("mistral-7b-s1024-b2-bf16w-lora16-ckpt", T(*MI7B, b=2, seq=1024, lora=16, ckpt="block",
                                                     family="mistral", **W), mem=40),
        B("whisper-small-b32-bf16", T(*WHS, io="whisper", b=32, seq=64, family="whisper"), mem=30),
        B("vitb16-b256-bf16-ckpt", tv("vit_b_16", 256, ckpt="block"), mem=30),
        B("dit-xl-2-b32-bf16", df("dit-xl-2", 32, family="dit"), mem=40),
        B("t5-large-s512-b8-fp32-adafactor", T(*T5L, io="s2s", b=8, seq=512, prec="fp32", opt="adafactor"), mem=50),
        B("efficientnet-b4-b48-fp16", tv("efficientnet_b4", 48, prec="fp16"), mem=30),
        SH("ws1-ddp-gpt2-s1024-b8", "ddp", GS, b=8, seq=1024),
        SH("ws1-fsdp2-gpt2-s1024-b8", "fsdp2", GS, b=8, seq=1024),
        SH("ws1-fsdp2-llama32-1b-s1024-b4", "fsdp2", LL1B, b=4, seq=1024),
        SH("ws1-tp-tinyllama-s1024-b4-ckpt", "tp", TL, b=4, seq=1024, ckpt="block"),
        SH("ws1-ddp-tinyllama-s1024-b4-ckpt", "ddp", TL, b=4, seq=1024, ckpt="block"),
    ]


def call67():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()


def call68():
    """dev30 (development data, NOT blind): snapshots of the world-size-1 DDP runs with checkpointing whose peak
    reserved the model puts 10-16% high with allocated exact (late30's TinyLlama b4 s1024, heldout's Llama-small
    b8 s512), and late30's TinyLlama TP run (its optimizer step, one tensor at a time). late30b (blind, kept outside
    the repository until evaluated once with the models of this job list's commit): the two GPT-2 rows of late30
    that failed on gt_work's layer lookup, world-size-1 DDP and FSDP2."""
    from gt_jobs import LLAMA_SMALL
    L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)

    D = sharded_maker("dev30-", "dev30", heldout=False, snap=True)
    return [
        D("ws1-ddp-tinyllama-s1024-b4-ckpt", "ddp", TL, b=4, seq=1024, ckpt="block"),
        D("ws1-ddp-tinyllama-s1024-b4", "ddp", TL, b=4, seq=1024),
        D("ws1-ddp-llama-small-s512-b8-ckpt", "ddp", L, b=8, seq=512, ckpt="block"),
        D("ws1-tp-tinyllama-s1024-b4-ckpt", "tp", TL, b=4, seq=1024, ckpt="block"),
        SH("ws1-ddp-gpt2-s1024-b8", "ddp", GS, b=8, seq=1024),
        SH("ws1-fsdp2-gpt2-s1024-b8", "fsdp2", GS, b=8, seq=1024),
    ]
