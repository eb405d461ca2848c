"""Session 26, call 105, on the two-GPU machine (nvidia-h200-x2).

late51 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the first pipeline-parallel runs (gt_work.pipeline: torch.distributed.pipelining,
a Llama-style model split by hand into two stages of equal decoder layers, the embedding on stage 0, the final norm
and lm_head on stage 1; each rank's row is its stage's memory), bf16 AMP, AdamW, 3 steps, use_cache off, each job
alone on the machine, launched by torchrun:
- the small Llama s1024, micro-batches of 4: 1F1B with 4 and with 8 micro-batches, GPipe with 4, 1F1B with 8 and
  block checkpointing;
- TinyLlama 1.1B s1024, micro-batches of 2: 1F1B with 4, and s2048 with block checkpointing."""
import json

from gt_jobs import J, LLAMA_SMALL
from gt_jobs26 import TL

LS = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
PORT = [29711]


def D(name, model, b, seq, mb, schedule="1f1b", **kw):
    m, c, cfg = model
    full = "late51-" + name
    spec = dict(kind="sharded", model=m, config=c, cfg=cfg, strategy="pp", b=b, seq=seq, mb=mb, schedule=schedule,
                iters=3, snap=True, heldout=True, name=full, group="late51", **kw)
    PORT[0] += 1
    return J(full, "late51", 120, heldout=True, exclusive=True, timeout=200,
             cmd=["python3", "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_port", str(PORT[0]),
                  "@HERE/gt_work.py", "--out", "@OUT", "--spec", json.dumps(spec)])


def call105():
    return [D("ws2-pp-llama-small-s1024-b4-m4-1f1b", LS, 4, 1024, 4),
            D("ws2-pp-llama-small-s1024-b4-m8-1f1b", LS, 4, 1024, 8),
            D("ws2-pp-llama-small-s1024-b4-m4-gpipe", LS, 4, 1024, 4, schedule="gpipe"),
            D("ws2-pp-llama-small-s1024-b4-m8-1f1b-ckpt", LS, 4, 1024, 8, ckpt="block"),
            D("ws2-pp-tinyllama-s1024-b2-m4-1f1b", TL, 2, 1024, 4),
            D("ws2-pp-tinyllama-s2048-b2-m4-1f1b-ckpt", TL, 2, 2048, 4, ckpt="block")]
