"""Session 10. Call 35, at the session's start, before any model of the session changed: a thirteenth
blind set (late13) kept outside the repository and every helper's view until the session's models are
final. Its weight is on the two open issues: step times of technique pairs timed one process per group
(checkpointing on an LLM, two vision transformers, T5 and the UNet; LoRA vs full; AMP vs fp32;
accumulation vs a larger batch; LoRA vs LoRA+checkpointing) for issue 14, and peak reserved of new shapes
and technique mixes of every family (plus one compiled step and generate points) for issue 18's bands.
Beside it, dev data (not blind, shapes late13 does not use): the same technique pairs across batch sizes
on ViT-L, the SD 1.5 UNet and Qwen2.5-0.5B, to see where checkpointing's host time hides behind the GPU
and where LoRA's saving appears (late12: ViT-L ckpt ratio +24.5%, UNet ckpt +36.6%, Qwen LoRA -16.6%)."""
from gt_jobs import J, T, G, GPT2_MEDIUM, maker, timer, timing_jobs, dev_timing_jobs
from gt_jobs7 import LL1B, T5B
from gt_jobs9 import QW05, MI, GE, G2, GE3, P3, Q3, OL, MX, QM, GR, WH, GL, BERTL, tv
from gt_jobs11 import df

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)

B = maker("late13-", "late13", heldout=True)
C = maker("late13-", "late13-compile", heldout=True, timeout=300)


def blind_jobs():
    return [
        B("llama32-1b-s2048-b2-bf16-lora16-ckpt", T(*LL1B, b=2, seq=2048, lora=16, ckpt="block", family="llama")),
        B("qwen25-05b-s1024-b16-bf16-ckpt", T(*QW05, b=16, seq=1024, ckpt="block", family="qwen2")),
        B("mistral-e-s1024-b4-bf16", T(*MI, b=4, seq=1024, family="mistral")),
        B("gemma-e-s2048-b2-bf16-lora16", T(*GE, b=2, seq=2048, lora=16, family="gemma")),
        B("gemma2-f-s2048-b2-bf16-ckpt", T(*G2, b=2, seq=2048, ckpt="block", family="gemma2")),
        B("gemma3-e-s2048-b2-bf16", T(*GE3, b=2, seq=2048, family="gemma3")),
        B("phi3-f-s1024-b4-bf16-lora16-ckpt", T(*P3, b=4, seq=1024, lora=16, ckpt="block", family="phi3")),
        B("qwen3-g-s1024-b4-bf16-ckpt", T(*Q3, b=4, seq=1024, ckpt="block", family="qwen3")),
        B("olmo2-f-s1024-b8-bf16w-lora16", T(*OL, b=8, seq=1024, prec="bf16w", lora=16, family="olmo2")),
        B("mixtral-f-s2048-b2-bf16-ckpt", T(*MX, b=2, seq=2048, ckpt="block", family="mixtral")),
        B("qwen2moe-f-s1024-b4-bf16-lora16", T(*QM, b=4, seq=1024, lora=16, family="qwen2moe")),
        B("granite-f-s2048-b2-bf16", T(*GR, b=2, seq=2048, family="granite")),
        B("gpt2-large-s1024-b4-bf16-ckpt", T(*GL, b=4, seq=1024, ckpt="block")),
        B("gpt2-medium-s1024-b8-fp16", T(*GM, b=8, seq=1024, prec="fp16")),
        B("t5-base-s512-b16-bf16-ckpt", T(*T5B, io="s2s", b=16, seq=512, ckpt="block")),
        B("bert-large-s256-b32-fp32", T(*BERTL, io="cls", b=32, seq=256, prec="fp32")),
        B("whisper-f-b64-bf16-ckpt", T(*WH, io="whisper", b=64, seq=64, ckpt="block", family="whisper")),
        B("vitb16-b64-fp32-ckpt", tv("vit_b_16", 64, prec="fp32", ckpt="block")),
        B("vitl16-b64-bf16-ckpt", tv("vit_l_16", 64, ckpt="block")),
        B("convnext-small-b96-bf16", tv("convnext_small", 96)),
        B("resnet101-b128-bf16", tv("resnet101", 128)),
        B("efficientnet-b0-b96-bf16", tv("efficientnet_b0", 96)),
        B("sd15-unet-b8-bf16", df("sd15-unet", 8, family="unet"), mem=40),
        B("dit-l-2-b32-bf16-ckpt", df("dit-l-2", 32, ckpt="block", family="dit"), mem=40),
        C("gpt2-large-s512-b8-bf16-compile", T(*GL, b=8, seq=512, compile=True, iters=4), mem=40),
        J("late13-gen-llama32-1b-bf16-dynamic-nograd", "late13-generate", 30, heldout=True, timeout=240,
          spec=G("llama32-1b", "bf16", "dynamic", "no_grad", [(8, 1500, 200), (32, 500, 100)])),
        J("late13-gen-tinyllama-fp16-static-inf", "late13-generate", 30, heldout=True, timeout=240,
          spec=G("tinyllama", "fp16", "static", "inference", [(16, 1000, 200)])),
    ]


