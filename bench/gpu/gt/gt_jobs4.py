"""Call 4 (session 3, before any model of this session changed): a second late blind set
(testdata/late2/), kept aside until the models of this session are final, plus the batch-256
convolution calibration the step-time work needs (dev data, not blind).

- mem-*: memory captures (history on, 3 iterations) of family shapes and technique mixes that no
  earlier call captured: new configs of every registered decoder family, MoE, Whisper, and the
  fixture families at other shapes/precisions.
- time-*: step times without history (7 iterations, median of steps 3..7), one process per group,
  alone on the GPU: new shapes and technique pairs (ckpt vs not, LoRA vs full, AMP vs fp32,
  accumulation vs a larger batch) for the ratio and ordering targets.
- calib-conv256: gt_calib.py --conv256, the ResNet-50 convolutions at batch 256 in fp16/bf16.
"""
from gt_jobs import J, T, G, LLAMA_SMALL, GPT2, GPT2_MEDIUM
import gt_jobs

L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
G2 = ("GPT2LMHeadModel", "GPT2Config", GPT2)
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
BERT = ("BertForSequenceClassification", "BertConfig", {})
BERTL = ("BertForSequenceClassification", "BertConfig",
         dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, num_labels=2))
T5 = ("T5ForConditionalGeneration", "T5Config", {})

# new configs, never captured (c = third shape of each family)
NEW = {
    "gemma-c": ("GemmaForCausalLM", "GemmaConfig", dict(
        hidden_size=1536, intermediate_size=6144, num_hidden_layers=6, num_attention_heads=12,
        num_key_value_heads=2, head_dim=128, vocab_size=256000), 2, 2048),
    "gemma2-c": ("Gemma2ForCausalLM", "Gemma2Config", dict(
        hidden_size=896, intermediate_size=3584, num_hidden_layers=10, num_attention_heads=8,
        num_key_value_heads=2, head_dim=112, vocab_size=256000, sliding_window=1024), 4, 1024),
    "gemma3-c": ("Gemma3ForCausalLM", "Gemma3TextConfig", dict(
        hidden_size=1152, intermediate_size=4608, num_hidden_layers=8, num_attention_heads=8,
        num_key_value_heads=2, head_dim=128, vocab_size=262144, sliding_window=512), 2, 2048),
    "phi3-c": ("Phi3ForCausalLM", "Phi3Config", dict(
        hidden_size=1280, intermediate_size=3584, num_hidden_layers=10, num_attention_heads=20,
        num_key_value_heads=4, vocab_size=32064), 8, 1024),
    "qwen3-c": ("Qwen3ForCausalLM", "Qwen3Config", dict(
        hidden_size=1280, intermediate_size=3584, num_hidden_layers=10, num_attention_heads=16,
        num_key_value_heads=4, head_dim=128, vocab_size=151936), 4, 2048),
    "olmo2-c": ("Olmo2ForCausalLM", "Olmo2Config", dict(
        hidden_size=1280, intermediate_size=3456, num_hidden_layers=10, num_attention_heads=10,
        vocab_size=100352), 6, 1024),
    "granite-c": ("GraniteForCausalLM", "GraniteConfig", dict(
        hidden_size=1280, intermediate_size=3584, num_hidden_layers=10, num_attention_heads=10,
        num_key_value_heads=2, vocab_size=49155), 8, 1024),
    "mixtral-c": ("MixtralForCausalLM", "MixtralConfig", dict(
        hidden_size=896, intermediate_size=1792, num_hidden_layers=10, num_attention_heads=14,
        num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2, vocab_size=32000), 8, 1024),
    "qwen2moe-c": ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
        hidden_size=768, intermediate_size=2048, moe_intermediate_size=512, shared_expert_intermediate_size=2048,
        num_experts=8, num_experts_per_tok=2, num_hidden_layers=10, num_attention_heads=12,
        num_key_value_heads=4, vocab_size=151936), 4, 1024),
    "whisper-c": ("WhisperForConditionalGeneration", "WhisperConfig", dict(
        d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8, decoder_attention_heads=8,
        encoder_ffn_dim=2048, decoder_ffn_dim=2048, vocab_size=51865, num_mel_bins=80), 12, 192),
}


