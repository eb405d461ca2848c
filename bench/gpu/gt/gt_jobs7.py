"""Call 10 (session 4, before any model of this session changed): a fourth blind set (late4),
kept outside the repository until the session's models are final, then evaluated once.

- probe: the machine's figure (gt_probe.py): host CPU, per-op issue time, GEMM rate, bandwidth,
  clocks. Every timing process records one too (gt_work.multi), so timings of different lent
  machines can be compared.
- late4-timing-*: step times without history (7 iterations, median of steps 3..7), one process per
  group, alone on the GPU, with technique pairs (ckpt vs not, LoRA vs full, AMP vs fp32,
  accumulation vs a larger batch).
- late4-*: memory captures (history on, 3 iterations) of shapes no earlier call captured, every
  registered family, mixed techniques; two generate jobs.
"""
from gt_jobs import J, T, G

LL1B = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
    num_key_value_heads=8, head_dim=64, vocab_size=128256, tie_word_embeddings=True,
    rope_theta=500000.0, rms_norm_eps=1e-5, max_position_embeddings=4096))
QW05 = ("Qwen2ForCausalLM", "Qwen2Config", dict(
    hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
    num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True, rope_theta=1000000.0,
    rms_norm_eps=1e-6, max_position_embeddings=4096))
MI = ("MistralForCausalLM", "MistralConfig", dict(
    hidden_size=1024, intermediate_size=3584, num_hidden_layers=12, num_attention_heads=16,
    num_key_value_heads=4, vocab_size=32768, sliding_window=None))
GE = ("GemmaForCausalLM", "GemmaConfig", dict(
    hidden_size=1024, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=8,
    num_key_value_heads=1, head_dim=128, vocab_size=256000))
GE3 = ("Gemma3ForCausalLM", "Gemma3TextConfig", dict(
    hidden_size=768, intermediate_size=3072, num_hidden_layers=10, num_attention_heads=6,
    num_key_value_heads=2, head_dim=128, vocab_size=262144, sliding_window=512))
OL = ("Olmo2ForCausalLM", "Olmo2Config", dict(
    hidden_size=1024, intermediate_size=2816, num_hidden_layers=12, num_attention_heads=16,
    vocab_size=100352))
GR = ("GraniteForCausalLM", "GraniteConfig", dict(
    hidden_size=1024, intermediate_size=2816, num_hidden_layers=12, num_attention_heads=16,
    num_key_value_heads=4, vocab_size=49155))
QM = ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
    hidden_size=640, intermediate_size=1792, moe_intermediate_size=384, shared_expert_intermediate_size=1536,
    num_experts=16, num_experts_per_tok=4, num_hidden_layers=8, num_attention_heads=10,
    num_key_value_heads=2, vocab_size=151936))
MX = ("MixtralForCausalLM", "MixtralConfig", dict(
    hidden_size=768, intermediate_size=1536, num_hidden_layers=8, num_attention_heads=12,
    num_key_value_heads=4, num_local_experts=8, num_experts_per_tok=2, vocab_size=32000))
P3 = ("Phi3ForCausalLM", "Phi3Config", dict(
    hidden_size=1024, intermediate_size=2816, num_hidden_layers=10, num_attention_heads=16,
    num_key_value_heads=16, vocab_size=32064))
Q3 = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=1024, intermediate_size=3072, num_hidden_layers=12, num_attention_heads=16,
    num_key_value_heads=8, head_dim=128, vocab_size=151936))
WH = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=768, encoder_layers=4, decoder_layers=4, encoder_attention_heads=12, decoder_attention_heads=12,
    encoder_ffn_dim=3072, decoder_ffn_dim=3072, vocab_size=51865, num_mel_bins=80))
GP = ("GPT2LMHeadModel", "GPT2Config", {})
T5B = ("T5ForConditionalGeneration", "T5Config", dict(d_model=768, d_ff=3072, num_heads=12, num_layers=12,
                                                        num_decoder_layers=12, d_kv=64))
BERT = ("BertForSequenceClassification", "BertConfig", {})


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def M(name, spec, mem=30):
    return J("late4-" + name, "late4", mem, heldout=True, timeout=240, spec=spec)


