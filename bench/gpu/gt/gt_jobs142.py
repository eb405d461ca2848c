"""Session 54, call 201: dev110 (development, NOT blind), where a decode step's GPU and host times are close.
The timed generate points sit at a modelled GPU/host ratio under 0.75 (host-bound) or above 3 (late98t: GPU-bound);
the two near 1.1 (late96's GPT-2 medium rows192) ran 7-12% slower than the larger of the two, and generate syncs
every step, so part of the shorter side may be exposed. The exposure is in the band's top only. dev110 times one
model's decode across the crossover on one host, each point alone in its own process: Llama 3.2 1B, bf16,
DynamicCache, inference_mode, greedy, 64 new tokens, rows x prompt 32 x 1024 (modelled GPU/host 0.57 on an H100),
128 x 1024 (0.95), 192 x 1024 (1.20), 256 x 1024 (1.45), 192 x 2048 (1.82), and GPT-2 medium 64 x 512 (1.66)."""
from gt_jobs import J, G


def call201():
    def gen(key, b, p, mem):
        return J(f"dev110-gen-{key}-b{b}-p{p}-bf16-dynamic-inf", "dev110", mem, heldout=False, exclusive=True,
                 timeout=150, spec=G(key, "bf16", "dynamic", "inference", [(b, p, 64)], timing=True))
    return [gen("llama32-1b", 32, 1024, 12), gen("llama32-1b", 128, 1024, 25), gen("llama32-1b", 192, 1024, 35),
            gen("llama32-1b", 256, 1024, 45), gen("llama32-1b", 192, 2048, 60), gen("gpt2-medium", 64, 512, 15)]
