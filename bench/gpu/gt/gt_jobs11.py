"""Session 6. Call 17, at the session's start, before any model of the session changed: an eighth blind
set (late8) kept outside the repository and every helper's view until the models are final: new shapes
and technique mixes, the first captures of the diffusion families (diffusers' Stable Diffusion UNet and
DiT, run from diffusers' source carried to the machine), a timing group per process with technique
pairs. Beside it, dev data (not blind): snapshots of two seen blind configurations whose reserved figure
missed (Gemma 2 LoRA: the logits split; Qwen3 + SGD) and kernel profiles of three step-time misses
(T5-large bf16 AMP, EfficientNet-B0 fp32, Mistral LoRA)."""
from gt_jobs import J, T, G, GPT2_MEDIUM, maker, timer, timing_jobs
from gt_jobs7 import LL1B
from gt_jobs9 import QW05, MI, GE, G2, GE3, P3, Q3, OL, MX, QM, GR, WH, T5L, BERTL, tv
import gt_jobs10

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)


def df(name, b, **kw):
    return T("df:" + name, None, None, io="diffusion", b=b, **kw)


B = maker("late8-", "late8", heldout=True)


def blind_jobs():
    return [
        B("llama32-1b-s512-b16-bf16w-ckpt", T(*LL1B, b=16, seq=512, prec="bf16w", ckpt="block", family="llama")),
        B("qwen25-05b-s2048-b4-bf16-lora16", T(*QW05, b=4, seq=2048, lora=16, family="qwen2")),
        B("mistral-e-s2048-b2-fp16", T(*MI, b=2, seq=2048, prec="fp16", family="mistral")),
        B("gemma-e-s1024-b2-bf16-lora8", T(*GE, b=2, seq=1024, lora=8, family="gemma")),
        B("gemma2-f-s1024-b4-bf16", T(*G2, b=4, seq=1024, family="gemma2")),
        B("gemma2-f-s1024-b2-bf16w-lora16-ckpt", T(*G2, b=2, seq=1024, prec="bf16w", lora=16, ckpt="block",
                                                  family="gemma2")),
        B("gemma3-e-s2048-b2-bf16-ckpt", T(*GE3, b=2, seq=2048, ckpt="block", family="gemma3")),
        B("phi3-f-s512-b16-bf16-lora16", T(*P3, b=16, seq=512, lora=16, family="phi3")),
        B("qwen3-g-s1024-b8-bf16w", T(*Q3, b=8, seq=1024, prec="bf16w", family="qwen3")),
        B("olmo2-f-s512-b8-fp32", T(*OL, b=8, seq=512, prec="fp32", family="olmo2")),
        B("mixtral-f-s2048-b2-bf16-ckpt", T(*MX, b=2, seq=2048, ckpt="block", family="mixtral")),
        B("qwen2moe-f-s512-b8-bf16w", T(*QM, b=8, seq=512, prec="bf16w", family="qwen2moe")),
        B("granite-f-s1024-b4-bf16-sgd", T(*GR, b=4, seq=1024, opt="sgd", family="granite")),
        B("whisper-f-b16-fp32", T(*WH, io="whisper", b=16, seq=96, prec="fp32", family="whisper")),
        B("gpt2-medium-s512-b32-fp16", T(*GM, b=32, seq=512, prec="fp16")),
        B("t5-large-s128-b64-bf16-ckpt", T(*T5L, io="s2s", b=64, seq=128, ckpt="block")),
        B("bert-large-s256-b64-bf16w", T(*BERTL, io="cls", b=64, seq=256, prec="bf16w")),
        B("vitl16-b48-bf16-ckpt", tv("vit_l_16", 48, ckpt="block")),
        B("convnext-base-b64-bf16", tv("convnext_base", 64)),
        B("resnet50-b192-fp16", tv("resnet50", 192, prec="fp16")),
        B("efficientnet-b2-b96-bf16", tv("efficientnet_b2", 96)),
        B("gpt2-medium-s1024-b8-bf16-compile", T(*GM, b=8, seq=1024, compile=True, iters=4), mem=40),
        J("late8-gen-qwen25-05b-bf16-dynamic-inf", "late8-generate", 30, heldout=True, timeout=240,
          spec=G("qwen25-05b", "bf16", "dynamic", "inference", [(32, 512, 128), (4, 4000, 64)])),
    ]


