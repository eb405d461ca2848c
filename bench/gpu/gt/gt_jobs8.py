"""Call 13 (session 4): a fifth blind set (late5), captured after the late4 first-sight fixes and
before the session's helpers' models landed; kept outside the repository and evaluated once with the
session's final models. Shapes and technique mixes no earlier call captured: float32 grouped-query
decoders, pure-bf16 vision and GPT-2, LoRA with accumulation, MoE in float32; a timing group."""
from gt_jobs import J, T, LLAMA_SMALL, GPT2_MEDIUM

TL = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=2048, intermediate_size=5632, num_hidden_layers=22, num_attention_heads=32,
    num_key_value_heads=4, vocab_size=32000, max_position_embeddings=2048))
Q15 = ("Qwen2ForCausalLM", "Qwen2Config", dict(
    hidden_size=1536, intermediate_size=8960, num_hidden_layers=28, num_attention_heads=12,
    num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True, max_position_embeddings=4096))
QW05 = ("Qwen2ForCausalLM", "Qwen2Config", dict(
    hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
    num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True, max_position_embeddings=4096))
G2 = ("Gemma2ForCausalLM", "Gemma2Config", dict(
    hidden_size=768, intermediate_size=3072, num_hidden_layers=10, num_attention_heads=8,
    num_key_value_heads=4, head_dim=96, vocab_size=256000, sliding_window=512))
P3 = ("Phi3ForCausalLM", "Phi3Config", dict(
    hidden_size=1536, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=24,
    num_key_value_heads=8, vocab_size=32064))
OL = ("Olmo2ForCausalLM", "Olmo2Config", dict(
    hidden_size=896, intermediate_size=2432, num_hidden_layers=10, num_attention_heads=14,
    vocab_size=100352))
GR = ("GraniteForCausalLM", "GraniteConfig", dict(
    hidden_size=1152, intermediate_size=3072, num_hidden_layers=10, num_attention_heads=18,
    num_key_value_heads=6, vocab_size=49155))
MX = ("MixtralForCausalLM", "MixtralConfig", dict(
    hidden_size=512, intermediate_size=1408, num_hidden_layers=6, num_attention_heads=8,
    num_key_value_heads=2, num_local_experts=8, num_experts_per_tok=2, vocab_size=32000))
Q3 = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=1152, intermediate_size=3072, num_hidden_layers=10, num_attention_heads=16,
    num_key_value_heads=4, head_dim=128, vocab_size=151936))
QM = ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
    hidden_size=768, intermediate_size=2048, moe_intermediate_size=512, shared_expert_intermediate_size=1536,
    num_experts=8, num_experts_per_tok=2, num_hidden_layers=8, num_attention_heads=12,
    num_key_value_heads=4, vocab_size=151936))
WH = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8, decoder_attention_heads=8,
    encoder_ffn_dim=2048, decoder_ffn_dim=2048, vocab_size=51865, num_mel_bins=80))
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
BERTL = ("BertForSequenceClassification", "BertConfig",
         dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, num_labels=2))
T5 = ("T5ForConditionalGeneration", "T5Config", {})
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def M(name, spec, mem=30):
    return J("late5-" + name, "late5", mem, heldout=True, timeout=240, spec=spec)


def mem_jobs():
    return [
        M("tinyllama-s512-b4-fp32", T(*TL, b=4, seq=512, prec="fp32", family="llama"), mem=40),
        M("qwen25-15b-s1024-b2-bf16-ckpt", T(*Q15, b=2, seq=1024, ckpt="block", family="qwen2"), mem=40),
        M("gemma2-e-s1024-b4-bf16w-lora16", T(*G2, b=4, seq=1024, prec="bf16w", lora=16, family="gemma2")),
        M("phi3-e-s1024-b4-bf16", T(*P3, b=4, seq=1024, family="phi3")),
        M("olmo2-e-s1024-b4-fp32", T(*OL, b=4, seq=1024, prec="fp32", family="olmo2")),
        M("granite-e-s2048-b2-bf16-lora8-ckpt", T(*GR, b=2, seq=2048, lora=8, ckpt="block", family="granite")),
        M("mixtral-e-s512-b8-fp32", T(*MX, b=8, seq=512, prec="fp32", family="mixtral")),
        M("qwen3-f-s2048-b2-bf16w", T(*Q3, b=2, seq=2048, prec="bf16w", family="qwen3")),
        M("qwen2moe-e-s512-b8-bf16-ckpt", T(*QM, b=8, seq=512, ckpt="block", family="qwen2moe")),
        M("whisper-e-b24-fp32", T(*WH, io="whisper", b=24, seq=96, prec="fp32", family="whisper")),
        M("gpt2-medium-s512-b16-bf16w", T(*GM, b=16, seq=512, prec="bf16w")),
        M("bert-large-s256-b32-bf16", T(*BERTL, io="cls", b=32, seq=256)),
        M("t5-small-s1024-b8-fp16", T(*T5, io="s2s", b=8, seq=1024, prec="fp16")),
        M("llama-small-s1024-b8x2-bf16-lora32", T(*L, b=8, seq=1024, lora=32, accum=2)),
        M("convnext-tiny-b64-bf16w", tv("convnext_tiny", 64, prec="bf16w")),
        M("resnet50-b128-bf16w", tv("resnet50", 128, prec="bf16w")),
        M("vitb16-b64-fp16", tv("vit_b_16", 64, prec="fp16")),
        M("efficientnet-b0-b96-fp16", tv("efficientnet_b0", 96, prec="fp16")),
    ]


def t(name, spec):
    return dict(spec, iters=7, name="late5-" + name, group="late5-timing", heldout=True)


def timing_groups():
    a = [
        t("t-qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024)),
        t("t-qwen25-05b-s1024-b8-bf16-ckpt", T(*QW05, b=8, seq=1024, ckpt="block")),
        t("t-qwen25-05b-s1024-b8-bf16-lora16", T(*QW05, b=8, seq=1024, lora=16)),
        t("t-phi3-e-s1024-b4-bf16", T(*P3, b=4, seq=1024)),
        t("t-granite-e-s2048-b2-bf16", T(*GR, b=2, seq=2048)),
        t("t-gpt2-medium-s512-b16-bf16w", T(*GM, b=16, seq=512, prec="bf16w")),
    ]
    c = [
        t("t-bert-large-s256-b32-bf16", T(*BERTL, io="cls", b=32, seq=256)),
        t("t-bert-large-s256-b32-fp32", T(*BERTL, io="cls", b=32, seq=256, prec="fp32")),
        t("t-t5-small-s1024-b8-fp16", T(*T5, io="s2s", b=8, seq=1024, prec="fp16")),
        t("t-convnext-tiny-b64-bf16", tv("convnext_tiny", 64)),
        t("t-resnet50-b128-bf16w", tv("resnet50", 128, prec="bf16w")),
        t("t-vitb16-b64-fp16", tv("vit_b_16", 64, prec="fp16")),
        t("t-vitb16-b64-fp16-ckpt", tv("vit_b_16", 64, prec="fp16", ckpt="block")),
    ]
    return [J("late5-timing-" + k, "late5-timing", 60, heldout=True, exclusive=True, timeout=240,
              spec=dict(kind="multi", specs=s)) for k, s in (("lm", a), ("enc-vision", c))]


def jobs():
    return timing_groups() + mem_jobs()
