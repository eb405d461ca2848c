"""Session 8. Call 29, after the session's models were final: issue 14's `plan --fit` check on three models
the pick set had not timed — each model's top three `--fit` candidates on one H200 (vramkit at the
session's final commit: `plan --fit --gpu h200 --model llama3.2-1b --seq 2048 --global-batch 32`,
`--model qwen2.5-0.5b --seq 1024 --global-batch 64`, `--model convnext-base --global-batch 256`), one
process per model alone on the GPU, 7 steps each; and (dev) late10's accumulation pair again, each in a
fresh process, to see whether its 1.9x was the process's host speed."""
from gt_jobs import J, T, timer, timing_jobs
from gt_jobs7 import LL1B
from gt_jobs9 import QW05, tv

p = timer("pick2-", "pick2")


def picks():
    ll = [p("llama32-1b-s2048-bf16-b8x4", T(*LL1B, b=8, seq=2048, accum=4)),
          p("llama32-1b-s2048-fp16-b8x4", T(*LL1B, b=8, seq=2048, accum=4, prec="fp16")),
          p("llama32-1b-s2048-bf16-b4x8", T(*LL1B, b=4, seq=2048, accum=8))]
    qw = [p("qwen25-05b-s1024-bf16-b32x2", T(*QW05, b=32, seq=1024, accum=2)),
          p("qwen25-05b-s1024-fp16-b32x2", T(*QW05, b=32, seq=1024, accum=2, prec="fp16")),
          p("qwen25-05b-s1024-bf16-b16x4", T(*QW05, b=16, seq=1024, accum=4))]
    cn = [p("convnext-base-bf16-b256x1", tv("convnext_base", 256)),
          p("convnext-base-fp16-b256x1", tv("convnext_base", 256, prec="fp16")),
          p("convnext-base-bf16-b128x2", tv("convnext_base", 128, accum=2))]
    return timing_jobs("pick2-", "pick2", (("llama32-1b", ll), ("qwen25-05b", qw), ("convnext-base", cn)))


def accum_again():
    d = timer("dev8b-", "dev8b")
    return (timing_jobs("dev8b-", "dev8b", (("a", [d("t-qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024))]),)) +
            timing_jobs("dev8b-", "dev8b", (("b", [d("t-qwen25-05b-s1024-b4x2-bf16", T(*QW05, b=4, seq=1024, accum=2))]),)))


def jobs():
    return picks() + accum_again()
