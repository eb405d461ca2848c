"""Session 10. Call 37, after late13 was evaluated (dev data, NOT blind): kernel profiles of late13's
worst-predicted step times, each alone in its own process (6 timed steps, then 2 under torch.profiler):
Whisper (f) b32 fp32 (-28.1%) and bf16 (-19.6%), Gemma 3 (e) LoRA with and without checkpointing (their
ratio -26.0%), the SD 1.5 UNet b8 checkpointed (-17.7%), ViT-B/16 b128 checkpointed (-16.1%) and Mistral-e
b4x2 accumulation (-14.9%); plus a memory-history snapshot of EfficientNet-B0 b96 (allocated -2.70%)."""
from gt_jobs import J, T, maker
from gt_jobs9 import MI, GE3, WH, tv
from gt_jobs11 import df

D = maker("dev12-", "dev12", heldout=False, timeout=300)


def P(name, spec):
    s = dict(spec, iters=6, profile=True, build_on_gpu=True)
    return J("prof-" + name, "dev12-profile", 60, exclusive=True, timeout=150, spec=s)


def jobs():
    return [
        P("whisper-f-b32-fp32", T(*WH, io="whisper", b=32, seq=64, prec="fp32")),
        P("whisper-f-b32-bf16", T(*WH, io="whisper", b=32, seq=64)),
        P("gemma3-e-s1024-b4-bf16-lora16", T(*GE3, b=4, seq=1024, lora=16)),
        P("gemma3-e-s1024-b4-bf16-lora16-ckpt", T(*GE3, b=4, seq=1024, lora=16, ckpt="block")),
        P("sd15-unet-b8-bf16-ckpt", df("sd15-unet", 8, ckpt="block")),
        P("vitb16-b128-bf16-ckpt", tv("vit_b_16", 128, ckpt="block")),
        P("mistral-e-s1024-b4x2-bf16", T(*MI, b=4, seq=1024, accum=2)),
        D("efficientnet-b0-b96-bf16-snap", tv("efficientnet_b0", 96, iters=2, snap=True)),
    ]
