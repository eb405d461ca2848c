"""Session 53, calls 195-196: decode steps the GPU, not the host, bounds (large DynamicCache caches).
dev106 (call 193) found GPT-2 medium's DynamicCache torch.cat running at ~650 GB/s on an H100 (the fused c_attn
output's split leaves the new key and value non-contiguous, so cat takes its strided path), where plan priced the
step's bytes at 85% of 3350 GB/s: 128 rows x p1024 decoded in 47.7 ms a step, plan said 18.1.

call195: late98, BLIND (exclusive, one process each; kept outside the repository until the cat pricing is final,
then evaluated once): four decoders whose big caches make the step GPU-bound, a fused-QKV family with rotary on
the key (Pythia: only the value is strided), one with a fused qkv_proj (Phi-3 mini's shape), GPT-2 medium at
another shape (both strided) and a multi-head Llama (separate projections: both contiguous).
call196: dev107 (development): scripts/decode_profile.py at 128 rows on Llama 3.2 1B and Qwen2.5-0.5B (contiguous
cat's rate, the GPU's busy time where the host bounds)."""
from gt_jobs import J, G, GEN_MODELS, script

GEN_MODELS.setdefault("phi3-mini", ("Phi3ForCausalLM", "Phi3Config", dict(
    hidden_size=3072, intermediate_size=8192, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=32,
    vocab_size=32064, max_position_embeddings=4096, tie_word_embeddings=False)))
GEN_MODELS.setdefault("llama-mha-1b", ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=2048, intermediate_size=5632, num_hidden_layers=16, num_attention_heads=32, num_key_value_heads=32,
    vocab_size=32000, max_position_embeddings=4096, tie_word_embeddings=False, rms_norm_eps=1e-5)))
import gt_jobs117  # noqa: F401,E402  (registers pythia-410m)


def call195():
    def gen(key, points, mem):
        return J("late98-gen-" + key + "-bf16-dynamic-inf", "late98", mem, heldout=True, exclusive=True, timeout=240,
                 spec=G(key, "bf16", "dynamic", "inference", points))
    return [gen("pythia-410m", [(128, 1024, 64)], 60), gen("phi3-mini", [(64, 1024, 64)], 60),
            gen("gpt2-medium", [(160, 768, 64)], 60), gen("llama-mha-1b", [(128, 2048, 64)], 70)]


def call196():
    return [script("dev107-decode-profile", "dev107-probe", 30, "decode_profile.py",
                   {"DP_MODELS": "llama32-1b,qwen25-05b", "DP_ROWS": "128"}, timeout=500, exclusive=True)]


def call197():
    """late98t: call195's four blind points timed (spec timing: prefill x3, generate x3, medians), the timing still
    unseen (call195 ran without it: its memory was evaluated, 4/4 inside); dev108: two host-bound points dev106
    timed (TinyLlama and GPT-2 medium, 32 rows p128), to place this host beside dev106's."""
    def gen(key, points, mem, group, held):
        return J(group + "-gen-" + key + "-bf16-dynamic-inf", group, mem, heldout=held, exclusive=True, timeout=240,
                 spec=G(key, "bf16", "dynamic", "inference", points, timing=True))
    return [gen("pythia-410m", [(128, 1024, 64)], 60, "late98t", True),
            gen("phi3-mini", [(64, 1024, 64)], 60, "late98t", True),
            gen("gpt2-medium", [(160, 768, 64)], 60, "late98t", True),
            gen("llama-mha-1b", [(128, 2048, 64)], 70, "late98t", True),
            gen("tinyllama", [(32, 128, 64)], 20, "dev108", False),
            gen("gpt2-medium", [(32, 128, 64)], 20, "dev108", False)]


def call198():
    """call197's four blind timings alone (device time ran short)."""
    return call197()[:4]
