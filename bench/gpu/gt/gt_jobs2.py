"""Call 2 (timings, one process at a time, no history): calibration, training step times,
generate speed, compile vs eager step time. heldout marks whole workloads kept for evaluation."""
from gt_jobs import (J, T, F, G, LLAMA_SMALL, GPT2, GPT2_MEDIUM)

ITERS = 7
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
G2 = ("GPT2LMHeadModel", "GPT2Config", GPT2)
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
BERT = ("BertForSequenceClassification", "BertConfig", {})
T5 = ("T5ForConditionalGeneration", "T5Config", {})


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def t(name, spec, held=False):
    s = dict(spec, iters=ITERS, name=name, group="timing", heldout=held)
    return s


def fixture_families():
    return [
        t("t-resnet50-b64-fp32", tv("resnet50", 64, prec="fp32")),
        t("t-resnet50-b64-bf16", tv("resnet50", 64)),
        t("t-resnet50-b64-bf16-ckpt", tv("resnet50", 64, ckpt="block")),
        t("t-resnet50-b128-bf16", tv("resnet50", 128), held=True),
        t("t-bert-base-s512-b32-fp32", T(*BERT, io="cls", b=32, seq=512, prec="fp32")),
        t("t-bert-base-s512-b32-bf16", T(*BERT, io="cls", b=32, seq=512)),
        t("t-bert-base-s512-b8x4-bf16-accum", T(*BERT, io="cls", b=8, seq=512, accum=4)),
        t("t-bert-base-s128-b64-fp16", T(*BERT, io="cls", b=64, seq=128, prec="fp16"), held=True),
        t("t-gpt2-s1024-b8-fp32", T(*G2, b=8, seq=1024, prec="fp32")),
        t("t-gpt2-s1024-b8-bf16", T(*G2, b=8, seq=1024)),
        t("t-gpt2-s1024-b8-bf16-ckpt", T(*G2, b=8, seq=1024, ckpt="block")),
        t("t-gpt2-s512-b16x2-bf16-accum", T(*G2, b=16, seq=512, accum=2), held=True),
        t("t-vitb16-b64-bf16", tv("vit_b_16", 64)),
        t("t-vitl16-b32-bf16", tv("vit_l_16", 32)),
        t("t-vitl16-b32-bf16-ckpt", tv("vit_l_16", 32, ckpt="block"), held=True),
    ]


def new_families():
    return [
        t("t-llama-small-s1024-b4-bf16", T(*L, b=4, seq=1024)),
        t("t-llama-small-s1024-b4-bf16-ckpt", T(*L, b=4, seq=1024, ckpt="block")),
        t("t-llama-small-s1024-b4-bf16-lora16", T(*L, b=4, seq=1024, lora=16)),
        t("t-llama-small-s512-b8-bf16-lora16-ckpt", T(*L, b=8, seq=512, lora=16, ckpt="block"), held=True),
        t("t-qwen3-a-bf16", F("qwen3-a")),
        t("t-qwen3-b-bf16", F("qwen3-b"), held=True),
        t("t-t5-small-s512-b16-bf16", T(*T5, io="s2s", b=16, seq=512)),
        t("t-convnext-tiny-b64-bf16", tv("convnext_tiny", 64)),
        t("t-convnext-tiny-b128-bf16", tv("convnext_tiny", 128), held=True),
        t("t-efficientnet-b0-b128-bf16", tv("efficientnet_b0", 128)),
        t("t-efficientnet-b0-b64-fp32", tv("efficientnet_b0", 64, prec="fp32"), held=True),
        t("t-mixtral-a-bf16", F("mixtral-a")),
        t("t-qwen2moe-a-bf16", F("qwen2moe-a")),
        t("t-mixtral-b-bf16", F("mixtral-b"), held=True),
        t("t-gemma-a-bf16", F("gemma-a")),
        t("t-phi3-b-bf16", F("phi3-b"), held=True),
        t("t-gpt2-medium-s1024-b4-bf16", T(*GM, b=4, seq=1024), held=True),
    ]


