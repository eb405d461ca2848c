"""Session 27, call 114. dev61 (development data, NOT blind): gt_calib.py --gap alone on the GPU: the same elementwise
calls (add, mul_, clone; bf16 and fp32, 16K-64M elements) and bf16 GEMMs (1024-8192 square) timed by CUDA events
around back-to-back calls and by their kernels' summed durations, the difference per kernel being the GPU time
between dependent kernels (dev60: steps run 2-4% longer than their kernels; the event-timed calibration rows hold
that gap, the kernel-timed ones do not)."""
from gt_jobs import J


def call114():
    return [J("dev61-calibration-gap", "dev61", 30, exclusive=True, timeout=200, heldout=False,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev61-calibration-gap.json", "--budget", "120", "--gap"])]
