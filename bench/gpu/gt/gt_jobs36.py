"""Session 15. Call 53: late20, a small blind set for the session's one memory change (the ViT patch conv's
half-precision cuDNN workspaces, read off dev23 and two earlier ViT snapshots): ViT rows of shapes no set had
captured, kept outside the repository until evaluated once; and dev24 (NOT blind): a snapshot of late17's Phi-3
mini DynamicCache generate point (reserved +11.8% over, its only dynamic-cache capture) and kernel profiles of
Phi-3 mini LoRA on a bf16 base and under bf16 AMP (pick8: the bf16 base ran 2.6% slower where the walk priced it
3.4% faster)."""
from gt_jobs import J, T, G, GEN_MODELS, maker
from gt_jobs9 import tv
from gt_jobs31 import P3M

GEN_MODELS.setdefault("phi3-mini", P3M)
B = maker("late20-", "late20", heldout=True)


def blind():
    return [
        B("vitb16-b256-fp16-ckpt", tv("vit_b_16", 256, prec="fp16", ckpt="block"), mem=30),
        B("vith14-b48-bf16-ckpt", tv("vit_h_14", 48, ckpt="block"), mem=40),
        B("vitl16-b96-bf16-ckpt", tv("vit_l_16", 96, ckpt="block"), mem=30),
        B("vitb16-b192-bf16", tv("vit_b_16", 192), mem=40),
        B("vitl16-b160-fp16-ckpt", tv("vit_l_16", 160, prec="fp16", ckpt="block"), mem=30),
    ]


def dev():
    snap = J("dev24-gen-phi3-mini-fp16-dynamic-nograd-snap", "dev24", 40, heldout=False, timeout=240,
             spec=G("phi3-mini", "fp16", "dynamic", "no_grad", [(16, 1500, 200)], snap=True))

    def P(name, spec):
        s = dict(spec, iters=4, profile=True, build_on_gpu=True)
        return J("dev24-prof-" + name, "dev24-profile", 40, exclusive=True, timeout=150, heldout=False, spec=s)
    return [P("phi3-mini-s2048-b4-bf16w-lora16", T(*P3M, b=4, seq=2048, lora=16, prec="bf16w", build_bf16=True,
                                                   family="phi3")),
            P("phi3-mini-s2048-b4-bf16-lora16", T(*P3M, b=4, seq=2048, lora=16, family="phi3")), snap]


def call53():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev() + blind()
