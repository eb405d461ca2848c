"""Session 45, calls 166-167: Falcon (tiiuae/falcon-7b's architecture; config.json model_type falcon was refused):
attention and MLP in parallel off one input LayerNorm (parallel_attn, the original decoder architecture), one fused
query_key_value projection with a single key/value head (multi_query), full rotary, no biases, a GELU MLP
(dense_h_to_4h, dense_4h_to_h), the LM head tied to the word embedding. "falcon-small" is the same architecture at
1024 hidden, 12 layers, 16 heads.

call166: dev89 (development data, NOT blind; snapshots, one process each), a generate dev point, and late81-timing
(BLIND timings, one process alone on the GPU).
call167: late81 (BLIND memory rows and generate points) - kept outside the repository until the family's model is
final, then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs


def falcon(hidden, layers, heads, vocab=65024):
    return ("FalconForCausalLM", "FalconConfig", dict(
        vocab_size=vocab, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
        multi_query=True, parallel_attn=True, new_decoder_architecture=False, bias=False, alibi=False,
        hidden_dropout=0.0, attention_dropout=0.0, layer_norm_epsilon=1e-5, bos_token_id=11, eos_token_id=11,
        max_position_embeddings=2048, rope_theta=10000.0))


FALCON_S = falcon(1024, 12, 16)
FALCON_W = falcon(2048, 16, 32)
FALCON_7B = falcon(4544, 32, 71)
FALCON_LORA = ["query_key_value"]  # PEFT's default targets for falcon

GEN_MODELS.setdefault("falcon-small", FALCON_S)
GEN_MODELS.setdefault("falcon-7b", FALCON_7B)


def call166():
    D = maker("dev89-", "dev89", heldout=False)
    t = timer("late81-", "late81-timing")

    def gen(name, key, cache, points):
        return J("dev89-" + name, "dev89", 15, heldout=False, timeout=180,
                 spec=G(key, "bf16", cache, "inference", points, snap=True))
    dev = [
        D("falcon-small-s1024-b4-bf16", dict(T(*FALCON_S, b=4, seq=1024), snap=True), 25),
        D("falcon-small-s512-b4-fp32", dict(T(*FALCON_S, b=4, seq=512, prec="fp32"), snap=True), 25),
        D("falcon-small-s1024-b4-bf16-lora16", dict(T(*FALCON_S, b=4, seq=1024, lora=16, lora_targets=FALCON_LORA),
                                                     snap=True), 25),
        D("falcon-small-s1024-b4-bf16-ckpt", dict(T(*FALCON_S, b=4, seq=1024, ckpt="block"), snap=True), 25),
        gen("gen-falcon-small-bf16-dynamic", "falcon-small", "dynamic", [(4, 256, 64)]),
    ]
    timing = timing_jobs("late81-", "late81-timing", (
        ("falcon", [t("t-falcon-small-s1024-b4-bf16", T(*FALCON_S, b=4, seq=1024)),
                    t("t-falcon-small-s1024-b4-bf16-ckpt", T(*FALCON_S, b=4, seq=1024, ckpt="block"))]),
    ))
    return timing + dev


def call167():
    B = maker("late81-", "late81", heldout=True)

    def g(name, key, cache, grad, points, mem=30):
        return J("late81-" + name, "late81-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    mem = [
        B("falcon-7b-s512-b2-bf16-lora16", T(*FALCON_7B, b=2, seq=512, lora=16, lora_targets=FALCON_LORA), 50),
        B("falcon-small-s2048-b4-fp16-ckpt", T(*FALCON_S, b=4, seq=2048, prec="fp16", ckpt="block"), 25),
        B("falcon-wide-s1024-b4-bf16", T(*FALCON_W, b=4, seq=1024), 40),
    ]
    gen = [g("gen-falcon-7b-bf16-static-nograd", "falcon-7b", "static", "no_grad", [(4, 512, 128)], mem=40)]
    return mem + gen
