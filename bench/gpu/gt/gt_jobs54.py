"""Session 20, call 77. late34 (blind) put EfficientNet-B0 b192 fp32 channels-last at +54% reserved (ConvNeXt's float32
7x7 depthwise workspace rule, 8x the input, applied to 3x3 and 5x5) and +27% step time (float32 channels-last
depthwise convolutions priced from NCHW rows: none calibrated).

dev37 (development data, NOT blind):
- gt_calib.py --conv-cl-fp32: EfficientNet-B0's depthwise shapes at batch 128 and ConvNeXt-T's 7x7 at 64,
  channels-last float32, timed by their kernels;
- EfficientNet-B0 b64 and EfficientNet-B2 b32 fp32 channels-last with snapshots (the workspaces), each in its own
  process;
- an op-level profile of EfficientNet-B0 b128 fp32 channels-last (its convolutions and cuDNN's NHWC float32 batch
  norms by their kernels).

late35 (blind; kept outside the repository until evaluated once with the binaries of the commit that ends the fp32
channels-last changes, none of which may look at it): float32 and other channels-last steps no set timed, one process
per group alone on the GPU (7 steps, median of 3..7), and memory rows each in its own process."""
from gt_jobs import J, maker, timer, timing_jobs
from gt_jobs9 import cl, tv



def dev():
    M = maker("dev37-", "dev37", heldout=False)
    return [
        J("dev37-calibration-conv-cl-fp32", "dev37", 30, exclusive=True, timeout=150,
          cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev37-calibration-conv-cl-fp32.json", "--budget", "100",
               "--conv-cl-fp32"]),
        J("dev37-prof-efficientnet-b0-b128-fp32-cl", "dev37-profile", 50, exclusive=True, timeout=220, heldout=False,
          spec=dict(cl("efficientnet_b0", 128, prec="fp32"), iters=4, profile="ops")),
        M("efficientnet-b0-b64-fp32-cl", dict(cl("efficientnet_b0", 64, prec="fp32"), snap=True), 40),
        M("efficientnet-b2-b32-fp32-cl", dict(cl("efficientnet_b2", 32, prec="fp32"), snap=True), 40),
    ]


t = timer("late35-", "late35-timing")


def blind():
    B = maker("late35-", "late35", heldout=True)
    mem = [
        B("efficientnet-b1-b96-fp32-cl", cl("efficientnet_b1", 96, prec="fp32"), 50),
        B("efficientnet-b4-b32-bf16-cl", cl("efficientnet_b4", 32), 40),
        B("resnet34-b512-bf16-cl", cl("resnet34", 512), 40),
        B("convnext-small-b64-fp32-cl", cl("convnext_small", 64, prec="fp32"), 50),
    ]
    timing = timing_jobs("late35-", "late35-timing", (
        ("eff", [t("t-efficientnet-b1-b96-fp32-cl", cl("efficientnet_b1", 96, prec="fp32")),
                 t("t-efficientnet-b1-b96-fp32", tv("efficientnet_b1", 96, prec="fp32")),
                 t("t-efficientnet-b4-b32-bf16-cl", cl("efficientnet_b4", 32))]),
        ("rn", [t("t-resnet50-b128-fp32-cl", cl("resnet50", 128, prec="fp32")),
                t("t-resnet152-b128-fp16-cl", cl("resnet152", 128, prec="fp16")),
                t("t-resnet34-b512-bf16-cl", cl("resnet34", 512))]),
        ("cnx", [t("t-convnext-small-b64-fp32-cl", cl("convnext_small", 64, prec="fp32")),
                 t("t-convnext-base-b64-fp16-cl", cl("convnext_base", 64, prec="fp16"))]),
    ))
    return timing + mem


def call77():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev() + blind()
