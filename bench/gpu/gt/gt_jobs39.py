"""Session 16. Call 56: a twenty-third blind set (late23) of compiled steps only, captured after the compiled
model's parameter gradients were corrected to the parameter's dtype (commit below this job list's), and kept
outside the repository until evaluated once with binaries of that commit. New shapes: Qwen2.5-1.5B b4,
SmolLM2-1.7B b8, Qwen3-0.6B at s2048 b4, GPT-2 large b4, TinyLlama under fp16 AMP (GradScaler), and the
first compiled vision steps (ViT-B/16 b128, ResNet-50 b128, both bf16 AMP).
Beside it, dev25 (NOT blind): memory-history snapshots of late21's compiled Qwen3-0.6B b8 (peak allocated
-8.1%, about one bf16 logits) and late22's compiled SmolLM2-360M b8 (allocated -4.5%), the two compiled rows the
model still misses most."""
from gt_jobs import J, T, GEN_MODELS, maker
from gt_jobs9 import tv
from gt_jobs26 import TL, SMOL, GL
from gt_jobs31 import SM17
from gt_jobs37 import Q3_06

QW15 = GEN_MODELS["qwen25-15b"]

D = maker("dev25-", "dev25", heldout=False, timeout=420)
C = maker("late23-", "late23-compile", heldout=True, timeout=300)


def compile_snaps():
    return [
        D("qwen3-06b-s1024-b8-bf16-compile-snap", T(*Q3_06, b=8, seq=1024, compile=True, iters=3, family="qwen3",
                                                    snap=True), mem=40),
        D("smollm2-360m-s1024-b8-bf16-compile-snap", T(*SMOL, b=8, seq=1024, compile=True, iters=3,
                                                       family="llama", snap=True), mem=30),
    ]


def blind_compiled():
    return [
        C("qwen25-15b-s1024-b4-bf16-compile", T(*QW15, b=4, seq=1024, compile=True, iters=4, family="qwen2"),
          mem=50),
        C("smollm2-17b-s1024-b8-bf16-compile", T(*SM17, b=8, seq=1024, compile=True, iters=4, family="llama"),
          mem=60),
        C("qwen3-06b-s2048-b4-bf16-compile", T(*Q3_06, b=4, seq=2048, compile=True, iters=4, family="qwen3"),
          mem=40),
        C("gpt2-large-s1024-b4-bf16-compile", T(*GL, b=4, seq=1024, compile=True, iters=4), mem=30),
        C("tinyllama-s1024-b4-fp16-compile", T(*TL, b=4, seq=1024, prec="fp16", compile=True, iters=4,
                                               family="llama"), mem=40),
        C("vitb16-b128-bf16-compile", tv("vit_b_16", 128, compile=True, iters=4), mem=30),
        C("resnet50-b128-bf16-compile", tv("resnet50", 128, compile=True, iters=4), mem=30),
    ]


def call56():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + compile_snaps() + blind_compiled()
