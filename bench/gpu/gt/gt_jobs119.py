"""Session 44, call 155: dev80 (development data, NOT blind) - a check of analyze's new advice, "compute the MLP's
activation in one kernel" (hidden_act gelu_pytorch_tanh in place of NewGELU's Python operators): the same training
run with each activation, one process each, alone on the GPU; the gelu_new runs recorded (snapshots) so that
analyze's predicted saving can be set against the measured difference of peak allocated. GPT-2 (124M) s1024 b8 bf16
AMP and phi-1.5 s1024 b4 bf16 AMP (dev77's row, again)."""
from gt_jobs import T, maker
from gt_jobs117 import PHI_15

GPT2 = ("GPT2LMHeadModel", "GPT2Config", {})
GPT2_FUSED = ("GPT2LMHeadModel", "GPT2Config", {"activation_function": "gelu_pytorch_tanh"})
PHI_15_FUSED = (PHI_15[0], PHI_15[1], dict(PHI_15[2], hidden_act="gelu_pytorch_tanh"))


def call155():
    D = maker("dev80-", "dev80", heldout=False)
    return [
        D("gpt2-s1024-b8-bf16-gelu-new", dict(T(*GPT2, b=8, seq=1024), snap=True), 30),
        D("gpt2-s1024-b8-bf16-gelu-fused", T(*GPT2_FUSED, b=8, seq=1024), 30),
        D("phi-15-s1024-b4-bf16-gelu-new", dict(T(*PHI_15, b=4, seq=1024), snap=True), 45),
        D("phi-15-s1024-b4-bf16-gelu-fused", T(*PHI_15_FUSED, b=4, seq=1024), 45),
    ]
