"""Session 27, call 110: pick10, `plan --fit`'s top three under a memory budget on three models the session's
step-time changes touch (bias gradients, GELU, ConvNeXt convolutions), ranked by the models of 5b57fe3
(`vramkit plan --fit --gpu h200 --model M ... --margin F`: the budget is 1-F of the H200), each model's fifth
candidate timed beside them as an ordering check (issue 14's third criterion: the candidate ranked first within 5%
of the fastest measured). One process per model, alone on the GPU, 7 steps, the median of steps 3..7. And the first
candidate of each in its own process for peak memory (the plan's "fits with 95% confidence" figure).

  bert-large --seq 512 --global-batch 64 --margin 0.82 (25.2 GiB): bf16 block-checkpointed b64x1 0.264 s (10.8
    GiB), fp16 block b64x1 0.268 s, bf16 b16x4 0.278 s; fifth bf16 block b32x2 0.313 s;
  convnext-base --global-batch 256 --margin 0.8 (28.0 GiB): bf16 channels-last b128x2 0.196 s (19.0 GiB), bf16
    b128x2 0.197 s, fp16 channels-last b128x2 0.199 s; fifth bf16 b64x4 0.229 s;
  vit-l16 --global-batch 128 --margin 0.85 (21.0 GiB): bf16 b64x2 0.175 s (18.4 GiB), fp16 b64x2 0.177 s, bf16
    selective-checkpointed b64x2 0.188 s; fifth bf16 b32x4 0.204 s.

repeats.py call110: ConvNeXt-B bf16 NCHW b128x2 (rank 2) repeats pick2's and pick7's timed configuration, kept: the
criterion needs the top three; its row is not blind."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs9 import BERTL, cl, tv

p = timer("pick10-", "pick10")
M = maker("pick10-", "pick10-mem", heldout=True)


def call110():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    bl = [p("bert-large-bf16-block-b64x1", T(*BERTL, io="cls", b=64, seq=512, ckpt="block")),
          p("bert-large-fp16-block-b64x1", T(*BERTL, io="cls", b=64, seq=512, ckpt="block", prec="fp16")),
          p("bert-large-bf16-b16x4", T(*BERTL, io="cls", b=16, seq=512, accum=4)),
          p("bert-large-bf16-block-b32x2", T(*BERTL, io="cls", b=32, seq=512, ckpt="block", accum=2))]
    cx = [p("convnext-base-bf16-cl-b128x2", cl("convnext_base", 128, accum=2)),
          p("convnext-base-bf16-b128x2", tv("convnext_base", 128, accum=2)),
          p("convnext-base-fp16-cl-b128x2", cl("convnext_base", 128, prec="fp16", accum=2)),
          p("convnext-base-bf16-b64x4", tv("convnext_base", 64, accum=4))]
    vt = [p("vitl16-bf16-b64x2", tv("vit_l_16", 64, accum=2)),
          p("vitl16-fp16-b64x2", tv("vit_l_16", 64, prec="fp16", accum=2)),
          p("vitl16-bf16-selective-b64x2", tv("vit_l_16", 64, ckpt="selective", accum=2)),
          p("vitl16-bf16-b32x4", tv("vit_l_16", 32, accum=4))]
    mem = [M("bert-large-s512-b64-bf16-ckpt", T(*BERTL, io="cls", b=64, seq=512, ckpt="block"), 20),
           M("convnext-base-b128x2-bf16-cl", cl("convnext_base", 128, accum=2), 30),
           M("vitl16-b64x2-bf16", tv("vit_l_16", 64, accum=2), 30)]
    return [probe] + timing_jobs("pick10-", "pick10", (("bert-large", bl), ("convnext-base", cx), ("vitl16", vt))) + mem
