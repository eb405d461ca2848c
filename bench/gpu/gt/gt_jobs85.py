"""Session 27, call 108, on one H200.

dev57 (development data, NOT blind): op-level profiles (gt_work profile="ops": 4 timed steps, then 2 under
torch.profiler with shapes) of the steps late53 found over after the bias-gradient and GELU repricing (63a8a65):
ConvNeXt-B b96 fp16 (+7.7%, GPU-bound), ConvNeXt-T b80 bf16 (+11.1%, near host-bound), ConvNeXt-L b64 bf16 (+7.3%
in late16), ViT-L/16 b40 bf16 (+7.6%): which kernel classes the walk prices over their kernels (dev15's ConvNeXt-T
b128 put the depthwise convolutions 1.2 ms over), and how the host and GPU overlap at mid batches.

late54 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers it,
made after this job list): step times of ConvNeXt, ViT and two controls at shapes no set ran (repeats.py: none):
ConvNeXt-T b112 bf16, ConvNeXt-S b112 fp16, ConvNeXt-B b48 bf16, ConvNeXt-L b48 fp16, ViT-L/16 b64 fp16, ViT-B/16
b160 bf16, ResNet-50 b96 bf16, EfficientNet-B0 b224 bf16. One process per group alone on the GPU, 7 steps, the
median of steps 3..7."""
from gt_jobs import J, profiler, timer, timing_jobs
from gt_jobs9 import tv


P = profiler("dev57-prof-", "dev57-profile")


t = timer("late54-", "late54-timing")


def timing_groups():
    cnx = [t("t-convnext-tiny-b112-bf16", tv("convnext_tiny", 112)),
           t("t-convnext-small-b112-fp16", tv("convnext_small", 112, prec="fp16")),
           t("t-convnext-base-b48-bf16", tv("convnext_base", 48)),
           t("t-convnext-large-b48-fp16", tv("convnext_large", 48, prec="fp16"))]
    other = [t("t-vitl16-b64-fp16", tv("vit_l_16", 64, prec="fp16")),
             t("t-vitb16-b160-bf16", tv("vit_b_16", 160)),
             t("t-resnet50-b96-bf16", tv("resnet50", 96)),
             t("t-efficientnet-b0-b224-bf16", tv("efficientnet_b0", 224))]
    return timing_jobs("late54-", "late54-timing", (("cnx", cnx), ("other", other)))


def call108():
    return [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe")),
            P("convnext-base-b96-fp16", tv("convnext_base", 96, prec="fp16")),
            P("convnext-tiny-b80-bf16", tv("convnext_tiny", 80)),
            P("convnext-large-b64-bf16", tv("convnext_large", 64)),
            P("vitl16-b40-bf16", tv("vit_l_16", 40))] + timing_groups()
