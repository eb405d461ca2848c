"""Session 9. Call 34, at the session's end, after late12 was evaluated: dev data (NOT blind) for the
next session — memory-history snapshots of the late12 rows the final models missed most: DiT-XL/2 b16
bf16 (reserved -7.14%, under), EfficientNet-B3 b64 bf16 (allocated -3.35%), the compiled Qwen2.5-0.5B
s1024 b4 step (reserved -2.79%: the first compiled Qwen) and Qwen2.5-0.5B fp16 StaticCache generate at
b96 p400 n100 (reserved -7.04%). Same configurations as late12's rows."""
from gt_jobs import J, T, G, maker
from gt_jobs9 import QW05, tv
from gt_jobs11 import df

D = maker("dev10-", "dev10", heldout=False, timeout=300)


def jobs():
    return [
        D("dit-xl-2-b16-bf16-snap", df("dit-xl-2", 16, family="dit", iters=2, snap=True), mem=40),
        D("efficientnet-b3-b64-bf16-snap", tv("efficientnet_b3", 64, iters=2, snap=True)),
        D("qwen25-05b-s1024-b4-bf16-compile-snap", T(*QW05, b=4, seq=1024, compile=True, iters=3, snap=True,
                                                    family="qwen2"), mem=40),
        J("dev10-gen-qwen25-05b-fp16-static-inf-snap", "dev10-generate", 30, timeout=240,
          spec=G("qwen25-05b", "fp16", "static", "inference", [(96, 400, 100)], snap=True)),
    ]
