"""Session 39, call 137: late66 (BLIND; kept outside the repository until evaluated once): a third blind test of the
walk's host prices, for the per-aten-op / per-autograd-node host model of docs/steptime.md (session 38, lead 1).

Technique pairs on families and shapes no timing used, host-bound to balanced, eager, 7 steps, each with the phase
split (gt_work's phase_s), five processes: Whisper-base b8 bf16 AMP, fp32, checkpointed; Qwen2.5-0.5B s256 b2 bf16
AMP, LoRA r16, checkpointed; T5-small s256 b8 bf16 AMP, fp32, four accumulated micro-batches; ResNet-18 b24 bf16
AMP, fp32, checkpointed; RoBERTa-base s128 b8 bf16 AMP, fp32, checkpointed. Predictions of the committed model were
written before capture (late66_predictions.md beside this file); the results stay unopened until the candidate host
model is final and its predictions are written there too."""
from gt_jobs import J, T, timer, timing_jobs, GEN_MODELS
from gt_jobs9 import tv

WHB = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8, decoder_attention_heads=8,
    encoder_ffn_dim=2048, decoder_ffn_dim=2048, vocab_size=51865, num_mel_bins=80))
T5S = ("T5ForConditionalGeneration", "T5Config", {})
ROB = ("RobertaForSequenceClassification", "RobertaConfig",
       dict(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, num_labels=2))


def call137():
    Q = GEN_MODELS["qwen25-05b"]
    t = timer("late66-", "late66-timing")
    groups = (
        ("whisper", [t("t-whisper-base-b8-bf16", T(*WHB, io="whisper", b=8, seq=64)),
                     t("t-whisper-base-b8-fp32", T(*WHB, io="whisper", b=8, seq=64, prec="fp32")),
                     t("t-whisper-base-b8-bf16-ckpt", T(*WHB, io="whisper", b=8, seq=64, ckpt="block"))]),
        ("qwen", [t("t-qwen25-05b-s256-b2-bf16", T(*Q, b=2, seq=256)),
                  t("t-qwen25-05b-s256-b2-bf16-lora16", T(*Q, b=2, seq=256, lora=16)),
                  t("t-qwen25-05b-s256-b2-bf16-ckpt", T(*Q, b=2, seq=256, ckpt="block"))]),
        ("t5", [t("t-t5-small-s256-b8-bf16", T(*T5S, io="s2s", b=8, seq=256)),
                t("t-t5-small-s256-b8-fp32", T(*T5S, io="s2s", b=8, seq=256, prec="fp32")),
                t("t-t5-small-s256-b8x4-bf16", T(*T5S, io="s2s", b=8, seq=256, accum=4))]),
        ("resnet", [t("t-resnet18-b24-bf16", tv("resnet18", 24)),
                    t("t-resnet18-b24-fp32", tv("resnet18", 24, prec="fp32")),
                    t("t-resnet18-b24-bf16-ckpt", tv("resnet18", 24, ckpt="block"))]),
        ("roberta", [t("t-roberta-base-s128-b8-bf16", T(*ROB, io="cls", b=8, seq=128)),
                     t("t-roberta-base-s128-b8-fp32", T(*ROB, io="cls", b=8, seq=128, prec="fp32")),
                     t("t-roberta-base-s128-b8-bf16-ckpt", T(*ROB, io="cls", b=8, seq=128, ckpt="block"))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late66-", "late66-timing", groups)
