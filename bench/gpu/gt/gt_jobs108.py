"""Session 40, call 139: late68 (BLIND; kept outside the repository until evaluated once): a blind set on an H200
(band data), GPU-bound to balanced shapes like the fixtures' timings, to test the per-kind candidate host with the
cheaper cast (bench/steptime/hosts/modhost-kinds-cast18.json) against the committed costs where the GPU, not the
host, sets most of the step.

Technique pairs on shapes no timing used, eager, 7 steps, each with the phase split, six processes: Llama-3.2-1B-like
s1024 b2 bf16 AMP, checkpointed, LoRA r16 checkpointed; Qwen2.5-0.5B s512 b8 bf16 AMP, checkpointed, b4x2
accumulation; ResNet-50 b80 bf16 AMP, fp32; EfficientNet-B0 b96 bf16 AMP, fp32, checkpointed; BERT-base s256 b32 fp16
AMP, fp32, b16x2 accumulation; GPT-2 medium s512 b8 bf16 AMP, checkpointed, LoRA r16. Predictions were written before
capture: late68_predictions.md beside this file."""
from gt_jobs import J, T, timer, timing_jobs, GPT2_MEDIUM
from gt_jobs7 import LL1B, QW05
from gt_jobs9 import tv


def call139():
    BERT = ("BertForSequenceClassification", "BertConfig", {})
    GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
    t = timer("late68-", "late68-timing")
    groups = (
        ("llama1b", [t("t-llama32-1b-s1024-b2-bf16", T(*LL1B, b=2, seq=1024)),
                     t("t-llama32-1b-s1024-b2-bf16-ckpt", T(*LL1B, b=2, seq=1024, ckpt="block")),
                     t("t-llama32-1b-s1024-b2-bf16-lora16-ckpt", T(*LL1B, b=2, seq=1024, lora=16, ckpt="block"))]),
        ("qwen", [t("t-qwen25-05b-s512-b8-bf16", T(*QW05, b=8, seq=512)),
                  t("t-qwen25-05b-s512-b8-bf16-ckpt", T(*QW05, b=8, seq=512, ckpt="block")),
                  t("t-qwen25-05b-s512-b4x2-bf16", T(*QW05, b=4, seq=512, accum=2))]),
        ("resnet", [t("t-resnet50-b80-bf16", tv("resnet50", 80)), t("t-resnet50-b80-fp32", tv("resnet50", 80, prec="fp32"))]),
        ("effnet", [t("t-efficientnet-b0-b96-bf16", tv("efficientnet_b0", 96)),
                    t("t-efficientnet-b0-b96-fp32", tv("efficientnet_b0", 96, prec="fp32")),
                    t("t-efficientnet-b0-b96-bf16-ckpt", tv("efficientnet_b0", 96, ckpt="block"))]),
        ("bert", [t("t-bert-base-s256-b32-fp16", T(*BERT, io="cls", b=32, seq=256, prec="fp16")),
                  t("t-bert-base-s256-b32-fp32", T(*BERT, io="cls", b=32, seq=256, prec="fp32")),
                  t("t-bert-base-s256-b16x2-fp16", T(*BERT, io="cls", b=16, seq=256, prec="fp16", accum=2))]),
        ("gpt2m", [t("t-gpt2-medium-s512-b8-bf16", T(*GM, b=8, seq=512)),
                   t("t-gpt2-medium-s512-b8-bf16-ckpt", T(*GM, b=8, seq=512, ckpt="block")),
                   t("t-gpt2-medium-s512-b8-bf16-lora16", T(*GM, b=8, seq=512, lora=16, lora_targets=["c_attn"]))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late68-", "late68-timing", groups)
