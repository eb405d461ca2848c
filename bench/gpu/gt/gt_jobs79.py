"""Session 25, call 102. dev53 (development data, NOT blind): gt_calib.py --gemm-kernels-wide alone on the GPU: a
Linear's three GEMMs (forward, data and weight gradients) timed warm by their kernels at 8,192 tokens over the
catalog's Linear widths (hidden 768-4096 with their FFN and grouped-query k/v widths; 42 shapes, 126 rows), for the
next session's by-role GEMM pricing (dev52: the interpolated table runs 13-51% short at widths it did not time)."""
from gt_jobs import J


def call102():
    return [J("dev53-calibration-gemm-kernels-wide", "dev53", 30, exclusive=True, timeout=240, heldout=False,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev53-calibration-gemm-kernels-wide.json", "--budget",
                   "200", "--gemm-kernels-wide"])]
