"""Session 19. Compiled steps are the step-time model's weakest class (14 compiled/eager pairs, 4 within 10%;
compiled ResNet-50/101 -36/-37%, EfficientNet-B0 -47%, ConvNeXt-T and BERT-base -26%): dev32 showed compiled
ResNet-50 GPU-bound with its cuDNN convolutions 1.45-1.7x the channels-last kernel rows the walk prices them from,
and compiled Qwen2.5-0.5B's masked cuDNN attention 11.0 ms against 6.7 priced.

Call 72, dev33 (development data, NOT blind):
- op-level profiles (gt_work profile="ops": per ATen op and input shapes, the GPU time of its kernels), each alone
  on the GPU, 4 timed steps then 2 profiled: ResNet-50 b128, EfficientNet-B0 b256, ConvNeXt-T b128 compiled and
  the same three eager in channels-last (the layout Inductor gives convolutions), so one convolution's time under
  Inductor is set beside the same convolution eager; BERT-base s512 b32 compiled;
- gt_calib.py --sdpa-mask: cuDNN attention with the materialised causal mask Hugging Face passes under Dynamo,
  beside is_causal=True and no mask.

Call 73, late32 (blind; kept outside the repository until evaluated once with the binaries of the commit the
session's compiled-step changes end on, none of which may look at it): compiled steps after their eager twins
in one process, alone on the GPU, 7 steps, the median of steps 3..7, on models and shapes no compiled timing
used: ResNet-50 b64, ResNet-152 b64, ConvNeXt-S b64, EfficientNet-B2 b128 (bf16 AMP); Qwen3-0.6B s1024 b8,
SmolLM2-360M s2048 b4 (bf16 AMP)."""
from gt_jobs import J, T, compiled_pair, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs23 import BERT
from gt_jobs26 import SMOL
from gt_jobs37 import Q3_06


def call72():
    def P(name, spec):
        return J("dev33-prof-" + name, "dev33-profile", 40, exclusive=True, timeout=220, heldout=False,
                 spec=dict(spec, iters=4, profile="ops"))
    return [
        J("dev33-calibration-sdpa-mask", "dev33", 30, exclusive=True, timeout=120,
          cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev33-calibration-sdpa-mask.json", "--budget", "80",
               "--sdpa-mask"]),
        P("resnet50-b128-bf16-compile", tv("resnet50", 128, compile=True)),
        P("resnet50-b128-bf16-cl", tv("resnet50", 128, channels_last=True)),
        P("efficientnet-b0-b256-bf16-compile", tv("efficientnet_b0", 256, compile=True)),
        P("efficientnet-b0-b256-bf16-cl", tv("efficientnet_b0", 256, channels_last=True)),
        P("convnext-tiny-b128-bf16-compile", tv("convnext_tiny", 128, compile=True)),
        P("convnext-tiny-b128-bf16-cl", tv("convnext_tiny", 128, channels_last=True)),
        P("bert-base-s512-b32-bf16-compile", T(*BERT, io="cls", b=32, seq=512, compile=True)),
    ]


t = timer("late32-", "late32-timing")


def pair(name, spec):
    return compiled_pair(t, name, spec)


def call73():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late32-", "late32-timing", (
        ("resnet", pair("resnet50-b64-bf16", tv("resnet50", 64)) + pair("resnet152-b64-bf16", tv("resnet152", 64))),
        ("cnn", pair("convnext-small-b64-bf16", tv("convnext_small", 64))
         + pair("efficientnet-b2-b128-bf16", tv("efficientnet_b2", 128))),
        ("dec", pair("qwen3-06b-s1024-b8-bf16", T(*Q3_06, b=8, seq=1024))
         + pair("smollm2-360m-s2048-b4-bf16", T(*SMOL, b=4, seq=2048))),
    ))


def call74():
    """dev34 (development data, NOT blind): what Inductor's host costs a step. dev33's kernel sums put compiled
    ResNet-50/101 b128 1.2-1.5x over their GPU time (host-bound: the walk charges each compiled kernel 7.6 us);
    at two images or sequences the GPU is idle most of the step, so the step is the host's: the same five
    compiled models at b1-b2 (4 timed steps, 2 profiled for the kernel counts), each alone. And gt_calib.py
    --sdpa-compiled: SDPA inside torch.compile with BERT's float32 padding mask, a causal bool mask and
    is_causal, with dropout 0.1 and without (dev33's compiled BERT ran no fused attention kernel: bmm and a
    Triton softmax with dropout)."""
    from gt_jobs9 import QW05

    def P(name, spec):
        return J("dev34-prof-" + name, "dev34-profile", 20, exclusive=True, timeout=200, heldout=False,
                 spec=dict(spec, iters=6, profile=True))
    return [
        P("resnet50-b2-bf16-compile", tv("resnet50", 2, compile=True)),
        P("bert-base-s128-b2-bf16-compile", T(*BERT, io="cls", b=2, seq=128, compile=True)),
        P("efficientnet-b0-b2-bf16-compile", tv("efficientnet_b0", 2, compile=True)),
        P("qwen25-05b-s128-b1-bf16-compile", T(*QW05, b=1, seq=128, compile=True)),
        J("dev34-calibration-sdpa-compiled", "dev34", 30, exclusive=True, timeout=200,
          cmd=["python3", "@HERE/gt_calib.py", "@OUT/dev34-calibration-sdpa-compiled.json", "--budget", "150",
               "--sdpa-compiled"]),
        P("convnext-tiny-b2-bf16-compile", tv("convnext_tiny", 2, compile=True)),
    ]
