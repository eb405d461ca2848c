"""Session 38, call 135: dev69 (development data, NOT blind): the host's cost per module kind, and LoRA pairs with the
phase split.

The phase split (docs/steptime.md, session 38) says one module-op price cannot hold both leaf-module families (BERT,
torchvision, GPT-2: forward 0.46-0.9x the walk's) and Hugging Face decoder layers (Llama-small 1.06-1.4x), and that
PEFT's adapters cost the host about three times what the walk prices. Two processes of gt_modhost.py (the second
repeats the first: the spread between processes) measure the forward and backward host time and the aten ops and
autograd nodes of leaf modules, whole blocks and PEFT's LoRA Linear at shapes the GPU never holds up. A third times
Qwen2.5-0.5B s128 b1 and GPT-2 s128 b1 full and LoRA r16 with the phase split (eager bf16 AMP, 7 steps)."""
from gt_jobs import J, T, dev_timing_jobs, timer, GEN_MODELS


def call135():
    Q = GEN_MODELS["qwen25-05b"]
    G2 = ("GPT2LMHeadModel", "GPT2Config", {})
    t = timer("dev69-", "dev69-timing", heldout=False)
    groups = (
        ("lora", [t("t-qwen25-05b-s128-b1-bf16", T(*Q, b=1, seq=128)),
                  t("t-qwen25-05b-s128-b1-bf16-lora16", T(*Q, b=1, seq=128, lora=16)),
                  t("t-gpt2-s128-b1-bf16", T(*G2, b=1, seq=128)),
                  t("t-gpt2-s128-b1-bf16-lora16", T(*G2, b=1, seq=128, lora=16, lora_targets=["c_attn"]))]),
    )
    mods = [J("dev69-modhost-%d" % i, "dev69-modhost", 10, exclusive=True, timeout=300, spec=dict(kind="modhost"))
            for i in (1, 2)]
    return mods + dev_timing_jobs("dev69-", "dev69-timing", groups)
