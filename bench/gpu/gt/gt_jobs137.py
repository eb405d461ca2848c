"""Session 51, call 189: late96, BLIND timed twins of sampled generate. Session 51 priced sampling's time from
dev103's warper probe (internal/infer/sampler_time.go: the warpers, softmax and multinomial added to each step after
its forward, a fixed part plus bytes per score element); these greedy/sampled pairs, each pair in one call on one
host, test the sampled/greedy decode-speed ratio it predicts at shapes it was not fitted on: both sort paths of
top_p (rows below 128: full sort; 128 and more: cub's segmented sort), an encoder-decoder, and a large model whose
step the sampler barely moves. Figures only (no snapshots), evaluated once."""
from gt_jobs import J, G
import gt_jobs34  # noqa: F401  (registers llama32-3b, qwen3-4b)
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)
from gt_jobs136 import LLAMA3_INSTRUCT, QWEN25_INSTRUCT


def _twins(name, key, point, mem=30, **sample):
    out = []
    for kind in ("greedy", "sample"):
        kw = dict(timing=True)
        if kind == "sample":
            kw.update(sample, do_sample=True)
        out.append(J(f"late96-tg-{kind}-{name}", "late96", mem, heldout=True, exclusive=True, timeout=300,
                     spec=G(key, "bf16", "dynamic", "inference", [point], **kw)))
    return out


def call189():
    return (_twins("l3inst-llama32-1b", "llama32-1b", (64, 128, 128), **LLAMA3_INSTRUCT)
            + _twins("q25inst-qwen25-15b", "qwen25-15b", (96, 64, 128), **QWEN25_INSTRUCT)
            + _twins("topp-gpt2-medium-rows192", "gpt2-medium", (192, 32, 128), top_k=0, top_p=0.95)
            + _twins("topp-tinyllama-rows256", "tinyllama", (256, 32, 64), top_p=0.9)
            + _twins("topp-bart-large", "bart-large", (64, 128, 64), top_p=0.9)
            + _twins("default-mistral-7b", "mistral-7b", (16, 256, 128), mem=50))
