"""Session 37, call 132: dev68 (development data, NOT blind): the host's phase split on another lent host, and
gradient accumulation at host-bound sizes, where the optimizer's host time is paid once per k micro-batches.

dev67 (call128) measured the host's optimizer phase (opt.step and zero_grad) at 1.9-3.3x the walk's in every row and
the backward at 1.4-2.3x, on a slow lent host. If the optimizer's in-step Python costs that much, a host-bound step of
k micro-batches costs k x (forward + backward) + one optimizer, so the accumulation ratio tells the optimizer's share
apart from the forward's and backward's, which a single step's total does not. Eager bf16 AMP, AdamW, 7 steps, three
processes: ResNet-50, BERT-base and Llama-small, each one micro-batch of one or four samples and four accumulated
micro-batches of it. Predictions of the walk as it is and of two refitted host costs (docs/steptime.md, session 37)
are in the commit that adds this file (testdata/dev68/PREDICTIONS.md)."""
from gt_jobs import J, T, dev_timing_jobs, timer, LLAMA_SMALL
from gt_jobs9 import tv


def call132():
    BERT = ("BertForSequenceClassification", "BertConfig", {})
    L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
    t = timer("dev68-", "dev68-timing", heldout=False)
    groups = (
        ("resnet", [t("t-resnet50-b4-bf16", tv("resnet50", 4)), t("t-resnet50-b4x4-bf16", tv("resnet50", 4, accum=4))]),
        ("bert", [t("t-bert-base-s128-b1-bf16", T(*BERT, io="cls", b=1, seq=128)),
                  t("t-bert-base-s128-b1x4-bf16", T(*BERT, io="cls", b=1, seq=128, accum=4))]),
        ("llama", [t("t-llama-small-s128-b1-bf16", T(*L, b=1, seq=128)),
                   t("t-llama-small-s128-b1x4-bf16", T(*L, b=1, seq=128, accum=4))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev_timing_jobs("dev68-", "dev68-timing", groups)