def diffusion_jobs():
    return [
        B("sd15-unet-b4-bf16", df("sd15-unet", 4, family="unet"), mem=40),
        B("sd15-unet-b8-bf16-ckpt", df("sd15-unet", 8, ckpt="block", family="unet"), mem=40),
        B("sd15-unet-b8-bf16w-lora16", df("sd15-unet", 8, prec="bf16w", lora=16, family="unet"), mem=40),
        B("sd15-unet-r256-b16-fp32", df("sd15-unet", 16, prec="fp32", res=256, family="unet"), mem=40),
        B("dit-xl-2-b32-bf16", df("dit-xl-2", 32, family="dit"), mem=40),
        B("dit-xl-2-b64-bf16-ckpt", df("dit-xl-2", 64, ckpt="block", family="dit"), mem=40),
        B("dit-b-2-b128-fp32", df("dit-b-2", 128, prec="fp32", family="dit"), mem=40),
    ]


t = timer("late8-", "late8-timing")


def timing_groups():
    a = [
        t("t-llama32-1b-s1024-b8-bf16", T(*LL1B, b=8, seq=1024)),
        t("t-llama32-1b-s1024-b8-bf16-ckpt", T(*LL1B, b=8, seq=1024, ckpt="block")),
        t("t-qwen25-05b-s2048-b4-bf16", T(*QW05, b=4, seq=2048)),
        t("t-qwen25-05b-s2048-b4-bf16-lora16", T(*QW05, b=4, seq=2048, lora=16)),
        t("t-phi3-f-s1024-b4-fp32", T(*P3, b=4, seq=1024, prec="fp32")),
        t("t-phi3-f-s1024-b4-bf16", T(*P3, b=4, seq=1024)),
    ]
    b = [
        t("t-gemma2-f-s1024-b4-bf16", T(*G2, b=4, seq=1024)),
        t("t-mixtral-f-s512-b8-bf16", T(*MX, b=8, seq=512)),
        t("t-olmo2-f-s1024-b8-bf16", T(*OL, b=8, seq=1024)),
        t("t-olmo2-f-s1024-b4x2-bf16", T(*OL, b=4, seq=1024, accum=2)),
        t("t-t5-large-s512-b8-bf16", T(*T5L, io="s2s", b=8, seq=512)),
        t("t-gpt2-medium-s512-b32-fp16", T(*GM, b=32, seq=512, prec="fp16")),
    ]
    c = [
        t("t-sd15-unet-b8-bf16", df("sd15-unet", 8)),
        t("t-sd15-unet-b8-bf16-ckpt", df("sd15-unet", 8, ckpt="block")),
        t("t-dit-xl-2-b32-bf16", df("dit-xl-2", 32)),
        t("t-resnet50-b128-fp32", tv("resnet50", 128, prec="fp32")),
        t("t-resnet50-b128-bf16", tv("resnet50", 128)),
        t("t-convnext-tiny-b64-bf16", tv("convnext_tiny", 64)),
        t("t-efficientnet-b2-b96-bf16", tv("efficientnet_b2", 96)),
        t("t-vitb16-b64-fp16", tv("vit_b_16", 64, prec="fp16")),
    ]
    return timing_jobs("late8-", "late8-timing", (("lm-a", a), ("lm-b", b), ("vision-diffusion", c)))


D = maker("dev6-", "dev6", heldout=False, timeout=200)


def dev_jobs():
    G2S, Q3c = gt_jobs10.G2, Q3
    return [
        D("gemma2-g-s1024-b4-bf16-lora16-snap", T(*G2S, b=4, seq=1024, lora=16, iters=2, snap=True,
                                                  family="gemma2")),
        D("qwen3-g-s1024-b4-bf16-sgd-snap", T(*Q3c, b=4, seq=1024, opt="sgd", iters=2, snap=True, family="qwen3")),
        D("prof-t5-large-s256-b16-bf16", T(*T5L, io="s2s", b=16, seq=256, iters=4, profile=True), mem=40),
        D("prof-efficientnet-b0-b64-fp32", tv("efficientnet_b0", 64, prec="fp32", iters=4, profile=True)),
        D("prof-mistral-e-s1024-b4-bf16-lora16", T(*MI, b=4, seq=1024, lora=16, iters=4, profile=True)),
        D("sd15-unet-b4-bf16-vaeenc", df("sd15-unet", 4, vae_encode=True, family="unet"), mem=40),
    ]


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + diffusion_jobs() + blind_jobs() + dev_jobs()
