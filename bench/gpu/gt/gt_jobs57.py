"""Session 21, call 80.

late36 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers it,
which may not look at it): the models of the fixtures' own capture script (../shared/fixtures/capture/capture.py:
BERT-tiny and -base, GPT-2 and GPT-2 medium, the small Llama, T5-small, ViT-B/16, ConvNeXt-T, EfficientNet-B0,
ResNet-50), the builders others capture with, in configurations no set timed or captured: fp16 on BERT-tiny and
T5-small, SGD with momentum on GPT-2 and EfficientNet, fp16 checkpointing on GPT-2 medium and ViT-B, LoRA with and
without checkpointing on the small Llama, accumulation on ResNet-50 fp16 and the small Llama, seq 128 checkpointing
on BERT-base. Step times one process per group alone on the GPU (7 steps, median of 3..7); memory rows each in its
own process, some with snapshots.

dev39 (development data, NOT blind): snapshots of the two reserved over-estimates left from session 20's blind sets
(late34 ResNet-18 b512 bf16 channels-last checkpointed +6.7%, late35 EfficientNet-B4 b32 bf16 channels-last +5.9%),
each in its own process."""
from gt_jobs import J, T, GPT2, GPT2_MEDIUM, LLAMA_SMALL, maker, timer, timing_jobs
from gt_jobs9 import cl, tv

BERT_TINY = ("BertForSequenceClassification", "BertConfig",
             dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512, num_labels=2))
BERT = ("BertForSequenceClassification", "BertConfig", {})
G2 = ("GPT2LMHeadModel", "GPT2Config", GPT2)
G2M = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
LS = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
T5 = ("T5ForConditionalGeneration", "T5Config", {})


def dev():
    M = maker("dev39-", "dev39", heldout=False)
    return [
        M("resnet18-b512-bf16-cl-ckpt", dict(cl("resnet18", 512, ckpt="block"), snap=True), 40),
        M("efficientnet-b4-b32-bf16-cl", dict(cl("efficientnet_b4", 32), snap=True), 40),
    ]


t = timer("late36-", "late36-timing")


def blind():
    B = maker("late36-", "late36", heldout=True)
    mem = [
        B("bert-tiny-s512-b128-fp16", dict(T(*BERT_TINY, io="cls", b=128, seq=512, prec="fp16"), snap=True), 20),
        B("bert-base-s128-b64-bf16-ckpt", T(*BERT, io="cls", b=64, seq=128, ckpt="block"), 20),
        B("gpt2-s512-b16-fp32-sgd", dict(T(*G2, b=16, seq=512, prec="fp32", opt="sgd"), snap=True), 30),
        B("gpt2-medium-s1024-b8-fp16-ckpt", T(*G2M, b=8, seq=1024, prec="fp16", ckpt="block"), 30),
        B("llama-small-s1024-b8-bf16-lora16-ckpt", dict(T(*LS, b=8, seq=1024, lora=16, ckpt="block"), snap=True), 30),
        B("t5-small-s512-b32-fp16", T(*T5, io="s2s", b=32, seq=512, prec="fp16"), 30),
        B("vitb16-b128-fp16-ckpt", tv("vit_b_16", 128, prec="fp16", ckpt="block"), 30),
        B("convnext-tiny-b96-fp16", dict(tv("convnext_tiny", 96, prec="fp16"), snap=True), 30),
        B("efficientnet-b0-b96-fp32-sgd", tv("efficientnet_b0", 96, prec="fp32", opt="sgd"), 30),
        B("resnet50-b48x2-fp16", tv("resnet50", 48, prec="fp16", accum=2), 30),
    ]
    timing = timing_jobs("late36-", "late36-timing", (
        ("bert", [t("t-bert-tiny-s128-b64-fp32", T(*BERT_TINY, io="cls", b=64, seq=128, prec="fp32")),
                  t("t-bert-tiny-s512-b128-fp16", T(*BERT_TINY, io="cls", b=128, seq=512, prec="fp16")),
                  t("t-bert-base-s128-b64-bf16", T(*BERT, io="cls", b=64, seq=128)),
                  t("t-bert-base-s128-b64-bf16-ckpt", T(*BERT, io="cls", b=64, seq=128, ckpt="block"))]),
        ("gpt", [t("t-gpt2-s512-b16-fp32-sgd", T(*G2, b=16, seq=512, prec="fp32", opt="sgd")),
                 t("t-gpt2-s512-b16-fp32", T(*G2, b=16, seq=512, prec="fp32")),
                 t("t-gpt2-medium-s1024-b8-fp16", T(*G2M, b=8, seq=1024, prec="fp16")),
                 t("t-gpt2-medium-s1024-b8-fp16-ckpt", T(*G2M, b=8, seq=1024, prec="fp16", ckpt="block"))]),
        ("llama", [t("t-llama-small-s1024-b8-bf16-lora16", T(*LS, b=8, seq=1024, lora=16)),
                   t("t-llama-small-s1024-b8-bf16-lora16-ckpt", T(*LS, b=8, seq=1024, lora=16, ckpt="block")),
                   t("t-llama-small-s512-b8x2-bf16", T(*LS, b=8, seq=512, accum=2)),
                   t("t-llama-small-s512-b16-bf16", T(*LS, b=16, seq=512))]),
        ("t5", [t("t-t5-small-s512-b32-fp16", T(*T5, io="s2s", b=32, seq=512, prec="fp16")),
                t("t-t5-small-s512-b32-bf16", T(*T5, io="s2s", b=32, seq=512)),
                t("t-t5-small-s512-b32-bf16-ckpt", T(*T5, io="s2s", b=32, seq=512, ckpt="block"))]),
        ("vision", [t("t-vitb16-b128-fp16-ckpt", tv("vit_b_16", 128, prec="fp16", ckpt="block")),
                    t("t-vitb16-b128-fp16", tv("vit_b_16", 128, prec="fp16")),
                    t("t-convnext-tiny-b96-fp16", tv("convnext_tiny", 96, prec="fp16")),
                    t("t-efficientnet-b0-b96-fp32-sgd", tv("efficientnet_b0", 96, prec="fp32", opt="sgd")),
                    t("t-resnet50-b48x2-fp16", tv("resnet50", 48, prec="fp16", accum=2)),
                    t("t-resnet50-b96-fp16", tv("resnet50", 96, prec="fp16"))]),
    ))
    return timing + mem


def call80():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev() + blind()
