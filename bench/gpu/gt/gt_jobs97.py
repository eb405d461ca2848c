"""Session 34, call 122: dev64 (development data, NOT blind): how a compiled CNN step's host time grows with the batch.

dev63's profiles (compiled ResNet-18 bf16 AMP on an H100) showed the step growing from 8.4 ms at 2 samples to 13.8 ms
at 32 and 13.9 at 128 while the GPU stayed mostly idle, and every host call slower at 32 than at 2 (the allocator's
empty_strided, the optimizer's step, the launches, Inductor's wrappers: ~1.4x each), not only the launches that a
real batch adds. Whether that is a step (one size at which everything slows) or a slope (host time growing with the
GPU's busy share) decides how the walk should price it. Each batch runs in its own process (a second batch size in one
process would make Dynamo recompile with dynamic shapes), the eager step first as the GPU-time reference, then the
compiled one: ResNet-18 at 2, 4, 8, 16, 32 and 64 samples, ResNet-50 at 8 and 32 (dev34 timed it at 2, late32 at 64,
late24 at 128)."""
from gt_jobs import compiled_pair, dev_timing_jobs, timer, J
from gt_jobs9 import tv

t = timer("dev64-", "dev64-timing")


def call122():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    groups = [("resnet18-b%d" % b, compiled_pair(t, "resnet18-b%d-bf16" % b, tv("resnet18", b)))
              for b in (2, 4, 8, 16, 32, 64)]
    groups += [("resnet50-b%d" % b, compiled_pair(t, "resnet50-b%d-bf16" % b, tv("resnet50", b))) for b in (8, 32)]
    return [probe] + dev_timing_jobs("dev64-", "dev64-timing", groups)


def call123():
    """late60's third process (EfficientNet-B2 260 px, ConvNeXt-S), which call119 on the H100 ran out of budget in
    after EfficientNet-B2's eager step: the same specs and names, one process, BLIND as call119."""
    from gt_jobs95 import call119
    jobs = call119()
    return [jobs[0], jobs[-1]]
