"""Session 31, call 117.

late59 (BLIND; kept outside the repository until evaluated once with the binaries of the commit the session's
compiled-step changes end on, none of which may look at it): compiled CNN steps after their eager twins in one
process, alone on the GPU, 7 steps, the median of steps 3..7, on shapes no compiled timing used (bf16 AMP):
ResNet-101 b64, ResNet-18 b128, EfficientNet-B1 b96 (240 px), ConvNeXt-B b32, EfficientNet-B3 b48 (300 px),
ConvNeXt-T b64. Issue 14: compiled CNNs came out 15-25% under on late24-32; this set tests whatever the session
changes there, and gives the compile/eager ratio criterion new pairs.

dev62 (development data, NOT blind), last, if the budget allows: an op-level profile of late24's compiled ViT-B/16
b128 (compiled ViTs are over-priced +9..+13% and no compiled ViT was ever profiled)."""
from gt_jobs import compiled_pair, profiler, timer, timing_jobs, J
from gt_jobs9 import tv

t = timer("late59-", "late59-timing")


def pair(name, spec):
    return compiled_pair(t, name, spec)


def call117():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    prof = profiler("dev62-prof-", "dev62-profile")
    return [probe] + timing_jobs("late59-", "late59-timing", (
        ("resnet", pair("resnet101-b64-bf16", tv("resnet101", 64)) + pair("resnet18-b128-bf16", tv("resnet18", 128))),
        ("cnn", pair("efficientnet-b1-b96-bf16", tv("efficientnet_b1", 96, res=240))
         + pair("convnext-base-b32-bf16", tv("convnext_base", 32))),
        ("cnn2", pair("efficientnet-b3-b48-bf16", tv("efficientnet_b3", 48, res=300))
         + pair("convnext-tiny-b64-bf16", tv("convnext_tiny", 64))),
    )) + [prof("vitb16-b128-bf16-compile", tv("vit_b_16", 128, compile=True), timeout=200)]
