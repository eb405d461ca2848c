"""Session 22, call 86.

late40 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the session's ViT replay (the cuBLAS workspace after the first GEMM's output,
MultiheadAttention's load order, in_proj as matmul then add_ with its saved copy, strided gradients copied in the
gradient's place, the selects' backward v first) on torchvision ViTs at batches, precisions and checkpointing no set
had, and Whisper small, whose first linear the workspace change moves. Memory rows each in their own process; four
step times, one process per group alone on the GPU (7 steps, median of 3..7)."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs26 import WHS


t = timer("late40-", "late40-timing")


def blind():
    B = maker("late40-", "late40", heldout=True)
    mem = [
        B("vitb16-b192-fp16-ckpt", tv("vit_b_16", 192, prec="fp16", ckpt="block"), 30),
        B("vitb16-b64-bf16-ckpt", tv("vit_b_16", 64, ckpt="block"), 20),
        B("vitb16-b160-fp32-ckpt", tv("vit_b_16", 160, prec="fp32", ckpt="block"), 30),
        B("vitb16-b96-fp16", tv("vit_b_16", 96, prec="fp16"), 30),
        B("vitl16-b64-fp16-ckpt", tv("vit_l_16", 64, prec="fp16", ckpt="block"), 30),
        B("vitl16-b128-bf16-ckpt", tv("vit_l_16", 128, ckpt="block"), 30),
        B("vitl16-b48-bf16", tv("vit_l_16", 48), 30),
        B("vith14-b32-fp16-ckpt", tv("vit_h_14", 32, prec="fp16", ckpt="block"), 30),
        B("vitb16-b64x2-bf16-ckpt", tv("vit_b_16", 64, ckpt="block", accum=2), 20),
        B("whisper-small-b16-bf16", T(*WHS, io="whisper", b=16, seq=64, family="whisper"), 30),
        B("whisper-small-b24-fp16-ckpt", T(*WHS, io="whisper", b=24, seq=64, prec="fp16", ckpt="block",
                                           family="whisper"), 30),
    ]
    timing = timing_jobs("late40-", "late40-timing", (
        ("vitb", [t("t-vitb16-b192-fp16", tv("vit_b_16", 192, prec="fp16")),
                  t("t-vitb16-b192-fp16-ckpt", tv("vit_b_16", 192, prec="fp16", ckpt="block"))]),
        ("vitl", [t("t-vitl16-b64-bf16", tv("vit_l_16", 64)),
                  t("t-vitl16-b64-bf16-ckpt", tv("vit_l_16", 64, ckpt="block"))]),
    ))
    return mem + timing


def call86():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + blind()
