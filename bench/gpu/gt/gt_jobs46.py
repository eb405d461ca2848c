"""Session 17. Call 63 (dev28, NOT blind): gt_calib.py --conv-extra alone on the GPU: EfficientNet-B0's stem and
1x1 convolutions at batch 256 (fp16, bf16), whose batch-64 backwards timed the host (testdata/dev27), and
ResNet-50's convolutions channels_last at batch 256 (bf16), as a compiled CNN runs them."""
from gt_jobs import J


def call63():
    return [J("dev28-calibration-conv-extra", "dev28", 40, exclusive=True, timeout=200,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev28-calibration-conv-extra.json", "--budget", "150",
                   "--conv-extra"])]
