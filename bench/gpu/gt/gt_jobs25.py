"""Session 11. Call 40, after late14 was evaluated (dev data, NOT blind): kernel profiles of late14's
worst-predicted step times and their pairs, each alone in its own process (6 timed steps, then 2 under
torch.profiler): BERT-base s512 b32 bf16 plain and checkpointed (+46.9% on the checkpointed step),
ConvNeXt-T b128 bf16 plain and checkpointed (ratio +47%), the SD 1.5 UNet b4 fp32 (-27%) and Gemma 3 1B
s1024 b4 bf16 LoRA (-17.6%, its LoRA/full ratio -20%)."""
from gt_jobs import J, T
from gt_jobs9 import tv
from gt_jobs11 import df
from gt_jobs23 import BERT, GE3_1B


def P(name, spec):
    s = dict(spec, iters=6, profile=True, build_on_gpu=True)
    return J("prof-" + name, "dev15-profile", 60, exclusive=True, timeout=150, spec=s)


def jobs():
    return [
        P("bert-base-s512-b32-bf16", T(*BERT, io="cls", b=32, seq=512)),
        P("bert-base-s512-b32-bf16-ckpt", T(*BERT, io="cls", b=32, seq=512, ckpt="block")),
        P("convnext-tiny-b128-bf16", tv("convnext_tiny", 128)),
        P("convnext-tiny-b128-bf16-ckpt", tv("convnext_tiny", 128, ckpt="block")),
        P("sd15-unet-b4-fp32", df("sd15-unet", 4, prec="fp32")),
        P("gemma3-1b-s1024-b4-bf16-lora16", T(*GE3_1B, b=4, seq=1024, lora=16)),
    ]
