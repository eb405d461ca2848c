"""Session 8. Call 28, at the session's start, before any model of the session changed: an eleventh blind
set (late11) kept outside the repository and every helper's view until the session's models are final
(new shapes and technique mixes of every family: LoRA on every linear layer of other decoders, pure-bf16
LoRA, checkpointed ViT-L, UNet and DiT, fp16 AMP, generate points, technique pairs timed one process
per group, two accumulation pairs), and late11q (QLoRA / AdamW8bit, after bitsandbytes builds). Beside
it, dev data (not blind): memory-history snapshots of the five seen late10 configurations the planner
missed (Qwen3 LoRA on every linear layer +16.4%, SD 1.5 UNet LoRA checkpointed -9.3%, ViT-B
checkpointed +7.9%, Qwen2.5-0.5B pure-bf16 LoRA -3.0%, Whisper checkpointed -2.5%) and the host time of
gradient accumulation at a tiny shape (does it double with the microsteps?)."""
from gt_jobs import J, T, G, GPT2, GPT2_MEDIUM, LLAMA_SMALL, maker, timer, timing_jobs
from gt_jobs7 import LL1B, T5B
from gt_jobs9 import QW05, MI, GE, G2, GE3, P3, Q3, OL, MX, QM, GR, WH, GL, T5L, BERTL, tv
from gt_jobs11 import df

GS = ("GPT2LMHeadModel", "GPT2Config", GPT2)
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
ALL = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

B = maker("late11-", "late11", heldout=True)
Bq = maker("late11q-", "late11q", heldout=True)
D = maker("dev8-", "dev8", heldout=False, timeout=220)


def blind_jobs():
    return [
        B("llama32-1b-s2048-b4-bf16-lora16-all", T(*LL1B, b=4, seq=2048, lora=16, lora_targets=ALL, family="llama")),
        B("qwen3-g-s1024-b4-bf16-lora16-all-ckpt", T(*Q3, b=4, seq=1024, lora=16, lora_targets=ALL, ckpt="block",
                                                   family="qwen3")),
        B("mistral-e-s1024-b8-bf16w-lora16", T(*MI, b=8, seq=1024, prec="bf16w", lora=16, family="mistral")),
        B("gemma-e-s2048-b2-bf16-lora16", T(*GE, b=2, seq=2048, lora=16, family="gemma")),
        B("gemma2-f-s2048-b2-bf16-ckpt", T(*G2, b=2, seq=2048, ckpt="block", family="gemma2")),
        B("gemma3-e-s512-b8-bf16w", T(*GE3, b=8, seq=512, prec="bf16w", family="gemma3")),
        B("phi3-f-s1024-b4-bf16-lora16-ckpt", T(*P3, b=4, seq=1024, lora=16, ckpt="block", family="phi3")),
        B("olmo2-f-s1024-b4-bf16w-lora16", T(*OL, b=4, seq=1024, prec="bf16w", lora=16, family="olmo2")),
        B("mixtral-f-s2048-b2-bf16-ckpt", T(*MX, b=2, seq=2048, ckpt="block", family="mixtral")),
        B("qwen2moe-f-s1024-b4-bf16-lora16", T(*QM, b=4, seq=1024, lora=16, family="qwen2moe")),
        B("granite-f-s2048-b2-bf16", T(*GR, b=2, seq=2048, family="granite")),
        B("qwen25-05b-s1024-b4-bf16-ckpt", T(*QW05, b=4, seq=1024, ckpt="block", family="qwen2")),
        B("whisper-f-b64-bf16", T(*WH, io="whisper", b=64, seq=64, family="whisper")),
        B("gpt2-large-s1024-b8-bf16-ckpt", T(*GL, b=8, seq=1024, ckpt="block")),
        B("gpt2-medium-s1024-b8-fp16", T(*GM, b=8, seq=1024, prec="fp16")),
        B("t5-large-s512-b4-bf16-ckpt", T(*T5L, io="s2s", b=4, seq=512, ckpt="block")),
        B("bert-large-s256-b32-bf16", T(*BERTL, io="cls", b=32, seq=256)),
        B("vitl16-b32-bf16-ckpt", tv("vit_l_16", 32, ckpt="block")),
        B("convnext-base-b64-bf16", tv("convnext_base", 64)),
        B("resnet101-b96-bf16-ckpt", tv("resnet101", 96, ckpt="block")),
        B("efficientnet-b2-b128-bf16", tv("efficientnet_b2", 128)),
        B("sd15-unet-b2-bf16-lora16", df("sd15-unet", 2, lora=16, family="unet"), mem=40),
        B("dit-l-2-b32-bf16-ckpt", df("dit-l-2", 32, ckpt="block", family="dit"), mem=40),
        B("gpt2-s512-b32-bf16-compile", T(*GS, b=32, seq=512, compile=True, iters=4), mem=40),
        J("late11-gen-llama32-1b-bf16-static-nograd", "late11-generate", 30, heldout=True, timeout=240,
          spec=G("llama32-1b", "bf16", "static", "no_grad", [(16, 800, 100), (4, 3000, 200)])),
        J("late11-gen-tinyllama-fp16-dynamic-inf", "late11-generate", 30, heldout=True, timeout=240,
          spec=G("tinyllama", "fp16", "dynamic", "inference", [(32, 500, 150), (8, 1500, 300)])),
    ]


