"""Session 20, call 79, dev38 (development data, NOT blind): does an EfficientNet step's host time grow with its
batch? dev36's EfficientNet-B1 b128 channels-last steps ran 61-71 ms with 31-38 ms of GPU work where late34's B3 b64
(more layers) ran 44 ms, and pick9's EfficientNet-B2 b128 fp16 channels-last choice turned on the host. Op-level
profiles (gt_work profile="ops": the CPU and GPU time of each convolution, batch norm and linear call), each alone on
the GPU, of EfficientNet-B1 fp16 channels-last at batch 32, 64 and 128 and NCHW at 128, and a probe of the host."""
from gt_jobs import J
from gt_jobs9 import cl, tv


def call79():
    def P(name, spec):
        return J("dev38-prof-" + name, "dev38-profile", 40, exclusive=True, timeout=200, heldout=False,
                 spec=dict(spec, iters=6, profile="ops"))
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            P("efficientnet-b1-b32-fp16-cl", cl("efficientnet_b1", 32, prec="fp16")),
            P("efficientnet-b1-b64-fp16-cl", cl("efficientnet_b1", 64, prec="fp16")),
            P("efficientnet-b1-b128-fp16-cl", cl("efficientnet_b1", 128, prec="fp16")),
            P("efficientnet-b1-b128-fp16", tv("efficientnet_b1", 128, prec="fp16"))]
