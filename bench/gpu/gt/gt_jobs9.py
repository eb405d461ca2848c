"""Call 14 (session 5, before any model of the session changed): a sixth blind set (late6), kept
outside the repository and every helper's view until the session's models are final, then evaluated
once. Shapes, optimizers and technique mixes no earlier call captured: fp16 LoRA on a grouped-query
decoder, long context with checkpointing, float32 Gemma, SGD and Adafactor, fused AdamW, pure-bf16 MoE,
a compiled Llama step, float32 vision; step times in three processes alone on the GPU with technique
pairs; a machine probe first."""
from gt_jobs import J, T, G, GPT2_MEDIUM, LLAMA_SMALL
from gt_jobs7 import LL1B

QW05 = ("Qwen2ForCausalLM", "Qwen2Config", dict(
    hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
    num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True, rope_theta=1000000.0,
    rms_norm_eps=1e-6, max_position_embeddings=8192))
MI = ("MistralForCausalLM", "MistralConfig", dict(
    hidden_size=1280, intermediate_size=4480, num_hidden_layers=10, num_attention_heads=20,
    num_key_value_heads=4, vocab_size=32768, sliding_window=None))
GE = ("GemmaForCausalLM", "GemmaConfig", dict(
    hidden_size=768, intermediate_size=3072, num_hidden_layers=8, num_attention_heads=6,
    num_key_value_heads=1, head_dim=128, vocab_size=256000))
G2 = ("Gemma2ForCausalLM", "Gemma2Config", dict(
    hidden_size=1024, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=8,
    num_key_value_heads=4, head_dim=128, vocab_size=256000, sliding_window=1024))
GE3 = ("Gemma3ForCausalLM", "Gemma3TextConfig", dict(
    hidden_size=1152, intermediate_size=4608, num_hidden_layers=8, num_attention_heads=8,
    num_key_value_heads=4, head_dim=128, vocab_size=262144, sliding_window=512))
P3 = ("Phi3ForCausalLM", "Phi3Config", dict(
    hidden_size=1280, intermediate_size=3584, num_hidden_layers=10, num_attention_heads=20,
    num_key_value_heads=4, vocab_size=32064))
Q3 = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=1280, intermediate_size=3840, num_hidden_layers=10, num_attention_heads=10,
    num_key_value_heads=2, head_dim=128, vocab_size=151936))
OL = ("Olmo2ForCausalLM", "Olmo2Config", dict(
    hidden_size=1536, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=12,
    vocab_size=100352))
MX = ("MixtralForCausalLM", "MixtralConfig", dict(
    hidden_size=1024, intermediate_size=2048, num_hidden_layers=6, num_attention_heads=16,
    num_key_value_heads=4, num_local_experts=4, num_experts_per_tok=2, vocab_size=32000))
QM = ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
    hidden_size=1024, intermediate_size=2816, moe_intermediate_size=704, shared_expert_intermediate_size=2816,
    num_experts=8, num_experts_per_tok=2, num_hidden_layers=6, num_attention_heads=16,
    num_key_value_heads=4, vocab_size=151936))
GR = ("GraniteForCausalLM", "GraniteConfig", dict(
    hidden_size=1536, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=24,
    num_key_value_heads=8, vocab_size=49155))
WH = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=384, encoder_layers=4, decoder_layers=4, encoder_attention_heads=6, decoder_attention_heads=6,
    encoder_ffn_dim=1536, decoder_ffn_dim=1536, vocab_size=51865, num_mel_bins=80))
GL = ("GPT2LMHeadModel", "GPT2Config", dict(n_embd=1280, n_layer=36, n_head=20))
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
T5L = ("T5ForConditionalGeneration", "T5Config", dict(d_model=1024, d_ff=4096, num_heads=16, num_layers=12,
                                                        num_decoder_layers=12, d_kv=64))
BERTL = ("BertForSequenceClassification", "BertConfig",
         dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, num_labels=2))
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def cl(m, b, **kw):
    """tv in channels-last (model and images; session 20)."""
    return tv(m, b, channels_last=True, **kw)


def M(name, spec, mem=30):
    return J("late6-" + name, "late6", mem, heldout=True, timeout=240, spec=spec)


