"""Session 22, call 88.

late41 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the session's last memory changes: the float32 patch conv's forward workspace
(torchvision ViTs in float32 at batches across its three cases), Whisper's encoder locals (Whisper base and small,
with and without checkpointing, bf16 and float32), and the capture script's models as a check on the cuBLAS
workspace's new place after the first GEMM's output (GPT-2, the small Llama, BERT-base, ConvNeXt-T, ResNet-50). Memory
rows each in their own process."""
from gt_jobs import J, T, maker
from gt_jobs9 import tv
from gt_jobs23 import WHB
from gt_jobs26 import WHS
from gt_jobs57 import BERT, G2, LS


def blind():
    B = maker("late41-", "late41", heldout=True)
    return [
        B("vitb16-b128-fp32-ckpt", tv("vit_b_16", 128, prec="fp32", ckpt="block"), 30),
        B("vitb16-b224-fp32", tv("vit_b_16", 224, prec="fp32"), 60),
        B("vitl16-b64-fp32-ckpt", tv("vit_l_16", 64, prec="fp32", ckpt="block"), 30),
        B("vitl16-b16-fp32", tv("vit_l_16", 16, prec="fp32"), 20),
        B("whisper-base-b64-bf16-ckpt", T(*WHB, io="whisper", b=64, seq=64, ckpt="block", family="whisper"), 30),
        B("whisper-small-b16-fp32", T(*WHS, io="whisper", b=16, seq=64, prec="fp32", family="whisper"), 40),
        B("whisper-small-b32-bf16-ckpt", T(*WHS, io="whisper", b=32, seq=64, ckpt="block", family="whisper"), 30),
        B("gpt2-s1024-b8-fp16", T(*G2, b=8, seq=1024, prec="fp16"), 30),
        B("llama-small-s2048-b4-bf16-ckpt", T(*LS, b=4, seq=2048, ckpt="block"), 30),
        B("bert-base-s256-b64-bf16", T(*BERT, io="cls", b=64, seq=256), 30),
        B("convnext-tiny-b128-bf16-ckpt", tv("convnext_tiny", 128, ckpt="block"), 30),
        B("resnet50-b96-fp16", tv("resnet50", 96, prec="fp16"), 30),
    ]


def call88():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + blind()
