"""Session 9. Call 33, after the session's step-time model was final (steptime15 merged, 4919558): issue
14's `plan --fit` check on three more models the pick sets had not timed — each model's top three
`--fit` candidates on one H200 (`plan --fit --gpu h200 --model vit-l16 --global-batch 256`, `--model
qwen2.5-1.5b --seq 1024 --global-batch 64`, `--model resnet101 --global-batch 512`), one process per
model alone on the GPU, 7 steps each; ResNet-101's fourth candidate too (bf16 at b512: the plan puts
fp16 AMP 18% ahead of bf16 AMP on this convnet, a claim worth timing)."""
from gt_jobs import T, GEN_MODELS, timer, timing_jobs
from gt_jobs9 import tv

p = timer("pick3-", "pick3")
Q15 = GEN_MODELS["qwen25-15b"]


def picks():
    vl = [p("vitl16-bf16-b256x1", tv("vit_l_16", 256)),
          p("vitl16-fp16-b256x1", tv("vit_l_16", 256, prec="fp16")),
          p("vitl16-bf16-b128x2", tv("vit_l_16", 128, accum=2))]
    qw = [p("qwen25-15b-s1024-bf16-b16x4", T(*Q15, b=16, seq=1024, accum=4)),
          p("qwen25-15b-s1024-fp16-b16x4", T(*Q15, b=16, seq=1024, accum=4, prec="fp16")),
          p("qwen25-15b-s1024-bf16-b8x8", T(*Q15, b=8, seq=1024, accum=8))]
    rn = [p("resnet101-fp16-b512x1", tv("resnet101", 512, prec="fp16")),
          p("resnet101-fp16-b256x2", tv("resnet101", 256, prec="fp16", accum=2)),
          p("resnet101-fp16-b128x4", tv("resnet101", 128, prec="fp16", accum=4)),
          p("resnet101-bf16-b512x1", tv("resnet101", 512))]
    return timing_jobs("pick3-", "pick3", (("vitl16", vl), ("qwen25-15b", qw), ("resnet101", rn)))


def jobs():
    return picks()
