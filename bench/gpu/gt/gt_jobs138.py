"""Session 51, call 190: min_p (MinPLogitsWarper), which plan modelled from transformers' code this session
(softmax, its row maxima times min_p, a bool mask, topk of min_tokens_to_keep scattered into it, masked_fill's copy).
dev104: DEVELOPMENT traces at decode-peaked points, greedy/min_p timed twins, and the warper probe with min_p added.
late97: BLIND rows (figures only), kept outside the repository until the model is final, then evaluated once."""
from gt_jobs import J, G, script
import gt_jobs34  # noqa: F401  (registers llama32-3b, qwen3-4b)
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)
from gt_jobs136 import _gen


def call190():
    d = _gen("dev104-", "dev104", False)
    b = _gen("late97-", "late97", True)
    dev = [
        d("gen-sample-minp-llama32-1b", "llama32-1b", [(64, 64, 256)], top_k=0, min_p=0.1, temperature=0.7),
        d("gen-sample-minp-topk-qwen25-05b", "qwen25-05b", [(32, 64, 128)], min_p=0.05),
    ]
    blind = [
        b("gen-sample-minp-tinyllama", "tinyllama", [(96, 128, 256)], top_k=0, min_p=0.1, temperature=0.8),
        b("gen-sample-minp-gpt2-medium", "gpt2-medium", [(64, 64, 256)], min_p=0.05),
        b("gen-sample-minp-topp-qwen25-15b", "qwen25-15b", [(48, 128, 256)], top_k=20, top_p=0.95, min_p=0.02,
          temperature=0.6),
    ]
    timed = [
        d("tg-greedy-qwen25-05b-rows128", "qwen25-05b", [(128, 64, 128)], timed=True, greedy=True),
        d("tg-sample-minp-qwen25-05b-rows128", "qwen25-05b", [(128, 64, 128)], timed=True, top_k=0, min_p=0.1),
    ]
    probe = [script("dev104-warper-time", "dev104-probe", 10, "warper_time.py", {}, timeout=200, exclusive=True)]
    return blind + dev + probe + timed


def call191():
    """call190 without the timed twins, for what device time is left: the probe times min_p alone."""
    return [j for j in call190() if "-tg-" not in j["name"]]
