"""Session 41, call 142: generate with the Gemma family (Gemma, Gemma 2, Gemma 3 text), which `plan --task
generate` refuses (serve plans it): the data for a generate replay of its sandwich norms, (1+w) float32 norms,
scaled embeddings, logit soft-capping and sliding-window cache layers.

dev72 (development data, NOT blind): Gemma 3 1B (window 512), Gemma 2 2B (window 4096) and Gemma 2B, bf16,
DynamicCache under inference_mode at points below and past the window, a StaticCache under no_grad, and one short
traced call each with a snapshot.

late71 (BLIND; kept outside the repository until a Gemma generate replay is final, then evaluated once): Gemma 3
4B-like and Gemma 2 9B-like calls past their windows, and Gemma 3 1B under a StaticCache at a large batch. Memory
figures only."""
from gt_jobs import J, G, GEN_MODELS
from gt_jobs23 import GE3_1B
from gt_jobs26 import G2_2B
from gt_jobs29 import GE3_4B
from gt_jobs31 import G2_9B, GE2B

GEN_MODELS.setdefault("gemma3-1b", GE3_1B)
GEN_MODELS.setdefault("gemma2-2b", G2_2B)
GEN_MODELS.setdefault("gemma-2b", GE2B)
GEN_MODELS.setdefault("gemma3-4b", GE3_4B)
GEN_MODELS.setdefault("gemma2-9b", G2_9B)


def call142():
    def d(name, key, cache, grad, points, mem=30, **kw):
        return J("dev72-" + name, "dev72-generate", mem, timeout=300, spec=G(key, "bf16", cache, grad, points, **kw))

    def b(name, key, cache, grad, points, mem=50):
        return J("late71-" + name, "late71-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    return [
        d("gen-gemma3-1b-bf16-dynamic-inf", "gemma3-1b", "dynamic", "inference", [(1, 512, 128), (8, 1024, 256), (4, 2000, 64)]),
        d("gen-gemma3-1b-bf16-static-nograd", "gemma3-1b", "static", "no_grad", [(8, 1024, 128)]),
        d("gentrace-gemma3-1b-bf16-dynamic", "gemma3-1b", "dynamic", "inference", [(4, 768, 64)], mem=10, snap=True),
        d("gen-gemma2-2b-bf16-dynamic-inf", "gemma2-2b", "dynamic", "inference", [(1, 512, 128), (8, 1024, 128), (2, 5000, 64)]),
        d("gen-gemma2-2b-bf16-static-nograd", "gemma2-2b", "static", "no_grad", [(4, 1024, 128)]),
        d("gentrace-gemma2-2b-bf16-dynamic", "gemma2-2b", "dynamic", "inference", [(2, 300, 32)], mem=10, snap=True),
        # added before the call ran: a StaticCache trace past Gemma 3's window (its sliding layers' roll path)
        # and a DynamicCache trace past Gemma 2's (the prefill's sliding mask)
        d("gentrace-gemma3-1b-bf16-static", "gemma3-1b", "static", "no_grad", [(2, 600, 24)], mem=10, snap=True),
        d("gentrace-gemma2-2b-bf16-dynamic-long", "gemma2-2b", "dynamic", "inference", [(1, 4200, 8)], mem=10, snap=True),
        d("gen-gemma-2b-bf16-dynamic-inf", "gemma-2b", "dynamic", "inference", [(8, 1024, 128)]),
        d("gentrace-gemma-2b-bf16-dynamic", "gemma-2b", "dynamic", "inference", [(4, 256, 32)], mem=10, snap=True),
        b("gen-gemma3-4b-bf16-dynamic-inf", "gemma3-4b", "dynamic", "inference", [(16, 800, 150), (2, 3000, 100)]),
        b("gen-gemma2-9b-bf16-dynamic-inf", "gemma2-9b", "dynamic", "inference", [(4, 4500, 80)]),
        b("gen-gemma3-1b-bf16-static-nograd", "gemma3-1b", "static", "no_grad", [(24, 600, 200)], mem=30),
    ]
