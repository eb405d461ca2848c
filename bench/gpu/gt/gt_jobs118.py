"""Session 44, calls 153-154: the StarCoder2 family, which plan did not know (config.json model_type starcoder2 was
refused): LLaMA's layer with grouped-query attention and biases on every projection, nn.LayerNorm with bias, an
ungated gelu_pytorch_tanh MLP (c_fc, c_proj), dropout 0.1 after the embedding, after each branch and in the
attention, every layer attending within a 4096-token sliding window. Configurations follow the Hub's
bigcode/starcoder2-3b and -7b config.json; "sc2-small" is the same architecture at 1024 hidden, 12 layers.

call153: dev79 (development data, NOT blind; snapshots, one process each) and late76-timing (BLIND timings, one
process alone on the GPU).
call154: late76 (BLIND memory rows, one process each; generate points) - kept outside the repository until the
family's model is final, then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs


def sc2(hidden, layers, heads, kv, ffn, tie=True):
    return ("Starcoder2ForCausalLM", "Starcoder2Config", dict(
        hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=kv,
        intermediate_size=ffn, vocab_size=49152, max_position_embeddings=16384, sliding_window=4096,
        rope_theta=999999.4420358813, norm_epsilon=1e-5, use_bias=True, residual_dropout=0.1,
        embedding_dropout=0.1, attention_dropout=0.1, hidden_act="gelu_pytorch_tanh", tie_word_embeddings=tie,
        bos_token_id=0, eos_token_id=0))


SC2_3B = sc2(3072, 30, 24, 2, 12288)
SC2_7B = sc2(4608, 32, 36, 4, 18432)
SC2_S = sc2(1024, 12, 16, 4, 4096)

GEN_MODELS.setdefault("sc2-3b", SC2_3B)
GEN_MODELS.setdefault("sc2-7b", SC2_7B)


def call153():
    D = maker("dev79-", "dev79", heldout=False)
    t = timer("late76-", "late76-timing")

    def gen(name, key, cache, points):
        return J("dev79-" + name, "dev79", 15, heldout=False, timeout=180,
                 spec=G(key, "bf16", cache, "inference", points, snap=True))
    dev = [
        D("sc2-small-s2048-b4-bf16", dict(T(*SC2_S, b=4, seq=2048), snap=True), 20),
        D("sc2-small-s1024-b4-fp32", dict(T(*SC2_S, b=4, seq=1024, prec="fp32"), snap=True), 20),
        D("sc2-small-s5000-b1-bf16", dict(T(*SC2_S, b=1, seq=5000), snap=True), 20),
        D("sc2-3b-s1024-b2-bf16-lora16", dict(T(*SC2_3B, b=2, seq=1024, lora=16), snap=True), 30),
        gen("gen-sc2-3b-bf16-dynamic", "sc2-3b", "dynamic", [(4, 256, 64)]),
    ]
    timing = timing_jobs("late76-", "late76-timing", (
        ("sc2", [t("t-sc2-small-s2048-b4-bf16", T(*SC2_S, b=4, seq=2048)),
                 t("t-sc2-small-s2048-b4-fp32", T(*SC2_S, b=4, seq=2048, prec="fp32")),
                 t("t-sc2-small-s2048-b4-bf16-ckpt", T(*SC2_S, b=4, seq=2048, ckpt="block"))]),
    ))
    return timing + dev


def call154():
    B = maker("late76-", "late76", heldout=True)

    def g(name, key, cache, grad, points, mem=30):
        return J("late76-" + name, "late76-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    mem = [
        B("sc2-3b-s2048-b4-bf16-ckpt", T(*SC2_3B, b=4, seq=2048, ckpt="block"), 60),
        B("sc2-7b-s1024-b2-bf16-lora16", T(*SC2_7B, b=2, seq=1024, lora=16), 50),
        B("sc2-small-s4096-b8-bf16", T(*SC2_S, b=8, seq=4096), 40),
        B("sc2-3b-s6000-b1-bf16-lora16-ckpt", T(*SC2_3B, b=1, seq=6000, lora=16, ckpt="block"), 30),
    ]
    gen = [
        g("gen-sc2-3b-bf16-static-nograd", "sc2-3b", "static", "no_grad", [(4, 512, 128)]),
        g("gen-sc2-7b-bf16-dynamic-inf", "sc2-7b", "dynamic", "inference", [(8, 1000, 200)], mem=40),
    ]
    return mem + gen