def gen_timing():
    P = [(1, 512, 128), (8, 1024, 128)]
    return [
        J("tg-tinyllama-bf16-dynamic", "timing_gen", 30, exclusive=True, timeout=150,
          spec=G("tinyllama", "bf16", "dynamic", "inference", P, timing=True)),
        J("tg-mistral-7b-bf16-dynamic", "timing_gen", 40, heldout=True, exclusive=True, timeout=150,
          spec=G("mistral-7b", "bf16", "dynamic", "inference", P[:1], timing=True)),
    ]


def compile_timing():
    return [
        t("t-gpt2-s1024-b8-bf16-eager", T(*G2, b=8, seq=1024)),
        t("t-gpt2-s1024-b8-bf16-compile", T(*G2, b=8, seq=1024, compile=True)),
    ]


RERUN = None  # names of call-1 jobs to run again (skipped for time or crashed), set below


def reruns():
    import gt_jobs
    names = set(RERUN_NAMES)
    out = []
    alljobs = {j["name"]: j for j in gt_jobs.call1()}
    for n in RERUN_NAMES:
        j = alljobs.get(n)
        if j:
            j = dict(j, not_after=RERUN_NOT_AFTER, exclusive=False)
            if j["group"] == "generate":
                j["timeout"] = 160
            out.append(j)
    return out


RERUN_NOT_AFTER = 150
RERUN_NAMES = [
    # generate (long, first)
    "gen-qwen25-05b-bf16-dynamic-inf", "gen-qwen25-05b-bf16-static-inf", "gen-qwen25-05b-fp32-dynamic-inf",
    "gen-gpt2-medium-bf16-dynamic-inf", "gen-gpt2-medium-fp32-dynamic-inf",
    "gen-qwen25-15b-bf16-dynamic-inf", "gen-qwen25-15b-bf16-static-inf", "gen-mistral-7b-bf16-dynamic-inf",
    # crashed in call 1 (fixed: reshape of a strided target; TP optimizer foreach=False)
    "nanogpt-b8-bf16", "nanogpt-b4-bf16-leak", "nanogpt-b16-bf16", "nanogpt-b2-bf16-leak",
    "ws1-tp-llama-small-s1024-b4", "ws1-tp-llama-small-s1024-b4-ckpt",
    # skipped for time in call 1
    "vitl16-b192-fp32", "llama-small-s1024-b4-bf16-eager", "gpt2-medium-s1024-b4-bf16-eager",
    "fam-qwen3-b-bf16", "fam-olmo2-a-bf16", "fam-olmo2-b-bf16", "fam-granite-a-bf16", "fam-granite-b-bf16",
    "fam-whisper-a-bf16", "fam-whisper-b-bf16", "fam-qwen3-a-bf16w", "fam-mixtral-a-bf16w",
    "fam-qwen3-a-bf16-ckpt", "fam-gemma2-a-bf16-ckpt", "fam-mixtral-b-bf16-ckpt", "fam-qwen3-a-bf16-lora16",
    "fam-mixtral-a-bf16-lora16", "fam-qwen3-a-bf16-eager", "fam-qwen3-b-bf16-eager",
]


def jobs():
    out = reruns() + [J("calibration", "calibration", 100, exclusive=True, timeout=120,
             cmd=["python3", "@HERE/gt_calib.py", "@OUT/calibration.json", "--budget", "45"])]
    out.append(J("timing-fixture-families", "timing", 60, exclusive=True, timeout=200,
                 spec=dict(kind="multi", specs=fixture_families())))
    out.append(J("timing-new-families", "timing", 60, exclusive=True, timeout=200,
                 spec=dict(kind="multi", specs=new_families())))
    out += gen_timing()
    out.append(J("timing-compile", "compile", 60, exclusive=True, timeout=200,
                 spec=dict(kind="multi", specs=compile_timing())))
    return out
