"""Session 57, call 209: are the technique ratios' misses the plan's or the host's?

Every alternated set so far (dev112-dev114, late101-late102) ran on a lent H100 host, and there the plan's autocast
and checkpointing ratios of host-bound transformers run about 10% over (bench/steptime: the median signed error of
the host-bound pairs of the H100 sets is +10.8% for AMP and +9.8% for checkpointing, of the H200 sets +4.5% and
+2.0%, each configuration timed in its own process). A single host-speed factor (--measured-step) does not move
those ratios (dev112/late101/late102/dev114: 29 -> 30 of 49 within 10%): the increment, not the host's speed, is
what differs. call209 asks for an H200 (the kind the plan's host costs were measured on) and times, alternated step
by step in one process (gt_alternate.py), configurations an H100 host already timed so:

dev115 (development): BERT-base s128 b8, DistilBERT s128 b8, Swin-T b8, GPT-2 s256 b2 (fp32, bf16, bf16 with
checkpointing), ResNet-50 b8 and EfficientNet-B0 b16 (those and compiled): the same configurations on another host.

late103 (BLIND; kept outside the repository until evaluated once; late103_predictions.md beside this file was
written before capture): ELECTRA-base s128 b8, Whisper-base b16, Marian s128 b4 (fp32, bf16, bf16 with
checkpointing) and ResNet-152 b8 (those and compiled), families no alternated set has timed."""
from gt_jobs import J, T, timer, timing_jobs, dev_timing_jobs
from gt_jobs9 import tv
from gt_jobs106 import WHB
from gt_jobs116 import GPT2_124M
from gt_jobs121 import DB_CLS, BERT_BASE
from gt_jobs127 import SWIN_T
from gt_jobs130 import EL_BASE
from gt_jobs131 import MARIAN
from gt_jobs144 import FP32, BF16, CKPT, COMP, alt


def call209():
    d = timer("dev115-", "dev115-timing", heldout=False)
    dev = (
        ("bert", [alt(d, "t-bert-base-s128-b8", T(*BERT_BASE, io="cls", b=8, seq=128), [FP32, BF16, CKPT])]),
        ("distilbert", [alt(d, "t-distilbert-s128-b8", T(*DB_CLS, io="cls", b=8, seq=128), [FP32, BF16, CKPT])]),
        ("swin", [alt(d, "t-swin-tiny-b8", T(*SWIN_T, io="hfvision", b=8), [FP32, BF16, CKPT])]),
        ("gpt2", [alt(d, "t-gpt2-s256-b2", T(*GPT2_124M, b=2, seq=256), [FP32, BF16, CKPT])]),
        ("resnet50", [alt(d, "t-resnet50-b8", tv("resnet50", 8), [FP32, BF16, CKPT, COMP])]),
        ("effnet", [alt(d, "t-efficientnet-b0-b16", tv("efficientnet_b0", 16), [FP32, BF16, CKPT, COMP])]),
    )
    t = timer("late103-", "late103-timing")
    blind = (
        ("electra", [alt(t, "t-electra-base-s128-b8", T(*EL_BASE, io="cls", b=8, seq=128), [FP32, BF16, CKPT])]),
        ("whisper", [alt(t, "t-whisper-base-b16", T(*WHB, io="whisper", b=16, seq=64), [FP32, BF16, CKPT])]),
        ("marian", [alt(t, "t-marian-s128-b4", T(*MARIAN, io="s2s", b=4, seq=128), [FP32, BF16, CKPT])]),
        ("resnet152", [alt(t, "t-resnet152-b8", tv("resnet152", 8), [FP32, BF16, CKPT, COMP], rounds=10)]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    # the blind groups first: a budget cut takes the development repeats
    return [probe] + timing_jobs("late103-", "late103-timing", blind) + dev_timing_jobs("dev115-", "dev115-timing", dev)


def call210():
    """call209's blind transformer groups alone (late103 without ResNet-152's compile, dev115 left out): what the
    session's remaining device time could hold after nine refused starts."""
    return [j for j in call209() if j["name"].startswith("late103-") and "resnet152" not in j["name"]]
