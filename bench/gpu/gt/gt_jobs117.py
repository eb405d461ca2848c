"""Session 44, calls 150-151: the GPT-NeoX (Pythia) and Phi (phi-1.5, phi-2) families, which plan does not know
(config.json model_type gpt_neox / phi was refused). Both run attention and MLP in parallel off the residual stream
(GPT-NeoX with two LayerNorms, Phi with one), rotate part of each head (rotary_pct 0.25, partial_rotary_factor
0.5/0.4), use LayerNorm with bias and an ungated GELU MLP with biases; GPT-NeoX fuses q/k/v into one projection
interleaved per head. Configurations follow the Hub's EleutherAI/pythia-* and microsoft/phi-1_5, phi-2 config.json.

call150: dev77 (development data, NOT blind; snapshots, one process each) and late75-timing (BLIND timings, one
process alone on the GPU per model).
call151: late75 (BLIND memory rows, one process each; generate points) - kept outside the repository until the
families' model is final, then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs


def neox(hidden, layers, heads, ffn):
    return ("GPTNeoXForCausalLM", "GPTNeoXConfig", dict(
        hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads, intermediate_size=ffn,
        vocab_size=50304, max_position_embeddings=2048, rotary_pct=0.25, rotary_emb_base=10000,
        use_parallel_residual=True, hidden_act="gelu", tie_word_embeddings=False, layer_norm_eps=1e-5,
        bos_token_id=0, eos_token_id=0))


PY_160M = neox(768, 12, 12, 3072)
PY_410M = neox(1024, 24, 16, 4096)
PY_1B = neox(2048, 16, 8, 8192)
PY_28B = neox(2560, 32, 32, 10240)

PHI_15 = ("PhiForCausalLM", "PhiConfig", dict(
    hidden_size=2048, num_hidden_layers=24, num_attention_heads=32, intermediate_size=8192, vocab_size=51200,
    max_position_embeddings=2048, partial_rotary_factor=0.5, hidden_act="gelu_new", resid_pdrop=0.0,
    embd_pdrop=0.0, attention_dropout=0.0, layer_norm_eps=1e-5, tie_word_embeddings=False))
PHI_2 = (PHI_15[0], PHI_15[1], dict(PHI_15[2], hidden_size=2560, num_hidden_layers=32, intermediate_size=10240,
                                    partial_rotary_factor=0.4, resid_pdrop=0.1))

GEN_MODELS.setdefault("pythia-160m", PY_160M)
GEN_MODELS.setdefault("pythia-410m", PY_410M)
GEN_MODELS.setdefault("pythia-1b", PY_1B)
GEN_MODELS.setdefault("phi-15", PHI_15)
GEN_MODELS.setdefault("phi-2", PHI_2)

QKV = ["query_key_value"]


def call150():
    D = maker("dev77-", "dev77", heldout=False)
    t = timer("late75-", "late75-timing")

    def gen(name, key, cache, points):
        return J("dev77-" + name, "dev77", 10, heldout=False, timeout=180,
                 spec=G(key, "bf16", cache, "inference", points, snap=True))
    dev = [
        D("pythia-160m-s1024-b8-bf16", dict(T(*PY_160M, b=8, seq=1024), snap=True), 20),
        D("pythia-410m-s1024-b4-fp32", dict(T(*PY_410M, b=4, seq=1024, prec="fp32"), snap=True), 25),
        D("pythia-410m-s1024-b8-bf16-ckpt", dict(T(*PY_410M, b=8, seq=1024, ckpt="block"), snap=True), 25),
        D("pythia-1b-s1024-b4-bf16-lora16", dict(T(*PY_1B, b=4, seq=1024, lora=16, lora_targets=QKV), snap=True), 25),
        D("phi-15-s1024-b4-bf16", dict(T(*PHI_15, b=4, seq=1024), snap=True), 40),
        D("phi-15-s512-b2-fp32", dict(T(*PHI_15, b=2, seq=512, prec="fp32"), snap=True), 40),
        D("phi-2-s512-b4-bf16-lora16", dict(T(*PHI_2, b=4, seq=512, lora=16), snap=True), 30),
        gen("gen-pythia-410m-bf16-dynamic", "pythia-410m", "dynamic", [(4, 256, 64)]),
        gen("gen-phi-15-bf16-static", "phi-15", "static", [(4, 256, 64)]),
    ]
    timing = timing_jobs("late75-", "late75-timing", (
        ("pythia", [t("t-pythia-410m-s1024-b8-bf16", T(*PY_410M, b=8, seq=1024)),
                    t("t-pythia-410m-s1024-b8-fp32", T(*PY_410M, b=8, seq=1024, prec="fp32")),
                    t("t-pythia-410m-s1024-b8-bf16-ckpt", T(*PY_410M, b=8, seq=1024, ckpt="block"))]),
        ("phi", [t("t-phi-15-s1024-b4-bf16", T(*PHI_15, b=4, seq=1024)),
                 t("t-phi-15-s1024-b4-bf16-lora16", T(*PHI_15, b=4, seq=1024, lora=16))]),
    ))
    return timing + dev


def call151():
    B = maker("late75-", "late75", heldout=True)

    def g(name, key, dtype, cache, grad, points, mem=30):
        return J("late75-" + name, "late75-generate", mem, heldout=True, timeout=300,
                 spec=G(key, dtype, cache, grad, points))
    mem = [
        B("pythia-1b-s2048-b4-bf16-ckpt", T(*PY_1B, b=4, seq=2048, ckpt="block"), 30),
        B("pythia-160m-s2048-b8-fp32", T(*PY_160M, b=8, seq=2048, prec="fp32"), 30),
        B("pythia-28b-s1024-b2-bf16-lora16", T(*PY_28B, b=2, seq=1024, lora=16, lora_targets=QKV), 30),
        B("phi-15-s2048-b4-bf16-ckpt", T(*PHI_15, b=4, seq=2048, ckpt="block"), 30),
        B("phi-2-s1024-b2-bf16", T(*PHI_2, b=2, seq=1024), 70),
    ]
    gen = [
        g("gen-pythia-1b-bf16-dynamic-inf", "pythia-1b", "bf16", "dynamic", "inference", [(8, 1000, 200)]),
        g("gen-phi-2-bf16-static-nograd", "phi-2", "bf16", "static", "no_grad", [(4, 512, 128)]),
        g("gen-pythia-410m-fp32-dynamic-inf", "pythia-410m", "fp32", "dynamic", "inference", [(16, 500, 300)]),
    ]
    return mem + gen


def call152():
    """dev78 (development data, NOT blind; snapshots): two of late75's rows again, after its one evaluation, to
    read what the first sight got wrong: phi-2 s1024 b2 bf16 AMP (reserved -1.22%, the only row under) and
    Pythia-2.8b s1024 b2 LoRA r16 (reserved +1.48%, allocated +0.19%)."""
    D = maker("dev78-", "dev78", heldout=False)
    return [
        D("phi-2-s1024-b2-bf16", dict(T(*PHI_2, b=2, seq=1024), snap=True), 70),
        D("pythia-28b-s1024-b2-bf16-lora16", dict(T(*PY_28B, b=2, seq=1024, lora=16, lora_targets=QKV), snap=True), 30),
    ]
