"""Session 13. Call 45 (dev19, NOT blind): how much of a host-bound checkpointed step's miss is the process.
The worst checkpointing misses are over-estimates of host-bound steps (late15: ConvNeXt-B b64 +60.5%, BERT-large
s512 b16 +47.1%, ViT-H/14 b16 +35.9%; late16: EfficientNet-B4 b64 +24.4%, Whisper medium b8 +23.3%), while
testdata/ckpthost measured BERT-base's and ConvNeXt-T's checkpointing add in one process within 10% of the walk
and the same checkpointed step at 55-94 ms in different processes. Here the five pairs run in three processes,
each alone on the GPU: plain before checkpointed, checkpointed before plain, and the models in reverse order,
so that the spread between processes and any order effect are measured on the very shapes that missed."""
from gt_jobs import T, dev_timing_jobs
from gt_jobs9 import tv
from gt_jobs26 import BL
from gt_jobs29 import WHM


def pairs():
    return [("convnext-base-b64", tv("convnext_base", 64)),
            ("bert-large-s512-b16", T(*BL, io="cls", b=16, seq=512)),
            ("vith14-b16", tv("vit_h_14", 16)),
            ("efficientnet-b4-b64", tv("efficientnet_b4", 64)),
            ("whisper-medium-b8", T(*WHM, io="whisper", b=8, seq=64))]


def jobs():
    from gt_jobs import J

    def rows(tag, order, models):
        out = []
        for name, spec in models:
            plain = dict(spec, iters=7, name=f"dev19-{tag}-t-{name}-bf16", group="dev19", heldout=False)
            ck = dict(spec, ckpt="block", iters=7, name=f"dev19-{tag}-t-{name}-bf16-ckpt", group="dev19",
                      heldout=False)
            out += [plain, ck] if order == "plain-first" else [ck, plain]
        return out
    ps = pairs()
    groups = (("p1", rows("p1", "plain-first", ps)), ("p2", rows("p2", "ckpt-first", ps)),
              ("p3", rows("p3", "plain-first", ps[::-1])))
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev_timing_jobs("dev19-", "dev19", groups)


def profiles():
    """Call 46 (dev20, NOT blind): kernel profiles of the two step-time misses session 13 left: Mixtral (f) LoRA
    (late16: the LoRA step 12.5% under, the LoRA ratio -18%; does backward still run the frozen experts' weight
    gradients?) and Whisper medium checkpointed (+10-17% on every host: which kernels the recomputation reruns),
    each with its plain pair, each alone on the GPU (gt_work profile=True, 4 timed steps, 2 profiled)."""
    from gt_jobs import J
    from gt_jobs9 import MX

    def P(name, spec):
        s = dict(spec, iters=4, profile=True, build_on_gpu=True)
        return J("dev20-prof-" + name, "dev20-profile", 40, exclusive=True, timeout=150, heldout=False, spec=s)
    return [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe")),
            P("mixtral-f-s1024-b4-bf16", T(*MX, b=4, seq=1024, family="mixtral")),
            P("mixtral-f-s1024-b4-bf16-lora16", T(*MX, b=4, seq=1024, lora=16, family="mixtral")),
            P("whisper-medium-b8-bf16", T(*WHM, io="whisper", b=8, seq=64)),
            P("whisper-medium-b8-bf16-ckpt", T(*WHM, io="whisper", b=8, seq=64, ckpt="block"))]
