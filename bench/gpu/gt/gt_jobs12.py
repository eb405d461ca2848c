"""Session 6. Call 18, at the end, after the session's models are final: a ninth blind set (late9)
evaluated once: shapes and technique mixes no earlier call captured, diffusion at new shapes (the
diffusion families' dev captures are dev6), technique pairs timed one process per group."""
from gt_jobs import J, T, G, LLAMA_SMALL, maker, timer, timing_jobs
from gt_jobs7 import LL1B
from gt_jobs9 import QW05, MI, GE, G2, GE3, P3, Q3, OL, QM, GR, WH, GL, T5L, BERTL, tv
import gt_jobs10
from gt_jobs11 import df

L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
G2G = gt_jobs10.G2


B = maker("late9-", "late9", heldout=True)


def blind_jobs():
    return [
        B("llama32-1b-s2048-b4-bf16-lora16-ckpt", T(*LL1B, b=4, seq=2048, lora=16, ckpt="block", family="llama")),
        B("qwen25-05b-s1024-b8-fp32", T(*QW05, b=8, seq=1024, prec="fp32", family="qwen2")),
        B("mistral-e-s1024-b8-bf16-ckpt", T(*MI, b=8, seq=1024, ckpt="block", family="mistral")),
        B("gemma-e-s2048-b2-bf16", T(*GE, b=2, seq=2048, family="gemma")),
        B("gemma2-f-s512-b8-bf16-ckpt", T(*G2, b=8, seq=512, ckpt="block", family="gemma2")),
        B("gemma2-g-s2048-b2-bf16-lora8", T(*G2G, b=2, seq=2048, lora=8, family="gemma2")),
        B("gemma3-e-s1024-b4-bf16w", T(*GE3, b=4, seq=1024, prec="bf16w", family="gemma3")),
        B("phi3-f-s1024-b4-bf16-lora16", T(*P3, b=4, seq=1024, lora=16, lora_targets=["qkv_proj"], family="phi3")),
        B("qwen3-g-s2048-b2-bf16-ckpt", T(*Q3, b=2, seq=2048, ckpt="block", family="qwen3")),
        B("olmo2-f-s1024-b4-bf16-sgd", T(*OL, b=4, seq=1024, opt="sgd", family="olmo2")),
        B("qwen2moe-f-s1024-b4-bf16-ckpt", T(*QM, b=4, seq=1024, ckpt="block", family="qwen2moe")),
        B("granite-f-s512-b8-bf16w-lora16", T(*GR, b=8, seq=512, prec="bf16w", lora=16, family="granite")),
        B("whisper-f-b64-bf16", T(*WH, io="whisper", b=64, seq=48, family="whisper")),
        B("gpt2-large-s512-b8-fp32", T(*GL, b=8, seq=512, prec="fp32")),
        B("t5-large-s256-b32-bf16w", T(*T5L, io="s2s", b=32, seq=256, prec="bf16w")),
        B("bert-large-s128-b128-fp16", T(*BERTL, io="cls", b=128, seq=128, prec="fp16")),
        B("vitb16-b128-fp32", tv("vit_b_16", 128, prec="fp32")),
        B("convnext-small-b96-bf16-ckpt", tv("convnext_small", 96, ckpt="block")),
        B("resnet101-b96-fp32", tv("resnet101", 96, prec="fp32")),
        B("efficientnet-b0-b128-fp16", tv("efficientnet_b0", 128, prec="fp16")),
        B("sd15-unet-b2-fp32", df("sd15-unet", 2, prec="fp32", family="unet"), mem=40),
        B("sd15-unet-r768-b2-bf16-ckpt", df("sd15-unet", 2, res=768, ckpt="block", family="unet"), mem=40),
        B("sd15-unet-b16-bf16w-lora8", df("sd15-unet", 16, prec="bf16w", lora=8, family="unet"), mem=40),
        B("dit-l-2-b64-bf16", df("dit-l-2", 64, family="dit"), mem=40),
        B("dit-xl-2-b16-fp32-ckpt", df("dit-xl-2", 16, prec="fp32", ckpt="block", family="dit"), mem=40),
        B("llama-small-s2048-b4-bf16-compile", T(*L, b=4, seq=2048, compile=True, iters=4), mem=40),
        J("late9-gen-tinyllama-bf16-static-nograd", "late9-generate", 30, heldout=True, timeout=240,
          spec=G("tinyllama", "bf16", "static", "no_grad", [(12, 700, 150), (2, 3500, 120)])),
        J("late9-gen-llama32-1b-bf16-dynamic-inf", "late9-generate", 30, heldout=True, timeout=240,
          spec=G("llama32-1b", "bf16", "dynamic", "inference", [(20, 400, 100), (6, 2000, 200)])),
    ]


t = timer("late9-", "late9-timing")


def timing_groups():
    a = [
        t("t-gemma-e-s2048-b2-bf16", T(*GE, b=2, seq=2048)),
        t("t-gemma-e-s2048-b2-bf16-lora16", T(*GE, b=2, seq=2048, lora=16)),
        t("t-mistral-e-s1024-b8-bf16", T(*MI, b=8, seq=1024)),
        t("t-mistral-e-s1024-b8-bf16-ckpt", T(*MI, b=8, seq=1024, ckpt="block")),
        t("t-qwen3-g-s1024-b4-fp32", T(*Q3, b=4, seq=1024, prec="fp32")),
        t("t-qwen3-g-s1024-b4-bf16", T(*Q3, b=4, seq=1024)),
        t("t-granite-f-s1024-b4-bf16", T(*GR, b=4, seq=1024)),
        t("t-granite-f-s1024-b2x2-bf16", T(*GR, b=2, seq=1024, accum=2)),
    ]
    b = [
        t("t-t5-large-s256-b32-bf16w", T(*T5L, io="s2s", b=32, seq=256, prec="bf16w")),
        t("t-bert-large-s128-b128-fp16", T(*BERTL, io="cls", b=128, seq=128, prec="fp16")),
        t("t-sd15-unet-b4-bf16", df("sd15-unet", 4)),
        t("t-dit-l-2-b64-bf16", df("dit-l-2", 64)),
        t("t-dit-l-2-b64-bf16-ckpt", df("dit-l-2", 64, ckpt="block")),
        t("t-convnext-small-b96-bf16", tv("convnext_small", 96)),
        t("t-convnext-small-b96-bf16-ckpt", tv("convnext_small", 96, ckpt="block")),
        t("t-efficientnet-b0-b128-fp16", tv("efficientnet_b0", 128, prec="fp16")),
        t("t-vitb16-b128-fp32", tv("vit_b_16", 128, prec="fp32")),
        t("t-vitb16-b128-bf16", tv("vit_b_16", 128)),
    ]
    return timing_jobs("late9-", "late9-timing", (("lm", a), ("enc-vision-diffusion", b)))


def jobs():
    probe = J("probe-end", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()
