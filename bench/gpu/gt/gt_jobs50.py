"""Session 18. Call 69: a thirty-first blind set (late31), kept outside the repository until evaluated once with
the binaries of the commit below this job list's, to test two of the session's changes on runs they were not
built on:
- tensor parallelism's optimizer step one tensor at a time (5f3d866): world-size-1 TP with and without block
  checkpointing on decoders no TP run used (Qwen3-0.6B, SmolLM2-360M, Llama 3.2 1B checkpointed), and DDP with
  checkpointing on Qwen2.5-0.5B (the rebuild-order over-estimate dev30 documents);
- convolutions priced from their kernels' times (58c85e4): GPU-bound CNN steps in fp16 against bf16 (ResNet-50
  b192, ResNet-152 b96, ConvNeXt-T b128 fp16 against bf16, EfficientNet-B0 b192), timed alone, one process, 7
  steps, the median of steps 3..7."""
from gt_jobs import J, sharded_maker, timer, timing_jobs, S
from gt_jobs7 import LL1B
from gt_jobs9 import tv
from gt_jobs26 import SMOL
from gt_jobs29 import QW05
from gt_jobs37 import Q3_06

t = timer("late31-", "late31-timing")


SH = sharded_maker("late31-", "late31-sharded")


def call69():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    cnn = [
        t("t-resnet50-b192-fp16", tv("resnet50", 192, prec="fp16")),
        t("t-resnet50-b192-bf16", tv("resnet50", 192)),
        t("t-resnet152-b96-fp16", tv("resnet152", 96, prec="fp16")),
        t("t-convnext-tiny-b128-fp16", tv("convnext_tiny", 128, prec="fp16")),
        t("t-efficientnet-b0-b192-fp16", tv("efficientnet_b0", 192, prec="fp16")),
        t("t-efficientnet-b0-b192-bf16", tv("efficientnet_b0", 192)),
    ]
    return [probe] + timing_jobs("late31-", "late31-timing", (("cnn", cnn),)) + [
        SH("ws1-tp-qwen3-06b-s1024-b8-ckpt", "tp", Q3_06, b=8, seq=1024, ckpt="block"),
        SH("ws1-tp-qwen3-06b-s1024-b4", "tp", Q3_06, b=4, seq=1024),
        SH("ws1-tp-smollm2-360m-s1024-b8-ckpt", "tp", SMOL, b=8, seq=1024, ckpt="block"),
        SH("ws1-tp-llama32-1b-s1024-b4-ckpt", "tp", LL1B, b=4, seq=1024, ckpt="block"),
        SH("ws1-ddp-qwen25-05b-s1024-b8-ckpt", "ddp", QW05, b=8, seq=1024, ckpt="block"),
    ]


def call70():
    """dev31 (development data, NOT blind): snapshots of late30's EfficientNet-B4 b48 fp16 step (allocated 6.5%
    over at first sight, outside its band) and of its bf16 twin, to read which category the model puts high."""
    from gt_jobs import maker
    D = maker("dev31-", "dev31", heldout=False)
    return [D("efficientnet-b4-b48-fp16-snap", tv("efficientnet_b4", 48, prec="fp16", iters=3, snap=True)),
            D("efficientnet-b4-b48-bf16-snap", tv("efficientnet_b4", 48, iters=3, snap=True))]


def call71():
    """dev32 (development data, NOT blind): kernel profiles of compiled steps the walk under-prices (gt_work
    profile=True, 4 timed steps, 2 profiled, each alone on the GPU): ResNet-50 b128 (-36%) and Qwen2.5-0.5B s1024
    b8 (-12%) compiled, bf16 AMP, to test dev27's reading of compiled ResNet-101 (1635 kernels against the model's
    1085, 26.9 us of step per profiled kernel: are Inductor's launches the bound?)."""
    def P(name, spec):
        return J("dev32-prof-" + name, "dev32-profile", 40, exclusive=True, timeout=200, heldout=False,
                 spec=dict(spec, iters=4, profile=True))
    from gt_jobs import T
    return [P("resnet50-b128-bf16-compile", tv("resnet50", 128, compile=True)),
            P("qwen25-05b-s1024-b8-bf16-compile", T(*QW05, b=8, seq=1024, compile=True))]
