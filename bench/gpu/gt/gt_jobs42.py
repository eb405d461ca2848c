"""Session 16. Call 59 (dev26, NOT blind): a memory-history snapshot of the compiled BERT-base s512 b32 bf16 step
that late25 timed: compiled it allocated 12.64 GiB where its eager twin allocated 7.67 and plan --compile predicts
7.05 (-44%); and of the compiled EfficientNet-B0 b256 step (6.88 GiB allocated against eager 10.87)."""
from gt_jobs import J, T, maker
from gt_jobs9 import tv
from gt_jobs23 import BERT

D = maker("dev26-", "dev26", heldout=False, timeout=240)


def call59():
    return [
        D("bert-base-s512-b32-bf16-compile-snap", T(*BERT, io="cls", b=32, seq=512, compile=True, iters=3,
                                                    snap=True), mem=30),
        D("efficientnet-b0-b256-bf16-compile-snap", tv("efficientnet_b0", 256, compile=True, iters=3, snap=True),
          mem=30),
    ]
