"""Session 55, call 202: late100 (BLIND; kept outside the repository until evaluated once), a blind test of
`plan --host-scale` as the docs give it: time one host-bound configuration of a model, take its measured step over
its plan's as F, plan the model's other configurations with --host-scale F. TestHostScaleSameModelCalibration
measured that procedure on eleven sets already seen (70 predictions: median |error| 15.8% -> 6.9%); late100 asks it
of five models those sets did not time, on whatever host the call gets: Pythia-160m, OPT-350m, DistilBERT, Swin-T
(transformers) and ResNet-152 (torchvision). Each model is one process, eager, 7 steps; its first workload is the
calibrating one (the smallest, host-bound in the plan on an H100 and an H200), then precision, checkpointing,
LoRA or accumulation, a larger batch still host-bound, and one near or past the crossover (planned GPU time
over host time 1.1-2.1 on an H100), where F must leave the GPU's share alone. The procedure and what counts as a
pass were written before capture: late100_predictions.md beside this file."""
from gt_jobs import J, T, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs117 import PY_160M
from gt_jobs121 import OPT_350M, DB_CLS, DB_LORA
from gt_jobs127 import SWIN_T, SWIN_LORA

NEOX_LORA = ["query_key_value"]


def call202():
    t = timer("late100-", "late100-timing")
    groups = (
        ("pythia", [t("t-pythia-160m-s256-b2-bf16", T(*PY_160M, b=2, seq=256)),
                    t("t-pythia-160m-s256-b2-bf16-ckpt", T(*PY_160M, b=2, seq=256, ckpt="block")),
                    t("t-pythia-160m-s256-b2-bf16-lora16", T(*PY_160M, b=2, seq=256, lora=16,
                                                             lora_targets=NEOX_LORA)),
                    t("t-pythia-160m-s256-b2-fp32", T(*PY_160M, b=2, seq=256, prec="fp32")),
                    t("t-pythia-160m-s256-b8-bf16", T(*PY_160M, b=8, seq=256)),
                    t("t-pythia-160m-s512-b32-bf16", T(*PY_160M, b=32, seq=512))]),
        ("opt", [t("t-opt-350m-s256-b1-bf16", T(*OPT_350M, b=1, seq=256)),
                 t("t-opt-350m-s256-b1-bf16-ckpt", T(*OPT_350M, b=1, seq=256, ckpt="block")),
                 t("t-opt-350m-s256-b1-bf16-lora16", T(*OPT_350M, b=1, seq=256, lora=16)),
                 t("t-opt-350m-s256-b1x4-bf16", T(*OPT_350M, b=1, seq=256, accum=4)),
                 t("t-opt-350m-s512-b4-bf16", T(*OPT_350M, b=4, seq=512)),
                 t("t-opt-350m-s1024-b8-bf16", T(*OPT_350M, b=8, seq=1024))]),
        ("distilbert", [t("t-distilbert-s128-b8-bf16", T(*DB_CLS, io="cls", b=8, seq=128)),
                        t("t-distilbert-s128-b8-fp32", T(*DB_CLS, io="cls", b=8, seq=128, prec="fp32")),
                        t("t-distilbert-s128-b8-bf16-ckpt", T(*DB_CLS, io="cls", b=8, seq=128, ckpt="block")),
                        t("t-distilbert-s128-b8-bf16-lora16", T(*DB_CLS, io="cls", b=8, seq=128, lora=16,
                                                                lora_targets=DB_LORA)),
                        t("t-distilbert-s128-b32-bf16", T(*DB_CLS, io="cls", b=32, seq=128)),
                        t("t-distilbert-s128-b256-bf16", T(*DB_CLS, io="cls", b=256, seq=128))]),
        ("swin", [t("t-swin-tiny-b8-bf16", T(*SWIN_T, io="hfvision", b=8)),
                  t("t-swin-tiny-b8-fp32", T(*SWIN_T, io="hfvision", b=8, prec="fp32")),
                  t("t-swin-tiny-b8-bf16-ckpt", T(*SWIN_T, io="hfvision", b=8, ckpt="block")),
                  t("t-swin-tiny-b8x4-bf16", T(*SWIN_T, io="hfvision", b=8, accum=4)),
                  t("t-swin-tiny-b32-bf16", T(*SWIN_T, io="hfvision", b=32)),
                  t("t-swin-tiny-b128-bf16", T(*SWIN_T, io="hfvision", b=128))]),
        ("resnet152", [t("t-resnet152-b8-bf16", tv("resnet152", 8)),
                       t("t-resnet152-b8-fp32", tv("resnet152", 8, prec="fp32")),
                       t("t-resnet152-b8-bf16-ckpt", tv("resnet152", 8, ckpt="block")),
                       t("t-resnet152-b8x4-bf16", tv("resnet152", 8, accum=4)),
                       t("t-resnet152-b32-bf16", tv("resnet152", 32)),
                       t("t-resnet152-b96-bf16", tv("resnet152", 96))]),
    )
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late100-", "late100-timing", groups)


def call203():
    """dev111 (development): why late100's Pythia-160m b8 ran 28% over its b2 where the plan prices both at the
    host's 42 ms: the backward phase's host wall went 17.2 -> 26.8 ms (and stayed 26.9 at b32 s512). Kernel profiles
    of b2 and b8 (4 timed steps, 2 profiled), each alone in its own process."""
    from gt_jobs import profiler
    p = profiler("dev111-", "dev111")
    return [p("prof-pythia-160m-s256-b2-bf16", T(*PY_160M, b=2, seq=256), timeout=90),
            p("prof-pythia-160m-s256-b8-bf16", T(*PY_160M, b=8, seq=256), timeout=90)]
