"""Session 42, call 143: traces for the two dev72 points the first Gemma generate replay missed by more than
0.8% of reserved (development data, NOT blind; testdata/dev73):
  - Gemma 3 1B b8 p1024 n256 under inference_mode, reserved -2.37% (its large-pool sliding caches; dev72 traced
    only b4, whose 1 MiB window tensors sit in the small pool): the point alone in a fresh process (dev72 ran it
    second in its process), and a short traced call at the same batch and prompt;
  - Gemma 2 2B b2 p5000 n64, +2.13% (a prefill past the 4096-token window at batch 2): a short traced call."""
from gt_jobs import J, G, GEN_MODELS
from gt_jobs23 import GE3_1B
from gt_jobs26 import G2_2B

GEN_MODELS.setdefault("gemma3-1b", GE3_1B)
GEN_MODELS.setdefault("gemma2-2b", G2_2B)


def call143():
    def d(name, key, points, mem=30, **kw):
        return J("dev73-" + name, "dev73-generate", mem, timeout=300,
                 spec=G(key, "bf16", "dynamic", "inference", points, **kw))
    return [
        d("gen-gemma3-1b-bf16-dynamic-inf-alone", "gemma3-1b", [(8, 1024, 256)]),
        d("gentrace-gemma3-1b-bf16-dynamic-b8", "gemma3-1b", [(8, 1024, 16)], mem=12, snap=True),
        d("gentrace-gemma2-2b-bf16-dynamic-b2", "gemma2-2b", [(2, 5000, 8)], mem=16, snap=True),
    ]


def call144():
    """Session 42/43, call 144 (development data into dev73): a trace of dev72's Gemma 3 1B b4 p2000 point (reserved
    -3.5% once the b8 trace's lessons were in: the rotary order, the masks' place and shape), the point itself alone
    in a fresh process (dev72 ran it third in its process), and a trace of Gemma 2 2B's StaticCache b4 p1024 n128
    point (-0.9%, the one static Gemma 2 point)."""
    def d(name, key, cache, grad, points, mem=12, **kw):
        return J("dev73-" + name, "dev73-generate", mem, timeout=300, spec=G(key, "bf16", cache, grad, points, **kw))
    return [
        d("gentrace-gemma3-1b-bf16-dynamic-b4-p2000", "gemma3-1b", "dynamic", "inference", [(4, 2000, 16)], snap=True),
        d("gen-gemma3-1b-bf16-dynamic-inf-b4-alone", "gemma3-1b", "dynamic", "inference", [(4, 2000, 64)], mem=30),
        d("gentrace-gemma2-2b-bf16-static-b4", "gemma2-2b", "static", "no_grad", [(4, 1024, 128)], mem=16,
          snap=True),
    ]
