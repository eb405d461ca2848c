"""Session 60, call 221: late108 (BLIND), the H200 hosts' technique pairs alternated step by step in one process,
the test of one set of lent-host prices for every GPU (late108_predictions.md holds the patch).

dev116 (call 211, this session, development) timed the H200 hosts' first alternated technique pairs: with the
plan's H200 host prices (autocast cast 23 us, checkpoint region 1.2 ms on the calibration machine's scale) they run
about 13% over (autocast +12.7%, checkpointing +13.7%), as the H100 hosts' did before session 57 gave those cheaper
prices. The candidate gives every GPU's plan the lent H100 hosts' cast (17 us) and late107's checkpoint region
(0.7 ms, a torchvision CNN block's region priced off the calibration machine's): on the seen sets the alternated
pairs go 93 -> 107 of 121 within 10%, the technique ratios 478 -> 496 of 702, the H200 checkpoint pairs timed in
blocks +0.3% -> -3.6% signed, the same-model order 1119 -> 1115 of 1174. late108 times six configurations no H200
host has timed alternated, fp32, bf16 autocast and bf16 autocast with block checkpointing each, 12 rounds after 2
warm-up steps (gt_alternate.py), on an H200: RoBERTa-base s256 b4, Pythia-160m s512 b1, Qwen2.5-0.5B s512 b1,
ViT-B/16 b16, BART-base s256 b2 and EfficientNet-B1 b16 (a CNN, whose region the candidate leaves where it is on
an H200: the control). Kept outside the repository until evaluated once."""
from gt_jobs import J, T, timer, timing_jobs, GEN_MODELS
from gt_jobs9 import tv
from gt_jobs106 import ROB
from gt_jobs117 import PY_160M
from gt_jobs122 import BART_B
from gt_jobs144 import FP32, BF16, CKPT, alt


def call221():
    t = timer("late108-", "late108-timing")
    Q = GEN_MODELS["qwen25-05b"]
    groups = (
        ("roberta", [alt(t, "t-roberta-base-s256-b4", T(*ROB, io="cls", b=4, seq=256), [FP32, BF16, CKPT])]),
        ("pythia", [alt(t, "t-pythia-160m-s512-b1", T(*PY_160M, b=1, seq=512), [FP32, BF16, CKPT])]),
        ("qwen", [alt(t, "t-qwen25-05b-s512-b1", T(*Q, b=1, seq=512), [FP32, BF16, CKPT])]),
        ("vit", [alt(t, "t-vitb16-b16", tv("vit_b_16", 16), [FP32, BF16, CKPT])]),
        ("bart", [alt(t, "t-bart-base-s256-b2", T(*BART_B, io="s2s", b=2, seq=256), [FP32, BF16, CKPT])]),
        ("effb1", [alt(t, "t-efficientnet-b1-b16", tv("efficientnet_b1", 16), [FP32, BF16, CKPT])]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late108-", "late108-timing", groups)
