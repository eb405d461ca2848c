"""Session 43, call 148: a decoder's sequence-classification head (reward models: LlamaForSequenceClassification and
its kin; plan's spec head "sequence-classification", and a config.json naming ...ForSequenceClassification, which
plan had priced with the LM head's batch x seq x vocab logits).

dev75 (development data, NOT blind; snapshots): Qwen2.5-0.5B s1024 b8 bf16 AMP, Llama-3.2-1B s512 b4 fp32; one
process each.

late74 (BLIND; kept outside the repository until the head's model is final, then evaluated once): TinyLlama s1024
b8 bf16 AMP, Qwen3-0.6B s2048 b4 bf16 AMP checkpointed, Llama-3.2-1B s1024 b8 bf16 AMP; memory rows one process
each; Qwen2.5-0.5B s1024 b8 bf16 AMP timed with its causal-LM twin in one process alone on the GPU."""
from gt_jobs import T, GEN_MODELS, maker, timer, timing_jobs
from gt_jobs109 import Q3_06B


def seqcls(key_or_tuple):
    """The decoder's ...ForSequenceClassification with two labels and a padding id (the class refuses a batch
    without one)."""
    model, config, cfg = GEN_MODELS[key_or_tuple] if isinstance(key_or_tuple, str) else key_or_tuple
    cfg = dict(cfg, num_labels=2)
    cfg.setdefault("pad_token_id", 0)
    if cfg.get("pad_token_id") is None:
        cfg["pad_token_id"] = 0
    return model.replace("ForCausalLM", "ForSequenceClassification"), config, cfg


def call148():
    D = maker("dev75-", "dev75", heldout=False)
    B = maker("late74-", "late74", heldout=True)
    t = timer("late74-", "late74-timing")
    dev = [
        D("qwen25-05b-seqcls-s1024-b8-bf16", dict(T(*seqcls("qwen25-05b"), io="cls", b=8, seq=1024), snap=True), 30),
        D("llama32-1b-seqcls-s512-b4-fp32", dict(T(*seqcls("llama32-1b"), io="cls", b=4, seq=512, prec="fp32"),
                                              snap=True), 40),
    ]
    blind = [
        B("tinyllama-seqcls-s1024-b8-bf16", T(*seqcls("tinyllama"), io="cls", b=8, seq=1024), 40),
        B("qwen3-06b-seqcls-s2048-b4-bf16-ckpt", T(*seqcls(Q3_06B), io="cls", b=4, seq=2048, ckpt="block"), 40),
        B("llama32-1b-seqcls-s1024-b8-bf16", T(*seqcls("llama32-1b"), io="cls", b=8, seq=1024), 50),
    ]
    timing = timing_jobs("late74-", "late74-timing", (
        ("qwen25", [t("t-qwen25-05b-seqcls-s1024-b8-bf16", T(*seqcls("qwen25-05b"), io="cls", b=8, seq=1024)),
                    t("t-qwen25-05b-s1024-b8-bf16", T(*GEN_MODELS["qwen25-05b"], b=8, seq=1024))]),
    ))
    return timing + dev + blind
