"""Session 16. Call 58: a twenty-fifth blind set (late25) of compiled step times against eager, to test the compiled
step-time band of 6eeca99 (compile_step.go: 0.80-1.25x for transformers, 0.45-1.25x where convolutions are most of
the GPU time, read off late24's four pairs) on steps it was not built on; kept outside the repository until
evaluated once with the models of the commit below this job list's. Each compiled step after its eager twin in the
same process, alone on the GPU, 7 steps, the median of steps 3..7.
Pairs: GPT-2 medium s1024 b8, Llama 3.2 1B s1024 b4, BERT-base s512 b32 (bf16 AMP); ConvNeXt-T b128,
EfficientNet-B0 b256 (bf16 AMP)."""
from gt_jobs import J, compiled_pair, T, GEN_MODELS, timer, timing_jobs
from gt_jobs7 import LL1B
from gt_jobs9 import tv
from gt_jobs23 import BERT

GM = GEN_MODELS["gpt2-medium"]

t = timer("late25-", "late25-timing")


def pair(name, spec):
    return compiled_pair(t, name, spec)


def timing_groups():
    return timing_jobs("late25-", "late25-timing", (
        ("gpt2m", pair("gpt2-medium-s1024-b8-bf16", T(*GM, b=8, seq=1024))),
        ("llama", pair("llama32-1b-s1024-b4-bf16", T(*LL1B, b=4, seq=1024))),
        ("bert", pair("bert-base-s512-b32-bf16", T(*BERT, io="cls", b=32, seq=512))),
        ("cnn", pair("convnext-tiny-b128-bf16", tv("convnext_tiny", 128))
         + pair("efficientnet-b0-b256-bf16", tv("efficientnet_b0", 256))),
    ))


def call58():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups()
