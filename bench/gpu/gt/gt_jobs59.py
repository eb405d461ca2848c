"""Session 21, call 82, dev40 (development data, NOT blind): late37's one miss, EfficientNet-B3 b48 bf16
channels-last checkpointed (-5.7% allocated, -10.4% reserved at first sight), with snapshots, and its NCHW
checkpointed and channels-last plain twins, each in its own process."""
from gt_jobs import J, maker
from gt_jobs9 import cl, tv


def call82():
    M = maker("dev40-", "dev40", heldout=False)
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            M("efficientnet-b3-b48-bf16-cl-ckpt", dict(cl("efficientnet_b3", 48, ckpt="block"), snap=True), 30),
            M("efficientnet-b3-b48-bf16-ckpt", dict(tv("efficientnet_b3", 48, ckpt="block"), snap=True), 30),
            M("efficientnet-b3-b48-bf16-cl", dict(cl("efficientnet_b3", 48), snap=True), 30)]
