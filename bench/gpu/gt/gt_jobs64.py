"""Session 22, call 87, dev43 (development data, NOT blind): late40's reserved miss, ViT-B/16 b160 float32
checkpointed (-7.5% at first sight; +0.2% before the session's ViT replay), with a snapshot, in its own process."""
from gt_jobs import J, maker
from gt_jobs9 import tv


def call87():
    M = maker("dev43-", "dev43", heldout=False)
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe, M("vitb16-b160-fp32-ckpt", dict(tv("vit_b_16", 160, prec="fp32", ckpt="block"), snap=True), 30)]
