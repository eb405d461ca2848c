"""Session 27, call 109, on one H200.

dev58 (development data, NOT blind): op-level profiles (gt_work profile="ops") of the GPU-bound steps the walk
prices short or long by a family-wide margin: ResNet-18 b256 bf16 (-8.6% in late15 and late28), ResNet-34 b256 bf16
(-4.0 to -5.6% in late14, late19, late28), NCHW, and BERT-base s512 b32 bf16 (+3.0% median over its GPU-bound steps;
dev15's kernel profile puts its pointwise class 1 ms over, apparently the backward's casts).

late55 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers it,
made after this job list): step times at shapes no set ran (repeats.py: none): ResNet-18 b192 bf16, ResNet-34 b192
fp16, ResNet-18 b384 fp16, ResNet-34 b320 bf16, BERT-base s512 b24 bf16, BERT-large s256 b40 fp16, RoBERTa-base s384
b32 bf16. One process per group alone on the GPU, 7 steps, the median of steps 3..7."""
from gt_jobs import J, T, profiler, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs9 import BERTL
from gt_jobs57 import BERT
from gt_jobs58 import ROBERTA


P = profiler("dev58-prof-", "dev58-profile")


t = timer("late55-", "late55-timing")


def timing_groups():
    rn = [t("t-resnet18-b192-bf16", tv("resnet18", 192)),
          t("t-resnet34-b192-fp16", tv("resnet34", 192, prec="fp16")),
          t("t-resnet18-b384-fp16", tv("resnet18", 384, prec="fp16")),
          t("t-resnet34-b320-bf16", tv("resnet34", 320))]
    enc = [t("t-bert-base-s512-b24-bf16", T(*BERT, io="cls", b=24, seq=512)),
           t("t-bert-large-s256-b40-fp16", T(*BERTL, io="cls", b=40, seq=256, prec="fp16")),
           t("t-roberta-base-s384-b32-bf16", T(*ROBERTA, io="cls", b=32, seq=384))]
    return timing_jobs("late55-", "late55-timing", (("rn", rn), ("enc", enc)))


def call109():
    return [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe")),
            P("resnet18-b256-bf16", tv("resnet18", 256)),
            P("resnet34-b256-bf16", tv("resnet34", 256)),
            P("bert-base-s512-b32-bf16", T(*BERT, io="cls", b=32, seq=512))] + timing_groups()
