"""Session 62, call 225: late109 (BLIND), late108's six configurations on an H100 host, the first test of the
checkpoint prices late107 adopted (the lent H100 hosts' region 0.7 ms, a torchvision block's priced off the
calibration machine's) on models it was not timed on. late108 itself (call221) needs an H200; when the machine that
starts is an H100, this runs instead, under a name of its own. fp32, bf16 autocast and bf16 autocast with block
checkpointing, alternated step by step (gt_alternate.py, 12 rounds after 2 warm-up steps): RoBERTa-base s256 b4,
Pythia-160m s512 b1, Qwen2.5-0.5B s512 b1, ViT-B/16 b16, BART-base s256 b2, EfficientNet-B1 b16.
late109_predictions.md holds the plan's ratios, written before capture."""
from gt_jobs import J, T, timer, timing_jobs, GEN_MODELS
from gt_jobs9 import tv
from gt_jobs106 import ROB
from gt_jobs117 import PY_160M
from gt_jobs122 import BART_B
from gt_jobs144 import FP32, BF16, CKPT, alt


def call225():
    t = timer("late109-", "late109-timing")
    Q = GEN_MODELS["qwen25-05b"]
    v = [FP32, BF16, CKPT]
    groups = (
        ("roberta", [alt(t, "t-roberta-base-s256-b4", T(*ROB, io="cls", b=4, seq=256), v)]),
        ("pythia", [alt(t, "t-pythia-160m-s512-b1", T(*PY_160M, b=1, seq=512), v)]),
        ("qwen", [alt(t, "t-qwen25-05b-s512-b1", T(*Q, b=1, seq=512), v)]),
        ("vit", [alt(t, "t-vitb16-b16", tv("vit_b_16", 16), v)]),
        ("bart", [alt(t, "t-bart-base-s256-b2", T(*BART_B, io="s2s", b=2, seq=256), v)]),
        ("effb1", [alt(t, "t-efficientnet-b1-b16", tv("efficientnet_b1", 16), v)]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late109-", "late109-timing", groups)
