"""Session 64, call 226: late110 (BLIND), the default backend's fused attention at the batch x heads of large
micro-batches, past the widest shape the H200 calibration timed (gt_calib.py --sdpa-wide, kernel-summed, bf16).
late110_predictions.md holds the plan's forward and backward time of every call, written before capture, and how
the result is judged. Needs an H200 (the calibrated GPU); on an H100 the rows say nothing of the calibration."""
from gt_jobs import J


def call226():
    return [J("late110-calibration-sdpa-wide", "late110", 20, exclusive=True, timeout=300, heldout=False,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/late110-calibration-sdpa-wide.json", "--budget", "200",
                   "--sdpa-wide"])]
