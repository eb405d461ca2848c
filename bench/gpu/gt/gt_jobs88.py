"""Session 27, call 111, on one H200.

late56 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers it,
made after this job list): training rows, each in its own process (3 steps, peak memory and NVML), of families and
techniques at sizes no set captured (repeats.py: none), with the memory models of the session start (the session
changed only step time): GPT-2 medium fp16 checkpointed, BERT-base bf16, ViT-B/16 bf16, ConvNeXt-T fp16, ResNet-101
bf16 checkpointed, EfficientNet-B2 fp16, Whisper-small fp16, T5-base fp16, Llama 3.2 1B LoRA, Qwen2.5-0.5B
checkpointed, Gemma 2 2B LoRA, Qwen3-0.6B, SmolLM2-360M fp16, a small Mixtral."""
from gt_jobs import J, T, GPT2_MEDIUM, maker
from gt_jobs7 import LL1B, QW05, T5B
from gt_jobs9 import tv, MX
from gt_jobs26 import WHS, G2_2B
from gt_jobs34 import SM360
from gt_jobs37 import Q3_06
from gt_jobs57 import BERT

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
B = maker("late56-", "late56", heldout=True)


def blind_jobs():
    return [
        B("gpt2-medium-s512-b48-fp16-ckpt", T(*GM, b=48, seq=512, prec="fp16", ckpt="block", family="gpt2"), mem=30),
        B("bert-base-s256-b128-bf16", T(*BERT, io="cls", b=128, seq=256), mem=40),
        B("vitb16-b144-bf16", tv("vit_b_16", 144), mem=40),
        B("convnext-tiny-b112-fp16", tv("convnext_tiny", 112, prec="fp16"), mem=30),
        B("resnet101-b112-bf16-ckpt", tv("resnet101", 112, ckpt="block"), mem=30),
        B("efficientnet-b2-b96-fp16", tv("efficientnet_b2", 96, prec="fp16"), mem=40),
        B("whisper-small-b48-fp16", T(*WHS, io="whisper", b=48, seq=64, prec="fp16", family="whisper"), mem=40),
        B("t5-base-s384-b24-fp16", T(*T5B, io="s2s", b=24, seq=384, prec="fp16"), mem=40),
        B("llama32-1b-s1024-b8-bf16-lora16", T(*LL1B, b=8, seq=1024, lora=16, family="llama"), mem=40),
        B("qwen25-05b-s2048-b8-bf16-ckpt", T(*QW05, b=8, seq=2048, ckpt="block", family="qwen2"), mem=30),
        B("gemma2-2b-s512-b8-bf16-lora16", T(*G2_2B, b=8, seq=512, lora=16, family="gemma2"), mem=40),
        B("qwen3-06b-s1024-b16-bf16", T(*Q3_06, b=16, seq=1024, family="qwen3"), mem=60),
        B("smollm2-360m-s2048-b8-fp16", T(*SM360, b=8, seq=2048, prec="fp16", family="llama"), mem=40),
        B("mixtral-s512-b8-bf16", T(*MX, b=8, seq=512, family="mixtral"), mem=40),
    ]


def call111():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + blind_jobs()
