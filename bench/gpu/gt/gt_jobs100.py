"""Session 35, calls 129 and 130: late63 (BLIND; kept outside the repository until evaluated once): does a compiled
CNN step that the plan finds less than 15% faster than eager run slower than eager, as 10 of 16 timed pairs did?

Session 35's plan prints, for such steps, that 10 of 16 timed convolutional pairs ran slower compiled
(compile_gain.go). Eight new pairs, one process each (the eager step, then the same model under torch.compile: one
compiled model per process), bf16 AMP, AdamW, 20 steps (the median of steps 3..20: dev65 showed compiled steps that
change speed after the seventh), on shapes no timing used: seven the plan puts under the 15% line (ResNet-152 b16,
ResNet-101 b16, EfficientNet-B1 b16, EfficientNet-B2 b8, EfficientNet-B4 b8, ResNet-34 b16, EfficientNet-B0 b16) and
one it puts at 28% faster (ConvNeXt-S b8, no note). call129 runs the first four, call130 the rest. Predictions at the
commit that added this file: the session's notes (late63_predictions.md)."""
from gt_jobs import J, timer, timing_jobs
from gt_jobs9 import tv

WORKLOADS = (
    ("resnet152-b16", "resnet152", 16), ("resnet101-b16", "resnet101", 16),
    ("efficientnet-b1-b16", "efficientnet_b1", 16), ("efficientnet-b2-b8", "efficientnet_b2", 8),
    ("efficientnet-b4-b8", "efficientnet_b4", 8), ("resnet34-b16", "resnet34", 16),
    ("efficientnet-b0-b16", "efficientnet_b0", 16), ("convnext-small-b8", "convnext_small", 8),
)


_t = timer("late63-", "late63-timing", iters=20)


def _jobs(workloads):
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late63-", "late63-timing", [
        (key, [_t("t-%s-bf16" % key, tv(model, b)), _t("t-%s-bf16-compile" % key, tv(model, b, compile=True))])
        for key, model, b in workloads])


def call129():
    return _jobs(WORKLOADS[:4])


def call130():
    return _jobs(WORKLOADS[4:])


def call131():
    """EfficientNet-B2 b8 alone: call129's budget skipped it (session 37)."""
    return _jobs(WORKLOADS[3:4])
