"""Session 12. Call 42 (dev17, NOT blind), while the session's first-round helpers work: how a checkpointed
step's time moves from host-bound to GPU-bound. Plain and checkpointed steps of ConvNeXt-T, BERT-base and
GPT-2 small over batch sizes from 1 (all host) to a GPU-bound size, each model in its own process alone on
the GPU, so the recomputation's host cost can be read at every level on one host (the tiny-batch "h-" rows
of dev7/dev9 put the checkpointed host at about twice the plain one, while late14's realistic batches grew
far less). Beside it the first EfficientNet checkpointed captures (gt_work could not checkpoint EfficientNet
before): memory rows and a timing pair."""
from gt_jobs import J, T, GPT2, maker, timer, dev_timing_jobs
from gt_jobs9 import tv
from gt_jobs23 import BERT

GS = ("GPT2LMHeadModel", "GPT2Config", GPT2)
d = timer("dev17-", "dev17-timing")
M = maker("dev17-", "dev17-families", heldout=False)


def sweeps():
    cn, bt, gp, ef = [], [], [], []
    for b in (1, 8, 32, 128):
        cn += [d("t-convnext-tiny-b%d-bf16" % b, tv("convnext_tiny", b)),
               d("t-convnext-tiny-b%d-bf16-ckpt" % b, tv("convnext_tiny", b, ckpt="block"))]
        bt += [d("t-bert-base-s512-b%d-bf16" % b, T(*BERT, io="cls", b=b, seq=512)),
               d("t-bert-base-s512-b%d-bf16-ckpt" % b, T(*BERT, io="cls", b=b, seq=512, ckpt="block"))]
    for b in (1, 4, 16, 32):
        gp += [d("t-gpt2-s512-b%d-bf16" % b, T(*GS, b=b, seq=512)),
               d("t-gpt2-s512-b%d-bf16-ckpt" % b, T(*GS, b=b, seq=512, ckpt="block"))]
    for b in (32, 128):
        ef += [d("t-efficientnet-b0-b%d-bf16" % b, tv("efficientnet_b0", b)),
               d("t-efficientnet-b0-b%d-bf16-ckpt" % b, tv("efficientnet_b0", b, ckpt="block"))]
    return dev_timing_jobs("dev17-", "dev17-timing",
                           (("convnext-tiny", cn), ("bert-base", bt), ("gpt2", gp), ("efficientnet", ef)))


def mem():
    return [M("efficientnet-b0-b128-bf16-ckpt", tv("efficientnet_b0", 128, ckpt="block")),
            M("efficientnet-b2-b96-bf16-ckpt", tv("efficientnet_b2", 96, ckpt="block")),
            M("efficientnet-b3-b64-fp32-ckpt", tv("efficientnet_b3", 64, prec="fp32", ckpt="block"))]


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + sweeps() + mem()
