"""Session 49, call 184: beam search TIMED (plan prices a beam step from the greedy rates plus the search's copies and
allocations, unmeasured), and whether transformers 5.17 honours tie_word_embeddings false for Flan-T5 (dev100's
harness config came back tied; the catalog's flan-t5-* follow the hub's config.json, untied).
dev101: development points (timed, num_beams 4, inference_mode, one process each) on GPT-2 medium, BART-large,
TinyLlama, beside their greedy twins; the tie probe (scripts/t5_tie_probe.py, CPU only).
late93: BLIND timed beam points (Pegasus 8 beams, T5-base and Llama 3.2 1B 4 beams), evaluated once."""
from gt_jobs import J, G, script
import gt_jobs34  # noqa: F401  (registers llama32-3b, qwen3-4b)
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)
import gt_jobs134  # noqa: F401  (registers pegasus)


def _timed(prefix, group, blind):
    def t(name, key, points, beams=0, dtype="bf16"):
        kw = dict(timing=True)
        if beams:
            kw["num_beams"] = beams
        return J(prefix + name, group, 40, heldout=blind, exclusive=True, timeout=240,
                 spec=G(key, dtype, "dynamic", "inference", points, **kw))
    return t


def call184():
    d = _timed("dev101-", "dev101-generate", False)
    b = _timed("late93-", "late93-generate", True)
    # the probe and the blind points first: the device time left may not
    # reach the development twins
    return [
        script("dev101-t5-tie-probe", "dev101-probe", 5, "t5_tie_probe.py", {}, timeout=120),
        b("tg-beam8-pegasus", "pegasus", [(4, 512, 64)], 8),
        b("tg-beam4-t5-base", "t5-base", [(8, 256, 64)], 4),
        b("tg-beam4-llama32-1b", "llama32-1b", [(2, 1024, 128)], 4),
        d("tg-beam4-gpt2-medium", "gpt2-medium", [(2, 512, 64), (8, 256, 64)], 4),
        d("tg-greedy-gpt2-medium", "gpt2-medium", [(8, 512, 64), (32, 256, 64)]),
        d("tg-beam4-bart-large", "bart-large", [(4, 512, 64)], 4),
        d("tg-greedy-bart-large", "bart-large", [(16, 512, 64)]),
        d("tg-beam4-tinyllama", "tinyllama", [(4, 256, 64)], 4),
    ]
