"""Session 41, call 141: generate with the OLMo, OLMo 2 and Granite decoder families, which `plan --task
generate|serve` refused ("inference is planned for the decoder families ...") though training plans them.

dev71 (development data, NOT blind): OLMo 2 1B, Granite-2B-like and OLMo 1B, bf16, a DynamicCache under
inference_mode at three points and a StaticCache under no_grad at one, and one short call of each with a snapshot
(the op order the planner's replay must follow).

late70 (BLIND; kept outside the repository until the planner's new families are final, then evaluated once):
OLMo-2-7B-like and Granite-8B-like bf16 calls at other points, and OLMo 1B at a large batch. Memory figures only
(the calls run several at a time: their times are not step times)."""
from gt_jobs import J, G, GEN_MODELS
from gt_jobs31 import OL1B, GR2B

GEN_MODELS.setdefault("olmo2-1b", OL1B)
GEN_MODELS.setdefault("granite-2b", GR2B)
GEN_MODELS.setdefault("olmo-1b", ("OlmoForCausalLM", "OlmoConfig", dict(
    hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=16,
    num_key_value_heads=16, vocab_size=50304, max_position_embeddings=2048, rope_theta=10000.0,
    tie_word_embeddings=True)))
GEN_MODELS.setdefault("olmo2-7b", ("Olmo2ForCausalLM", "Olmo2Config", dict(
    hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
    num_key_value_heads=32, vocab_size=100352, rope_theta=500000.0, rms_norm_eps=1e-6,
    max_position_embeddings=4096)))
GEN_MODELS.setdefault("granite-8b", ("GraniteForCausalLM", "GraniteConfig", dict(
    hidden_size=4096, intermediate_size=12800, num_hidden_layers=40, num_attention_heads=32,
    num_key_value_heads=8, vocab_size=49155, tie_word_embeddings=True, embedding_multiplier=12.0,
    logits_scaling=16.0, residual_multiplier=0.22, attention_multiplier=0.0078125, max_position_embeddings=4096)))


def call141():
    out = []
    for key in ("olmo2-1b", "granite-2b", "olmo-1b"):
        out.append(J(f"dev71-gen-{key}-bf16-dynamic-inf", "dev71-generate", 30, timeout=300,
                     spec=G(key, "bf16", "dynamic", "inference", [(1, 512, 128), (8, 1024, 256), (4, 1800, 64)])))
        out.append(J(f"dev71-gen-{key}-bf16-static-nograd", "dev71-generate", 30, timeout=240,
                     spec=G(key, "bf16", "static", "no_grad", [(8, 1024, 128)])))
        out.append(J(f"dev71-gentrace-{key}-bf16-dynamic", "dev71-generate", 10, timeout=180,
                     spec=G(key, "bf16", "dynamic", "inference", [(4, 256, 64)], snap=True)))
    out += [
        J("late70-gen-olmo2-7b-bf16-dynamic-inf", "late70-generate", 50, heldout=True, timeout=300,
          spec=G("olmo2-7b", "bf16", "dynamic", "inference", [(16, 700, 150), (2, 3000, 100)])),
        J("late70-gen-granite-8b-bf16-dynamic-inf", "late70-generate", 50, heldout=True, timeout=300,
          spec=G("granite-8b", "bf16", "dynamic", "inference", [(24, 600, 120), (3, 2500, 80)])),
        J("late70-gen-granite-8b-bf16-static-nograd", "late70-generate", 40, heldout=True, timeout=240,
          spec=G("granite-8b", "bf16", "static", "no_grad", [(6, 1500, 200)])),
        J("late70-gen-olmo-1b-bf16-dynamic-nograd", "late70-generate", 30, heldout=True, timeout=240,
          spec=G("olmo-1b", "bf16", "dynamic", "no_grad", [(48, 300, 200)])),
    ]
    return out
