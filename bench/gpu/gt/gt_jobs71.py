"""Session 23, call 94. dev47 (development data, NOT blind): a snapshot of late43's one reserved miss over 2% low,
T5-base s1024 b8 fp16 AMP checkpointed (-3.61%, allocated +0.06%), in its own process."""
from gt_jobs import J, T, maker
from gt_jobs7 import T5B


def call94():
    D = maker("dev47-", "dev47", heldout=False)
    return [D("t5-base-s1024-b8-fp16-ckpt", dict(T(*T5B, io="s2s", b=8, seq=1024, prec="fp16", ckpt="block"),
                                               snap=True), 30)]
