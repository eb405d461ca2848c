"""Session 35, call 127: dev66 (development data, NOT blind): do compiled CNN steps settle after seven steps?

dev65 timed compiled ResNet-101 b64 alone in its process at 44-49 ms for steps 2-4 and 30 ms from step 5, and
compiled ResNet-34 b64 alone at 24-28 ms for steps 2-5 and 11-15 ms after; late62 (eager then compiled in one
process) timed compiled ResNet-101 b32 at 62 ms for all seven steps. Every timed compiled set took the median of steps
3..7, which such a slow phase would decide. Forty steps each, one compiled model per process (no dynamic-shape
recompile), bf16 AMP: ResNet-101 b32 alone; ResNet-101 b32 eager then compiled (late62's order); ResNet-18 b128 alone
(static shapes: every compiled ResNet-18 at 128 or more samples timed so far ran as a second compiled ResNet, with a
dynamic batch); ConvNeXt-T b16 alone; EfficientNet-B0 b8 alone; and ResNet-101 b32 alone again with
TORCHINDUCTOR_COMPILE_THREADS=1 (no pool of compile workers beside the timed steps). The step series in iter_s say when, if ever, the step
settles; gt_work's cpu_s (the process's CPU time a step, all threads, the final synchronize's spin included) says
whether a slow step was kept off the CPU."""
from gt_jobs import dev_timing_jobs, timer, J, T
from gt_jobs9 import tv


def call127():
    t = timer("dev66-", "dev66-timing", iters=40, heldout=False)
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


def call128():
    """dev67 (development data, NOT blind): the host's forward / backward / optimizer split. gt_work.py records
    phase_s from session 35 on (perf_counter around each phase, no sync); the walk's StepDetail.PhaseS is the same
    split. Where the walk's host and GPU times are within 25% of each other, BERT and ResNet steps run 10-13% over
    the plan while other families do not, and dev51's host profiles hint that the backward takes a larger share of
    the host than the walk gives it (1.15-1.2x the forward against the walk's 0.7x). Eager bf16 AMP, 7 steps, four
    processes of one family each: host-bound (one sample), balanced and GPU-bound sizes."""
    from gt_jobs import LLAMA_SMALL, GPT2
    BERT = ("BertForSequenceClassification", "BertConfig", {})
    L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
    G2 = ("GPT2LMHeadModel", "GPT2Config", GPT2)
    t = timer("dev67-", "dev67-timing", heldout=False)
    groups = (
        ("resnet", [t("t-resnet50-b1-bf16", tv("resnet50", 1)), t("t-resnet50-b16-bf16", tv("resnet50", 16)),
                    t("t-resnet50-b64-bf16", tv("resnet50", 64)), t("t-resnet101-b64-bf16", tv("resnet101", 64))]),
        ("bert", [t("t-bert-base-s128-b1-bf16", T(*BERT, io="cls", b=1, seq=128)),
                  t("t-bert-base-s512-b16-bf16", T(*BERT, io="cls", b=16, seq=512)),
                  t("t-bert-base-s512-b32-bf16", T(*BERT, io="cls", b=32, seq=512))]),
        ("convnext-vit", [t("t-convnext-tiny-b1-bf16", tv("convnext_tiny", 1)),
                          t("t-convnext-tiny-b32-bf16", tv("convnext_tiny", 32)),
                          t("t-vitb16-b1-bf16", tv("vit_b_16", 1)), t("t-vitb16-b64-bf16", tv("vit_b_16", 64))]),
        ("decoders", [t("t-gpt2-s128-b1-bf16", T(*G2, b=1, seq=128)), t("t-gpt2-s1024-b8-bf16", T(*G2, b=8, seq=1024)),
                      t("t-llama-small-s128-b1-bf16", T(*L, b=1, seq=128)),
                      t("t-llama-small-s1024-b4-bf16", T(*L, b=4, seq=1024))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev_timing_jobs("dev67-", "dev67-timing", groups)

