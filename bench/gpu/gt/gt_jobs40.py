"""Session 16. Call 57: a twenty-fourth blind set (late24) of compiled step times, each against its eager step
in the same process, alone on the GPU (7 steps, the median of steps 3..7, after compilation in steps 1-2). The
step-time model's compiled path (Inductor's fused pointwise ops, no per-op host cost) was calibrated on one
GPT-2 pair (testdata/captures/compile, ratio +17%) and never tested on held-out steps; captured with the models
of the commit below this job list's and kept outside the repository until evaluated once with them.
Pairs: Qwen2.5-0.5B s1024 b8 and TinyLlama s1024 b4 (bf16 AMP), ViT-B/16 b128 and ResNet-50 b128 (bf16 AMP)."""
from gt_jobs import J, T, GEN_MODELS, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs26 import TL

QW05 = GEN_MODELS["qwen25-05b"]

t = timer("late24-", "late24-timing")


def timing_groups():
    qw = [
        t("t-qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024)),
        t("t-qwen25-05b-s1024-b8-bf16-compile", T(*QW05, b=8, seq=1024, compile=True)),
    ]
    tl = [
        t("t-tinyllama-s1024-b4-bf16", T(*TL, b=4, seq=1024)),
        t("t-tinyllama-s1024-b4-bf16-compile", T(*TL, b=4, seq=1024, compile=True)),
    ]
    vis = [
        t("t-vitb16-b128-bf16", tv("vit_b_16", 128)),
        t("t-vitb16-b128-bf16-compile", tv("vit_b_16", 128, compile=True)),
        t("t-resnet50-b128-bf16", tv("resnet50", 128)),
        t("t-resnet50-b128-bf16-compile", tv("resnet50", 128, compile=True)),
    ]
    return timing_jobs("late24-", "late24-timing", (("qwen", qw), ("tinyllama", tl), ("vision", vis)))


def call57():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups()
