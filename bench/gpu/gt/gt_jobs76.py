"""Session 25, call 99. dev51 (development data, NOT blind): host-side profiles (gt_work profile="host": per
event name the CPU time per step, cudaLaunchKernel included; 4 timed steps, then 2 profiled) of BERT-base s512 bf16
and ConvNeXt-T bf16 at batch 1 and 32, with and without block checkpointing, each alone on the GPU. Host-bound
checkpointed steps have timed faster at batch 32 than at batch 1 (dev17: BERT-base 59.5 against 70.1 ms,
ConvNeXt-T 48.9 against 61.7) while their plain twins did not (40.1 against 36.0, 28.1 against 27.2): which host
costs shrink when the GPU has work queued."""
from gt_jobs import J, T
from gt_jobs9 import tv
from gt_jobs57 import BERT


def P(name, spec):
    return J("dev51-prof-" + name, "dev51-profile", 20, exclusive=True, timeout=200, heldout=False,
             spec=dict(spec, iters=4, profile="host"))


def call99():
    jobs = []
    for b in (1, 32):
        for ck in ("", "-ckpt"):
            kw = dict(ckpt="block") if ck else {}
            jobs.append(P("bert-base-s512-b%d-bf16%s" % (b, ck), T(*BERT, io="cls", b=b, seq=512, **kw)))
            jobs.append(P("convnext-tiny-b%d-bf16%s" % (b, ck), tv("convnext_tiny", b, **kw)))
    return jobs
