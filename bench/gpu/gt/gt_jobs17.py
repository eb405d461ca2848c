"""Session 9. Call 32, at the session's start, before any model of the session changed: a twelfth blind
set (late12) kept outside the repository and every helper's view until the session's models are final
(new shapes and technique mixes of every family, three compiled steps of three models, generate points
of two models not used by late11, technique pairs timed one process per group: checkpointing on an LLM,
a vision transformer and the UNet, LoRA vs full, AMP vs fp32, accumulation vs a larger batch), and
late12q (QLoRA / AdamW8bit, after bitsandbytes builds). Beside it, dev data (not blind): memory-history
snapshots of three compiled training steps (late11's compiled GPT-2 was +20.7% over in reserved while
its allocated peak was +4.8%: what does the compiled step's request stream look like?) and of
ConvNeXt-S checkpointed (+7.4% seen in late7); the host time of checkpointed vs plain steps at a tiny
shape (late11's checkpointed ViT-B, Whisper and the UNet were 22-26% under in step time)."""
from gt_jobs import J, T, G, GPT2, GPT2_MEDIUM, LLAMA_SMALL, timer, maker, timing_jobs
from gt_jobs7 import LL1B, T5B
from gt_jobs9 import QW05, MI, GE, G2, GE3, P3, Q3, OL, MX, QM, GR, WH, GL, BERTL, tv
from gt_jobs11 import df

GS = ("GPT2LMHeadModel", "GPT2Config", GPT2)
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
ALL = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

B = maker("late12-", "late12", heldout=True)
Bq = maker("late12q-", "late12q", heldout=True)
C = maker("late12-", "late12-compile", heldout=True, timeout=300)
D = maker("dev9-", "dev9", heldout=False, timeout=300)


def blind_jobs():
    return [
        B("llama32-1b-s1024-b8-bf16-ckpt", T(*LL1B, b=8, seq=1024, ckpt="block", family="llama")),
        B("qwen3-g-s2048-b2-bf16-lora16", T(*Q3, b=2, seq=2048, lora=16, family="qwen3")),
        B("mistral-e-s2048-b4-bf16-lora16-ckpt", T(*MI, b=4, seq=2048, lora=16, ckpt="block", family="mistral")),
        B("gemma-e-s1024-b4-bf16-ckpt", T(*GE, b=4, seq=1024, ckpt="block", family="gemma")),
        B("gemma2-f-s1024-b4-bf16w-lora16", T(*G2, b=4, seq=1024, prec="bf16w", lora=16, family="gemma2")),
        B("gemma3-e-s1024-b4-bf16-lora16-ckpt", T(*GE3, b=4, seq=1024, lora=16, ckpt="block", family="gemma3")),
        B("phi3-f-s2048-b2-bf16", T(*P3, b=2, seq=2048, family="phi3")),
        B("olmo2-f-s2048-b2-bf16-ckpt", T(*OL, b=2, seq=2048, ckpt="block", family="olmo2")),
        B("mixtral-f-s1024-b4-bf16-lora16", T(*MX, b=4, seq=1024, lora=16, family="mixtral")),
        B("qwen2moe-f-s2048-b2-bf16-ckpt", T(*QM, b=2, seq=2048, ckpt="block", family="qwen2moe")),
        B("granite-f-s1024-b4-bf16w-lora16-all", T(*GR, b=4, seq=1024, prec="bf16w", lora=16, lora_targets=ALL,
                                                   family="granite")),
        B("qwen25-05b-s2048-b8-fp16", T(*QW05, b=8, seq=2048, prec="fp16", family="qwen2")),
        B("whisper-f-b128-bf16w", T(*WH, io="whisper", b=128, seq=64, prec="bf16w", family="whisper")),
        B("gpt2-large-s512-b16-bf16", T(*GL, b=16, seq=512)),
        B("gpt2-medium-s512-b16-fp32-ckpt", T(*GM, b=16, seq=512, prec="fp32", ckpt="block")),
        B("t5-base-s1024-b8-bf16", T(*T5B, io="s2s", b=8, seq=1024)),
        B("bert-large-s512-b16-bf16-ckpt", T(*BERTL, io="cls", b=16, seq=512, ckpt="block")),
        B("vitb16-b128-bf16", tv("vit_b_16", 128)),
        B("vitl16-b48-bf16", tv("vit_l_16", 48)),
        B("convnext-tiny-b192-fp16", tv("convnext_tiny", 192, prec="fp16")),
        B("resnet50-b192-fp32", tv("resnet50", 192, prec="fp32")),
        B("efficientnet-b3-b64-bf16", tv("efficientnet_b3", 64)),
        B("sd15-unet-b4-bf16-ckpt", df("sd15-unet", 4, ckpt="block", family="unet"), mem=40),
        B("dit-xl-2-b16-bf16", df("dit-xl-2", 16, family="dit"), mem=40),
        C("gpt2-medium-s512-b16-bf16-compile", T(*GM, b=16, seq=512, compile=True, iters=4), mem=40),
        C("llama-small-s512-b16-bf16-compile", T(*L, b=16, seq=512, compile=True, iters=4), mem=40),
        C("qwen25-05b-s1024-b4-bf16-compile", T(*QW05, b=4, seq=1024, compile=True, iters=4), mem=40),
        J("late12-gen-qwen25-05b-fp16-static-inf", "late12-generate", 30, heldout=True, timeout=240,
          spec=G("qwen25-05b", "fp16", "static", "inference", [(32, 1500, 200), (96, 400, 100)])),
        J("late12-gen-mistral-7b-bf16-dynamic-nograd", "late12-generate", 40, heldout=True, timeout=240,
          spec=G("mistral-7b", "bf16", "dynamic", "no_grad", [(4, 2000, 200), (16, 600, 150)])),
    ]