t = timer("late11-", "late11-timing")


def timing_groups():
    a = [
        t("t-llama32-1b-s1024-b8-bf16", T(*LL1B, b=8, seq=1024)),
        t("t-llama32-1b-s1024-b4x2-bf16", T(*LL1B, b=4, seq=1024, accum=2)),
        t("t-qwen3-g-s1024-b4-bf16", T(*Q3, b=4, seq=1024)),
        t("t-qwen3-g-s1024-b4-bf16-ckpt", T(*Q3, b=4, seq=1024, ckpt="block")),
        t("t-gemma2-f-s1024-b2-bf16", T(*G2, b=2, seq=1024)),
        t("t-gemma2-f-s1024-b2-bf16-lora16", T(*G2, b=2, seq=1024, lora=16)),
        t("t-mistral-e-s1024-b4-bf16", T(*MI, b=4, seq=1024)),
        t("t-mistral-e-s1024-b4-fp32", T(*MI, b=4, seq=1024, prec="fp32")),
        t("t-granite-f-s1024-b4-bf16", T(*GR, b=4, seq=1024)),
        t("t-gpt2-medium-s1024-b16-bf16", T(*GM, b=16, seq=1024)),
        t("t-gpt2-medium-s1024-b8x2-bf16", T(*GM, b=8, seq=1024, accum=2)),
    ]
    b = [
        t("t-resnet50-b128-bf16", tv("resnet50", 128)),
        t("t-resnet50-b128-fp32", tv("resnet50", 128, prec="fp32")),
        t("t-vitb16-b64-bf16", tv("vit_b_16", 64)),
        t("t-vitb16-b64-bf16-ckpt", tv("vit_b_16", 64, ckpt="block")),
        t("t-efficientnet-b2-b128-bf16", tv("efficientnet_b2", 128)),
        t("t-t5-large-s512-b8-bf16", T(*T5L, io="s2s", b=8, seq=512)),
        t("t-whisper-f-b32-bf16-ckpt", T(*WH, io="whisper", b=32, seq=64, ckpt="block")),
        t("t-dit-l-2-b32-bf16", df("dit-l-2", 32)),
        t("t-sd15-unet-b4-bf16", df("sd15-unet", 4)),
    ]
    return timing_jobs("late11-", "late11-timing", (("lm", a), ("enc-vision-diffusion", b)))


def host_jobs():
    h = timer("dev8-", "dev8-host")
    host = [h("h-qwen25-05b-s16-b1-bf16", T(*QW05, b=1, seq=16)),
            h("h-qwen25-05b-s16-b1x2-bf16", T(*QW05, b=1, seq=16, accum=2)),
            h("h-qwen25-05b-s16-b1x4-bf16", T(*QW05, b=1, seq=16, accum=4)),
            h("h-llama32-1b-s16-b1x2-bf16", T(*LL1B, b=1, seq=16, accum=2)),
            h("h-gpt2-medium-s16-b1-bf16", T(*GM, b=1, seq=16)),
            h("h-gpt2-medium-s16-b1x2-bf16", T(*GM, b=1, seq=16, accum=2)),
            h("h-resnet50-b1-bf16", tv("resnet50", 1)),
            h("h-resnet50-b1x2-bf16", tv("resnet50", 1, accum=2))]
    return timing_jobs("dev8-", "dev8-host", (("host", host),))


def dev_snaps():
    return [
        D("qwen3-g-s512-b8-bf16-lora16-all-snap", T(*Q3, b=8, seq=512, lora=16, lora_targets=ALL, iters=2,
                                                    snap=True, family="qwen3")),
        D("sd15-unet-b4-bf16-lora16-ckpt-snap", df("sd15-unet", 4, lora=16, ckpt="block", iters=2, snap=True,
                                                   family="unet"), mem=40),
        D("vitb16-b64-bf16-ckpt-snap", tv("vit_b_16", 64, ckpt="block", iters=2, snap=True)),
        D("qwen25-05b-s512-b16-bf16w-lora16-snap", T(*QW05, b=16, seq=512, prec="bf16w", lora=16, iters=2,
                                                     snap=True, family="qwen2")),
        D("whisper-f-b32-bf16-ckpt-snap", T(*WH, io="whisper", b=32, seq=64, ckpt="block", iters=2, snap=True,
                                            family="whisper")),
    ]


def qlora():
    return [
        Bq("qlora-qwen3-g-s1024-b4-r16-ckpt", T(*Q3, b=4, seq=1024, lora=16, quant="nf4", ckpt="block",
                                                family="qwen3")),
        Bq("qlora-llama32-1b-s1024-b4-r16", T(*LL1B, b=4, seq=1024, lora=16, quant="nf4", family="llama")),
        Bq("adamw8bit-qwen25-05b-s1024-b4-bf16", T(*QW05, b=4, seq=1024, opt="adamw8bit", family="qwen2")),
    ]


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + host_jobs() + blind_jobs() + dev_snaps()
