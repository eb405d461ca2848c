"""Session 37, call 133: late64 (BLIND; kept outside the repository until evaluated once): the host's phase split and
the technique pairs that a phase-aware host fit moves.

docs/steptime.md (session 37) fits the host costs with the measured forward/backward/optimizer split (-fit-phases: Op
72 -> 38.4, Cast 23 -> 31.5, Bwd 29 -> 34.8, Hook 6.3 -> 5.7, Param 1.5 -> 10.9 us on the calibration host) and did not
adopt it. This set tests it before adoption, on shapes no timing used: four processes, eager, 7 steps, host-bound to
balanced sizes, each with the phase split (gt_work's phase_s): GPT-2 s256 b2 bf16 AMP, the same checkpointed, four
accumulated micro-batches of it, and b8 in one; ViT-B/16 b8 bf16 AMP, checkpointed, fp32; ResNet-50 b8 bf16 AMP, four
accumulated micro-batches of it, and b32; Llama-small s256 b2 bf16 AMP, LoRA r16, LoRA r16 checkpointed. Predictions of
the walk as it is and of the phase-aware fit were written before capture: late64_predictions.md beside this file."""
from gt_jobs import J, T, timer, timing_jobs, LLAMA_SMALL, GPT2
from gt_jobs9 import tv


def call133():
    G2 = ("GPT2LMHeadModel", "GPT2Config", GPT2)
    L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
    t = timer("late64-", "late64-timing")
    groups = (
        ("gpt2", [t("t-gpt2-s256-b2-bf16", T(*G2, b=2, seq=256)),
                  t("t-gpt2-s256-b2-bf16-ckpt", T(*G2, b=2, seq=256, ckpt="block")),
                  t("t-gpt2-s256-b2x4-bf16", T(*G2, b=2, seq=256, accum=4)),
                  t("t-gpt2-s256-b8-bf16", T(*G2, b=8, seq=256))]),
        ("vit", [t("t-vitb16-b8-bf16", tv("vit_b_16", 8)), t("t-vitb16-b8-bf16-ckpt", tv("vit_b_16", 8, ckpt="block")),
                 t("t-vitb16-b8-fp32", tv("vit_b_16", 8, prec="fp32"))]),
        ("resnet", [t("t-resnet50-b8-bf16", tv("resnet50", 8)), t("t-resnet50-b8x4-bf16", tv("resnet50", 8, accum=4)),
                    t("t-resnet50-b32-bf16", tv("resnet50", 32))]),
        ("llama", [t("t-llama-small-s256-b2-bf16", T(*L, b=2, seq=256)),
                   t("t-llama-small-s256-b2-bf16-lora16", T(*L, b=2, seq=256, lora=16)),
                   t("t-llama-small-s256-b2-bf16-lora16-ckpt", T(*L, b=2, seq=256, lora=16, ckpt="block"))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late64-", "late64-timing", groups)
