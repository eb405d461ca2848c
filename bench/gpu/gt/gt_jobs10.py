"""Call 15 (session 5, at the end, after the session's models are final): dev captures of the fused
AdamW optimizer (plan's adamw-fused, written from PyTorch's source before any fused capture existed),
and a seventh blind set (late7) evaluated once with the final models: shapes and mixes no earlier call
captured, a timing group with technique pairs."""
from gt_jobs import J, T, GPT2_MEDIUM, LLAMA_SMALL
from gt_jobs9 import LL1B, QW05, GE, P3, Q3, OL, MX, GR, T5L, BERTL, tv

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
G2 = ("Gemma2ForCausalLM", "Gemma2Config", dict(
    hidden_size=896, intermediate_size=3584, num_hidden_layers=8, num_attention_heads=7,
    num_key_value_heads=1, head_dim=128, vocab_size=256000, sliding_window=512))
MI = ("MistralForCausalLM", "MistralConfig", dict(
    hidden_size=1024, intermediate_size=3584, num_hidden_layers=12, num_attention_heads=16,
    num_key_value_heads=8, vocab_size=32768, sliding_window=None))


def D(name, spec, mem=30):
    return J("fused-" + name, "fused", mem, heldout=False, timeout=200, spec=spec)


def B(name, spec, mem=30):
    return J("late7-" + name, "late7", mem, heldout=True, timeout=240, spec=spec)


def dev_jobs():
    return [
        D("gpt2-medium-s1024-b8-bf16-adamwfused", T(*GM, b=8, seq=1024, opt="adamw-fused")),
        D("llama-small-s1024-b4-fp32-adamwfused", T(*L, b=4, seq=1024, prec="fp32", opt="adamw-fused")),
        D("resnet50-b64-bf16-adamwfused", tv("resnet50", 64, opt="adamw-fused")),
    ]


def blind_jobs():
    return [
        B("llama32-1b-s1024-b8-bf16-lora16-ckpt", T(*LL1B, b=8, seq=1024, lora=16, ckpt="block", family="llama")),
        B("qwen25-05b-s1024-b16-bf16w", T(*QW05, b=16, seq=1024, prec="bf16w", family="qwen2")),
        B("gemma2-g-s1024-b4-bf16-lora16", T(*G2, b=4, seq=1024, lora=16, family="gemma2")),
        B("gemma-e-s1024-b4-bf16-ckpt", T(*GE, b=4, seq=1024, ckpt="block", family="gemma")),
        B("phi3-f-s2048-b2-fp32", T(*P3, b=2, seq=2048, prec="fp32", family="phi3")),
        B("qwen3-g-s2048-b2-bf16-lora8", T(*Q3, b=2, seq=2048, lora=8, family="qwen3")),
        B("olmo2-f-s2048-b2-bf16w-ckpt", T(*OL, b=2, seq=2048, prec="bf16w", ckpt="block", family="olmo2")),
        B("mixtral-f-s512-b8-bf16-lora16", T(*MX, b=8, seq=512, lora=16, family="mixtral")),
        B("granite-f-s2048-b2-bf16-adamwfused", T(*GR, b=2, seq=2048, opt="adamw-fused", family="granite")),
        B("mistral-g-s1024-b8-bf16-sgd", T(*MI, b=8, seq=1024, opt="sgd", family="mistral")),
        B("t5-large-s256-b16-fp32", T(*T5L, io="s2s", b=16, seq=256, prec="fp32")),
        B("bert-large-s384-b24-fp16-ckpt", T(*BERTL, io="cls", b=24, seq=384, prec="fp16", ckpt="block")),
        B("vitb16-b96-bf16-ckpt", tv("vit_b_16", 96, ckpt="block")),
        B("convnext-tiny-b128-fp16", tv("convnext_tiny", 128, prec="fp16")),
        B("resnet101-b128-bf16w", tv("resnet101", 128, prec="bf16w")),
        B("efficientnet-b0-b64-fp32", tv("efficientnet_b0", 64, prec="fp32")),
    ]


def t(name, spec):
    return dict(spec, iters=7, name="late7-" + name, group="late7-timing", heldout=True)


def timing_groups():
    a = [
        t("t-qwen25-05b-s1024-b16-bf16w", T(*QW05, b=16, seq=1024, prec="bf16w")),
        t("t-qwen25-05b-s1024-b16-bf16w-lora16", T(*QW05, b=16, seq=1024, prec="bf16w", lora=16)),
        t("t-gemma-e-s1024-b4-bf16", T(*GE, b=4, seq=1024)),
        t("t-gemma-e-s1024-b4-bf16-ckpt", T(*GE, b=4, seq=1024, ckpt="block")),
        t("t-granite-f-s2048-b2-bf16-adamwfused", T(*GR, b=2, seq=2048, opt="adamw-fused")),
        t("t-granite-f-s2048-b2-bf16", T(*GR, b=2, seq=2048)),
    ]
    b = [
        t("t-t5-large-s256-b16-fp32", T(*T5L, io="s2s", b=16, seq=256, prec="fp32")),
        t("t-t5-large-s256-b16-bf16", T(*T5L, io="s2s", b=16, seq=256)),
        t("t-vitb16-b96-bf16", tv("vit_b_16", 96)),
        t("t-vitb16-b96-bf16-ckpt", tv("vit_b_16", 96, ckpt="block")),
        t("t-resnet101-b128-bf16w", tv("resnet101", 128, prec="bf16w")),
        t("t-efficientnet-b0-b64-fp32", tv("efficientnet_b0", 64, prec="fp32")),
    ]
    return [J("late7-timing-" + k, "late7-timing", 60, heldout=True, exclusive=True, timeout=240,
              spec=dict(kind="multi", specs=s)) for k, s in (("lm", a), ("enc-vision", b))]


def jobs():
    probe = J("probe-end", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()


def unaligned():
    """Call 16 (session 5, dev data): odd-vocabulary GEMM calibration and the fused AdamW captures."""
    return [J("calibration-unaligned", "calibration", 60, exclusive=True, timeout=200,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/calibration-unaligned.json", "--budget", "150",
                   "--unaligned"])] + dev_jobs()
