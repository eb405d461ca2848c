"""Session 24, call 97. dev49 (development data, NOT blind): op-level kernel profiles (gt_work profile="ops", 4 timed
steps then 2 profiled) of late47's T5-small s1024 b16 bf16 step with and without block checkpointing, whose
checkpointing ratio the model puts 12.9% low (1.30 predicted, 1.49 measured; the plain step -4.2%), and of the same
model at s512 b32 checkpointed (late36: -5.2%), each alone on the GPU."""
from gt_jobs import J, T
from gt_jobs57 import T5


def P(name, spec):
    return J("dev49-prof-" + name, "dev49-profile", 40, exclusive=True, timeout=240, heldout=False,
             spec=dict(spec, iters=4, profile="ops"))


def call97():
    return [
        P("t5-small-s1024-b16-bf16", T(*T5, io="s2s", b=16, seq=1024)),
        P("t5-small-s1024-b16-bf16-ckpt", T(*T5, io="s2s", b=16, seq=1024, ckpt="block")),
        P("t5-small-s512-b32-bf16-ckpt", T(*T5, io="s2s", b=32, seq=512, ckpt="block")),
    ]
