"""Session 26, call 104, on one H200.

dev55 (development data, NOT blind): allocator snapshots of late50's two rows dev54's rules leave off (ResNet-50 b48
fp16, +6.39% over; ResNet-34 b384 bf16, -2.82% under) and of the batches between the traced 64 and 96 (ResNet-50 fp16
b80) and ResNet-34 bf16 b256 (late6/late14 +0.31%), each in its own process."""
from gt_jobs import maker
from gt_jobs9 import tv


def call104():
    D = maker("dev55-", "dev55", heldout=False)
    snap = dict(snap=True)
    return [
        D("resnet50-b48-fp16", dict(tv("resnet50", 48, prec="fp16"), **snap), 15),
        D("resnet50-b80-fp16", dict(tv("resnet50", 80, prec="fp16"), **snap), 20),
        D("resnet34-b384-bf16", dict(tv("resnet34", 384), **snap), 30),
        D("resnet34-b256-bf16", dict(tv("resnet34", 256), **snap), 25),
    ]
