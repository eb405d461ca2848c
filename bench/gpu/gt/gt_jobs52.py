"""Session 20. plan prices torchvision's NCHW layout only, but eager channels-last (model and input
.to(memory_format=torch.channels_last)) runs AMP CNNs up to twice as fast (dev33: ResNet-50 b128 bf16 30.2 ms
against ~56 NCHW), so --fit can neither plan nor choose it. plan --channels-last is built on this call's data.

Call 75, dev35 (development data, NOT blind):
- gt_calib.py --conv-cl: every ResNet-50 and EfficientNet-B0 convolution shape channels-last at batch 128 in fp16
  and bf16 (fp32 for the dense ones), timed by its kernels, and training batch norm channels-last (the kernels
  differ from NCHW's: ATen's channels-last ones in every dtype);
- memory with snapshots, each in its own process: ResNet-50 b64 bf16 and fp32, EfficientNet-B0 b64 bf16,
  ConvNeXt-T b32 bf16, ResNet-18 b128 fp16, all channels-last;
- step times (one process per group, alone on the GPU, 7 steps, median of 3..7): NCHW and channels-last twins of
  ResNet-50 b128 bf16, EfficientNet-B0 b128 bf16, ConvNeXt-T b64 bf16, and channels-last ResNet-50 b64 fp16 and
  fp32, ResNet-18 b256 bf16, ResNet-101 b64 bf16 with and without checkpointing, ConvNeXt-T b64 fp32.

late33 (blind; kept outside the repository until evaluated once with the binaries of the commit that ends the
channels-last work, none of which may look at it): NCHW/channels-last twins on models and shapes the dev data do
not use, timed as above, and channels-last memory rows, each in its own process: ResNet-152 b64 bf16, ResNet-34
b256 fp16, EfficientNet-B2 b64 bf16, ConvNeXt-S b64 bf16, EfficientNet-B1 b128 fp16, ConvNeXt-B b32 bf16
checkpointed, ResNet-50 b96 fp32."""
from gt_jobs import J, dev_timing_jobs, maker, timer, timing_jobs
from gt_jobs9 import cl, tv



def dev_mem():
    M = maker("dev35-", "dev35", heldout=False)
    return [
        M("resnet50-b64-bf16-cl", dict(cl("resnet50", 64), snap=True), 30),
        M("resnet50-b64-fp32-cl", dict(cl("resnet50", 64, prec="fp32"), snap=True), 40),
        M("efficientnet-b0-b64-bf16-cl", dict(cl("efficientnet_b0", 64), snap=True), 30),
        M("convnext-tiny-b32-bf16-cl", dict(cl("convnext_tiny", 32), snap=True), 30),
        M("resnet18-b128-fp16-cl", dict(cl("resnet18", 128, prec="fp16"), snap=True), 30),
    ]


d = timer("dev35-", "dev35-timing")


def dev_timing():
    return dev_timing_jobs("dev35-", "dev35-timing", (
        ("rn50", [d("t-resnet50-b128-bf16", tv("resnet50", 128)), d("t-resnet50-b128-bf16-cl", cl("resnet50", 128)),
                  d("t-resnet50-b64-fp16-cl", cl("resnet50", 64, prec="fp16")),
                  d("t-resnet50-b64-fp32-cl", cl("resnet50", 64, prec="fp32")),
                  d("t-resnet18-b256-bf16-cl", cl("resnet18", 256))]),
        ("rn101", [d("t-resnet101-b64-bf16-cl", cl("resnet101", 64)),
                   d("t-resnet101-b64-bf16-cl-ckpt", cl("resnet101", 64, ckpt="block"))]),
        ("cnn", [d("t-efficientnet-b0-b128-bf16", tv("efficientnet_b0", 128)),
                 d("t-efficientnet-b0-b128-bf16-cl", cl("efficientnet_b0", 128)),
                 d("t-convnext-tiny-b64-bf16", tv("convnext_tiny", 64)),
                 d("t-convnext-tiny-b64-bf16-cl", cl("convnext_tiny", 64)),
                 d("t-convnext-tiny-b64-fp32-cl", cl("convnext_tiny", 64, prec="fp32"))]),
    ))


t = timer("late33-", "late33-timing")


def twin(name, m, b, **kw):
    return [t("t-" + name, tv(m, b, **kw)), t("t-" + name + "-cl", cl(m, b, **kw))]


def blind():
    B = maker("late33-", "late33", heldout=True)
    mem = [
        B("resnet152-b64-bf16-cl", cl("resnet152", 64), 40),
        B("resnet34-b256-fp16-cl", cl("resnet34", 256, prec="fp16"), 30),
        B("efficientnet-b2-b64-bf16-cl", cl("efficientnet_b2", 64), 40),
        B("convnext-small-b64-bf16-cl", cl("convnext_small", 64), 40),
        B("efficientnet-b1-b128-fp16-cl", cl("efficientnet_b1", 128, prec="fp16"), 40),
        B("convnext-base-b32-bf16-cl-ckpt", cl("convnext_base", 32, ckpt="block"), 30),
        B("resnet50-b96-fp32-cl", cl("resnet50", 96, prec="fp32"), 40),
    ]
    timing = timing_jobs("late33-", "late33-timing", (
        ("rn", twin("resnet152-b64-bf16", "resnet152", 64) + twin("resnet34-b256-fp16", "resnet34", 256, prec="fp16")
         + [t("t-resnet50-b256-bf16-cl", cl("resnet50", 256))]),
        ("eff", twin("efficientnet-b2-b64-bf16", "efficientnet_b2", 64)
         + [t("t-efficientnet-b1-b128-fp16-cl", cl("efficientnet_b1", 128, prec="fp16"))]),
        ("cnx", twin("convnext-small-b64-bf16", "convnext_small", 64)
         + [t("t-convnext-base-b32-bf16-cl-ckpt", cl("convnext_base", 32, ckpt="block")),
            t("t-convnext-base-b32-bf16-cl", cl("convnext_base", 32))]),
    ))
    return timing + mem


def call75():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    calib = J("dev35-calibration-conv-cl", "dev35", 30, exclusive=True, timeout=200,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev35-calibration-conv-cl.json", "--budget", "150",
                   "--conv-cl"])
    return [probe, calib] + dev_timing() + blind() + dev_mem()
