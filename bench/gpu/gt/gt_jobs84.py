"""Session 27, call 107, on one H200.

dev56 (development data, NOT blind): gt_calib.py --reduce-act alone on the GPU: the bias gradients' reductions (a
Linear's x[M, C].sum(0) over 18 widths, a convolution's x[N, C, H, W].sum((0, 2, 3)) in both layouts) and the
activation kernels (GELU exact and tanh, SiLU, ReLU, forward and backward) in bf16, fp16 and fp32, kernel-timed. The
ConvNeXt-T b128 bf16 profile (dev15) spends 3.33 ms in 58 bf16 bias-gradient sums (about 1 TB/s) and 3.45 ms in
GELU, which the walk prices at 0.76 ms (the full-reduction rate, bias gradients of its convolutions not at all) and
2.68 ms (the multiply's rate, where the calibration's own bf16 GELU rows run 3.1 against 4.2 TB/s).

late53 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers it,
made after this job list): step times of GELU- and bias-heavy models at shapes no set ran (repeats.py finds none):
ViT-B/16 b112 bf16 and b64 float32, ViT-L/16 b40 bf16, ConvNeXt-T b80 bf16, b96 float32, ConvNeXt-S b80 bf16,
ConvNeXt-B b96 fp16, BERT-base s384 b48 bf16, s256 b64 fp16, Whisper small b40 bf16, GPT-2 medium s512 b24 bf16.
One process per group alone on the GPU, 7 steps, the median of steps 3..7."""
from gt_jobs import J, T, timer, timing_jobs, GPT2_MEDIUM
from gt_jobs9 import tv
from gt_jobs26 import WHS
from gt_jobs57 import BERT

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
t = timer("late53-", "late53-timing")


def timing_groups():
    vit = [t("t-vitb16-b112-bf16", tv("vit_b_16", 112)),
           t("t-vitb16-b64-fp32", tv("vit_b_16", 64, prec="fp32")),
           t("t-vitl16-b40-bf16", tv("vit_l_16", 40))]
    cnx = [t("t-convnext-tiny-b80-bf16", tv("convnext_tiny", 80)),
           t("t-convnext-tiny-b96-fp32", tv("convnext_tiny", 96, prec="fp32")),
           t("t-convnext-small-b80-bf16", tv("convnext_small", 80)),
           t("t-convnext-base-b96-fp16", tv("convnext_base", 96, prec="fp16"))]
    enc = [t("t-bert-base-s384-b48-bf16", T(*BERT, io="cls", b=48, seq=384)),
           t("t-bert-base-s256-b64-fp16", T(*BERT, io="cls", b=64, seq=256, prec="fp16")),
           t("t-whisper-small-b40-bf16", T(*WHS, io="whisper", b=40, seq=64, family="whisper")),
           t("t-gpt2-medium-s512-b24-bf16", T(*GM, b=24, seq=512))]
    return timing_jobs("late53-", "late53-timing", (("vit", vit), ("cnx", cnx), ("enc", enc)))


def call107():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    calib = J("dev56-calibration-reduce-act", "dev56", 30, exclusive=True, timeout=200, heldout=False,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev56-calibration-reduce-act.json", "--budget", "150",
                   "--reduce-act"])
    return [probe, calib] + timing_groups()
