"""Session 48, calls 179 and 180: generate TIMED with a breakdown, to price an encoder-decoder's steps (plan prices
them as a decoder-only call's: late90 found prefill 25-49% fast and decode tokens/s 6-32% fast). Every point
records, besides the timed prefill and generate (gt_work.time_point), the encoder pass alone (or a decoder-only
model's prefill forward) timed, and the ATen operators and CUDA allocations of that pass and of generate with one
and with all new tokens (gt_work.time_detail): the host cost per operator, the operators per allocation (plan's
proxy) and generate's setup come from these. Each model runs alone on the GPU in its own process.
call179: dev98, the points the pricing is built on (and TinyLlama's two fixture points, timed on the fixtures'
H200 host: this host's speed against it). call180: late91, BLIND (other shapes, sizes, precisions and
Whisper large-v3-turbo's 4-layer decoder), evaluated once after the pricing is final."""
from gt_jobs import J, G, GEN_MODELS
import gt_jobs34  # noqa: F401  (registers llama32-3b, qwen3-4b)
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)
import gt_jobs130  # noqa: F401  (registers whisper-*)
import gt_jobs131  # noqa: F401  (registers marian, mbart)

GEN_MODELS.setdefault("whisper-large-v3-turbo", ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=1280, encoder_layers=32, decoder_layers=4, encoder_attention_heads=20, decoder_attention_heads=20,
    encoder_ffn_dim=5120, decoder_ffn_dim=5120, vocab_size=51866, num_mel_bins=128, max_source_positions=1500,
    max_target_positions=448)))


def _t(prefix, group, blind):
    def t(name, key, dtype, points, audio=False, grad="inference"):
        spec = G(key, dtype, "dynamic", grad, points, timing=True, timing_detail=True)
        if audio:
            spec["audio"] = True
        return J(prefix + name, group, 40, heldout=blind, exclusive=True, timeout=240, spec=spec)
    return t


def call179():
    t = _t("dev98-", "dev98-generate", False)
    return [
        t("tg-tinyllama-bf16", "tinyllama", "bf16", [(1, 512, 128), (8, 1024, 128)]),
        t("tg-bart-base-bf16", "bart-base", "bf16", [(1, 128, 64), (8, 512, 64), (64, 1024, 32)]),
        t("tg-bart-large-bf16", "bart-large", "bf16", [(1, 256, 64), (32, 1024, 32)]),
        t("tg-t5-base-bf16", "t5-base", "bf16", [(1, 128, 64), (32, 512, 32)]),
        t("tg-flan-t5-base-bf16", "flan-t5-base", "bf16", [(8, 256, 64)]),
        t("tg-whisper-small-bf16", "whisper-small", "bf16", [(1, 0, 64), (32, 0, 32)], audio=True),
        t("tg-whisper-large-v3-fp16", "whisper-large-v3", "fp16", [(1, 0, 32), (16, 0, 32)], audio=True,
          grad="no_grad"),
        t("tg-marian-bf16", "marian", "bf16", [(1, 64, 64), (64, 256, 32)]),
        t("tg-mbart-bf16", "mbart", "bf16", [(8, 512, 64)]),
        t("tg-gpt2-medium-bf16", "gpt2-medium", "bf16", [(1, 512, 128), (16, 512, 64)]),
    ]


def call180():
    t = _t("late91-", "late91-generate", True)
    return [
        t("tg-whisper-medium-bf16", "whisper-medium", "bf16", [(4, 0, 64)], audio=True),
        t("tg-whisper-turbo-fp16", "whisper-large-v3-turbo", "fp16", [(8, 0, 64)], audio=True),
        t("tg-whisper-base-fp32", "whisper-base", "fp32", [(8, 0, 64)], audio=True),
        t("tg-bart-large-bf16", "bart-large", "bf16", [(4, 768, 128)]),
        t("tg-t5-large-bf16", "t5-large", "bf16", [(16, 256, 64)]),
        t("tg-flan-t5-base-fp32", "flan-t5-base", "fp32", [(4, 512, 64)]),
        t("tg-marian-big-bf16", "marian-big", "bf16", [(8, 128, 64)]),
        t("tg-mbart-small-bf16", "mbart-small", "bf16", [(16, 256, 64)]),
        t("tg-bart-base-bf16", "bart-base", "bf16", [(128, 128, 32)]),
        t("tg-llama32-1b-bf16", "llama32-1b", "bf16", [(4, 2048, 64)]),
    ]


def call181():
    """dev98 too: the same points under torch.no_grad (what a plain model.generate() runs: GenerationMixin.generate
    is itself decorated no_grad) against torch.inference_mode, on a decoder-only and two encoder-decoder models
    (dev98's Whisper large-v3 rows ran no_grad and cost about 1.4x a step per allocation), and mBART's slow first
    token at b8 p512 (15 ms above BART-large's) with and without forced_eos_token_id."""
    t = _t("dev98-", "dev98-generate", False)
    from gt_jobs131 import mbart
    model, config, cfg = mbart()
    GEN_MODELS.setdefault("mbart-noforce", (model, config, dict(cfg, forced_eos_token_id=None)))
    return [
        t("tg-tinyllama-bf16-inf", "tinyllama", "bf16", [(1, 512, 128)]),
        t("tg-tinyllama-bf16-nograd", "tinyllama", "bf16", [(1, 512, 128)], grad="no_grad"),
        t("tg-bart-large-bf16-inf", "bart-large", "bf16", [(1, 256, 64)]),
        t("tg-whisper-small-bf16-inf", "whisper-small", "bf16", [(1, 0, 64)], audio=True),
        t("tg-gpt2-medium-bf16-nograd", "gpt2-medium", "bf16", [(1, 512, 128)], grad="no_grad"),
        t("tg-bart-large-bf16-nograd", "bart-large", "bf16", [(1, 256, 64)], grad="no_grad"),
        t("tg-whisper-small-bf16-nograd", "whisper-small", "bf16", [(1, 0, 64)], audio=True, grad="no_grad"),
        t("tg-whisper-large-v3-fp16-inf", "whisper-large-v3", "fp16", [(1, 0, 32)], audio=True),
        t("tg-whisper-large-v3-fp16-nograd", "whisper-large-v3", "fp16", [(1, 0, 32)], audio=True, grad="no_grad"),
        t("tg-mbart-bf16-b4", "mbart", "bf16", [(4, 256, 64), (8, 512, 64), (8, 128, 64), (1, 512, 64)]),
        t("tg-mbart-noforce-bf16", "mbart-noforce", "bf16", [(8, 512, 64)]),
    ]


def call182():
    """dev99: traces of late91's three memory misses, to read them: Whisper base float32 b8 (reserved -3.5%, under),
    BART-base b128 prompt 128 (reserved -2.6%, under) and T5-large bf16 b16 prompt 256 (allocated +0.4%, over)."""
    def s(name, key, dtype, points, audio=False):
        spec = G(key, dtype, "dynamic", "inference", points, snap=True)
        if audio:
            spec["audio"] = True
        return J("dev99-" + name, "dev99-generate", 40, timeout=200, spec=spec)
    return [
        s("g-whisper-base-fp32", "whisper-base", "fp32", [(8, 0, 64)], audio=True),
        s("g-bart-base-bf16", "bart-base", "bf16", [(128, 128, 32)]),
        s("g-t5-large-bf16", "t5-large", "bf16", [(16, 256, 64)]),
    ]
