"""Session 20, call 76. late33 (blind) put two GPU-bound fp16 channels-last steps 22% off in opposite directions
(ResNet-34 b256 over, EfficientNet-B1 b128 under, with 28.6 of its 73.7 ms priced as GPU work), and ran ResNet-152
b64 channels-last slower than NCHW (host-bound); dev35 timed no GPU-bound fp16 channels-last step.

dev36 (development data, NOT blind): op-level profiles (gt_work profile="ops"), each alone on the GPU, 4 timed steps
then 2 profiled: EfficientNet-B1 b128 fp16 and bf16 channels-last, ResNet-34 b256 fp16 channels-last, EfficientNet-B0
b128 fp16 channels-last, ResNet-152 b64 bf16 channels-last and NCHW.

late34 (blind; kept outside the repository until evaluated once with the binaries of the commit that ends the
session's channels-last changes, none of which may look at it): NCHW/channels-last twins and channels-last steps on
shapes no earlier set timed, one process per group alone on the GPU, 7 steps, median of 3..7, and channels-last
memory rows each in its own process."""
from gt_jobs import J, maker, timer, timing_jobs
from gt_jobs9 import cl, tv



def profiles():
    def P(name, spec):
        return J("dev36-prof-" + name, "dev36-profile", 40, exclusive=True, timeout=220, heldout=False,
                 spec=dict(spec, iters=4, profile="ops"))
    return [
        P("efficientnet-b1-b128-fp16-cl", cl("efficientnet_b1", 128, prec="fp16")),
        P("efficientnet-b1-b128-bf16-cl", cl("efficientnet_b1", 128)),
        P("resnet34-b256-fp16-cl", cl("resnet34", 256, prec="fp16")),
        P("efficientnet-b0-b128-fp16-cl", cl("efficientnet_b0", 128, prec="fp16")),
        P("resnet152-b64-bf16-cl", cl("resnet152", 64)),
        P("resnet152-b64-bf16", tv("resnet152", 64)),
    ]


t = timer("late34-", "late34-timing")


def blind():
    B = maker("late34-", "late34", heldout=True)
    mem = [
        B("resnet101-b128-fp16-cl", cl("resnet101", 128, prec="fp16"), 40),
        B("efficientnet-b3-b64-bf16-cl", cl("efficientnet_b3", 64), 40),
        B("convnext-tiny-b128-fp16-cl", cl("convnext_tiny", 128, prec="fp16"), 40),
        B("resnet18-b512-bf16-cl-ckpt", cl("resnet18", 512, ckpt="block"), 40),
        B("efficientnet-b0-b192-fp32-cl", cl("efficientnet_b0", 192, prec="fp32"), 50),
    ]
    timing = timing_jobs("late34-", "late34-timing", (
        ("rn", [t("t-resnet101-b128-fp16", tv("resnet101", 128, prec="fp16")),
                t("t-resnet101-b128-fp16-cl", cl("resnet101", 128, prec="fp16")),
                t("t-resnet18-b512-bf16-cl", cl("resnet18", 512)),
                t("t-resnet50-b192-fp16-cl", cl("resnet50", 192, prec="fp16"))]),
        ("eff", [t("t-efficientnet-b3-b64-bf16", tv("efficientnet_b3", 64)),
                 t("t-efficientnet-b3-b64-bf16-cl", cl("efficientnet_b3", 64)),
                 t("t-efficientnet-b0-b192-fp16-cl", cl("efficientnet_b0", 192, prec="fp16")),
                 t("t-efficientnet-b0-b192-fp32-cl", cl("efficientnet_b0", 192, prec="fp32"))]),
        ("cnx", [t("t-convnext-tiny-b128-fp16", tv("convnext_tiny", 128, prec="fp16")),
                 t("t-convnext-tiny-b128-fp16-cl", cl("convnext_tiny", 128, prec="fp16")),
                 t("t-convnext-large-b32-bf16-cl", cl("convnext_large", 32))]),
    ))
    return timing + mem


def call76():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + profiles() + blind()
