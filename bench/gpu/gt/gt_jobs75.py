"""Session 25, call 98, on one H200.

late48 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the models of the fixtures' capture script at technique pairs no set ran
(repeats.py finds none): ConvNeXt-T b160 fp16 with and without block checkpointing, ViT-B/16 b112 fp16 against
float32, ResNet-50 b160 bf16 with and without checkpointing, GPT-2 medium s1024 b12 bf16 against b6 x 2 accumulated,
the small Llama s1024 b12 bf16 with and without LoRA r16, T5-small s512 b48 bf16 with and without checkpointing, BERT-base
s256 b96 fp16 with and without checkpointing. Step times: one process per group alone on the GPU, 7 steps, the
median of steps 3..7; memory rows each in their own process.

dev50 (development data, NOT blind): gt_calib.py --sdpa-bias (T5's zero-bias cross-attention with dropout,
constant and requiring grad; dropout with no mask and causal; the memory-efficient backend forced), op-level kernel
profiles of Qwen2.5-0.5B s1024 b8 bf16 with and without LoRA r16 (whose LoRA step four sets timed at or above the
full one, 15-21% over the model's ratio), and host-bound Qwen2.5-0.5B s16 b1 bf16 with and without LoRA (the plain
one repeats dev8/dev9's, as the LoRA one's reference in the same process)."""
from gt_jobs import J, T, maker, timer, timing_jobs, dev_timing_jobs
from gt_jobs9 import tv, QW05
from gt_jobs57 import BERT, G2M, LS, T5

t = timer("late48-", "late48-timing")


def timing_groups():
    cnn = [
        t("t-convnext-tiny-b160-fp16", tv("convnext_tiny", 160, prec="fp16")),
        t("t-convnext-tiny-b160-fp16-ckpt", tv("convnext_tiny", 160, prec="fp16", ckpt="block")),
        t("t-vitb16-b112-fp16", tv("vit_b_16", 112, prec="fp16")),
        t("t-vitb16-b112-fp32", tv("vit_b_16", 112, prec="fp32")),
    ]
    cnn2 = [
        t("t-resnet50-b160-bf16-ckpt", tv("resnet50", 160, ckpt="block")),
        t("t-resnet50-b160-bf16", tv("resnet50", 160)),
    ]
    lm = [
        t("t-gpt2-medium-s1024-b12-bf16", T(*G2M, b=12, seq=1024)),
        t("t-gpt2-medium-s1024-b6x2-bf16", T(*G2M, b=6, seq=1024, accum=2)),
        t("t-llama-small-s1024-b12-bf16-lora16", T(*LS, b=12, seq=1024, lora=16)),
        t("t-llama-small-s1024-b12-bf16", T(*LS, b=12, seq=1024)),
    ]
    enc = [
        t("t-t5-small-s512-b48-bf16", T(*T5, io="s2s", b=48, seq=512)),
        t("t-t5-small-s512-b48-bf16-ckpt", T(*T5, io="s2s", b=48, seq=512, ckpt="block")),
        t("t-bert-base-s256-b96-fp16-ckpt", T(*BERT, io="cls", b=96, seq=256, prec="fp16", ckpt="block")),
        t("t-bert-base-s256-b96-fp16", T(*BERT, io="cls", b=96, seq=256, prec="fp16")),
    ]
    return timing_jobs("late48-", "late48-timing", (("cnn", cnn), ("cnn2", cnn2), ("lm", lm), ("enc", enc)))


B = maker("late48-", "late48", heldout=True)


def blind_jobs():
    return [
        B("convnext-tiny-b160-fp16", tv("convnext_tiny", 160, prec="fp16"), mem=40),
        B("convnext-tiny-b160-fp16-ckpt", tv("convnext_tiny", 160, prec="fp16", ckpt="block"), mem=30),
        B("vitb16-b112-fp16", tv("vit_b_16", 112, prec="fp16"), mem=30),
        B("vitb16-b112-fp32", tv("vit_b_16", 112, prec="fp32"), mem=40),
        B("resnet50-b160-bf16-ckpt", tv("resnet50", 160, ckpt="block"), mem=20),
        B("gpt2-medium-s1024-b12-bf16", T(*G2M, b=12, seq=1024), mem=50),
        B("gpt2-medium-s1024-b6x2-bf16", T(*G2M, b=6, seq=1024, accum=2), mem=30),
        B("llama-small-s1024-b12-bf16-lora16", T(*LS, b=12, seq=1024, lora=16), mem=40),
        B("t5-small-s512-b48-bf16", T(*T5, io="s2s", b=48, seq=512), mem=50),
        B("t5-small-s512-b48-bf16-ckpt", T(*T5, io="s2s", b=48, seq=512, ckpt="block"), mem=30),
        B("bert-base-s256-b96-fp16-ckpt", T(*BERT, io="cls", b=96, seq=256, prec="fp16", ckpt="block"), mem=20),
        B("bert-base-s256-b96-fp16", T(*BERT, io="cls", b=96, seq=256, prec="fp16"), mem=40),
    ]


def P(name, spec):
    return J("dev50-prof-" + name, "dev50-profile", 40, exclusive=True, timeout=240, heldout=False,
             spec=dict(spec, iters=4, profile="ops"))


def dev_jobs():
    calib = J("dev50-calibration-sdpa-bias", "dev50", 30, exclusive=True, timeout=150, heldout=False,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev50-calibration-sdpa-bias.json", "--budget", "110",
                   "--sdpa-bias"])
    d = lambda name, spec: dict(spec, iters=7, name="dev50-" + name, group="dev50-host", heldout=False)
    host = dev_timing_jobs("dev50-", "dev50-host", (("qwen", [
        d("h-qwen25-05b-s16-b1-bf16", T(*QW05, b=1, seq=16)),
        d("h-qwen25-05b-s16-b1-bf16-lora16", T(*QW05, b=1, seq=16, lora=16)),
    ]),))
    return [calib,
            P("qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024)),
            P("qwen25-05b-s1024-b8-bf16-lora16", T(*QW05, b=8, seq=1024, lora=16))] + host


def call98():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + dev_jobs() + blind_jobs()
