"""Session 14. Call 48: dev21 (NOT blind) — what a mixture-of-experts layer costs the host. dev20's profile showed
torch 2.11's _grouped_mm running float32 experts through ATen's fallback (offs.cpu(): one device sync and one mm
per expert, forward and each gradient); the walk now prices that, and every MoE step it predicts is then 5-25%
short, most at host-bound shapes (dev7's Mixtral (f) s16 b1: 50 ms measured, 33.5 ms predicted). Timed here, one
process alone on the GPU: Mixtral (f) and Qwen2-MoE (f) at s16 b1 (host-bound) with the fallback (bf16 AMP), the
bf16 CUTLASS path (bf16 weights) and frozen experts (LoRA); the expert count varied (2/4/8/16) at s16 to separate
the per-expert from the per-call cost; s256 between; s1024 b4 on the bf16 path (GPU-bound, the grouped kernel's
rate). Two kernel profiles: Mixtral (f) s1024 b4 bf16w (the CUTLASS grouped kernel) and Qwen2-MoE (g) s1024 b4
(16 experts, top 4, shared expert, the fallback).
Beside it the ten late17 blind rows call 47 skipped at its time budget (their specs unchanged, gt_jobs31)."""
from gt_jobs import J, T, dev_timing_jobs
from gt_jobs9 import MX, QM
from gt_jobs31 import blind_jobs, QMG


def mx(e):
    m, c, cfg = MX
    return (m, c, dict(cfg, num_local_experts=e))


def dev21():
    rows = [
        ("mixtral-f-s16-b1-bf16", T(*MX, b=1, seq=16)),
        ("mixtral-f-s16-b1-bf16w", T(*MX, b=1, seq=16, prec="bf16w")),
        ("mixtral-f-s16-b1-bf16-lora16", T(*MX, b=1, seq=16, lora=16)),
        ("mixtral-f-e2-s16-b1-bf16", T(*mx(2), b=1, seq=16)),
        ("mixtral-f-e8-s16-b1-bf16", T(*mx(8), b=1, seq=16)),
        ("mixtral-f-e16-s16-b1-bf16", T(*mx(16), b=1, seq=16)),
        ("mixtral-f-e16-s16-b1-bf16w", T(*mx(16), b=1, seq=16, prec="bf16w")),
        ("qwen2moe-f-s16-b1-bf16", T(*QM, b=1, seq=16)),
        ("qwen2moe-f-s16-b1-bf16w", T(*QM, b=1, seq=16, prec="bf16w")),
        ("mixtral-f-s256-b4-bf16", T(*MX, b=4, seq=256)),
        ("mixtral-f-s1024-b4-bf16w", T(*MX, b=4, seq=1024, prec="bf16w")),
        ("qwen2moe-f-s1024-b4-bf16w", T(*QM, b=4, seq=1024, prec="bf16w")),
    ]
    specs = [dict(s, iters=12, name="dev21-t-" + n, group="dev21", heldout=False) for n, s in rows]
    return dev_timing_jobs("dev21-", "dev21", (("moe-host", specs),))


def profiles():
    def P(name, spec):
        s = dict(spec, iters=4, profile=True, build_on_gpu=True)
        return J("dev21-prof-" + name, "dev21-profile", 40, exclusive=True, timeout=150, heldout=False, spec=s)
    return [P("mixtral-f-s1024-b4-bf16w", T(*MX, b=4, seq=1024, prec="bf16w", family="mixtral")),
            P("qwen2moe-g-s1024-b4-bf16", T(*QMG, b=4, seq=1024, family="qwen2moe"))]


SKIPPED = {"late17-qwen25-15b-s2048-b4-bf16", "late17-olmo2-1b-s2048-b4-bf16", "late17-qwen15-moe-s1024-b2-bf16-lora16",
           "late17-gemma-2b-s1024-b4-bf16-ckpt", "late17-t5-3b-s512-b4-bf16-ckpt", "late17-vith14-b32-fp16",
           "late17-sd15-unet-b32-bf16-ckpt", "late17-smollm2-17b-s1024-b4-bf16-compile",
           "late17-gen-qwen3-8b-bf16-dynamic-inf", "late17-gen-phi3-mini-fp16-dynamic-nograd"}


def call48():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    late = [j for j in blind_jobs() if j["name"] in SKIPPED]
    assert len(late) == len(SKIPPED), [j["name"] for j in late]
    return [probe] + dev21() + profiles() + late
