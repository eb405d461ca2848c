"""Session 23, call 92, on the first two-GPU machine lent (nvidia-h200-x2): issue 15's ground truth.

late44 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): sharded training on two H200s, each job alone on the machine, launched by
torchrun (gt_work.sharded: one process per rank, every rank's memory_stats and snapshot, rows <name>-rank0/-rank1),
bf16 AMP (FSDP2: a bf16 MixedPrecisionPolicy, float32 reduce), AdamW, 3 steps, use_cache off:
- GPT-2 medium s1024 b8: DDP, FSDP2, FSDP2 with block checkpointing, FSDP2 reshard_after_forward=False, ZeRO-1;
- TinyLlama 1.1B s1024 b4: DDP, DDP checkpointed, FSDP2, FSDP2 checkpointed, tensor parallelism (DTensor
  colwise/rowwise on q/k/v/o and the MLP) with and without checkpointing, ZeRO-1."""
import json

from gt_jobs import J, GPT2_MEDIUM
from gt_jobs26 import TL

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
PORT = [29611]


def D(name, strategy, model, b, seq, **kw):
    m, c, cfg = model
    full = "late44-" + name
    spec = dict(kind="sharded", model=m, config=c, cfg=cfg, strategy=strategy, b=b, seq=seq, iters=3, snap=True,
                heldout=True, name=full, group="late44", **kw)
    PORT[0] += 1
    return J(full, "late44", 120, heldout=True, exclusive=True, timeout=200,
             cmd=["python3", "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_port", str(PORT[0]),
                  "@HERE/gt_work.py", "--out", "@OUT", "--spec", json.dumps(spec)])


def regroup(j, group):
    """A D job renamed into another capture set: its name's prefix, its group and the spec in its command."""
    j["name"] = j["name"].replace("late44-", group + "-")
    j["group"] = group
    j["cmd"] = [x.replace('"late44-', '"%s-' % group).replace('"group": "late44"', '"group": "%s"' % group)
                for x in j["cmd"]]
    return j


def call92():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            D("ws2-ddp-gpt2-medium-s1024-b8", "ddp", GM, 8, 1024),
            D("ws2-fsdp2-gpt2-medium-s1024-b8", "fsdp2", GM, 8, 1024),
            D("ws2-fsdp2-gpt2-medium-s1024-b8-ckpt", "fsdp2", GM, 8, 1024, ckpt="block"),
            D("ws2-fsdp2-noreshard-gpt2-medium-s1024-b8", "fsdp2", GM, 8, 1024, reshard=False),
            D("ws2-zero1-gpt2-medium-s1024-b8", "zero1", GM, 8, 1024),
            D("ws2-ddp-tinyllama-s1024-b4", "ddp", TL, 4, 1024),
            D("ws2-ddp-tinyllama-s1024-b4-ckpt", "ddp", TL, 4, 1024, ckpt="block"),
            D("ws2-fsdp2-tinyllama-s1024-b4", "fsdp2", TL, 4, 1024),
            D("ws2-fsdp2-tinyllama-s1024-b4-ckpt", "fsdp2", TL, 4, 1024, ckpt="block"),
            D("ws2-tp-tinyllama-s1024-b4", "tp", TL, 4, 1024),
            D("ws2-tp-tinyllama-s1024-b4-ckpt", "tp", TL, 4, 1024, ckpt="block"),
            D("ws2-zero1-tinyllama-s1024-b4", "zero1", TL, 4, 1024)]
