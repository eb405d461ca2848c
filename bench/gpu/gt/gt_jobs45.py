"""Session 17. Call 62 (dev27, NOT blind): kernel profiles of late27's misses, each alone on the GPU (gt_work
profile=True, 4 timed steps, 2 profiled):
- EfficientNet-B1 b64 bf16 AMP (240 px): the walk's GPU time (64.5 ms) is above the whole measured step (57.7 ms),
  +34.5%; with its b192 twin, to see which kernel classes the walk overprices at the small batch only;
- ResNet-50 b64 bf16 AMP: +11.1%, near host-bound;
- ResNet-101 b128 bf16 AMP compiled: 0.56x its eager step, which the walk prices as no gain at all: which of the
  convolutions (layout: channels-last?), BatchNorm and pointwise kernels Inductor made cheaper."""
from gt_jobs import J
from gt_jobs9 import tv


def P(name, spec, timeout=150):
    s = dict(spec, iters=4, profile=True)
    return J("dev27-prof-" + name, "dev27-profile", 40, exclusive=True, timeout=timeout, heldout=False, spec=s)


def call62():
    return [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe")),
            P("efficientnet-b1-b64-bf16", tv("efficientnet_b1", 64, res=240)),
            P("efficientnet-b1-b192-bf16", tv("efficientnet_b1", 192, res=240)),
            P("resnet50-b64-bf16", tv("resnet50", 64)),
            P("resnet101-b128-bf16", tv("resnet101", 128)),
            P("resnet101-b128-bf16-compile", tv("resnet101", 128, compile=True), timeout=240)]
