"""Session 41, call 140: late69 (BLIND; kept outside the repository until evaluated once): technique pairs of the
newer decoder families and of vision and encoder-decoder models at GPU-bound to balanced shapes, on an H200 if one
is lent (band data there; evaluation only on an H100), to check issue 14's step-time figures and issue 18's bands at
first sight with the committed models, which no set has since late68.

Eager, 7 steps, each with the phase split, one process per group: Qwen3-0.6B s2048 b4 bf16 AMP, checkpointed, LoRA
r16; Gemma 3 1B s2048 b2 bf16 AMP, checkpointed; OLMo 2 1B s2048 b2 bf16 AMP, b1x2 accumulation; Granite-2B-like
s1024 b4 bf16 AMP, LoRA r16 checkpointed; ViT-B/16 b48 bf16 AMP, fp32; ConvNeXt-T b72 bf16 AMP, checkpointed; T5-base
s512 b8 bf16 AMP, fp32; RoBERTa-base s256 b32 fp16 AMP, b16x2 accumulation. Predictions were written before capture:
late69_predictions.md beside this file."""
from gt_jobs import J, T, timer, timing_jobs
from gt_jobs21 import Q3_06B
from gt_jobs23 import GE3_1B
from gt_jobs31 import OL1B, GR2B
from gt_jobs7 import T5B
from gt_jobs106 import ROB
from gt_jobs9 import tv


def call140():
    t = timer("late69-", "late69-timing")
    groups = (
        ("qwen3", [t("t-qwen3-06b-s2048-b4-bf16", T(*Q3_06B, b=4, seq=2048)),
                   t("t-qwen3-06b-s2048-b4-bf16-ckpt", T(*Q3_06B, b=4, seq=2048, ckpt="block")),
                   t("t-qwen3-06b-s2048-b4-bf16-lora16", T(*Q3_06B, b=4, seq=2048, lora=16))]),
        ("gemma3", [t("t-gemma3-1b-s2048-b2-bf16", T(*GE3_1B, b=2, seq=2048)),
                    t("t-gemma3-1b-s2048-b2-bf16-ckpt", T(*GE3_1B, b=2, seq=2048, ckpt="block"))]),
        ("olmo2", [t("t-olmo2-1b-s2048-b2-bf16", T(*OL1B, b=2, seq=2048)),
                   t("t-olmo2-1b-s2048-b1x2-bf16", T(*OL1B, b=1, seq=2048, accum=2))]),
        ("granite", [t("t-granite-2b-s1024-b4-bf16", T(*GR2B, b=4, seq=1024)),
                     t("t-granite-2b-s1024-b4-bf16-lora16-ckpt", T(*GR2B, b=4, seq=1024, lora=16, ckpt="block"))]),
        ("vit", [t("t-vitb16-b48-bf16", tv("vit_b_16", 48)), t("t-vitb16-b48-fp32", tv("vit_b_16", 48, prec="fp32"))]),
        ("convnext", [t("t-convnext-tiny-b72-bf16", tv("convnext_tiny", 72)),
                      t("t-convnext-tiny-b72-bf16-ckpt", tv("convnext_tiny", 72, ckpt="block"))]),
        ("t5", [t("t-t5-base-s512-b8-bf16", T(*T5B, io="s2s", b=8, seq=512)),
                t("t-t5-base-s512-b8-fp32", T(*T5B, io="s2s", b=8, seq=512, prec="fp32"))]),
        ("roberta", [t("t-roberta-base-s256-b32-fp16", T(*ROB, io="cls", b=32, seq=256, prec="fp16")),
                     t("t-roberta-base-s256-b16x2-fp16", T(*ROB, io="cls", b=16, seq=256, prec="fp16", accum=2))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late69-", "late69-timing", groups)
