"""Session 38, call 134: late65 (BLIND; kept outside the repository until evaluated once): a second blind test of the
host costs with the phase split, after late64 (call133) chose between the walk's host costs and the phase-aware fit.

Technique pairs on families and shapes late64 did not time, host-bound to balanced, eager, 7 steps, each with the
phase split (gt_work's phase_s), four processes: BERT-base s256 b4 bf16 AMP, checkpointed, fp32; ConvNeXt-T b8 bf16
AMP, checkpointed, four accumulated micro-batches of it, b32 in one; GPT-2 medium s256 b1 bf16 AMP, LoRA r16 on c_attn, the same
checkpointed; EfficientNet-B0 b16 bf16 AMP, fp32, checkpointed. Predictions of the committed model were written before
capture: late65_predictions.md beside this file."""
from gt_jobs import J, T, timer, timing_jobs, GPT2_MEDIUM
from gt_jobs9 import tv


def call134():
    BERT = ("BertForSequenceClassification", "BertConfig", {})
    G2M = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
    t = timer("late65-", "late65-timing")
    groups = (
        ("bert", [t("t-bert-base-s256-b4-bf16", T(*BERT, io="cls", b=4, seq=256)),
                  t("t-bert-base-s256-b4-bf16-ckpt", T(*BERT, io="cls", b=4, seq=256, ckpt="block")),
                  t("t-bert-base-s256-b4-fp32", T(*BERT, io="cls", b=4, seq=256, prec="fp32"))]),
        ("convnext", [t("t-convnext-tiny-b8-bf16", tv("convnext_tiny", 8)),
                      t("t-convnext-tiny-b8-bf16-ckpt", tv("convnext_tiny", 8, ckpt="block")),
                      t("t-convnext-tiny-b8x4-bf16", tv("convnext_tiny", 8, accum=4)),
                      t("t-convnext-tiny-b32-bf16", tv("convnext_tiny", 32))]),
        ("gpt2m", [t("t-gpt2-medium-s256-b1-bf16", T(*G2M, b=1, seq=256)),
                   t("t-gpt2-medium-s256-b1-bf16-lora16", T(*G2M, b=1, seq=256, lora=16, lora_targets=["c_attn"])),
                   t("t-gpt2-medium-s256-b1-bf16-lora16-ckpt", T(*G2M, b=1, seq=256, lora=16, lora_targets=["c_attn"], ckpt="block"))]),
        ("effnet", [t("t-efficientnet-b0-b16-bf16", tv("efficientnet_b0", 16)),
                    t("t-efficientnet-b0-b16-fp32", tv("efficientnet_b0", 16, prec="fp32")),
                    t("t-efficientnet-b0-b16-bf16-ckpt", tv("efficientnet_b0", 16, ckpt="block"))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late65-", "late65-timing", groups)