def N(key, **kw):
    model, config, cfg, b, seq = NEW[key]
    io = "whisper" if key.startswith("whisper") else "lm"
    kw = dict(dict(b=b, seq=seq), **kw)
    return T(model, config, cfg, io=io, family=key.split("-")[0], **kw)


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def M(name, spec, mem=30):
    return J("late2-" + name, "late2", mem, heldout=True, timeout=240, spec=spec)


def mem_jobs():
    out = [
        M("gemma-c-bf16-ckpt", N("gemma-c", ckpt="block")),
        M("gemma2-c-bf16-lora16", N("gemma2-c", lora=16)),
        M("gemma3-c-bf16w", N("gemma3-c", prec="bf16w")),
        M("phi3-c-bf16", N("phi3-c")),
        M("phi3-c-bf16-ckpt", N("phi3-c", ckpt="block")),
        M("qwen3-c-bf16-lora16-ckpt", N("qwen3-c", lora=16, ckpt="block")),
        M("olmo2-c-bf16", N("olmo2-c")),
        M("granite-c-bf16w", N("granite-c", prec="bf16w")),
        M("mixtral-c-bf16", N("mixtral-c")),
        M("qwen2moe-c-bf16-ckpt", N("qwen2moe-c", ckpt="block")),
        M("whisper-c-bf16", N("whisper-c")),
        M("whisper-c-fp32", N("whisper-c", prec="fp32")),
        M("llama-small-s2048-b2-bf16-ckpt", T(*L, b=2, seq=2048, ckpt="block")),
        M("llama-small-s512-b16-fp16", T(*L, b=16, seq=512, prec="fp16")),
        M("llama-small-s1024-b6-bf16-lora8", T(*L, b=6, seq=1024, lora=8)),
        M("gpt2-s1024-b12-fp32", T(*G2, b=12, seq=1024, prec="fp32")),
        M("bert-large-s384-b24-bf16-ckpt", T(*BERTL, io="cls", b=24, seq=384, ckpt="block")),
        M("t5-small-s256-b48-bf16", T(*T5, io="s2s", b=48, seq=256)),
        M("resnet50-b96-fp16", tv("resnet50", 96, prec="fp16")),
        M("convnext-tiny-b96-bf16-ckpt", tv("convnext_tiny", 96, ckpt="block")),
        M("vitb16-b96-fp32", tv("vit_b_16", 96, prec="fp32")),
        M("efficientnet-b0-b96-bf16", tv("efficientnet_b0", 96)),
    ]
    gen = [
        J("late2-gen-llama32-1b-bf16-static-inf", "late2-generate", 30, heldout=True, timeout=240,
          spec=G("llama32-1b", "bf16", "static", "inference", [(2, 1536, 96), (16, 768, 192)])),
        J("late2-gen-tinyllama-fp32-dynamic-nograd", "late2-generate", 30, heldout=True, timeout=240,
          spec=G("tinyllama", "fp32", "dynamic", "no_grad", [(3, 1200, 100), (24, 640, 160)])),
    ]
    return out + gen


def t(name, spec):
    return dict(spec, iters=7, name="late2-" + name, group="late2-timing", heldout=True)


