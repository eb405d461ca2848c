"""Session 39, call 138: late67 (BLIND; kept outside the repository until evaluated once): a fourth blind test of the
per-kind candidate host (bench/steptime/hosts/modhost-kinds.json) against the committed costs, after late66.

Technique pairs on shapes no timing used, host-bound to balanced, eager, 7 steps, each with the phase split, four
processes: GPT-2 s128 b4 bf16 AMP, fp32, checkpointed; ViT-B/16 b16 bf16 AMP, checkpointed, fp32; Llama-small s128 b2
bf16 AMP, LoRA r16, checkpointed; ConvNeXt-T b12 bf16 AMP, fp32, checkpointed. Predictions were written before capture:
late67_predictions.md beside this file."""
from gt_jobs import J, T, timer, timing_jobs, LLAMA_SMALL, GPT2
from gt_jobs9 import tv


def call138():
    G2 = ("GPT2LMHeadModel", "GPT2Config", GPT2)
    L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
    t = timer("late67-", "late67-timing")
    groups = (
        ("gpt2", [t("t-gpt2-s128-b4-bf16", T(*G2, b=4, seq=128)),
                  t("t-gpt2-s128-b4-fp32", T(*G2, b=4, seq=128, prec="fp32")),
                  t("t-gpt2-s128-b4-bf16-ckpt", T(*G2, b=4, seq=128, ckpt="block"))]),
        ("vit", [t("t-vitb16-b16-bf16", tv("vit_b_16", 16)), t("t-vitb16-b16-bf16-ckpt", tv("vit_b_16", 16, ckpt="block")),
                 t("t-vitb16-b16-fp32", tv("vit_b_16", 16, prec="fp32"))]),
        ("llama", [t("t-llama-small-s128-b2-bf16", T(*L, b=2, seq=128)),
                   t("t-llama-small-s128-b2-bf16-lora16", T(*L, b=2, seq=128, lora=16)),
                   t("t-llama-small-s128-b2-bf16-ckpt", T(*L, b=2, seq=128, ckpt="block"))]),
        ("convnext", [t("t-convnext-tiny-b12-bf16", tv("convnext_tiny", 12)),
                      t("t-convnext-tiny-b12-fp32", tv("convnext_tiny", 12, prec="fp32")),
                      t("t-convnext-tiny-b12-bf16-ckpt", tv("convnext_tiny", 12, ckpt="block"))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late67-", "late67-timing", groups)
