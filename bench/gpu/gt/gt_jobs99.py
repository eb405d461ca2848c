"""Session 35, call 127: dev66 (development data, NOT blind): do compiled CNN steps settle after seven steps?

dev65 timed compiled ResNet-101 b64 alone in its process at 44-49 ms for steps 2-4 and 30 ms from step 5, and
compiled ResNet-34 b64 alone at 24-28 ms for steps 2-5 and 11-15 ms after; late62 (eager then compiled in one
process) timed compiled ResNet-101 b32 at 62 ms for all seven steps. Every timed compiled set took the median of steps
3..7, which such a slow phase would decide. Forty steps each, one compiled model per process (no dynamic-shape
recompile), bf16 AMP: ResNet-101 b32 alone; ResNet-101 b32 eager then compiled (late62's order); ResNet-18 b128 alone
(static shapes: every compiled ResNet-18 at 128 or more samples timed so far ran as a second compiled ResNet, with a
dynamic batch); ConvNeXt-T b16 alone; EfficientNet-B0 b8 alone; and ResNet-101 b32 alone again with
TORCHINDUCTOR_COMPILE_THREADS=1 (no pool of compile workers beside the timed steps). The step series in iter_s say when, if ever, the step
settles."""
from gt_jobs import dev_timing_jobs, J
from gt_jobs9 import tv


def call127():
    def t(name, spec):
        return dict(spec, iters=40, name="dev66-" + name, group="dev66-timing", heldout=False)
    groups = (
        ("r101-alone", [t("t-resnet101-b32-bf16-compile", tv("resnet101", 32, compile=True))]),
        ("r101-pair", [t("t-resnet101-b32-bf16", tv("resnet101", 32)),
                       t("t-resnet101-b32-bf16-compile-after-eager", tv("resnet101", 32, compile=True))]),
        ("r18-alone", [t("t-resnet18-b128-bf16-compile", tv("resnet18", 128, compile=True))]),
        ("cnxt-alone", [t("t-convnext-tiny-b16-bf16-compile", tv("convnext_tiny", 16, compile=True))]),
        ("b0-alone", [t("t-efficientnet-b0-b8-bf16-compile", tv("efficientnet_b0", 8, compile=True))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    jobs = dev_timing_jobs("dev66-", "dev66-timing", groups)
    # the same ResNet-101 alone with Inductor compiling in the main process: if the idle pool of compile
    # workers (one a CPU) is what slows the first steps after a compile, this process has no slow phase
    one = dev_timing_jobs("dev66-", "dev66-timing", (
        ("r101-alone-threads1", [t("t-resnet101-b32-bf16-compile-threads1", tv("resnet101", 32, compile=True))]),))
    one[0]["env"]["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    return [probe] + jobs + one  # last: compiling on one thread takes longest
