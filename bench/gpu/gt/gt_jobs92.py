"""Session 28, call 115. late57 (BLIND): long generate calls. Every point so far stopped at 512 new tokens;
users plan 2k-8k (reasoning budgets). With a DynamicCache, transformers grows every layer's K and V by torch.cat
each token, and the planner's replay says the caching allocator's reserved memory then runs to several times the
allocated peak (llama3.2-1b b16 p512 n4096: 4.7 GiB allocated, 28 GiB reserved). These rows test that on the
GPU: six DynamicCache calls of 880-3000 new tokens across five models, one StaticCache control, one with
expandable_segments:True, and one under a 10 GiB memory fraction (below the replay's unlimited reserved peak,
above the allocated one: does the allocator free its cache and go on, as the replay says, and how often).
Memory figures only (the calls run six at a time: their times are not step times)."""
from gt_jobs import J
from gt_jobs import G

CAP10G = round(10 * 2**30 / 150754820096, 6)  # the H200's total as torch reports it


def call115():
    def g(name, key, dtype, cache, grad, point, mem, env=None, **kw):
        j = J("late57-gen-" + name, "late57-generate", mem, heldout=True, timeout=420,
              spec=G(key, dtype, cache, grad, [point], **kw))
        if env:
            j["env"].update(env)
        return j
    return [
        g("llama32-1b-bf16-dynamic-inf", "llama32-1b", "bf16", "dynamic", "inference", (16, 512, 3000), 40),
        g("qwen25-05b-bf16-dynamic-inf", "qwen25-05b", "bf16", "dynamic", "inference", (32, 512, 3000), 40),
        g("tinyllama-bf16-dynamic-nograd", "tinyllama", "bf16", "dynamic", "no_grad", (24, 1024, 2000), 40),
        g("qwen25-15b-fp16-dynamic-inf", "qwen25-15b", "fp16", "dynamic", "inference", (8, 256, 2500), 30),
        g("mistral-7b-bf16-dynamic-inf", "mistral-7b", "bf16", "dynamic", "inference", (4, 1024, 1500), 60),
        g("gpt2-medium-fp32-dynamic-inf", "gpt2-medium", "fp32", "dynamic", "inference", (8, 128, 880), 20),
        g("llama32-1b-bf16-static-inf", "llama32-1b", "bf16", "static", "inference", (16, 512, 3000), 20),
        g("llama32-1b-bf16-dynamic-inf-expandable", "llama32-1b", "bf16", "dynamic", "inference", (16, 512, 3000), 40,
          env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}),
        g("llama32-1b-bf16-dynamic-inf-cap10g", "llama32-1b", "bf16", "dynamic", "inference", (16, 512, 3000), 12,
          fraction=CAP10G),
    ]
