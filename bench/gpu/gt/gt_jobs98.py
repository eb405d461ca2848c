"""Session 34, call 124: late62 (BLIND; kept outside the repository until evaluated once): compiled CNN steps around
compiledRealBatch, the 8 samples from which session 34's walk scales Inductor's per-op host cost by 1.3.

One process per workload (the eager step, then the same model under torch.compile), alone on the GPU, bf16 AMP, 7
steps, the median of steps 3..7. One compiled model per process: call119's processes compiled two torchvision ResNets
one after the other (ResNet-50 b32, then ResNet-34 b64), and a second frame of the same forward with other shapes makes
Dynamo recompile with the changed dimensions dynamic, which no plan models. Shapes no compiled timing used: ResNet-50
at 4 samples (below the threshold) and 16, ResNet-101 b32, ResNet-34 b32, EfficientNet-B0 at 8 and 32, ConvNeXt-T
b16, EfficientNet-B3 b16. Predictions for the H200 and the H100 are in the session's notes (late62_predictions.md)."""
from gt_jobs import compiled_pair, dev_timing_jobs, timer, timing_jobs, J
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


def call125():
    """dev65 (development data, NOT blind): does a second compiled torchvision ResNet in one process run with
    dynamic shapes, and how much slower? late32, late59, late60 and late61 each compiled two ResNets in one process
    (ResNet-50 b64 then ResNet-152 b64; ResNet-101 b64 then ResNet-18 b128; ResNet-50 b32 then ResNet-34 b64), and
    the second ones are among the compiled steps furthest from the plan (ResNet-18 b128 -27..-31%, ResNet-34 b64 -31%).
    Three processes, TORCH_LOGS=recompiles,dynamic so the logs say which dimensions went dynamic: late60's pair as it
    ran, then ResNet-34 b64 compiled alone, then late59's pair."""
    t2 = timer("dev65-", "dev65-timing")
    env = {"TORCH_LOGS": "recompiles,dynamic"}
    groups = (
        ("pair60", [t2("t-resnet50-b32-bf16-compile", tv("resnet50", 32, compile=True)),
                    t2("t-resnet34-b64-bf16-compile-second", tv("resnet34", 64, compile=True))]),
        ("alone34", [t2("t-resnet34-b64-bf16-compile", tv("resnet34", 64, compile=True))]),
        ("pair59", [t2("t-resnet101-b64-bf16-compile", tv("resnet101", 64, compile=True)),
                    t2("t-resnet18-b128-bf16-compile-second", tv("resnet18", 128, compile=True))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    jobs = dev_timing_jobs("dev65-", "dev65-timing", groups)
    for j in jobs:
        j["env"].update(env)
    return [probe] + jobs


def call126():
    """call124's last two workloads (ConvNeXt-T b16, EfficientNet-B3 b16), which its budget skipped; same jobs."""
    return [j for j in call124() if j["name"].startswith(("probe", "late62-timing-convnext", "late62-timing-efficientnet-b3"))]
