"""Session 17. Call 64: a twenty-eighth blind set (late28), kept outside the repository until evaluated once with
the models of the commit below this job list's: the first held-out test of compiled CNN pricing (503c138:
channels-last convolutions from dev28's calibration, batch norm fused as Inductor runs it) and of its band
(0.95-1.90x for convolution-dominated compiled steps). ResNet-34 b256 and ResNet-18 b256 (BasicBlocks, which
no compiled step timed), bf16 AMP, each compiled after its eager twin in one process alone on the GPU, 7 steps,
the median of steps 3..7."""
from gt_jobs import J, compiled_pair, timer, timing_jobs
from gt_jobs9 import tv

t = timer("late28-", "late28-timing")


def pair(name, spec):
    return compiled_pair(t, name, spec)


def call64():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late28-", "late28-timing", (
        ("resnet34", pair("resnet34-b256-bf16", tv("resnet34", 256))),
        ("resnet18", pair("resnet18-b256-bf16", tv("resnet18", 256))),
    ))
