"""Session 15. Call 52: pick8, `plan --fit`'s top three on three LoRA fine-tunes where session 14's planner began to
choose a base loaded in bfloat16 (no set had timed that choice at scale: issue 14's third criterion, ranked by the
session-start models, commit b1cef9b), each model's best bf16-AMP candidate timed beside them as the reference the
new choice displaced; and dev23 (NOT blind): snapshots of late19's three memory misses, seen (ViT-L/16 fp16
checkpointed reserved -8.9%, the compiled Llama 3.2 1B reserved -8.8%, ResNet-34 fp16 b512 allocated -1.9%)."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs7 import LL1B
from gt_jobs9 import tv
from gt_jobs31 import QMOE, P3M
from gt_jobs34 import LL3B

W = dict(prec="bf16w", build_bf16=True)
p = timer("pick8-", "pick8")


def picks():
    """`vramkit plan --fit --gpu h200` at b1cef9b, top three each (+ the best bf16-amp candidate, rank given):
    --model qwen1.5-moe-a2.7b --lora-rank 16 --seq 1024 --global-batch 16: bf16 b16x1 0.723 s, bf16 b8x2 0.730 s,
      bf16 selective b16x1 0.742 s (pick7 timed bf16-amp b8x2: 2139.7 ms);
    --model llama3.2-3b --lora-rank 16 --seq 2048 --global-batch 16: bf16 b8x2 1.271 s, bf16 b4x4 1.280 s,
      bf16 selective b8x2 1.329 s; rank 6 bf16-amp b8x2 1.364 s;
    --model phi-3-mini --lora-rank 16 --seq 2048 --global-batch 16: bf16 b8x2 1.688 s, bf16 b4x4 1.696 s,
      bf16-amp b8x2 1.748 s (rank 3)."""
    qm = [p("qwen15-moe-lora16-s1024-bf16w-b16x1", T(*QMOE, b=16, seq=1024, lora=16, **W)),
          p("qwen15-moe-lora16-s1024-bf16w-b8x2", T(*QMOE, b=8, seq=1024, accum=2, lora=16, **W)),
          p("qwen15-moe-lora16-s1024-bf16w-sel-b16x1", T(*QMOE, b=16, seq=1024, lora=16, ckpt="selective", **W))]
    ll = [p("llama32-3b-lora16-s2048-bf16w-b8x2", T(*LL3B, b=8, seq=2048, accum=2, lora=16, **W)),
          p("llama32-3b-lora16-s2048-bf16w-b4x4", T(*LL3B, b=4, seq=2048, accum=4, lora=16, **W)),
          p("llama32-3b-lora16-s2048-bf16w-sel-b8x2", T(*LL3B, b=8, seq=2048, accum=2, lora=16, ckpt="selective",
                                                          **W)),
          p("llama32-3b-lora16-s2048-bf16-b8x2", T(*LL3B, b=8, seq=2048, accum=2, lora=16))]
    ph = [p("phi3-mini-lora16-s2048-bf16w-b8x2", T(*P3M, b=8, seq=2048, accum=2, lora=16, **W)),
          p("phi3-mini-lora16-s2048-bf16w-b4x4", T(*P3M, b=4, seq=2048, accum=4, lora=16, **W)),
          p("phi3-mini-lora16-s2048-bf16-b8x2", T(*P3M, b=8, seq=2048, accum=2, lora=16))]
    return timing_jobs("pick8-", "pick8", (("qwen15-moe", qm), ("llama32-3b", ll), ("phi3-mini", ph)))


D = maker("dev23-", "dev23", heldout=False, timeout=300)


def snaps():
    return [
        D("vitl16-b128-fp16-ckpt-snap", tv("vit_l_16", 128, prec="fp16", ckpt="block", snap=True), mem=30),
        D("resnet34-b512-fp16-snap", tv("resnet34", 512, prec="fp16", snap=True), mem=30),
        D("llama32-1b-s1024-b4-bf16-compile-snap", T(*LL1B, b=4, seq=1024, compile=True, iters=4, family="llama",
                                                      snap=True), mem=40),
    ]


def call52():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + picks() + snaps()
