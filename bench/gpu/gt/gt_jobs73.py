"""Session 24, call 96, on one H200.

late47 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the models of the fixtures' capture script (../shared/fixtures/capture/
capture.py), the builders others capture with, at shapes and technique mixes no set ran (bench/gpu/gt/repeats.py
finds none of them among the captures): NCHW ResNet-50 under fp16 at b256 and bf16 at b192 (the fp16/bf16 NCHW
ResNets' reserved has been 1-3.5% low at large batches), GPT-2 s1024 b24 bf16 and medium s512 b32 float32
checkpointed, the small Llama s2048 b8 bf16 checkpointed, BERT-base s512 b48 fp16, BERT-tiny s256 b256 float32,
T5-small s1024 b16 bf16, ViT-B/16 b160 bf16, ViT-L/16 b48 fp16 checkpointed, ConvNeXt-T b192 bf16 checkpointed,
EfficientNet-B0 b160 bf16; memory rows each in their own process. Step times of technique pairs among them, one
process per group alone on the GPU, 7 steps, the median of steps 3..7."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs57 import BERT, BERT_TINY, G2, G2M, LS, T5

t = timer("late47-", "late47-timing")


def timing_groups():
    cnn = [
        t("t-resnet50-b224-fp16", tv("resnet50", 224, prec="fp16")),
        t("t-resnet50-b224-bf16", tv("resnet50", 224)),
        t("t-efficientnet-b0-b160-bf16", tv("efficientnet_b0", 160)),
        t("t-efficientnet-b0-b160-fp32", tv("efficientnet_b0", 160, prec="fp32")),
    ]
    lm = [
        t("t-gpt2-s1024-b24-bf16", T(*G2, b=24, seq=1024)),
        t("t-gpt2-s1024-b12x2-bf16", T(*G2, b=12, seq=1024, accum=2)),
        t("t-llama-small-s2048-b8-bf16-ckpt", T(*LS, b=8, seq=2048, ckpt="block")),
        t("t-llama-small-s2048-b8-bf16", T(*LS, b=8, seq=2048)),
    ]
    enc = [
        t("t-bert-base-s512-b48-fp16", T(*BERT, io="cls", b=48, seq=512, prec="fp16")),
        t("t-bert-base-s512-b48-fp32", T(*BERT, io="cls", b=48, seq=512, prec="fp32")),
        t("t-t5-small-s1024-b16-bf16", T(*T5, io="s2s", b=16, seq=1024)),
        t("t-t5-small-s1024-b16-bf16-ckpt", T(*T5, io="s2s", b=16, seq=1024, ckpt="block")),
    ]
    return timing_jobs("late47-", "late47-timing", (("cnn", cnn), ("lm", lm), ("enc", enc)))


B = maker("late47-", "late47", heldout=True)


def blind_jobs():
    return [
        B("resnet50-b256-fp16", tv("resnet50", 256, prec="fp16"), mem=40),
        B("resnet50-b192-bf16", tv("resnet50", 192), mem=30),
        B("gpt2-s1024-b24-bf16", T(*G2, b=24, seq=1024), mem=50),
        B("gpt2-medium-s512-b32-fp32-ckpt", T(*G2M, b=32, seq=512, prec="fp32", ckpt="block"), mem=40),
        B("llama-small-s2048-b8-bf16-ckpt", T(*LS, b=8, seq=2048, ckpt="block"), mem=30),
        B("bert-base-s512-b48-fp16", T(*BERT, io="cls", b=48, seq=512, prec="fp16"), mem=30),
        B("bert-tiny-s256-b256-fp32", T(*BERT_TINY, io="cls", b=256, seq=256, prec="fp32"), mem=20),
        B("t5-small-s1024-b16-bf16", T(*T5, io="s2s", b=16, seq=1024), mem=50),
        B("vitb16-b160-bf16", tv("vit_b_16", 160), mem=40),
        B("vitl16-b48-fp16-ckpt", tv("vit_l_16", 48, prec="fp16", ckpt="block"), mem=30),
        B("convnext-tiny-b192-bf16-ckpt", tv("convnext_tiny", 192, ckpt="block"), mem=30),
        B("efficientnet-b0-b160-bf16", tv("efficientnet_b0", 160), mem=40),
    ]


def call96():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()
