"""Session 45, call 168: DINOv2 (facebook/dinov2-small/base/large; config.json model_type dinov2 was refused), as
transformers' Dinov2ForImageClassification: ViT layers with a layer scale on both branches, patch 14 with the
position embedding interpolated to the image, and a classifier on the class token concatenated with the mean patch
token.

dev90 (development data, NOT blind; snapshots) and late82 (BLIND memory rows, kept outside the repository until the
model is final, then evaluated once), one call: the device time left this session allowed one."""
from gt_jobs import T, maker


def dinov2(hidden, layers, heads):
    return ("Dinov2ForImageClassification", "Dinov2Config", dict(
        hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads, mlp_ratio=4, image_size=518,
        patch_size=14, num_channels=3, layerscale_value=1.0, drop_path_rate=0.0, use_swiglu_ffn=False,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, num_labels=1000))


DINO_S = dinov2(384, 12, 6)
DINO_B = dinov2(768, 12, 12)
DINO_L = dinov2(1024, 24, 16)


def V(model, b, **kw):
    return T(*model, io="hfvision", b=b, **kw)


def call168():
    D = maker("dev90-", "dev90", heldout=False)
    B = maker("late82-", "late82", heldout=True)
    return [
        D("dinov2-b-b64-bf16", dict(V(DINO_B, 64), snap=True), 20),
        D("dinov2-b-b32-fp32", dict(V(DINO_B, 32, prec="fp32"), snap=True), 20),
        D("dinov2-b-b64-bf16-ckpt", dict(V(DINO_B, 64, ckpt="block"), snap=True), 15),
        B("dinov2-l-b32-bf16", V(DINO_L, 32), 25),
        B("dinov2-s-b128-fp16", V(DINO_S, 128, prec="fp16"), 20),
        B("dinov2-b-b96-bf16-ckpt", V(DINO_B, 96, ckpt="block"), 20),
    ]