def mem_jobs():
    return [
        M("llama32-1b-s1024-b4-bf16-ckpt", T(*LL1B, b=4, seq=1024, ckpt="block", family="llama")),
        M("qwen25-05b-s2048-b4-bf16w-lora16-ckpt", T(*QW05, b=4, seq=2048, prec="bf16w", lora=16, ckpt="block",
                                                    family="qwen2")),
        M("mistral-d-s1024-b8-fp32", T(*MI, b=8, seq=1024, prec="fp32", family="mistral")),
        M("gemma-d-s1024-b4-bf16", T(*GE, b=4, seq=1024, family="gemma")),
        M("gemma3-d-s1024-b4-bf16w-ckpt", T(*GE3, b=4, seq=1024, prec="bf16w", ckpt="block", family="gemma3")),
        M("olmo2-d-s2048-b2-bf16-lora8", T(*OL, b=2, seq=2048, lora=8, family="olmo2")),
        M("granite-d-s1024-b8-fp16", T(*GR, b=8, seq=1024, prec="fp16", family="granite")),
        M("qwen2moe-d-s1024-b4-bf16", T(*QM, b=4, seq=1024, family="qwen2moe")),
        M("mixtral-d-s1024-b4-bf16-lora16-ckpt", T(*MX, b=4, seq=1024, lora=16, ckpt="block", family="mixtral")),
        M("phi3-d-s2048-b2-bf16-ckpt", T(*P3, b=2, seq=2048, ckpt="block", family="phi3")),
        M("qwen3-e-s1024-b4-fp32", T(*Q3, b=4, seq=1024, prec="fp32", family="qwen3")),
        M("whisper-d-b16-bf16", T(*WH, io="whisper", b=16, seq=128, family="whisper")),
        M("gpt2-s512-b32-bf16-compile", T(*GP, b=32, seq=512, compile=True, iters=4), mem=20),
        M("t5-base-s512-b16-bf16", T(*T5B, io="s2s", b=16, seq=512)),
        M("bert-base-s512-b32-fp16-ckpt", T(*BERT, io="cls", b=32, seq=512, prec="fp16", ckpt="block")),
        M("vitl16-b48-bf16-ckpt", tv("vit_l_16", 48, ckpt="block")),
        M("vitb16-b128-bf16w", tv("vit_b_16", 128, prec="bf16w")),
        M("convnext-base-b32-bf16", tv("convnext_base", 32)),
        M("resnet101-b96-bf16", tv("resnet101", 96)),
        M("resnet152-b64-fp16", tv("resnet152", 64, prec="fp16")),
        M("efficientnet-b0-b128-fp32", tv("efficientnet_b0", 128, prec="fp32")),
        J("late4-gen-qwen25-05b-bf16-dynamic-inf", "late4-generate", 30, heldout=True, timeout=240,
          spec=G("qwen25-05b", "bf16", "dynamic", "inference", [(4, 2048, 128), (32, 512, 256)])),
        J("late4-gen-mistral-7b-bf16-static-inf", "late4-generate", 40, heldout=True, timeout=240,
          spec=G("mistral-7b", "bf16", "static", "inference", [(2, 2048, 64), (12, 700, 150)])),
    ]


def t(name, spec):
    return dict(spec, iters=7, name="late4-" + name, group="late4-timing", heldout=True)


