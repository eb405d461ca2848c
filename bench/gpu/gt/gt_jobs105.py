"""Session 38, call 136: dev70 (development data, NOT blind): dev69's host cost per module kind on another lent
host, with more Hugging Face layer kinds (Qwen2 decoder layer, Mixtral's sparse MoE block, T5 block, Whisper encoder
layer) and three whole models at 8 tokens (BERT-base, GPT-2, Llama-small) whose layers dev69 timed alone: the
per-aten-op and per-node host prices of docs/steptime.md (session 38) are to be fitted on these before the walk takes
them. Two processes, the second repeating the first."""
from gt_jobs import J


def call136():
    return [J("dev70-modhost-%d" % i, "dev70-modhost", 10, exclusive=True, timeout=420,
              spec=dict(kind="modhost", extra=True)) for i in (1, 2)]
