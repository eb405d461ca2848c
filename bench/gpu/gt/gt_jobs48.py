"""Session 18. Call 65:
- dev29 (development data, NOT blind): gt_calib.py --conv-graph, every calibrated convolution shape timed again
  as CUDA-graph replays beside its eager timing on the same host, to price convolution backward from the kernels
  alone (testdata/dev27: EfficientNet's batch-64 1x1 backward timed Python's backward() and cuDNN's per-call
  setup, 0.13-0.23 ms for 0.02-0.03 ms forward);
- late29 (blind, kept outside the repository until evaluated once with the models of the commit that uses dev29):
  CNN step times at sizes no set timed, most of them small batches where that backward matters (EfficientNet-B0
  b32, B2 b64, B3 b48; ResNet-50 b32, ResNet-152 b32, ResNet-34 b128 fp16, ResNet-18 b64; ConvNeXt-T b96,
  ConvNeXt-S b32 fp16), three with their checkpointed twins. Alone on the GPU, one process per group, 7 steps, the
  median of steps 3..7."""
from gt_jobs import J, timer, timing_jobs
from gt_jobs9 import tv

t = timer("late29-", "late29-timing")


def ckpt(name, spec):
    return [t("t-" + name, spec), t("t-" + name + "-ckpt", dict(spec, ckpt="block"))]


def call65():
    # as run in call 65; gt_calib.py's --conv-graph mode (CUDA-graph replays) was removed after it failed
    # (call66's docstring), so this job list no longer reproduces that calibration
    calib = J("dev29-calibration-conv-graph", "dev29", 40, exclusive=True, timeout=300,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev29-calibration-conv-graph.json", "--budget", "240",
                   "--conv-graph"])
    return [calib] + timing_jobs("late29-", "late29-timing", (
        ("effnet", ckpt("efficientnet-b0-b32-bf16", tv("efficientnet_b0", 32))
         + ckpt("efficientnet-b2-b64-bf16", tv("efficientnet_b2", 64))
         + [t("t-efficientnet-b3-b48-bf16", tv("efficientnet_b3", 48))]),
        ("resnet", ckpt("resnet50-b32-bf16", tv("resnet50", 32))
         + [t("t-resnet152-b32-bf16", tv("resnet152", 32)),
            t("t-resnet34-b128-fp16", tv("resnet34", 128, prec="fp16")),
            t("t-resnet18-b64-bf16", tv("resnet18", 64))]),
        ("convnext", [t("t-convnext-tiny-b96-bf16", tv("convnext_tiny", 96)),
                      t("t-convnext-small-b32-fp16", tv("convnext_small", 32, prec="fp16"))]),
    ))


def call66():
    """Call 65's calibration failed: capturing cuDNN's convolution backward in a CUDA graph invalidated the
    capture on the first shape, and every later shape failed with it (kept in testdata/dev29). --conv-kernels times
    the same shapes by their kernels' summed durations under torch.profiler instead."""
    return [J("dev29-calibration-conv-kernels", "dev29", 40, exclusive=True, timeout=320,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev29-calibration-conv-kernels.json", "--budget", "270",
                   "--conv-kernels"])]
