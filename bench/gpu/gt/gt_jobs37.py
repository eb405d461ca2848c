"""Session 15. Call 54: late21, a small blind set for the session's changes captured after them (commit
below the job list's): Phi-3 DynamicCache generate points on shapes no set had captured (the prefill's copy of
flash attention's heads-first output, read off dev24), including Phi-3 medium (grouped K/V heads); and a
compiled step of a family no compiled capture had (Qwen3-0.6B) for the widened compiled band."""
from gt_jobs import J, T, G, GEN_MODELS
from gt_jobs31 import P3M

P3MED = ("Phi3ForCausalLM", "Phi3Config", dict(
    hidden_size=5120, intermediate_size=17920, num_hidden_layers=40, num_attention_heads=40,
    num_key_value_heads=10, vocab_size=32064, max_position_embeddings=4096))
Q3_06 = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=1024, intermediate_size=3072, num_hidden_layers=28, num_attention_heads=16,
    num_key_value_heads=8, head_dim=128, vocab_size=151936, tie_word_embeddings=True,
    rope_theta=1000000.0, rms_norm_eps=1e-6, max_position_embeddings=40960))
GEN_MODELS.setdefault("phi3-mini", P3M)
GEN_MODELS.setdefault("phi3-medium", P3MED)


def call54():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            J("late21-gen-phi3-mini-bf16-dynamic-inf", "late21-generate", 40, heldout=True, timeout=240,
              spec=G("phi3-mini", "bf16", "dynamic", "inference", [(8, 3000, 100), (48, 600, 160)])),
            J("late21-gen-phi3-medium-bf16-dynamic-nograd", "late21-generate", 60, heldout=True, timeout=240,
              spec=G("phi3-medium", "bf16", "dynamic", "no_grad", [(4, 2000, 64)])),
            J("late21-qwen3-06b-s1024-b8-bf16-compile", "late21-compile", 40, heldout=True, timeout=300,
              spec=T(*Q3_06, b=8, seq=1024, compile=True, iters=4, family="qwen3"))]
