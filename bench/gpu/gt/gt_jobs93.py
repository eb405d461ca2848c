"""Session 28, call 116, for the two-GPU machine (nvidia-h200-x2; not lent in session 28, so not run).

late58 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list): FSDP2 loaded from the meta device (spec parallel.init "meta", session 28: torch.device("meta"),
fully_shard per block and the root, to_empty, weights initialised in place), which plan models from FSDP2's source
and no capture has run. Each job alone on the machine, torchrun, one row and one snapshot per rank, bf16
MixedPrecisionPolicy with float32 reduce, AdamW, 3 steps, use_cache off:
- TinyLlama s1024 b4 and GPT-2 medium s1024 b8 (late44 ran both loaded with model.to(device) first: the pairs show
  what the load changes);
- Qwen2.5-0.5B s2048 b4 checkpointed, the small Llama s1024 b4 reshard_after_forward=False."""
from gt_jobs import J, LLAMA_SMALL
from gt_jobs7 import QW05
from gt_jobs69 import D as D44, GM, TL, regroup

L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)


def D(name, model, b, seq, **kw):
    return regroup(D44(name, "fsdp2", model, b, seq, init="meta", **kw), "late58")


def call116():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            D("ws2-fsdp2-meta-tinyllama-s1024-b4", TL, 4, 1024),
            D("ws2-fsdp2-meta-gpt2-medium-s1024-b8", GM, 8, 1024),
            D("ws2-fsdp2-meta-qwen25-05b-s2048-b4-ckpt", QW05, 4, 2048, ckpt="block"),
            D("ws2-fsdp2-meta-noreshard-llama-small-s1024-b4", L, 4, 1024, reshard=False)]
