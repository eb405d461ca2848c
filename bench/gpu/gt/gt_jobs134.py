"""Session 49, call 183: encoder-decoder LoRA, with and without activation checkpointing (Flan-T5 / T5 LoRA with
gradient checkpointing, Whisper LoRA fine-tuning): no capture had an encoder-decoder under LoRA and checkpointing,
where transformers' enable_input_require_grads hooks the input embedding (T5's shared table feeds both stacks,
BART's encoder and decoder own tied copies, Whisper's hook is on the decoder's tokens) and plan holds what such a
leaf keeps as it does CLIP's, untested. T5 is adapted on its q and v projections (PEFT's default for T5), the
others on q_proj and v_proj.
dev100: DEVELOPMENT traces (snapshots, one process each), and mBART-small b16 s256 (late88's blind row, reserved
+3.9% over) with its trace.
late92: BLIND memory rows and timed technique groups (full / LoRA / LoRA + checkpointing), kept outside the
repository until the model is final, then evaluated once.
Pegasus (google/pegasus-large, -xsum, distill-pegasus), which plan refuses today: mBART's pre-norm layers with final
LayerNorms on Marian's static sinusoidal positions, no embedding LayerNorm, a ReLU MLP; dev100 traces (training and
generate), late92 blind rows.
Beam search (generate's num_beams, which pegasus-xsum's generation config sets to 8 and bart-large-cnn's to 4; plan
models greedy decoding only): dev100 traces of BART-large, GPT-2 medium and TinyLlama, late92 blind points.
"""
from gt_jobs import J, G, T, maker, timer, timing_jobs, GEN_MODELS
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)
import gt_jobs130  # noqa: F401  (registers whisper-*)
from gt_jobs129 import t5
from gt_jobs131 import MBART, MBART_SMALL, MARIAN

T5_SMALL = t5(512, 6, 8, 2048)


def pegasus(dec_layers=16, max_pos=1024):
    """google/pegasus-large's config.json (pegasus-xsum: 512 positions; sshleifer/distill-pegasus-xsum-16-4: four
    decoder layers)."""
    return ("PegasusForConditionalGeneration", "PegasusConfig", dict(
        vocab_size=96103, d_model=1024, encoder_layers=16, decoder_layers=dec_layers, encoder_attention_heads=16,
        decoder_attention_heads=16, encoder_ffn_dim=4096, decoder_ffn_dim=4096, max_position_embeddings=max_pos,
        activation_function="relu", scale_embedding=True, pad_token_id=0, eos_token_id=1, decoder_start_token_id=0,
        forced_eos_token_id=1, dropout=0.1, attention_dropout=0.1, activation_dropout=0.1))


PEGASUS = pegasus()
PEGASUS_DISTILL = pegasus(4, 512)
GEN_MODELS.setdefault("pegasus", PEGASUS)
GEN_MODELS.setdefault("pegasus-distill", PEGASUS_DISTILL)
T5QV = ["q", "v"]


def beam(prefix, key, dtype, points, beams, blind):
    """A generate job under beam search (num_beams beams, early_stopping off, every beam run to max_new_tokens):
    dev rows with their trace."""
    name = f"{prefix}gen-beam{beams}-{key}-{dtype}"
    group = prefix + ("generate" if blind else "")
    return J(name, group.rstrip("-"), 30, heldout=blind, timeout=300,
             spec=G(key, dtype, "dynamic", "inference", points, num_beams=beams, snap=not blind))


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
        D("pegasus-s512-b4-bf16", s(T(*PEGASUS, io="s2s", b=4, seq=512)), 30),
        D("pegasus-s256-b8-fp16-ckpt", s(T(*PEGASUS, io="s2s", b=8, seq=256, prec="fp16", ckpt="block")), 30),
        J("dev100-gen-pegasus-bf16", "dev100", 20, heldout=False, timeout=240,
          spec=G("pegasus", "bf16", "dynamic", "inference", [(4, 512, 64)], snap=True)),
        beam("dev100-", "bart-large", "bf16", [(4, 512, 64)], 4, False),
        beam("dev100-", "gpt2-medium", "bf16", [(2, 512, 64)], 4, False),
        beam("dev100-", "tinyllama", "bf16", [(4, 256, 64)], 4, False),
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
        B("pegasus-s1024-b2-bf16-lora16-ckpt", T(*PEGASUS, io="s2s", b=2, seq=1024, lora=16, ckpt="block"), 30),
        B("pegasus-distill-s512-b8-bf16", T(*PEGASUS_DISTILL, io="s2s", b=8, seq=512), 30),
        J("late92-gen-pegasus-fp16", "late92-generate", 30, heldout=True, timeout=300,
          spec=G("pegasus", "fp16", "dynamic", "no_grad", [(8, 512, 64)])),
        J("late92-gen-pegasus-distill-bf16", "late92-generate", 30, heldout=True, timeout=300,
          spec=G("pegasus-distill", "bf16", "dynamic", "inference", [(16, 256, 64)])),
        beam("late92-", "pegasus", "bf16", [(4, 512, 64)], 8, True),
        beam("late92-", "t5-base", "bf16", [(8, 256, 64)], 4, True),
        beam("late92-", "llama32-1b", "bf16", [(2, 1024, 128)], 4, True),
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
