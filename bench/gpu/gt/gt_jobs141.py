"""Session 53 (for the next session), calls 199-200: compiled against eager CNN training steps on ONE host.
bench/steptime orders 63 of its 65 wrongly-ordered same-model pairs where a step is host-bound, about 30 of them
torch.compile against eager: host-bound compiled CNN steps ran 1.08-1.32x their eager twins (ResNet-18/34/50/101/152,
EfficientNet-B0, ConvNeXt-T) where the plan prices them 0.73-0.93x, the compiled side under-priced (ResNet-18 b8:
11.2 ms measured, 9.7 priced) and some eager twins over-priced (dev64 ResNet-50 b8: 18.9 against 26.6). The files
mixed hosts and processes; these time each workload alone in its own process (no second compile in a process), 20
steps, bf16 AMP, so that one host's eager/compiled ratio can be read per model and batch.

call199: dev109 (development, NOT blind): ResNet-18 b16, ResNet-50 b32, EfficientNet-B0 b32, eager and compiled.
call200: late99 (BLIND, kept outside the repository until a refit of the compiled host cost is final, then
evaluated once): ResNet-34 b32, ConvNeXt-T b32, ResNet-101 b16, eager and compiled."""
from gt_jobs import dev_timing_jobs, timing_jobs, timer
from gt_jobs9 import tv


def twins(t, models):
    groups = []
    for m, b in models:
        short = m.replace("_", "-")
        groups.append((f"{short}-b{b}-eager", [t(f"t-{short}-b{b}-bf16", tv(m, b))]))
        groups.append((f"{short}-b{b}-compile", [t(f"t-{short}-b{b}-bf16-compile", tv(m, b, compile=True))]))
    return groups


def call199():
    t = timer("dev109-", "dev109-timing", iters=20, heldout=False)
    return dev_timing_jobs("dev109-", "dev109-timing",
                           twins(t, [("resnet18", 16), ("resnet50", 32), ("efficientnet_b0", 32)]))


def call200():
    t = timer("late99-", "late99-timing", iters=20, heldout=True)
    return timing_jobs("late99-", "late99-timing",
                       twins(t, [("resnet34", 32), ("convnext_tiny", 32), ("resnet101", 16)]))
