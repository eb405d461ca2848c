"""Session 46, call 172: GPT-J generate at larger prompts. late84's two blind points came out under (-4.66% and -1.37%
allocated at b8 p1024 and b4 p512) where dev92's b4 p256 traces were near; dev93 traces the larger prefills (DEVELOPMENT
data, snapshots, one process each) and late85 is a fresh BLIND set of generate points at other shapes (kept outside the
repository until the fix is final, then evaluated once)."""
from gt_jobs import J, G
from gt_jobs127 import GEN_MODELS  # noqa: F401  (registers gptj-small and gptj-wide)


def call172():
    def dev(name, key, cache, grad, points, mem=30):
        return J("dev93-" + name, "dev93", mem, heldout=False, timeout=240,
                 spec=G(key, "bf16", cache, grad, points, snap=True))

    def blind(name, key, cache, grad, points, mem=30):
        return J("late85-" + name, "late85-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    return [
        dev("gen-gptj-small-bf16-dynamic", "gptj-small", "dynamic", "inference", [(8, 1024, 16)]),
        dev("gen-gptj-wide-bf16-static-nograd", "gptj-wide", "static", "no_grad", [(4, 512, 16)]),
        blind("gen-gptj-small-bf16-static", "gptj-small", "static", "inference", [(4, 1536, 64)]),
        blind("gen-gptj-wide-bf16-dynamic-nograd", "gptj-wide", "dynamic", "no_grad", [(16, 768, 128)]),
    ]
