"""Session 47, call 178: encoder-decoder generate TIMED (plan prices its step times as a decoder-only call's, with
widened bands, untimed until now): Whisper, BART, T5, mBART and MarianMT greedy generate, each alone on the GPU,
prefill = generate's first token (the encoder pass and one decoder step; gt_work.time_point), decode tokens/s from
the full call. late90: BLIND (memory and timing), evaluated once."""
from gt_jobs import J, G
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)
import gt_jobs130  # noqa: F401  (registers whisper-*)
import gt_jobs131  # noqa: F401  (registers marian, mbart)


def call178():
    def t(name, key, dtype, grad, points, audio=False):
        spec = G(key, dtype, "dynamic", grad, points, timing=True)
        if audio:
            spec["audio"] = True
        return J("late90-" + name, "late90-generate", 40, heldout=True, exclusive=True, timeout=200, spec=spec)
    return [
        t("tg-whisper-small-bf16", "whisper-small", "bf16", "inference", [(8, 0, 64)], audio=True),
        t("tg-whisper-large-v3-fp16", "whisper-large-v3", "fp16", "no_grad", [(4, 0, 64)], audio=True),
        t("tg-bart-large-bf16", "bart-large", "bf16", "inference", [(8, 512, 64)]),
        t("tg-t5-base-bf16", "t5-base", "bf16", "inference", [(8, 512, 64)]),
        t("tg-mbart-bf16", "mbart", "bf16", "inference", [(4, 256, 64)]),
        t("tg-marian-bf16", "marian", "bf16", "inference", [(16, 128, 64)]),
    ]
