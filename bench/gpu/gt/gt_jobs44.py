"""Session 17. Call 61: a twenty-seventh blind set (late27) of step times, kept outside the repository until
evaluated once with the models of the commit below this job list's, to test two things on steps they were not
built on:
- the compiled step-time band (compile_step.go: 0.80-1.50x, 0.30-1.50x where convolutions are most of the GPU
  time, read off late24's and late25's nine pairs): each compiled step after its eager twin in the same process,
  Qwen2.5-0.5B s1024 b8, ViT-L/16 b64 and ResNet-101 b128 (bf16 AMP);
- the checkpointed CNN's cheaper torch.utils.checkpoint region (the torchvision ResNet, ConvNeXt and EfficientNet
  blocks' HostCosts.Ckpt share, session 17): host-bound plain/checkpointed pairs of ResNet-50 b64, ResNet-101 b64,
  ConvNeXt-T b64, ConvNeXt-S b48 and EfficientNet-B1 b64, sizes none of the earlier sets timed.
Alone on the GPU, one process per group, 7 steps, the median of steps 3..7."""
from gt_jobs import J, compiled_pair, T, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs29 import QW05

t = timer("late27-", "late27-timing")


def pair(name, spec):
    return compiled_pair(t, name, spec)


def ckpt(name, spec):
    return [t("t-" + name, spec), t("t-" + name + "-ckpt", dict(spec, ckpt="block"))]


def timing_groups():
    return timing_jobs("late27-", "late27-timing", (
        ("cnnckpt", ckpt("resnet50-b64-bf16", tv("resnet50", 64)) + ckpt("resnet101-b64-bf16", tv("resnet101", 64))
         + ckpt("convnext-tiny-b64-bf16", tv("convnext_tiny", 64))
         + ckpt("convnext-small-b48-bf16", tv("convnext_small", 48))
         + ckpt("efficientnet-b1-b64-bf16", tv("efficientnet_b1", 64, res=240))),
        ("qwen", pair("qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024))),
        ("vit", pair("vitl16-b64-bf16", tv("vit_l_16", 64))),
        ("resnet", pair("resnet101-b128-bf16", tv("resnet101", 128))),
    ))


def call61():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups()
