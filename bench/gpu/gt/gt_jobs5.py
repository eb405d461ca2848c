"""Call 5 (session 3): every `plan --fit` candidate of the three transformer checks of issue 14
(GPT-2 medium s1024 global 32, LLaMA-small s1024 global 16, BERT-base s512 global 64), timed alone
without history (precision x checkpointing none/block x the three largest micro-batch splits), so
that whichever candidate the final step-time model ranks first has a measured time. Results are kept
aside with the late2 blind set (testdata/late2/pick2) until the model is final.
"""
from gt_jobs import J, T, LLAMA_SMALL, GPT2_MEDIUM

GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
BERT = ("BertForSequenceClassification", "BertConfig", {})


def grid(key, m, io, seq, splits):
    specs = []
    for p in ("bf16", "fp16", "fp32"):
        for b, a in splits:
            for c in (False, True):
                n = f"grid-{key}-s{seq}-{p}-b{b}x{a}{'-ckpt' if c else ''}"
                specs.append(dict(T(*m, io=io, b=b, seq=seq, accum=a, prec=p, ckpt="block" if c else "none"),
                                  iters=7, name=n, group="pick2", heldout=True))
    return J("pick2-" + key + "-grid", "pick2", 60, heldout=True, exclusive=True, timeout=280,
             spec=dict(kind="multi", specs=specs))


def jobs():
    return [grid("llama-small", L, "lm", 1024, ((16, 1), (8, 2), (4, 4))),
            grid("bert-base", BERT, "cls", 512, ((64, 1), (32, 2), (16, 4))),
            grid("gpt2-medium", GM, "lm", 1024, ((32, 1), (16, 2), (8, 4)))]


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def snapshots():
    """Call 6: dev snapshots (history on) of vision workloads whose allocated peak the planner misses
    by 2-5%: ConvNeXt with block checkpointing (never captured before), EfficientNet-B0 bf16."""
    out = []
    for n, s in (("convnext-tiny-b64-bf16-ckpt", tv("convnext_tiny", 64, ckpt="block")),
                 ("convnext-small-b32-bf16-ckpt", tv("convnext_small", 32, ckpt="block")),
                 ("convnext-tiny-b64-fp32-ckpt", tv("convnext_tiny", 64, prec="fp32", ckpt="block")),
                 ("efficientnet-b0-b64-bf16", tv("efficientnet_b0", 64)),
                 ("resnet50-b64-bf16-ckpt-snap", tv("resnet50", 64, ckpt="block"))):
        out.append(J("dev6-" + n, "vision6", 20, timeout=150, spec=dict(s, snap=True)))
    return out
