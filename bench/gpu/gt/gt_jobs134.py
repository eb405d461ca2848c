"""Session 49, call 183: encoder-decoder LoRA, with and without activation checkpointing (Flan-T5 / T5 LoRA with
gradient checkpointing, Whisper LoRA fine-tuning): no capture had an encoder-decoder under LoRA and checkpointing,
where transformers' enable_input_require_grads hooks the input embedding (T5's shared table feeds both stacks,
BART's encoder and decoder own tied copies, Whisper's hook is on the decoder's tokens) and plan holds what such a
leaf keeps as it does CLIP's, untested. T5 is adapted on its q and v projections (PEFT's default for T5), the
others on q_proj and v_proj.
dev100: DEVELOPMENT traces (snapshots, one process each), and mBART-small b16 s256 (late88's blind row, reserved
+3.9% over) with its trace.
late92: BLIND memory rows and timed technique groups (full / LoRA / LoRA + checkpointing), kept outside the
repository until the model is final, then evaluated once."""
from gt_jobs import T, maker, timer, timing_jobs, GEN_MODELS
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)
import gt_jobs130  # noqa: F401  (registers whisper-*)
from gt_jobs129 import t5
from gt_jobs131 import MBART, MBART_SMALL, MARIAN

T5_SMALL = t5(512, 6, 8, 2048)
T5QV = ["q", "v"]


def call183():
    D = maker("dev100-", "dev100", heldout=False)
    B = maker("late92-", "late92", heldout=True)
    g = GEN_MODELS

    def s(spec):
        return dict(spec, snap=True)
    dev = [
        D("t5-base-s512-b8-bf16-lora16-ckpt", s(T(*g["t5-base"], io="s2s", b=8, seq=512, lora=16, ckpt="block",
                                                  lora_targets=T5QV)), 25),
        D("bart-base-s512-b16-bf16-lora16-ckpt", s(T(*g["bart-base"], io="s2s", b=16, seq=512, lora=16,
                                                     ckpt="block")), 25),
        D("whisper-small-b16-bf16-lora16-ckpt", s(T(*g["whisper-small"], io="whisper", b=16, seq=64, lora=16,
                                                    ckpt="block")), 30),
        D("flan-t5-base-s256-b16-fp32-lora16", s(T(*g["flan-t5-base"], io="s2s", b=16, seq=256, prec="fp32",
                                                   lora=16, lora_targets=T5QV)), 25),
        D("mbart-small-s256-b16-bf16", s(T(*MBART_SMALL, io="s2s", b=16, seq=256)), 25),
    ]
    blind = [
        B("t5-large-s512-b4-bf16-lora16-ckpt", T(*g["t5-large"], io="s2s", b=4, seq=512, lora=16, ckpt="block",
                                                 lora_targets=T5QV), 25),
        B("flan-t5-base-s512-b8-fp16-lora32-ckpt", T(*g["flan-t5-base"], io="s2s", b=8, seq=512, prec="fp16",
                                                     lora=32, ckpt="block", lora_targets=T5QV), 25),
        B("whisper-medium-b8-fp16-lora16-ckpt", T(*g["whisper-medium"], io="whisper", b=8, seq=96, prec="fp16",
                                                  lora=16, ckpt="block"), 30),
        B("whisper-base-b32-bf16-lora8", T(*g["whisper-base"], io="whisper", b=32, seq=64, lora=8), 25),
        B("bart-large-s1024-b4-bf16-lora16-ckpt", T(*g["bart-large"], io="s2s", b=4, seq=1024, lora=16,
                                                    ckpt="block"), 25),
        B("marian-s256-b32-bf16-lora16-ckpt", T(*MARIAN, io="s2s", b=32, seq=256, lora=16, ckpt="block"), 25),
        B("t5-small-s256-b32-fp32-lora8", T(*T5_SMALL, io="s2s", b=32, seq=256, prec="fp32", lora=8,
                                            lora_targets=T5QV), 20),
        B("mbart-s512-b2-bf16-lora16-ckpt", T(*MBART, io="s2s", b=2, seq=512, lora=16, ckpt="block"), 35),
    ]
    t = timer("late92-", "late92-timing")
    groups = (
        ("t5", [t("t-t5-base-s512-b8-bf16", T(*g["t5-base"], io="s2s", b=8, seq=512)),
                t("t-t5-base-s512-b8-bf16-lora16", T(*g["t5-base"], io="s2s", b=8, seq=512, lora=16,
                                                     lora_targets=T5QV)),
                t("t-t5-base-s512-b8-bf16-lora16-ckpt", T(*g["t5-base"], io="s2s", b=8, seq=512, lora=16,
                                                          ckpt="block", lora_targets=T5QV))]),
        ("bart", [t("t-bart-large-s512-b8-bf16", T(*g["bart-large"], io="s2s", b=8, seq=512)),
                  t("t-bart-large-s512-b8-bf16-lora16", T(*g["bart-large"], io="s2s", b=8, seq=512, lora=16)),
                  t("t-bart-large-s512-b8-bf16-lora16-ckpt", T(*g["bart-large"], io="s2s", b=8, seq=512, lora=16,
                                                               ckpt="block"))]),
    )
    return dev + blind + timing_jobs("late92-", "late92-timing", groups)
