"""Session 25, call 100, on one H200.

late49 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the session's attention changes (dropout inside the fused kernels, T5's
cross-attention bias constant or requiring grad, the math path's safe-softmax passes) on workloads no set ran
(repeats.py finds none): T5-base s512 b24 bf16 with and without block checkpointing, T5-large (24 layers) s256 b24
bf16 checkpointed, T5-small s768 b32 fp16 with and without checkpointing, BERT-large s384 b32 bf16 with and without
checkpointing, RoBERTa-large s256 b48 fp16, GPT-2 large s1024 b6 fp16 with and without checkpointing, GPT-2 s512
b48 bf16 and float32. Step times: one process per group alone on the GPU, 7 steps, the median of steps 3..7;
memory rows each in their own process."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs7 import T5B
from gt_jobs9 import BERTL
from gt_jobs26 import GL, T5L
from gt_jobs57 import G2, T5
from gt_jobs60 import ROBERTA_L

t = timer("late49-", "late49-timing")


def timing_groups():
    t5 = [
        t("t-t5-base-s512-b24-bf16", T(*T5B, io="s2s", b=24, seq=512)),
        t("t-t5-base-s512-b24-bf16-ckpt", T(*T5B, io="s2s", b=24, seq=512, ckpt="block")),
        t("t-t5-small-s768-b32-fp16-ckpt", T(*T5, io="s2s", b=32, seq=768, prec="fp16", ckpt="block")),
        t("t-t5-small-s768-b32-fp16", T(*T5, io="s2s", b=32, seq=768, prec="fp16")),
    ]
    enc = [
        t("t-bert-large-s384-b32-bf16", T(*BERTL, io="cls", b=32, seq=384)),
        t("t-bert-large-s384-b32-bf16-ckpt", T(*BERTL, io="cls", b=32, seq=384, ckpt="block")),
    ]
    lm = [
        t("t-gpt2-large-s1024-b6-fp16-ckpt", T(*GL, b=6, seq=1024, prec="fp16", ckpt="block")),
        t("t-gpt2-large-s1024-b6-fp16", T(*GL, b=6, seq=1024, prec="fp16")),
        t("t-gpt2-s512-b48-bf16", T(*G2, b=48, seq=512)),
        t("t-gpt2-s512-b48-fp32", T(*G2, b=48, seq=512, prec="fp32")),
    ]
    return timing_jobs("late49-", "late49-timing", (("t5", t5), ("enc", enc), ("lm", lm)))


B = maker("late49-", "late49", heldout=True)


def blind_jobs():
    return [
        B("t5-base-s512-b24-bf16", T(*T5B, io="s2s", b=24, seq=512), mem=50),
        B("t5-base-s512-b24-bf16-ckpt", T(*T5B, io="s2s", b=24, seq=512, ckpt="block"), mem=30),
        B("t5-large-s256-b24-bf16-ckpt", T(*T5L, io="s2s", b=24, seq=256, ckpt="block"), mem=40),
        B("t5-small-s768-b32-fp16", T(*T5, io="s2s", b=32, seq=768, prec="fp16"), mem=50),
        B("t5-small-s768-b32-fp16-ckpt", T(*T5, io="s2s", b=32, seq=768, prec="fp16", ckpt="block"), mem=30),
        B("bert-large-s384-b32-bf16", T(*BERTL, io="cls", b=32, seq=384), mem=40),
        B("bert-large-s384-b32-bf16-ckpt", T(*BERTL, io="cls", b=32, seq=384, ckpt="block"), mem=20),
        B("roberta-large-s256-b48-fp16", T(*ROBERTA_L, io="cls", b=48, seq=256, prec="fp16"), mem=40),
        B("gpt2-large-s1024-b6-fp16", T(*GL, b=6, seq=1024, prec="fp16"), mem=50),
        B("gpt2-large-s1024-b6-fp16-ckpt", T(*GL, b=6, seq=1024, prec="fp16", ckpt="block"), mem=30),
        B("gpt2-s512-b48-bf16", T(*G2, b=48, seq=512), mem=50),
        B("gpt2-s512-b48-fp32", T(*G2, b=48, seq=512, prec="fp32"), mem=60),
    ]


def call100():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()