t = timer("late13-", "late13-timing")


def timing_groups():
    lm = [
        t("t-llama32-1b-s1024-b8-bf16", T(*LL1B, b=8, seq=1024)),
        t("t-llama32-1b-s1024-b8-bf16-ckpt", T(*LL1B, b=8, seq=1024, ckpt="block")),
        t("t-qwen25-05b-s2048-b4-bf16", T(*QW05, b=4, seq=2048)),
        t("t-qwen25-05b-s2048-b4-bf16-lora16", T(*QW05, b=4, seq=2048, lora=16)),
        t("t-gpt2-medium-s1024-b8-bf16", T(*GM, b=8, seq=1024)),
        t("t-gpt2-medium-s1024-b8-fp32", T(*GM, b=8, seq=1024, prec="fp32")),
        t("t-mistral-e-s1024-b8-bf16", T(*MI, b=8, seq=1024)),
        t("t-mistral-e-s1024-b4x2-bf16", T(*MI, b=4, seq=1024, accum=2)),
        t("t-gemma3-e-s1024-b4-bf16-lora16", T(*GE3, b=4, seq=1024, lora=16)),
        t("t-gemma3-e-s1024-b4-bf16-lora16-ckpt", T(*GE3, b=4, seq=1024, lora=16, ckpt="block")),
        t("t-qwen3-g-s1024-b4-bf16", T(*Q3, b=4, seq=1024)),
    ]
    enc = [
        t("t-vitb16-b128-bf16", tv("vit_b_16", 128)),
        t("t-vitb16-b128-bf16-ckpt", tv("vit_b_16", 128, ckpt="block")),
        t("t-convnext-small-b64-bf16", tv("convnext_small", 64)),
        t("t-convnext-small-b64-fp32", tv("convnext_small", 64, prec="fp32")),
        t("t-resnet50-b128-bf16", tv("resnet50", 128)),
        t("t-resnet50-b64x2-bf16", tv("resnet50", 64, accum=2)),
        t("t-efficientnet-b0-b128-bf16", tv("efficientnet_b0", 128)),
        t("t-t5-base-s512-b16-bf16", T(*T5B, io="s2s", b=16, seq=512)),
        t("t-t5-base-s512-b16-bf16-ckpt", T(*T5B, io="s2s", b=16, seq=512, ckpt="block")),
        t("t-whisper-f-b32-bf16", T(*WH, io="whisper", b=32, seq=64)),
        t("t-whisper-f-b32-fp32", T(*WH, io="whisper", b=32, seq=64, prec="fp32")),
    ]
    dif = [
        t("t-sd15-unet-b8-bf16", df("sd15-unet", 8)),
        t("t-sd15-unet-b8-bf16-ckpt", df("sd15-unet", 8, ckpt="block")),
        t("t-dit-l-2-b32-bf16", df("dit-l-2", 32)),
        t("t-dit-l-2-b32-bf16-ckpt", df("dit-l-2", 32, ckpt="block")),
        t("t-gpt2-large-s512-b16-bf16", T(*GL, b=16, seq=512)),
        t("t-gpt2-large-s512-b16-bf16-lora16", T(*GL, b=16, seq=512, lora=16)),
    ]
    return timing_jobs("late13-", "late13-timing", (("lm", lm), ("enc-vision", enc), ("diffusion", dif)))


def dev_timing():
    """Dev (not blind): technique pairs across batch sizes, shapes late13 does not use."""
    d = timer("dev11-", "dev11-timing")
    a = []
    for b in (8, 64):
        a += [d("t-vitl16-b%d-bf16" % b, tv("vit_l_16", b)),
              d("t-vitl16-b%d-bf16-ckpt" % b, tv("vit_l_16", b, ckpt="block"))]
    for b in (2, 6):
        a += [d("t-sd15-unet-b%d-bf16" % b, df("sd15-unet", b)),
              d("t-sd15-unet-b%d-bf16-ckpt" % b, df("sd15-unet", b, ckpt="block"))]
    c = []
    for b, s in ((2, 1024), (16, 512)):
        c += [d("t-qwen25-05b-s%d-b%d-bf16" % (s, b), T(*QW05, b=b, seq=s)),
              d("t-qwen25-05b-s%d-b%d-bf16-lora16" % (s, b), T(*QW05, b=b, seq=s, lora=16))]
    c += [d("t-llama32-1b-s512-b4-bf16", T(*LL1B, b=4, seq=512)),
          d("t-llama32-1b-s512-b4-bf16-ckpt", T(*LL1B, b=4, seq=512, ckpt="block"))]
    return dev_timing_jobs("dev11-", "dev11-timing", (("vision-unet", a), ("lm", c)))


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs() + dev_timing()
