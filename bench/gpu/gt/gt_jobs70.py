"""Session 23, call 93, on the two-GPU machine (nvidia-h200-x2): issue 15's unseen runs.

late45 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): the strategies of late44 on models and shapes no two-GPU run used, after
e436724's FSDP2 side-stream changes (read off late44): each job alone on the machine, torchrun, one row and one
snapshot per rank, bf16 AMP (FSDP2: bf16 MixedPrecisionPolicy, float32 reduce), AdamW, 3 steps, use_cache off.
- GPT-2 large s1024 b4: FSDP2, FSDP2 checkpointed, DDP;
- Qwen2.5-0.5B s2048 b4: FSDP2, FSDP2 reshard_after_forward=False, ZeRO-1, TP (grouped queries: 14 heads, 2 KV
  heads, one per rank);
- the small Llama s2048 b4: FSDP2 checkpointed, TP checkpointed, DDP checkpointed."""
from gt_jobs import LLAMA_SMALL
from gt_jobs7 import QW05
from gt_jobs9 import GL
from gt_jobs69 import D as D44, regroup

L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)


def D(name, strategy, model, b, seq, **kw):
    return regroup(D44(name, strategy, model, b, seq, **kw), "late45")


def call93():
    from gt_jobs import J
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            D("ws2-fsdp2-gpt2-large-s1024-b4", "fsdp2", GL, 4, 1024),
            D("ws2-fsdp2-gpt2-large-s1024-b4-ckpt", "fsdp2", GL, 4, 1024, ckpt="block"),
            D("ws2-ddp-gpt2-large-s1024-b4", "ddp", GL, 4, 1024),
            D("ws2-fsdp2-qwen25-05b-s2048-b4", "fsdp2", QW05, 4, 2048),
            D("ws2-fsdp2-noreshard-qwen25-05b-s2048-b4", "fsdp2", QW05, 4, 2048, reshard=False),
            D("ws2-zero1-qwen25-05b-s2048-b4", "zero1", QW05, 4, 2048),
            D("ws2-tp-qwen25-05b-s2048-b4", "tp", QW05, 4, 2048),
            D("ws2-fsdp2-llama-small-s2048-b4-ckpt", "fsdp2", L, 4, 2048, ckpt="block"),
            D("ws2-tp-llama-small-s2048-b4-ckpt", "tp", L, 4, 2048, ckpt="block"),
            D("ws2-ddp-llama-small-s2048-b4-ckpt", "ddp", L, 4, 2048, ckpt="block")]