def mem_jobs():
    return [
        M("llama32-1b-s2048-b2-fp16-lora16", T(*LL1B, b=2, seq=2048, prec="fp16", lora=16, family="llama")),
        M("qwen25-05b-s4096-b2-bf16-ckpt", T(*QW05, b=2, seq=4096, ckpt="block", family="qwen2")),
        M("mistral-e-s2048-b4-bf16w-lora16-ckpt", T(*MI, b=4, seq=2048, prec="bf16w", lora=16, ckpt="block",
                                                   family="mistral")),
        M("gemma-e-s512-b8-fp32", T(*GE, b=8, seq=512, prec="fp32", family="gemma")),
        M("gemma2-f-s2048-b2-bf16-ckpt", T(*G2, b=2, seq=2048, ckpt="block", family="gemma2")),
        M("gemma3-e-s1024-b4-bf16-lora8", T(*GE3, b=4, seq=1024, lora=8, family="gemma3")),
        M("phi3-f-s1024-b8-bf16w", T(*P3, b=8, seq=1024, prec="bf16w", family="phi3")),
        M("qwen3-g-s1024-b4-bf16-sgd", T(*Q3, b=4, seq=1024, opt="sgd", family="qwen3")),
        M("olmo2-f-s1024-b4-bf16-adafactor", T(*OL, b=4, seq=1024, opt="adafactor", family="olmo2")),
        M("mixtral-f-s1024-b4-bf16w", T(*MX, b=4, seq=1024, prec="bf16w", family="mixtral")),
        M("qwen2moe-f-s1024-b2-bf16-lora16", T(*QM, b=2, seq=1024, lora=16, family="qwen2moe")),
        M("granite-f-s1024-b4-bf16-fused", T(*GR, b=4, seq=1024, opt="adamw-fused", family="granite")),
        M("whisper-f-b32-bf16", T(*WH, io="whisper", b=32, seq=64, family="whisper")),
        M("gpt2-large-s1024-b8-bf16-ckpt", T(*GL, b=8, seq=1024, ckpt="block")),
        M("llama-small-s1024-b8-bf16-compile", T(*L, b=8, seq=1024, compile=True, iters=4), mem=40),
        M("t5-large-s512-b8-bf16w", T(*T5L, io="s2s", b=8, seq=512, prec="bf16w")),
        M("bert-large-s512-b16-fp32", T(*BERTL, io="cls", b=16, seq=512, prec="fp32")),
        M("vitl16-b32-fp16", tv("vit_l_16", 32, prec="fp16")),
        M("convnext-small-b64-fp32", tv("convnext_small", 64, prec="fp32")),
        M("resnet152-b96-bf16w", tv("resnet152", 96, prec="bf16w")),
        M("efficientnet-b0-b192-bf16", tv("efficientnet_b0", 192)),
        M("resnet34-b256-bf16-sgd", tv("resnet34", 256, opt="sgd")),
        J("late6-gen-llama32-1b-bf16-static-inf", "late6-generate", 30, heldout=True, timeout=240,
          spec=G("llama32-1b", "bf16", "static", "inference", [(8, 1024, 128), (24, 300, 200)])),
        J("late6-gen-tinyllama-bf16-dynamic-nograd", "late6-generate", 30, heldout=True, timeout=240,
          spec=G("tinyllama", "bf16", "dynamic", "no_grad", [(16, 1500, 96), (3, 3000, 300)])),
    ]


def t(name, spec):
    return dict(spec, iters=7, name="late6-" + name, group="late6-timing", heldout=True)


def timing_groups():
    a = [
        t("t-llama32-1b-s2048-b2-bf16", T(*LL1B, b=2, seq=2048)),
        t("t-llama32-1b-s2048-b2-bf16-ckpt", T(*LL1B, b=2, seq=2048, ckpt="block")),
        t("t-llama32-1b-s2048-b2-fp16-lora16", T(*LL1B, b=2, seq=2048, prec="fp16", lora=16)),
        t("t-mistral-e-s1024-b4-bf16", T(*MI, b=4, seq=1024)),
        t("t-mistral-e-s1024-b4-bf16-lora16", T(*MI, b=4, seq=1024, lora=16)),
        t("t-gemma3-e-s1024-b4-bf16", T(*GE3, b=4, seq=1024)),
    ]
    b = [
        t("t-qwen3-g-s1024-b4-bf16", T(*Q3, b=4, seq=1024)),
        t("t-qwen3-g-s1024-b4-bf16-ckpt", T(*Q3, b=4, seq=1024, ckpt="block")),
        t("t-phi3-f-s1024-b8-bf16w", T(*P3, b=8, seq=1024, prec="bf16w")),
        t("t-mixtral-f-s1024-b4-bf16w", T(*MX, b=4, seq=1024, prec="bf16w")),
        t("t-gpt2-large-s1024-b8-bf16", T(*GL, b=8, seq=1024)),
        t("t-gpt2-large-s1024-b4x2-bf16", T(*GL, b=4, seq=1024, accum=2)),
    ]
    c = [
        t("t-t5-large-s512-b8-bf16w", T(*T5L, io="s2s", b=8, seq=512, prec="bf16w")),
        t("t-bert-large-s512-b16-fp32", T(*BERTL, io="cls", b=16, seq=512, prec="fp32")),
        t("t-bert-large-s512-b16-bf16", T(*BERTL, io="cls", b=16, seq=512)),
        t("t-vitl16-b32-fp16", tv("vit_l_16", 32, prec="fp16")),
        t("t-convnext-small-b64-fp32", tv("convnext_small", 64, prec="fp32")),
        t("t-convnext-small-b64-bf16", tv("convnext_small", 64)),
        t("t-resnet152-b96-bf16w", tv("resnet152", 96, prec="bf16w")),
        t("t-efficientnet-b0-b192-bf16", tv("efficientnet_b0", 192)),
    ]
    return [J("late6-timing-" + k, "late6-timing", 60, heldout=True, exclusive=True, timeout=280,
              spec=dict(kind="multi", specs=s)) for k, s in (("lm-a", a), ("lm-b", b), ("enc-vision", c))]


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + mem_jobs()
