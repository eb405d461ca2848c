"""Call 9 (end of session 3): a third blind set (testdata/late3), captured after every memory model
of the session was final and evaluated once: new shapes of families already registered, with
technique mixes no earlier call captured, and a few step times (one process, alone on the GPU)."""
from gt_jobs import J, T, LLAMA_SMALL, GPT2_MEDIUM

BERT = ("BertForSequenceClassification", "BertConfig", {})
T5 = ("T5ForConditionalGeneration", "T5Config", {})
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
L3 = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=1536, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=12,
    num_key_value_heads=4, head_dim=128, vocab_size=128256, tie_word_embeddings=True,
    max_position_embeddings=4096))
Q3 = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=896, intermediate_size=2432, num_hidden_layers=14, num_attention_heads=14,
    num_key_value_heads=2, head_dim=64, vocab_size=151936))
G2 = ("Gemma2ForCausalLM", "Gemma2Config", dict(
    hidden_size=640, intermediate_size=2560, num_hidden_layers=8, num_attention_heads=8,
    num_key_value_heads=4, head_dim=80, vocab_size=256000, sliding_window=1024))
MX = ("MixtralForCausalLM", "MixtralConfig", dict(
    hidden_size=640, intermediate_size=1280, num_hidden_layers=6, num_attention_heads=10,
    num_key_value_heads=2, num_local_experts=6, num_experts_per_tok=2, vocab_size=32000))
P3 = ("Phi3ForCausalLM", "Phi3Config", dict(
    hidden_size=768, intermediate_size=2048, num_hidden_layers=8, num_attention_heads=12,
    num_key_value_heads=12, vocab_size=32064))


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def M(name, spec):
    return J("late3-" + name, "late3", 30, heldout=True, timeout=200, spec=spec)


def jobs():
    mem = [
        M("llama-tied-s2048-b2-bf16-lora8", T(*L3, b=2, seq=2048, lora=8, family="llama")),
        M("qwen3-d-s1024-b6-bf16-ckpt", T(*Q3, b=6, seq=1024, ckpt="block", family="qwen3")),
        M("gemma2-d-s2048-b2-bf16", T(*G2, b=2, seq=2048, family="gemma2")),
        M("mixtral-d-s1024-b4-bf16w", T(*MX, b=4, seq=1024, prec="bf16w", family="mixtral")),
        M("phi3-d-s512-b4-fp32", T(*P3, b=4, seq=512, prec="fp32", family="phi3")),
        M("gpt2-medium-s1024-b8-fp16-ckpt", T(*GM, b=8, seq=1024, prec="fp16", ckpt="block")),
        M("bert-base-s256-b64-bf16w", T(*BERT, io="cls", b=64, seq=256, prec="bf16w")),
        M("t5-small-s512-b24-fp32", T(*T5, io="s2s", b=24, seq=512, prec="fp32")),
        M("vitb16-b64-fp16-ckpt", tv("vit_b_16", 64, prec="fp16", ckpt="block")),
        M("resnet50-b160-fp32-ckpt", tv("resnet50", 160, prec="fp32", ckpt="block")),
        M("convnext-small-b48-bf16", tv("convnext_small", 48)),
    ]

    def t(name, spec):
        return dict(spec, iters=7, name="late3-" + name, group="late3-timing", heldout=True)
    tim = [
        t("t-qwen3-d-bf16", T(*Q3, b=6, seq=1024, family="qwen3")),
        t("t-qwen3-d-bf16-ckpt", T(*Q3, b=6, seq=1024, ckpt="block", family="qwen3")),
        t("t-gpt2-medium-s1024-b8-fp16", T(*GM, b=8, seq=1024, prec="fp16")),
        t("t-gpt2-medium-s1024-b8-fp16-ckpt", T(*GM, b=8, seq=1024, prec="fp16", ckpt="block")),
        t("t-bert-base-s256-b64-bf16", T(*BERT, io="cls", b=64, seq=256)),
        t("t-bert-base-s256-b64-fp32", T(*BERT, io="cls", b=64, seq=256, prec="fp32")),
        t("t-vitb16-b64-fp16", tv("vit_b_16", 64, prec="fp16")),
        t("t-convnext-small-b48-bf16", tv("convnext_small", 48)),
        t("t-resnet50-b160-fp32", tv("resnet50", 160, prec="fp32")),
        t("t-t5-small-s512-b24-bf16", T(*T5, io="s2s", b=24, seq=512)),
    ]
    return [J("late3-timing", "late3-timing", 60, heldout=True, exclusive=True, timeout=200,
              spec=dict(kind="multi", specs=tim))] + mem
