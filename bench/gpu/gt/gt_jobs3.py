"""Call 3 (after the models were written): checks of what the planner decides, and a late
blind set.

- fit-*: `plan --task generate --fit` answers for two captured decoder configs, run at the
  answer, at +10% and near the point prediction's edge, in ascending order in one process
  per model (each point: gc, empty_cache, peak reset; an OOM is caught and recorded).
- pick-*: the top candidates of `plan --fit` (training) for four models, timed alone with no
  history, one process per model, so the candidate ranked first can be compared with the
  measured fastest.
- late-*: the workloads call 1/2 had no time for (families variants, Whisper, Granite,
  generate variants), captured only after every model was final: a blind set for the lead's
  last evaluation (testdata/late/).
"""
from gt_jobs import J, T, G, F, LLAMA_SMALL, GPT2_MEDIUM, vit
import gt_jobs

ITERS = 7
L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
BERT = ("BertForSequenceClassification", "BertConfig", {})


def t(name, spec):
    return dict(spec, iters=ITERS, name=name, group="pick", heldout=True)


def tv(m, b, **kw):
    return T("tv:" + m, None, None, io="vision", b=b, **kw)


def fit_jobs():
    return [
        J("fit-mistral-7b-p4096-n128", "fit", 140, exclusive=True, timeout=240,
          spec=G("mistral-7b", "bf16", "dynamic", "inference", [(94, 4096, 128), (103, 4096, 128), (114, 4096, 128)])),
        J("fit-tinyllama-p2048-n128", "fit", 140, exclusive=True, timeout=240,
          spec=G("tinyllama", "bf16", "dynamic", "inference", [(678, 2048, 128), (746, 2048, 128)])),
    ]


def pick_jobs():
    g = [t(f"pick-gpt2-medium-s1024-{p}-b{b}x{a}", T(*GM, b=b, seq=1024, accum=a, prec=p))
         for p, b, a in (("bf16", 32, 1), ("bf16", 16, 2), ("bf16", 8, 4), ("fp16", 32, 1))]
    l = [t(f"pick-llama-small-s1024-{p}-b{b}x{a}", T(*L, b=b, seq=1024, accum=a, prec=p))
         for p, b, a in (("bf16", 16, 1), ("bf16", 8, 2), ("fp16", 16, 1), ("fp16", 8, 2))]
    bt = [t(f"pick-bert-base-s512-{p}-b{b}x{a}{'-ckpt' if c else ''}",
            T(*BERT, io="cls", b=b, seq=512, accum=a, prec=p, ckpt="block" if c else "none"))
          for p, b, a, c in (("bf16", 64, 1, False), ("bf16", 32, 2, False), ("fp16", 64, 1, False),
                             ("bf16", 64, 1, True))]
    r = [t(f"pick-resnet50-{p}-b{b}x{a}", tv("resnet50", b, accum=a, prec=p))
         for p, b, a in (("bf16", 256, 1), ("bf16", 128, 2), ("fp16", 256, 1), ("bf16", 64, 4))]
    return [J("pick-" + n, "pick", 60, heldout=True, exclusive=True, timeout=150,
              spec=dict(kind="multi", specs=s)) for n, s in
            (("gpt2-medium", g), ("llama-small", l), ("bert-base", bt), ("resnet50", r))]


LATE = [
    "fam-whisper-a-bf16", "fam-whisper-b-bf16", "fam-granite-a-bf16", "fam-granite-b-bf16",
    "fam-qwen3-a-bf16w", "fam-mixtral-a-bf16w", "fam-qwen3-a-bf16-ckpt", "fam-gemma2-a-bf16-ckpt",
    "fam-mixtral-b-bf16-ckpt", "fam-qwen3-a-bf16-lora16", "fam-mixtral-a-bf16-lora16",
    "fam-qwen3-a-bf16-eager", "fam-qwen3-b-bf16-eager",
    "gen-gpt2-medium-bf16-dynamic-nograd", "gen-gpt2-medium-bf16-static-inf",
    "gen-qwen25-05b-bf16-dynamic-nograd", "gen-qwen25-15b-bf16-dynamic-nograd",
    "gen-qwen25-15b-fp32-dynamic-inf", "gen-mistral-7b-bf16-static-inf", "vitl16-b192-fp32",
]


def late_jobs():
    by = {j["name"]: j for j in gt_jobs.call1()}
    out = []
    for n in LATE:
        j = by.get(n)
        if j:
            j = dict(j, name="late-" + n, heldout=True, group="late-" + j["group"], exclusive=False)
            if "spec" in j:
                j["spec"] = dict(j["spec"], heldout=True)
            out.append(j)
    return out


def jobs():
    # the decisions first (each alone on the GPU), then the late captures side by side
    return fit_jobs() + pick_jobs() + late_jobs()
