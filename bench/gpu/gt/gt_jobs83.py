"""Session 26, call 106, on one H200.

late52 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the half-precision NCHW conv workspace rules dev54 and dev55 gave (split-K
partials by conv kind and batch: the 1x1 convs' from b64, the downsamples' from b80, the 3x3s' from b96) on batches
and models their traces did not cover (repeats.py finds none): ResNet-50 fp16 b72, b88 and b320, bf16 b144
checkpointed; ResNet-101 fp16 b80 and bf16 b256; ResNet-152 bf16 b64 checkpointed; ResNet-34 fp16 b192; ResNet-18
bf16 b384; memory rows each in their own process."""
from gt_jobs import maker
from gt_jobs9 import tv


def call106():
    B = maker("late52-", "late52", heldout=True)
    return [
        B("resnet50-b72-fp16", tv("resnet50", 72, prec="fp16"), mem=20),
        B("resnet50-b88-fp16", tv("resnet50", 88, prec="fp16"), mem=20),
        B("resnet50-b320-fp16", tv("resnet50", 320, prec="fp16"), mem=40),
        B("resnet50-b144-bf16-ckpt", tv("resnet50", 144, ckpt="block"), mem=20),
        B("resnet101-b80-fp16", tv("resnet101", 80, prec="fp16"), mem=25),
        B("resnet101-b256-bf16", tv("resnet101", 256), mem=45),
        B("resnet152-b64-bf16-ckpt", tv("resnet152", 64, ckpt="block"), mem=20),
        B("resnet34-b192-fp16", tv("resnet34", 192, prec="fp16"), mem=20),
        B("resnet18-b384-bf16", tv("resnet18", 384), mem=25),
    ]
