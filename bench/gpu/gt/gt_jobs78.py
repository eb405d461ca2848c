"""Session 25, call 101. dev52 (development data, NOT blind): gt_calib.py --gemm-kernels alone on the GPU: a Linear's
three GEMMs at the shapes of Qwen2.5-0.5B, BERT-base and the small Llama, bf16, timed by their kernels warm (back to
back, as the calibration) and cold (after a 256 MB write that evicts the L2). The Qwen2.5-0.5B profile (dev50) ran
its GEMMs 9% to 2x longer than the calibration prices them; the GEMM class is under in 10 of 15 bf16 profiles."""
from gt_jobs import J


def call101():
    return [J("dev52-calibration-gemm-kernels", "dev52", 30, exclusive=True, timeout=200, heldout=False,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev52-calibration-gemm-kernels.json", "--budget", "150",
                   "--gemm-kernels"])]
