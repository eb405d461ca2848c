"""Session 24, call 95, on one H200.

late46 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it):
- world-size-1 DDP under session 24's rule (6b942b2): the construction-time gradient buffer kept through the second
  step when the forward is short (Llama 3.2 1B s1024 b8, SmolLM2-360M s1024 b16) and let go at the rebuild when the
  forward is predicted to outlast NCCL's 100 ms watchdog period (GPT-2 medium s1024 b32 checkpointed, 158 ms;
  Qwen2.5-1.5B s2048 b8 checkpointed, 142 ms); the rebuilt buckets at their own sizes in every row;
- training rows, each in its own process, of families and techniques at sizes no set captured: GPT-2 large
  checkpointed, BERT-large fp16, ViT-L/16, ConvNeXt-S channels-last, ResNet-101 float32, EfficientNet-B3,
  Whisper-small checkpointed, 24-layer T5-large, Llama 3.2 1B LoRA checkpointed, Qwen2.5-0.5B float32 checkpointed,
  Gemma 2 2B, DiT-B/2, the SD 1.5 UNet checkpointed, a small Mixtral, Gemma 3 1B fp16 checkpointed, Qwen3 0.6B
  selective;
- three generate points;
- step times of technique pairs on GPU-bound models, one process per group alone on the GPU, 7 steps, the median
  of steps 3..7.

dev48 (development data, NOT blind): Llama-small s1024 b4 world-size-1 DDP three times, each in its own process,
with snapshots: how often the construction-time buffer outlives the rebuild (the coin the model calls safe)."""
from gt_jobs import J, T, G, S, GPT2_MEDIUM, maker, timer, timing_jobs
from gt_jobs7 import LL1B, QW05
from gt_jobs9 import tv, cl, MX
from gt_jobs11 import df
from gt_jobs23 import GE3_1B
from gt_jobs26 import GL, BL, WHS, T5L, G2_2B
from gt_jobs31 import QW15
from gt_jobs34 import SM360
from gt_jobs37 import Q3_06

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
t = timer("late46-", "late46-timing")


def timing_groups():
    lm = [
        t("t-gpt2-large-s1024-b8-bf16", T(*GL, b=8, seq=1024)),
        t("t-gpt2-large-s1024-b8-bf16-ckpt", T(*GL, b=8, seq=1024, ckpt="block")),
        t("t-llama32-1b-s2048-b4-bf16", T(*LL1B, b=4, seq=2048)),
        t("t-llama32-1b-s2048-b4-bf16-lora16", T(*LL1B, b=4, seq=2048, lora=16)),
    ]
    vis = [
        t("t-vitl16-b64-bf16", tv("vit_l_16", 64)),
        t("t-vitl16-b64-fp32", tv("vit_l_16", 64, prec="fp32")),
        t("t-convnext-small-b128-bf16-cl", cl("convnext_small", 128)),
        t("t-convnext-small-b128-bf16", tv("convnext_small", 128)),
    ]
    return timing_jobs("late46-", "late46-timing", (("lm", lm), ("vis", vis)))


B = maker("late46-", "late46", heldout=True)


def SHJ(name, model, b, seq, mem, **kw):
    m, c, cfg = model
    return J("late46-" + name, "late46-sharded", mem, heldout=True, timeout=240,
             spec=S("ddp", model=m, config=c, cfg=cfg, b=b, seq=seq, snap=False, **kw))


def blind_jobs():
    return [
        SHJ("ws1-ddp-gpt2-medium-s1024-b32-ckpt", GM, 32, 1024, 40, ckpt="block"),
        SHJ("ws1-ddp-qwen25-15b-s2048-b8-ckpt", QW15, 8, 2048, 70, ckpt="block"),
        SHJ("ws1-ddp-llama32-1b-s1024-b8", LL1B, 8, 1024, 50),
        SHJ("ws1-ddp-smollm2-360m-s1024-b16", SM360, 16, 1024, 40),
        B("gpt2-large-s1024-b8-bf16-ckpt", T(*GL, b=8, seq=1024, ckpt="block", family="gpt2"), mem=30),
        B("bert-large-s512-b32-fp16", T(*BL, io="cls", b=32, seq=512, prec="fp16"), mem=40),
        B("vitl16-b64-bf16", tv("vit_l_16", 64), mem=40),
        B("convnext-small-b128-bf16-cl", cl("convnext_small", 128), mem=40),
        B("resnet101-b128-fp32", tv("resnet101", 128, prec="fp32"), mem=40),
        B("efficientnet-b3-b64-bf16", tv("efficientnet_b3", 64), mem=30),
        B("whisper-small-b32-bf16-ckpt", T(*WHS, io="whisper", b=32, seq=64, ckpt="block", family="whisper"),
          mem=30),
        B("t5-large-s512-b8-bf16", T(*T5L, io="s2s", b=8, seq=512), mem=40),
        B("llama32-1b-s2048-b4-bf16-lora16-ckpt", T(*LL1B, b=4, seq=2048, lora=16, ckpt="block", family="llama"),
          mem=30),
        B("qwen25-05b-s1024-b16-fp32-ckpt", T(*QW05, b=16, seq=1024, prec="fp32", ckpt="block", family="qwen2"),
          mem=50),
        B("gemma2-2b-s1024-b4-bf16", T(*G2_2B, b=4, seq=1024, family="gemma2"), mem=60),
        B("dit-b-2-b128-bf16", df("dit-b-2", 128, family="dit"), mem=30),
        B("sd15-unet-b8-bf16-ckpt", df("sd15-unet", 8, ckpt="block"), mem=30),
        B("mixtral-s-s1024-b8-bf16", T(*MX, b=8, seq=1024, family="mixtral"), mem=40),
        B("gemma3-1b-s2048-b4-fp16-ckpt", T(*GE3_1B, b=4, seq=2048, prec="fp16", ckpt="block", family="gemma3"),
          mem=30),
        B("qwen3-06b-s2048-b8-bf16-sel", T(*Q3_06, b=8, seq=2048, ckpt="selective", family="qwen3"), mem=50),
        J("late46-gen-qwen25-15b-fp16-static-inf", "late46-generate", 40, heldout=True, timeout=240,
          spec=G("qwen25-15b", "fp16", "static", "inference", [(16, 1024, 128)])),
        J("late46-gen-tinyllama-bf16-dynamic-nograd", "late46-generate", 40, heldout=True, timeout=240,
          spec=G("tinyllama", "bf16", "dynamic", "no_grad", [(32, 1024, 256)])),
        J("late46-gen-mistral-7b-bf16-static-inf", "late46-generate", 40, heldout=True, timeout=240,
          spec=G("mistral-7b", "bf16", "static", "inference", [(4, 4096, 128)])),
    ]


def dev_jobs():
    return [J("dev48-ws1-ddp-llama-small-s1024-b4-%s" % k, "dev48", 25, heldout=False, timeout=200,
              spec=dict(S("ddp"), snap=True)) for k in "abc"]


def call95():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + dev_jobs() + blind_jobs()
