"""Session 23, call 90.

late42 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): decoders after session 22's changes to autograd's order (a linear's input
gradient added after its node returns; slices' backward after the node that fed them) and session 23's T5 fix (the
encoder's final norm and dropout outside the last block's checkpoint). No decoder family was in a blind set since
late30..33. Memory rows each in their own process: Qwen3 1.7B, Llama 3.2 1B, Gemma 3 1B, OLMo 2 1B, Granite 3 2B,
Qwen2.5-0.5B, SmolLM2-360M, small Mistral / Qwen2-MoE / Mixtral shapes, across checkpointing (block, selective),
LoRA, pure bf16, fp16 and float32, accumulation and SGD; T5-base and T5-large checkpointed; world-size-1 FSDP2 and
DDP; three generate points. Step times of technique pairs on GPU-bound decoders, one process per group alone on the
GPU, 7 steps, the median of steps 3..7.

dev45 (development data, NOT blind): snapshots of three rows whose reserved the session's model changes moved with
allocated exact or low (each in its own process): late16's Phi-3 (f) s2048 b2 bf16 checkpointed (+0.93% -> -2.68%),
late11's 12-layer T5-large s512 b4 bf16 checkpointed (+0.20% -> -2.94%) and late8's s128 b64 (allocated -2.84%)."""
from gt_jobs import J, T, G, maker, sharded_maker, timer, timing_jobs
from gt_jobs7 import LL1B, QW05, MI, T5B
from gt_jobs9 import MX, QM, P3
from gt_jobs23 import GE3_1B
from gt_jobs26 import Q3_17B, T5L, TL
from gt_jobs31 import OL1B, GR2B
from gt_jobs34 import SM360
from gt_jobs37 import Q3_06

W = dict(prec="bf16w")
t = timer("late42-", "late42-timing")


def timing_groups():
    lm = [
        t("t-qwen3-17b-s1024-b8-bf16", T(*Q3_17B, b=8, seq=1024)),
        t("t-qwen3-17b-s1024-b8-bf16-ckpt", T(*Q3_17B, b=8, seq=1024, ckpt="block")),
        t("t-qwen3-17b-s1024-b8-bf16-lora16", T(*Q3_17B, b=8, seq=1024, lora=16)),
        t("t-llama32-1b-s2048-b4-bf16", T(*LL1B, b=4, seq=2048)),
        t("t-llama32-1b-s2048-b2x2-bf16", T(*LL1B, b=2, seq=2048, accum=2)),
        t("t-llama32-1b-s2048-b4-fp32", T(*LL1B, b=4, seq=2048, prec="fp32")),
    ]
    lm2 = [
        t("t-olmo2-1b-s1024-b8-bf16", T(*OL1B, b=8, seq=1024)),
        t("t-olmo2-1b-s1024-b8-bf16-sel", T(*OL1B, b=8, seq=1024, ckpt="selective")),
        t("t-t5-large-s512-b16-bf16", T(*T5L, io="s2s", b=16, seq=512)),
        t("t-t5-large-s512-b16-bf16-ckpt", T(*T5L, io="s2s", b=16, seq=512, ckpt="block")),
    ]
    return timing_jobs("late42-", "late42-timing", (("lm", lm), ("lm2", lm2)))


B = maker("late42-", "late42", heldout=True)
SH = sharded_maker("late42-", "late42-sharded")


def blind_jobs():
    return [
        B("qwen3-17b-s2048-b4-bf16-ckpt", T(*Q3_17B, b=4, seq=2048, ckpt="block", family="qwen3"), mem=50),
        B("llama32-1b-s2048-b4-bf16-lora16", T(*LL1B, b=4, seq=2048, lora=16, family="llama"), mem=50),
        B("gemma3-1b-s1024-b8-bf16", T(*GE3_1B, b=8, seq=1024, family="gemma3"), mem=60),
        B("olmo2-1b-s1024-b8-bf16-sel", T(*OL1B, b=8, seq=1024, ckpt="selective", family="olmo2"), mem=60),
        B("granite-2b-s1024-b4-bf16w-lora16-ckpt", T(*GR2B, b=4, seq=1024, lora=16, ckpt="block", family="granite",
                                                     **W), mem=30),
        B("qwen25-05b-s2048-b8-fp16", T(*QW05, b=8, seq=2048, prec="fp16", family="qwen2"), mem=60),
        B("smollm2-360m-s1024-b16-fp32", T(*SM360, b=16, seq=1024, prec="fp32", family="llama"), mem=60),
        B("mistral-s-s1024-b8x2-bf16", T(*MI, b=8, seq=1024, accum=2, family="mistral"), mem=40),
        B("qwen2moe-s-s1024-b8-bf16-ckpt", T(*QM, b=8, seq=1024, ckpt="block", family="qwen2moe"), mem=30),
        B("mixtral-s-s512-b16-bf16-lora16", T(*MX, b=16, seq=512, lora=16, family="mixtral"), mem=40),
        B("phi3-s-s2048-b4-bf16-sgd", T(*P3, b=4, seq=2048, opt="sgd", family="phi3"), mem=40),
        B("t5-base-s512-b16-fp32-ckpt", T(*T5B, io="s2s", b=16, seq=512, prec="fp32", ckpt="block"), mem=30),
        B("t5-large-s256-b32-bf16-ckpt", T(*T5L, io="s2s", b=32, seq=256, ckpt="block"), mem=40),
        SH("ws1-fsdp2-qwen3-06b-s1024-b8", "fsdp2", Q3_06, b=8, seq=1024),
        SH("ws1-ddp-tinyllama-s2048-b2-ckpt", "ddp", TL, b=2, seq=2048, ckpt="block"),
        J("late42-gen-qwen25-05b-bf16-static-inf", "late42-generate", 40, heldout=True, timeout=240,
          spec=G("qwen25-05b", "bf16", "static", "inference", [(32, 1024, 128)])),
        J("late42-gen-llama32-1b-bf16-dynamic-nograd", "late42-generate", 40, heldout=True, timeout=240,
          spec=G("llama32-1b", "bf16", "dynamic", "no_grad", [(16, 2048, 256)])),
        J("late42-gen-gpt2-medium-fp32-dynamic-inf", "late42-generate", 30, heldout=True, timeout=240,
          spec=G("gpt2-medium", "fp32", "dynamic", "inference", [(24, 512, 256)])),
    ]


def dev_jobs():
    from gt_jobs9 import T5L as T5L12
    D = maker("dev45-", "dev45", heldout=False)
    return [
        D("phi3-f-s2048-b2-bf16-ckpt", dict(T(*P3, b=2, seq=2048, ckpt="block", family="phi3"), snap=True), 30),
        D("t5-large12-s512-b4-bf16-ckpt", dict(T(*T5L12, io="s2s", b=4, seq=512, ckpt="block"), snap=True), 30),
        D("t5-large12-s128-b64-bf16-ckpt", dict(T(*T5L12, io="s2s", b=64, seq=128, ckpt="block"), snap=True), 30),
    ]


def call90():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + dev_jobs() + blind_jobs()
