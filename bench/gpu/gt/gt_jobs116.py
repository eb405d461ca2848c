"""Session 43, call 149: dev76 (development data, NOT blind): the same GPT-2 training run (124M, s256 b4 bf16 AMP,
3 steps) recorded twice, in two processes: with stacks="python" (how every capture so far was recorded) and with
PyTorch's default stacks="all" (C++ frames too, what users' snapshots hold), so that analyze can be held to read the
second as it reads the first."""
from gt_jobs import T, maker

GPT2_124M = ("GPT2LMHeadModel", "GPT2Config", {})


def call149():
    D = maker("dev76-", "dev76", heldout=False)
    return [D("gpt2-s256-b4-bf16-py", dict(T(*GPT2_124M, b=4, seq=256), snap=True), 12),
            D("gpt2-s256-b4-bf16-all", dict(T(*GPT2_124M, b=4, seq=256), snap=True, stacks="all"), 12)]
