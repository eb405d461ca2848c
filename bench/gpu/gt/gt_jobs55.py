"""Session 20, call 78: pick9, `plan --fit`'s top three on three CNNs now that --fit tries channels-last beside NCHW
(issue 14's third criterion: the candidate ranked first within 5% of the fastest measured), ranked by 05cccd2's
models (`vramkit plan --fit --gpu h200 --model M --global-batch G`), each model's best NCHW candidate timed beside
them as the reference the new choice displaced. One process per model, alone on the GPU, 7 steps, the median of
steps 3..7; images at the catalog's side (EfficientNet-B2 288, the others 224).

  resnet50, global batch 256: fp16 channels-last b256x1 0.051 s, fp16 channels-last b128x2 0.058 s, bf16
    channels-last b256x1 0.058 s; best NCHW (rank 7) fp16 b256x1 0.088 s;
  efficientnet-b2, global batch 128: bf16 channels-last b128x1 0.066 s, fp16 channels-last b128x1 0.067 s, fp32
    channels-last b128x1 0.074 s; best NCHW (rank 7) fp16 b128x1 0.118 s;
  convnext-tiny, global batch 256: bf16 channels-last b256x1 0.084 s, bf16 NCHW b256x1 0.084 s, fp16 channels-last
    b256x1 0.085 s."""
from gt_jobs import J, timing_jobs, timer
from gt_jobs9 import cl, tv

p = timer("pick9-", "pick9")



def call78():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    rn = [p("resnet50-fp16-cl-b256x1", cl("resnet50", 256, prec="fp16")),
          p("resnet50-fp16-cl-b128x2", cl("resnet50", 128, prec="fp16", accum=2)),
          p("resnet50-bf16-cl-b256x1", cl("resnet50", 256)),
          p("resnet50-fp16-b256x1", tv("resnet50", 256, prec="fp16"))]
    ef = [p("efficientnet-b2-bf16-cl-b128x1", cl("efficientnet_b2", 128, res=288)),
          p("efficientnet-b2-fp16-cl-b128x1", cl("efficientnet_b2", 128, prec="fp16", res=288)),
          p("efficientnet-b2-fp32-cl-b128x1", cl("efficientnet_b2", 128, prec="fp32", res=288)),
          p("efficientnet-b2-fp16-b128x1", tv("efficientnet_b2", 128, prec="fp16", res=288))]
    cx = [p("convnext-tiny-bf16-cl-b256x1", cl("convnext_tiny", 256)),
          p("convnext-tiny-bf16-b256x1", tv("convnext_tiny", 256)),
          p("convnext-tiny-fp16-cl-b256x1", cl("convnext_tiny", 256, prec="fp16"))]
    return [probe] + timing_jobs("pick9-", "pick9", (("resnet50", rn), ("efficientnet-b2", ef), ("convnext-tiny", cx)))
