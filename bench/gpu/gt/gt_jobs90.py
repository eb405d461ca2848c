"""Session 27, call 113. dev60 (development data, NOT blind): every-op profiles (gt_work profile="allops") of the two
families without rotary embeddings whose GPU-bound steps the walk prices right only with its spurious add-backward
kernels (dev58, dev59): GPT-2 s1024 b8 bf16 (the fixtures' configuration) and ViT-B/16 b128 bf16: what those kernels
stand in for there."""
from gt_jobs import J, T, profiler
from gt_jobs9 import tv
from gt_jobs57 import G2

P = profiler("dev60-prof-", "dev60-profile", kind="allops")


def call113():
    return [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe")),
            P("gpt2-s1024-b8-bf16", T(*G2, b=8, seq=1024)),
            P("vitb16-b128-bf16", tv("vit_b_16", 128))]
