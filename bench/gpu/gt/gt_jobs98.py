"""Session 34, call 124: late62 (BLIND; kept outside the repository until evaluated once): compiled CNN steps around
compiledRealBatch, the 8 samples from which session 34's walk scales Inductor's per-op host cost by 1.3.

One process per workload (the eager step, then the same model under torch.compile), alone on the GPU, bf16 AMP, 7
steps, the median of steps 3..7. One compiled model per process: call119's processes compiled two torchvision ResNets
one after the other (ResNet-50 b32, then ResNet-34 b64), and a second frame of the same forward with other shapes makes
Dynamo recompile with the changed dimensions dynamic, which no plan models. Shapes no compiled timing used: ResNet-50
at 4 samples (below the threshold) and 16, ResNet-101 b32, ResNet-34 b32, EfficientNet-B0 at 8 and 32, ConvNeXt-T
b16, EfficientNet-B3 b16. Predictions for the H200 and the H100 are in the session's notes (late62_predictions.md)."""
from gt_jobs import compiled_pair, timer, timing_jobs, J
from gt_jobs9 import tv

t = timer("late62-", "late62-timing")

WORKLOADS = (
    ("resnet50-b4", "resnet50", 4), ("resnet50-b16", "resnet50", 16), ("resnet101-b32", "resnet101", 32),
    ("resnet34-b32", "resnet34", 32), ("efficientnet-b0-b8", "efficientnet_b0", 8),
    ("efficientnet-b0-b32", "efficientnet_b0", 32), ("convnext-tiny-b16", "convnext_tiny", 16),
    ("efficientnet-b3-b16", "efficientnet_b3", 16),
)


def call124():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late62-", "late62-timing", [
        (key, compiled_pair(t, "%s-bf16" % key, tv(model, b))) for key, model, b in WORKLOADS])
