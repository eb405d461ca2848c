"""Session 22, call 89, dev44 (development data, NOT blind): snapshots of two blind misses left at the session's
end, each in its own process: late39's T5-small s512 b16 float32 checkpointed (allocated -0.98%, below its band) and
late41's ResNet-50 b96 fp16 (reserved -1.43%, the set's one under-estimate)."""
from gt_jobs import J, T, maker
from gt_jobs9 import tv
from gt_jobs57 import T5


def call89():
    M = maker("dev44-", "dev44", heldout=False)
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            M("t5-small-s512-b16-fp32-ckpt", dict(T(*T5, io="s2s", b=16, seq=512, prec="fp32", ckpt="block"),
                                                  snap=True), 20),
            M("resnet50-b96-fp16", dict(tv("resnet50", 96, prec="fp16"), snap=True), 30)]
