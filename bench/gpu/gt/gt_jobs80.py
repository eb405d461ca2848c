"""Session 26, call 103, on one H200.

dev54 (development data, NOT blind): allocator snapshots of NCHW torchvision ResNets in fp16/bf16 AMP at the
batches whose peak reserved the model misses: ResNet-50 fp16 at b32, b96, b128, b192, b256 and bf16 at b128, b192
and b160 checkpointed (late5/late8/late47/late48: reserved 1.8-3.9% low at b>=128; the fixtures' b64 fp16/bf16
2.2-2.4% high), ResNet-152 fp16 b128 (late15 -1.40%), ResNet-34 fp16 b512 (late19 -2.25%), ResNet-18 bf16 b512
(late15 +5.25%), ResNet-50 float32 b192 (late12 +1.90%): the cuDNN workspaces and the segments they leave, per
convolution, which conv_workspace.go read off the batch-64 half traces only. Each in its own process.

late50 (blind; kept outside the repository until evaluated once with the binaries of the commit that changes the
model from dev54, which may not look at it): NCHW ResNets in half precision at batches and mixes no set ran
(repeats.py finds none): ResNet-50 fp16 b112 and b48, bf16 b224 and b96 x 2 accumulated, ResNet-101 bf16 b160,
ResNet-152 fp16 b96 checkpointed, ResNet-34 bf16 b384, ResNet-18 fp16 b256; memory rows each in their own
process."""
from gt_jobs import maker
from gt_jobs9 import tv


def dev_jobs():
    D = maker("dev54-", "dev54", heldout=False)
    snap = dict(snap=True)
    return [
        D("resnet50-b32-fp16", dict(tv("resnet50", 32, prec="fp16"), **snap), 15),
        D("resnet50-b96-fp16", dict(tv("resnet50", 96, prec="fp16"), **snap), 20),
        D("resnet50-b128-fp16", dict(tv("resnet50", 128, prec="fp16"), **snap), 25),
        D("resnet50-b192-fp16", dict(tv("resnet50", 192, prec="fp16"), **snap), 30),
        D("resnet50-b256-fp16", dict(tv("resnet50", 256, prec="fp16"), **snap), 35),
        D("resnet50-b128-bf16", dict(tv("resnet50", 128), **snap), 25),
        D("resnet50-b192-bf16", dict(tv("resnet50", 192), **snap), 30),
        D("resnet50-b160-bf16-ckpt", dict(tv("resnet50", 160, ckpt="block"), **snap), 20),
        D("resnet152-b128-fp16", dict(tv("resnet152", 128, prec="fp16"), **snap), 35),
        D("resnet34-b512-fp16", dict(tv("resnet34", 512, prec="fp16"), **snap), 35),
        D("resnet18-b512-bf16", dict(tv("resnet18", 512), **snap), 30),
        D("resnet50-b192-fp32", dict(tv("resnet50", 192, prec="fp32"), **snap), 45),
    ]


def blind_jobs():
    B = maker("late50-", "late50", heldout=True)
    return [
        B("resnet50-b112-fp16", tv("resnet50", 112, prec="fp16"), mem=25),
        B("resnet50-b48-fp16", tv("resnet50", 48, prec="fp16"), mem=15),
        B("resnet50-b224-bf16", tv("resnet50", 224), mem=35),
        B("resnet50-b96x2-bf16", tv("resnet50", 96, accum=2), mem=25),
        B("resnet101-b160-bf16", tv("resnet101", 160), mem=35),
        B("resnet152-b96-fp16-ckpt", tv("resnet152", 96, prec="fp16", ckpt="block"), mem=20),
        B("resnet34-b384-bf16", tv("resnet34", 384), mem=30),
        B("resnet18-b256-fp16", tv("resnet18", 256, prec="fp16"), mem=20),
    ]


def call103():
    return dev_jobs() + blind_jobs()
