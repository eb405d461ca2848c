"""Session 50, call 185: sampling (generate's do_sample with temperature, top_k, top_p, repetition_penalty and
num_return_sequences), which plan does not model: it plans greedy decoding. An instruct checkpoint's
generation_config turns sampling on by itself (Llama 3 Instruct: temperature 0.6, top_p 0.9; Qwen2.5 Instruct:
temperature 0.7, top_p 0.8, top_k 20, repetition_penalty 1.05), and GenerationConfig's top_k defaults to 50, so a
plain model.generate(do_sample=True) runs TopKLogitsWarper. Each warper copies the batch x vocab float32 scores;
top_p sorts them (values and int64 indices, the sort's own buffers), and multinomial draws through an exponential
tensor of the same size.
dev102: DEVELOPMENT traces (snapshots, one process each) and timed greedy/sampled twins.
late94: BLIND rows (figures only) and one timed sampled point, kept outside the repository until the model is final,
then evaluated once."""
from gt_jobs import J, G, script
import gt_jobs34  # noqa: F401  (registers llama32-3b, qwen3-4b)
import gt_jobs129  # noqa: F401  (registers bart-*, t5-*)

LLAMA3_INSTRUCT = dict(temperature=0.6, top_p=0.9)
QWEN25_INSTRUCT = dict(temperature=0.7, top_p=0.8, top_k=20, repetition_penalty=1.05)


def _gen(prefix, group, blind):
    def g(name, key, points, dtype="bf16", cache="dynamic", mem=30, timed=False, **sample):
        greedy = sample.pop("greedy", False)
        keep = {k: sample.pop(k) for k in ("output_scores", "output_logits") if k in sample}
        kw = dict(keep) if greedy else dict(sample, do_sample=True, **keep)
        if timed:
            kw["timing"] = True
        else:
            kw["snap"] = not blind
        return J(prefix + name, group, mem, heldout=blind, exclusive=timed, timeout=300,
                 spec=G(key, dtype, cache, "inference", points, **kw))
    return g


def call185():
    d = _gen("dev102-", "dev102", False)
    b = _gen("late94-", "late94", True)
    dev = [
        d("gen-sample-default-llama32-1b", "llama32-1b", [(32, 512, 32)]),
        d("gen-sample-l3inst-llama32-1b", "llama32-1b", [(32, 512, 32)], **LLAMA3_INSTRUCT),
        d("gen-sample-q25inst-qwen25-05b", "qwen25-05b", [(48, 256, 32)], **QWEN25_INSTRUCT),
        d("gen-sample-topp-nrs4-gpt2-medium", "gpt2-medium", [(8, 256, 32)], top_k=0, top_p=0.95,
          num_return_sequences=4),
        d("gen-sample-topp-bart-large", "bart-large", [(16, 512, 32)], top_p=0.9),
        d("gen-sample-static-tinyllama", "tinyllama", [(16, 512, 32)], cache="static", top_p=0.9, temperature=0.8),
        d("gen-sample-pure-qwen25-05b-fp32", "qwen25-05b", [(16, 512, 32)], dtype="fp32", top_k=0),
    ]
    blind = [
        b("gen-sample-q25inst-qwen25-15b", "qwen25-15b", [(16, 1024, 64)], **QWEN25_INSTRUCT),
        b("gen-sample-l3inst-llama32-3b", "llama32-3b", [(24, 1024, 64)], **LLAMA3_INSTRUCT),
        b("gen-sample-default-mistral-7b", "mistral-7b", [(8, 2048, 64)], mem=50),
        b("gen-sample-topp-nrs3-gpt2-medium-fp32", "gpt2-medium", [(4, 512, 64)], dtype="fp32", top_p=0.9,
          num_return_sequences=3),
        b("gen-sample-t5-base", "t5-base", [(16, 512, 64)], top_k=50, top_p=0.95),
        b("gen-sample-topk40-tinyllama", "tinyllama", [(64, 256, 64)], temperature=0.9, top_k=40),
    ]
    timed = [
        d("tg-greedy-llama32-1b", "llama32-1b", [(32, 512, 64)], timed=True, greedy=True),
        d("tg-sample-l3inst-llama32-1b", "llama32-1b", [(32, 512, 64)], timed=True, **LLAMA3_INSTRUCT),
        d("tg-greedy-gpt2-medium", "gpt2-medium", [(32, 256, 64)], timed=True, greedy=True),
        d("tg-sample-default-gpt2-medium", "gpt2-medium", [(32, 256, 64)], timed=True),
        b("tg-sample-q25inst-qwen25-05b", "qwen25-05b", [(32, 512, 64)], timed=True, **QWEN25_INSTRUCT),
    ]
    probe = [script("dev102-sort-probe", "dev102-probe", 10, "sort_probe.py", {}, timeout=200)]
    return probe + dev + blind + timed