def timing_groups():
    a = [
        t("t-llama32-1b-s1024-b4-bf16", T(*LL1B, b=4, seq=1024)),
        t("t-llama32-1b-s1024-b4-bf16-ckpt", T(*LL1B, b=4, seq=1024, ckpt="block")),
        t("t-llama32-1b-s1024-b4-bf16-lora16", T(*LL1B, b=4, seq=1024, lora=16)),
        t("t-llama32-1b-s1024-b4-fp32", T(*LL1B, b=4, seq=1024, prec="fp32")),
        t("t-llama32-1b-s1024-b2x2-bf16", T(*LL1B, b=2, seq=1024, accum=2)),
    ]
    b = [
        t("t-qwen25-05b-s2048-b4-bf16", T(*QW05, b=4, seq=2048)),
        t("t-qwen25-05b-s2048-b4-bf16-ckpt", T(*QW05, b=4, seq=2048, ckpt="block")),
        t("t-gemma-d-s1024-b4-bf16", T(*GE, b=4, seq=1024)),
        t("t-gemma-d-s1024-b4-bf16-ckpt", T(*GE, b=4, seq=1024, ckpt="block")),
        t("t-mixtral-d-s1024-b4-bf16", T(*MX, b=4, seq=1024)),
        t("t-olmo2-d-s2048-b2-bf16-lora8", T(*OL, b=2, seq=2048, lora=8)),
        t("t-olmo2-d-s2048-b2-bf16", T(*OL, b=2, seq=2048)),
    ]
    c = [
        t("t-t5-base-s512-b16-bf16", T(*T5B, io="s2s", b=16, seq=512)),
        t("t-t5-base-s512-b16-fp32", T(*T5B, io="s2s", b=16, seq=512, prec="fp32")),
        t("t-bert-base-s512-b32-fp16", T(*BERT, io="cls", b=32, seq=512, prec="fp16")),
        t("t-bert-base-s512-b32-fp16-ckpt", T(*BERT, io="cls", b=32, seq=512, prec="fp16", ckpt="block")),
        t("t-vitl16-b48-bf16", tv("vit_l_16", 48)),
        t("t-vitl16-b48-bf16-ckpt", tv("vit_l_16", 48, ckpt="block")),
        t("t-convnext-base-b32-bf16", tv("convnext_base", 32)),
        t("t-resnet101-b96-bf16", tv("resnet101", 96)),
        t("t-resnet101-b96-fp32", tv("resnet101", 96, prec="fp32")),
        t("t-efficientnet-b0-b128-fp32", tv("efficientnet_b0", 128, prec="fp32")),
    ]
    return [J("late4-timing-" + k, "late4-timing", 60, heldout=True, exclusive=True, timeout=280,
              spec=dict(kind="multi", specs=s)) for k, s in (("lm-a", a), ("lm-b", b), ("enc-vision", c))]


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + mem_jobs()


def calibration():
    """Call 11: the full calibration on today's machine, with a probe before and after."""
    return [J("probe-calib-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe")),
            J("calibration-full", "calibration", 100, exclusive=True, timeout=300,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/calibration-full.json", "--budget", "230"]),
            J("calibration-norm", "calibration", 100, exclusive=True, timeout=120,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/calibration-norm.json", "--budget", "60", "--norm"]),
            J("probe-calib-end", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))]


def profiles():
    """Call 12 (dev data for the step-time model, not blind): seen late2/late3 timing workloads,
    the worst-predicted and two well-predicted references, each alone in its own process: 6 timed
    steps, then 2 steps under torch.profiler (GPU busy time, every kernel's time)."""
    import gt_jobs4 as g4
    import gt_jobs6 as g6

    def P(name, spec):
        s = dict(spec, iters=6, profile=True, build_on_gpu=True)
        return J("prof-" + name, "profile", 60, exclusive=True, timeout=150, spec=s)
    L = g4.L
    return [
        P("llama-small-s2048-b2-bf16-lora16", T(*L, b=2, seq=2048, lora=16)),
        P("llama-small-s1024-b8-bf16", T(*L, b=8, seq=1024)),
        P("llama-small-s1024-b8-fp32", T(*L, b=8, seq=1024, prec="fp32")),
        P("granite-c-bf16-b4x2", g4.N("granite-c", b=4, accum=2)),
        P("whisper-c-bf16", g4.N("whisper-c")),
        P("efficientnet-b0-b256-bf16", g4.tv("efficientnet_b0", 256)),
        P("t5-small-s256-b48-bf16-ckpt", T(*g4.T5, io="s2s", b=48, seq=256, ckpt="block")),
        P("resnet101-b64-bf16", g4.tv("resnet101", 64)),
        P("convnext-small-b48-bf16", g6.tv("convnext_small", 48)),
        P("gemma-c-bf16", g4.N("gemma-c")),
        P("vitb16-b128-bf16", g4.tv("vit_b_16", 128)),
    ]
