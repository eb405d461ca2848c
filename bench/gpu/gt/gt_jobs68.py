"""Session 23, call 91.

late43 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the session's three memory changes on configurations no set captured:
selective checkpointing as the attention call alone (954e7d0) on Qwen3 (head q/k norms), Gemma 3 (sliding layers),
Llama 3.2 3B, Phi-3 mini and OLMo 2 (full q/k norms) with LoRA, fp16 and float32 among them; Phi-3's attention-output
copy (105d802) on Phi-3 mini bf16 AMP, pure bf16 LoRA and checkpointed; SDPA's math-path softmax copy on float32
grouped-query decoders (Qwen2.5-0.5B, SmolLM2-360M checkpointed) and T5; T5's encoder tail outside the checkpoint
on T5-small/base bf16 and fp16 checkpointed. Memory rows each in their own process. Step times of selective against
plain on two GPU-bound decoders, one process, alone on the GPU, 7 steps, the median of steps 3..7.

dev46 (development data, NOT blind): an op-level kernel profile (gt_work profile="ops", 4 timed steps then 2
profiled) of late42's 24-layer T5-large s512 b16 bf16 step, whose step time the model puts 21.5% low (GPU-bound),
alone on the GPU."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs7 import QW05, T5B
from gt_jobs9 import P3 as P3F
from gt_jobs23 import GE3_1B
from gt_jobs26 import Q3_17B, T5L
from gt_jobs29 import LL3B
from gt_jobs31 import OL1B, P3M
from gt_jobs34 import SM360
from gt_jobs57 import T5

W = dict(prec="bf16w")
t = timer("late43-", "late43-timing")


def timing_groups():
    lm = [
        t("t-llama32-3b-s1024-b8-bf16", T(*LL3B, b=8, seq=1024)),
        t("t-llama32-3b-s1024-b8-bf16-sel", T(*LL3B, b=8, seq=1024, ckpt="selective")),
        t("t-qwen3-17b-s2048-b4-bf16", T(*Q3_17B, b=4, seq=2048)),
        t("t-qwen3-17b-s2048-b4-bf16-sel", T(*Q3_17B, b=4, seq=2048, ckpt="selective")),
    ]
    return timing_jobs("late43-", "late43-timing", (("lm", lm),))


B = maker("late43-", "late43", heldout=True)


def blind_jobs():
    return [
        B("qwen3-17b-s1024-b8-bf16-sel", T(*Q3_17B, b=8, seq=1024, ckpt="selective", family="qwen3"), mem=75),
        B("gemma3-1b-s2048-b4-bf16-sel", T(*GE3_1B, b=4, seq=2048, ckpt="selective", family="gemma3"), mem=75),
        B("llama32-3b-s1024-b4-bf16-lora16-sel", T(*LL3B, b=4, seq=1024, lora=16, ckpt="selective", family="llama"),
          mem=50),
        B("phi3-mini-s1024-b4-bf16-sel", T(*P3M, b=4, seq=1024, ckpt="selective", family="phi3"), mem=95),
        B("olmo2-1b-s1024-b4-fp16-sel", T(*OL1B, b=4, seq=1024, prec="fp16", ckpt="selective", family="olmo2"),
          mem=40),
        B("phi3-mini-s2048-b2-bf16", T(*P3M, b=2, seq=2048, family="phi3"), mem=95),
        B("phi3-mini-s1024-b4-bf16w-lora16", T(*P3M, b=4, seq=1024, lora=16, family="phi3", **W), mem=30),
        B("phi3-f-s1024-b8-bf16-ckpt", T(*P3F, b=8, seq=1024, ckpt="block", family="phi3"), mem=30),
        B("qwen25-05b-s1024-b8-fp32", T(*QW05, b=8, seq=1024, prec="fp32", family="qwen2"), mem=60),
        B("smollm2-360m-s2048-b8-fp32-ckpt", T(*SM360, b=8, seq=2048, prec="fp32", ckpt="block", family="llama"),
          mem=40),
        B("t5-small-s512-b32-bf16-ckpt", T(*T5, io="s2s", b=32, seq=512, ckpt="block"), mem=30),
        B("t5-base-s1024-b8-fp16-ckpt", T(*T5B, io="s2s", b=8, seq=1024, prec="fp16", ckpt="block"), mem=30),
        B("t5-base-s512-b16-fp32", T(*T5B, io="s2s", b=16, seq=512, prec="fp32"), mem=40),
    ]


def dev_jobs():
    return [J("dev46-prof-t5-large-s512-b16-bf16", "dev46-profile", 40, exclusive=True, timeout=240, heldout=False,
              spec=dict(T(*T5L, io="s2s", b=16, seq=512), iters=4, profile="ops"))]


def call91():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + dev_jobs() + blind_jobs()