t = timer("late12-", "late12-timing")


def timing_groups():
    a = [
        t("t-llama32-1b-s2048-b4-bf16", T(*LL1B, b=4, seq=2048)),
        t("t-llama32-1b-s2048-b4-bf16-ckpt", T(*LL1B, b=4, seq=2048, ckpt="block")),
        t("t-qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024)),
        t("t-qwen25-05b-s1024-b8-bf16-lora16", T(*QW05, b=8, seq=1024, lora=16)),
        t("t-olmo2-f-s1024-b4-bf16", T(*OL, b=4, seq=1024)),
        t("t-olmo2-f-s1024-b4-fp32", T(*OL, b=4, seq=1024, prec="fp32")),
        t("t-gpt2-large-s1024-b8-bf16", T(*GL, b=8, seq=1024)),
        t("t-gpt2-large-s1024-b4x2-bf16", T(*GL, b=4, seq=1024, accum=2)),
        t("t-phi3-f-s1024-b4-bf16", T(*P3, b=4, seq=1024)),
        t("t-mixtral-f-s1024-b4-bf16", T(*MX, b=4, seq=1024)),
    ]
    b = [
        t("t-vitl16-b32-bf16", tv("vit_l_16", 32)),
        t("t-vitl16-b32-bf16-ckpt", tv("vit_l_16", 32, ckpt="block")),
        t("t-convnext-tiny-b128-bf16", tv("convnext_tiny", 128)),
        t("t-convnext-tiny-b128-fp32", tv("convnext_tiny", 128, prec="fp32")),
        t("t-resnet101-b64-bf16", tv("resnet101", 64)),
        t("t-bert-large-s512-b16-bf16", T(*BERTL, io="cls", b=16, seq=512)),
        t("t-bert-large-s512-b16-bf16-ckpt", T(*BERTL, io="cls", b=16, seq=512, ckpt="block")),
        t("t-whisper-f-b64-bf16", T(*WH, io="whisper", b=64, seq=64)),
        t("t-sd15-unet-b4-bf16", df("sd15-unet", 4)),
        t("t-sd15-unet-b4-bf16-ckpt", df("sd15-unet", 4, ckpt="block")),
        t("t-dit-xl-2-b16-bf16", df("dit-xl-2", 16)),
    ]
    return timing_jobs("late12-", "late12-timing", (("lm", a), ("enc-vision-diffusion", b)))


def host_jobs():
    """Dev: host time of checkpointed steps at a tiny shape, where the GPU waits on Python."""
    h = timer("dev9-", "dev9-host")
    host = [h("h-vitb16-b1-bf16", tv("vit_b_16", 1)),
            h("h-vitb16-b1-bf16-ckpt", tv("vit_b_16", 1, ckpt="block")),
            h("h-whisper-f-b1-bf16", T(*WH, io="whisper", b=1, seq=16)),
            h("h-whisper-f-b1-bf16-ckpt", T(*WH, io="whisper", b=1, seq=16, ckpt="block")),
            h("h-sd15-unet-b1-bf16", df("sd15-unet", 1)),
            h("h-sd15-unet-b1-bf16-ckpt", df("sd15-unet", 1, ckpt="block")),
            h("h-qwen25-05b-s16-b1-bf16", T(*QW05, b=1, seq=16)),
            h("h-qwen25-05b-s16-b1-bf16-ckpt", T(*QW05, b=1, seq=16, ckpt="block"))]
    return timing_jobs("dev9-", "dev9-host", (("host", host),))


def dev_snaps():
    return [
        D("gpt2-s512-b32-bf16-compile-snap", T(*GS, b=32, seq=512, compile=True, iters=3, snap=True), mem=40),
        D("gpt2-medium-s1024-b8-bf16-compile-snap", T(*GM, b=8, seq=1024, compile=True, iters=3, snap=True),
          mem=40),
        D("llama-small-s1024-b8-bf16-compile-snap", T(*L, b=8, seq=1024, compile=True, iters=3, snap=True),
          mem=40),
        D("convnext-small-b64-bf16-ckpt-snap", tv("convnext_small", 64, ckpt="block", iters=2, snap=True)),
    ]


def qlora():
    return [
        Bq("qlora-mistral-e-s1024-b4-r16-ckpt", T(*MI, b=4, seq=1024, lora=16, quant="nf4", ckpt="block",
                                                  family="mistral")),
        Bq("qlora-qwen25-05b-s2048-b4-r16", T(*QW05, b=4, seq=2048, lora=16, quant="nf4", family="qwen2")),
        Bq("adamw8bit-llama32-1b-s1024-b4-bf16", T(*LL1B, b=4, seq=1024, opt="adamw8bit", family="llama")),
    ]


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + host_jobs() + blind_jobs() + dev_snaps()


def compile_snaps():
    """Call 32c: the compiled-step snapshots call 32's budget skipped, alone."""
    return dev_snaps()[:3]
