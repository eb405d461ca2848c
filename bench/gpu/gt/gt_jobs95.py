"""Session 32, calls 118 and 119 (written while no device was lent; run in a later session).

call118, dev63 (development data, NOT blind): host-side profiles (gt_work profile="host": per event name the CPU time
per step, cudaLaunchKernel included, and the kernel table; 4 timed steps, then 2 profiled) of compiled ResNet-18 and
ResNet-50, bf16 AMP, each alone on the GPU: ResNet-18 at 2, 32 and 128 samples, ResNet-50 at 32 and 128. Compiled
ResNet-18 took 15.7 ms a step at b128 and at b256 (late59, late28), twice the walk's host time, while ResNet-50 b2
took 17.2 (dev34) and ResNet-152 b64 the walk's 53 ms; compiledSplitLaunches (session 32) explains a third of the
real-batch shortfall. Where the rest of the host time goes (Dynamo guards, AOTAutograd's runtime wrapper, the
wrapper's allocations, the launches) and how it grows with the batch is what these show. Then dev62's compiled
ViT-B/16 b128 op profile (compiled ViTs are over-priced +13..+18%), if the budget allows.

call119, late60 (BLIND; kept outside the repository until evaluated once with the binaries of the commit that
session's compiled-step changes end on): compiled CNN steps after their eager twins in one process, alone on the
GPU, 7 steps, the median of steps 3..7, bf16 AMP, on shapes no compiled timing used: ResNet-50 b32, ResNet-34 b64;
EfficientNet-B0 b64, ResNet-152 b32; EfficientNet-B2 b64 (260 px), ConvNeXt-S b32. Tests session 32's split
launches and the convolutional compiled band (0.85-1.95x)."""
from gt_jobs import compiled_pair, profiler, timer, timing_jobs, J
from gt_jobs9 import tv


def call118():
    host = profiler("dev63-prof-", "dev63-profile", kind="host")
    ops = profiler("dev62-prof-", "dev62-profile")
    jobs = [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))]
    for b in (2, 32, 128):
        jobs.append(host("resnet18-b%d-bf16-compile" % b, tv("resnet18", b, compile=True), timeout=180))
    for b in (32, 128):
        jobs.append(host("resnet50-b%d-bf16-compile" % b, tv("resnet50", b, compile=True), timeout=200))
    return jobs + [ops("vitb16-b128-bf16-compile", tv("vit_b_16", 128, compile=True), timeout=200)]


t = timer("late60-", "late60-timing")


def pair(name, spec):
    return compiled_pair(t, name, spec)


def call119():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late60-", "late60-timing", (
        ("resnet", pair("resnet50-b32-bf16", tv("resnet50", 32)) + pair("resnet34-b64-bf16", tv("resnet34", 64))),
        ("mixed", pair("efficientnet-b0-b64-bf16", tv("efficientnet_b0", 64))
         + pair("resnet152-b32-bf16", tv("resnet152", 32))),
        ("cnn", pair("efficientnet-b2-b64-bf16", tv("efficientnet_b2", 64, res=260))
         + pair("convnext-small-b32-bf16", tv("convnext_small", 32))),
    ))
