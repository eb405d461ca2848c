"""Session 59, call 218: late107 (BLIND), checkpointed against plain bf16 steps alternated in one process, the test
of cheaper checkpoint regions on the H100 hosts with the CNN blocks' region held at its own price
(late107_predictions.md holds the patch).

The alternated checkpoint pairs, all timed on lent H100 hosts, sit a median +7.3% over the plan (encoder and vision
transformers +9.1%, decoders +4.6%, CNNs -4.9%); the H200 hosts' pairs timed in blocks are centred (+0.3%). The
candidate lowers the H100 hosts' region 1.0 -> 0.7 ms and prices a torchvision CNN block's region at its share of
the calibration machine's (0.8 ms, scaled as the host's issue cost), no longer a share of the host's own region:
on the seen sets the transformers' pairs go to +3.3% (encoders) and 0.0% (decoders), the CNNs' to +0.5%, 25 -> 30
of 34 within 10%; H200 plans do not move. late107 times six configurations of families no alternated checkpoint
pair has timed (DeBERTa-v3, T5, Qwen3, OLMo-2, EfficientNet-B2, ConvNeXt-T b16), bf16 autocast plain against
bf16 autocast with block checkpointing, 12 rounds after 2 warm-up steps (gt_alternate.py). Kept outside the
repository until evaluated once."""
from gt_jobs import J, T, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs21 import Q3_06B
from gt_jobs24 import OLMO2_1B
from gt_jobs127 import DEB_BASE
from gt_jobs134 import T5_SMALL
from gt_jobs144 import BF16, CKPT, alt


def call218():
    t = timer("late107-", "late107-timing")
    groups = (
        ("deberta", [alt(t, "t-debv3-base-s128-b8", T(*DEB_BASE, io="cls", b=8, seq=128), [BF16, CKPT])]),
        ("t5", [alt(t, "t-t5-small-s128-b8", T(*T5_SMALL, io="s2s", b=8, seq=128), [BF16, CKPT])]),
        ("qwen3", [alt(t, "t-qwen3-06b-s256-b2", T(*Q3_06B, b=2, seq=256), [BF16, CKPT])]),
        ("olmo2", [alt(t, "t-olmo2-1b-s256-b1", T(*OLMO2_1B, b=1, seq=256), [BF16, CKPT])]),
        ("effb2", [alt(t, "t-efficientnet-b2-b16", tv("efficientnet_b2", 16), [BF16, CKPT])]),
        ("convnext", [alt(t, "t-convnext-tiny-b16", tv("convnext_tiny", 16), [BF16, CKPT])]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late107-", "late107-timing", groups)


def call219():
    """call218's groups its 100 s budget skipped, on the same warm machine: the 50 s of device time left held none
    of them (all four skipped), so call220 runs them"""
    return [j for j in call218()[3:]]


def call220():
    """call218's groups neither call218 nor call219 ran (Qwen3, OLMo-2, EfficientNet-B2, ConvNeXt-T): the rest of
    late107, for the next session; its rows join call218's held ones (bench/gpu/gt/held) before the evaluation. It
    runs a probe of its own (it may come on another host than call218's: the pass rule's offset is per call)"""
    jobs = call218()
    return jobs[:1] + jobs[3:]
