"""Session 58, call 211: the H200 half of call 209's question.

Call 209 (late103 blind, dev115) asked for an H200 and ran on a slow H100 host. The question it was written for is
still open: every alternated set (dev112-dev115, late101-late103) ran on a lent H100, where the plan of an H100 now
takes the lent H100 hosts' cast and checkpoint prices (e52c889b) and an H200's keeps the median lent H200 host's,
which were set on H200 sets that timed each configuration in its own process. call211 asks for an H200 and times,
alternated step by step in one process (gt_alternate.py), the transformer configurations call 209 timed:

dev116 (development; seen configurations): ELECTRA-base s128 b8, Whisper-base b16, Marian s128 b4 (late103's, seen
since its evaluation), BERT-base s128 b8, DistilBERT s128 b8, GPT-2 s256 b2, Swin-T b8 (dev115's): fp32, bf16 and
bf16 checkpointed each. If the H200 host's host-bound pairs centre with the H200 costs (median signed ratio error
within +-5%), the per-GPU split stands; if they run ~10% over as the H100 hosts' did with those costs, the H200
costs are over on both and the one-process H200 sets were centred by their noise."""
from gt_jobs import J, T, timer, dev_timing_jobs
from gt_jobs106 import WHB
from gt_jobs116 import GPT2_124M
from gt_jobs121 import DB_CLS, BERT_BASE
from gt_jobs127 import SWIN_T
from gt_jobs130 import EL_BASE
from gt_jobs131 import MARIAN
from gt_jobs144 import FP32, BF16, CKPT, alt


def call211():
    d = timer("dev116-", "dev116-timing", heldout=False)
    groups = (
        ("electra", [alt(d, "t-electra-base-s128-b8", T(*EL_BASE, io="cls", b=8, seq=128), [FP32, BF16, CKPT])]),
        ("whisper", [alt(d, "t-whisper-base-b16", T(*WHB, io="whisper", b=16, seq=64), [FP32, BF16, CKPT])]),
        ("marian", [alt(d, "t-marian-s128-b4", T(*MARIAN, io="s2s", b=4, seq=128), [FP32, BF16, CKPT])]),
        ("bert", [alt(d, "t-bert-base-s128-b8", T(*BERT_BASE, io="cls", b=8, seq=128), [FP32, BF16, CKPT])]),
        ("distilbert", [alt(d, "t-distilbert-s128-b8", T(*DB_CLS, io="cls", b=8, seq=128), [FP32, BF16, CKPT])]),
        ("gpt2", [alt(d, "t-gpt2-s256-b2", T(*GPT2_124M, b=2, seq=256), [FP32, BF16, CKPT])]),
        ("swin", [alt(d, "t-swin-tiny-b8", T(*SWIN_T, io="hfvision", b=8), [FP32, BF16, CKPT])]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev_timing_jobs("dev116-", "dev116-timing", groups)


def call212():
    """dev117 (development, an H100, when no H200 starts): alternated or not, on one host. bench/steptime finds the
    H100 hosts' host-bound autocast pairs timed in blocks (each configuration's steps together) planned 11-12 points
    further over than the alternated ones, but those are other models on other hosts. Here the same three models
    (BERT-base s128 b8, Swin-T b8, GPT-2 s256 b2; fp32, bf16, bf16 checkpointed) on one host, first alternated in one
    process each, then each configuration alone in its own process (7 steps, the first dropped)."""
    d = timer("dev117-", "dev117-timing", heldout=False)
    models = (
        ("bert", "t-bert-base-s128-b8", T(*BERT_BASE, io="cls", b=8, seq=128)),
        ("gpt2", "t-gpt2-s256-b2", T(*GPT2_124M, b=2, seq=256)),
        ("swin", "t-swin-tiny-b8", T(*SWIN_T, io="hfvision", b=8)),
    )
    # model by model, so that a budget cut leaves whole models
    groups = []
    for k, name, spec in models:
        groups.append((k, [alt(d, "alt-" + name, spec, [FP32, BF16, CKPT])]))
        for v in (FP32, BF16, CKPT):
            s = dict(spec, prec=v["prec"], ckpt=v.get("ckpt", "none"))
            groups.append((k + v["suffix"], [d("own-" + name + v["suffix"], s)]))
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev_timing_jobs("dev117-", "dev117-timing", groups)