def call186():
    """dev103 / late95: points whose peak is a decode step's sampling (short prompts, many new tokens, large
    batches: the cache's growth, not the prefill, sets the peak), over the sort's three paths (rows 1..127,
    128 and more) and the warper sets above; and generate(return_dict_in_generate=True, output_scores /
    output_logits), which keeps every step's float32 scores to the end (a known way to run out of memory);
    dev103 with traces, late95 blind."""
    d = _gen("dev103-", "dev103", False)
    b = _gen("late95-", "late95", True)
    dev = [
        d("gen-sample-l3inst-llama32-1b-long", "llama32-1b", [(64, 64, 512)], **LLAMA3_INSTRUCT),
        d("gen-sample-default-gpt2-medium-long", "gpt2-medium", [(128, 32, 256)]),
        d("gen-sample-topp-qwen25-05b-rows160", "qwen25-05b", [(160, 64, 256)], top_p=0.9),
        d("gen-greedy-scores-llama32-1b", "llama32-1b", [(16, 128, 256)], greedy=True, output_scores=True),
        d("gen-sample-logits-qwen25-05b", "qwen25-05b", [(32, 64, 128)], top_p=0.9, output_logits=True),
    ]
    blind = [
        b("gen-sample-topp-tinyllama-long", "tinyllama", [(96, 128, 384)], top_p=0.95, temperature=0.7),
        b("gen-sample-default-llama32-1b-rows256", "llama32-1b", [(256, 32, 256)], mem=40),
        b("gen-sample-q25inst-qwen25-15b-long", "qwen25-15b", [(32, 128, 512)], **QWEN25_INSTRUCT),
        b("gen-sample-topp-nrs2-gpt2-medium-fp32-long", "gpt2-medium", [(64, 64, 512)], dtype="fp32", top_p=0.9,
          num_return_sequences=2, mem=40),
        b("gen-sample-topp-bart-large-long", "bart-large", [(64, 128, 256)], top_p=0.9),
        b("gen-sample-l3inst-llama32-3b-long", "llama32-3b", [(16, 256, 1024)], **LLAMA3_INSTRUCT),
        b("gen-sample-default-mistral-7b-long", "mistral-7b", [(32, 64, 512)], mem=50),
        b("gen-sample-static-tinyllama-long", "tinyllama", [(64, 64, 512)], cache="static", top_p=0.9),
        b("gen-greedy-scores-gpt2-medium", "gpt2-medium", [(32, 64, 256)], greedy=True, output_scores=True),
        b("gen-sample-scores-logits-tinyllama", "tinyllama", [(32, 128, 256)], top_p=0.9, output_scores=True,
          output_logits=True),
    ]
    timed = [
        d("tg-greedy-qwen25-05b-rows128", "qwen25-05b", [(128, 64, 128)], timed=True, greedy=True),
        d("tg-sample-topp-qwen25-05b-rows128", "qwen25-05b", [(128, 64, 128)], timed=True, top_p=0.9),
        b("tg-sample-topp-tinyllama", "tinyllama", [(64, 128, 128)], timed=True, top_p=0.9, temperature=0.7),
    ]
    probe = [script("dev103-warper-time", "dev103-probe", 10, "warper_time.py", {}, timeout=200, exclusive=True)]
    # blind first: device time is short, and late95 is what tests the model
    return blind + dev + probe + timed


def call187():
    """call186 cut to what the device time left allows: late95's blind rows first, then dev103's output_scores and
    long Llama traces and the warper timing probe."""
    keep = ("late95-gen-", "dev103-gen-greedy-scores", "dev103-gen-sample-logits", "dev103-gen-sample-l3inst",
            "dev103-warper-time", "late95-tg-")
    return [j for j in call186() if j["name"].startswith(keep)]


def call188():
    """call187 cut again: late95's blind rows and dev103's greedy output_scores trace."""
    keep = ("late95-gen-", "dev103-gen-greedy-scores")
    return [j for j in call186() if j["name"].startswith(keep)]