def timing_groups():
    lm = [
        t("t-gemma-c-bf16", N("gemma-c")), t("t-gemma-c-bf16-ckpt", N("gemma-c", ckpt="block")),
        t("t-phi3-c-bf16", N("phi3-c")), t("t-phi3-c-bf16-ckpt", N("phi3-c", ckpt="block")),
        t("t-qwen3-c-bf16", N("qwen3-c")), t("t-qwen3-c-bf16-lora16", N("qwen3-c", lora=16)),
        t("t-olmo2-c-bf16", N("olmo2-c")), t("t-granite-c-bf16-b4x2", N("granite-c", b=4, accum=2)),
        t("t-mixtral-c-bf16", N("mixtral-c")), t("t-whisper-c-bf16", N("whisper-c")),
        t("t-llama-small-s1024-b8-fp32", T(*L, b=8, seq=1024, prec="fp32")),
        t("t-llama-small-s1024-b8-bf16", T(*L, b=8, seq=1024)),
        t("t-llama-small-s2048-b2-bf16-lora16-ckpt", T(*L, b=2, seq=2048, lora=16, ckpt="block")),
        t("t-llama-small-s2048-b2-bf16-lora16", T(*L, b=2, seq=2048, lora=16)),
        t("t-gpt2-medium-s512-b16-bf16", T(*GM, b=16, seq=512)),
        t("t-gpt2-medium-s512-b16-bf16-ckpt", T(*GM, b=16, seq=512, ckpt="block")),
        t("t-gpt2-medium-s512-b8x2-bf16", T(*GM, b=8, seq=512, accum=2)),
    ]
    enc = [
        t("t-bert-large-s384-b24-bf16", T(*BERTL, io="cls", b=24, seq=384)),
        t("t-bert-large-s384-b24-fp32", T(*BERTL, io="cls", b=24, seq=384, prec="fp32")),
        t("t-t5-small-s256-b48-bf16", T(*T5, io="s2s", b=48, seq=256)),
        t("t-t5-small-s256-b48-bf16-ckpt", T(*T5, io="s2s", b=48, seq=256, ckpt="block")),
        t("t-resnet50-b256-bf16", tv("resnet50", 256)),
        t("t-resnet50-b256-fp16", tv("resnet50", 256, prec="fp16")),
        t("t-resnet50-b128-fp32", tv("resnet50", 128, prec="fp32")),
        t("t-resnet50-b128x2-bf16", tv("resnet50", 128, accum=2)),
        t("t-resnet101-b64-bf16", tv("resnet101", 64)),
        t("t-convnext-small-b64-bf16", tv("convnext_small", 64)),
        t("t-convnext-small-b64-fp32", tv("convnext_small", 64, prec="fp32")),
        t("t-efficientnet-b0-b256-bf16", tv("efficientnet_b0", 256)),
        t("t-vitb16-b128-bf16", tv("vit_b_16", 128)),
        t("t-vitb16-b128-bf16-ckpt", tv("vit_b_16", 128, ckpt="block")),
    ]
    return [J("late2-timing-lm", "late2-timing", 60, heldout=True, exclusive=True, timeout=260,
              spec=dict(kind="multi", specs=lm)),
            J("late2-timing-enc-vision", "late2-timing", 60, heldout=True, exclusive=True, timeout=260,
              spec=dict(kind="multi", specs=enc))]


def jobs():
    calib = J("calib-conv256", "calibration", 60, exclusive=True, timeout=150,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/calibration-conv256.json", "--budget", "110", "--conv256"])
    # timings and calibration alone on the GPU first, then the memory captures side by side
    return timing_groups() + [resnet_grid(), calib] + mem_jobs()


def resnet_grid():
    """Every ResNet-50 candidate for a global batch of 256 (precision x micro-batch split x ckpt),
    timed alone: whatever plan --fit ranks first later, its measured time is here."""
    specs = []
    for p in ("bf16", "fp16", "fp32"):
        for b, a in ((256, 1), (128, 2), (64, 4)):
            for c in (False, True):
                n = f"grid-resnet50-{p}-b{b}x{a}{'-ckpt' if c else ''}"
                specs.append(dict(tv("resnet50", b, accum=a, prec=p, ckpt="block" if c else "none"),
                                  iters=7, name=n, group="pick2", heldout=True))
    return J("pick2-resnet50-grid", "pick2", 60, heldout=True, exclusive=True, timeout=200,
             spec=dict(kind="multi", specs=specs))
