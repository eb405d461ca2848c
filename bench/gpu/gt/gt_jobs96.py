"""Session 33, calls 120 and 121: late61, step times on an H100 (BLIND for the H100; every workload was timed before
on a lent H200, so each row is also an H100/H200 pair).

Written when `status` offered nvidia-h100-x1 beside nvidia-h200 and no H100 had ever timed a step for this
repository: every step time vramkit predicts for a GPU other than the H200 is scaled from the GPU table (the same
989 TFLOP/s of bf16 on both, 3.35 against 4.8 TB/s), and no measurement has checked that scaling. These calls re-run,
unchanged, timing processes of earlier blind sets (the same specs, the same grouping into processes, 7 steps, the
median of steps 3..7, each process alone on the GPU), minus the workloads that reserved more than ~60 GiB on the H200
(they cannot fit the H100's 79.2 GiB with margin) and the diffusion ones (diffusers is not installed and its source
is not carried). They are evaluated once, with the binaries of the commit that first reads the GPU of a timing row
from its host probe (no model change), and kept outside the repository until then.

call120: late14's three processes and late17's three (transformers eager, AMP/fp32, checkpointing, LoRA, accumulation,
MoE; ViT, ResNet, ConvNeXt, EfficientNet, BERT, Whisper, GPT-2, T5).
call121: late59's compiled ResNet pairs, late48, late46, late55 and late54 (compiled CNNs, channels-last, more
technique pairs at other shapes).

Names: late61-<set>-..., e.g. late61-late14-t-qwen3-06b-s1024-b8-bf16 re-runs late14-t-qwen3-06b-s1024-b8-bf16."""
import importlib

from gt_jobs import J

# the H200 rows left out: reserved above ~60 GiB there, or a diffusers model
DROP = {
    "late17-t-qwen25-15b-s1024-b8-fp32", "late17-t-qwen15-moe-s1024-b2-bf16-lora16",
    "late17-t-qwen15-moe-s1024-b2-bf16-lora16-ckpt", "late17-t-qwen25-15b-s1024-b8-bf16",
}


def rerun(module, fn, keep=None):
    """The timing processes of an earlier set (module.fn()), renamed late61-<name>, without DROP's rows and the
    diffusion ones; keep: the process names (late17-timing-lm, ...) to take, all when None."""
    out = []
    for job in getattr(importlib.import_module(module), fn)():
        spec = job.get("spec", {})
        if spec.get("kind") != "multi" or (keep is not None and job["name"] not in keep):
            continue
        specs = [dict(s, name="late61-" + s["name"], group="late61-timing") for s in spec["specs"]
                 if s["name"] not in DROP and not str(s.get("model", "")).startswith("df:")]
        if specs:
            out.append(dict(job, name="late61-" + job["name"], group="late61-timing",
                            spec=dict(spec, specs=specs)))
    return out


def probe():
    return J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))


def call120():
    return [probe()] + rerun("gt_jobs23", "timing_groups") + rerun("gt_jobs31", "timing_groups")


def call121():
    return ([probe()] + rerun("gt_jobs94", "call117", keep={"late59-timing-resnet"})
            + rerun("gt_jobs75", "timing_groups") + rerun("gt_jobs72", "timing_groups")
            + rerun("gt_jobs86", "timing_groups") + rerun("gt_jobs85", "timing_groups"))
