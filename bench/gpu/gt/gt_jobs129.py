"""Session 46, call 173: encoder-decoder generate (plan refuses it for BART and T5): BartForConditionalGeneration and
T5ForConditionalGeneration under Hugging Face generate with the default EncoderDecoderCache (DynamicCache for self- and
cross-attention), greedy, the prompt as the encoder's input. dev94: DEVELOPMENT points with snapshots, one process each;
late86: BLIND points at other sizes and shapes, kept outside the repository until the planner is final, then
evaluated once."""
from gt_jobs import J, G, GEN_MODELS


def bart(d, layers, heads, ffn):
    return ("BartForConditionalGeneration", "BartConfig", dict(
        vocab_size=50265, d_model=d, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
        decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, max_position_embeddings=1024,
        dropout=0.1, attention_dropout=0.0, activation_dropout=0.0, scale_embedding=False, forced_eos_token_id=None))


def t5(d, layers, heads, ffn, gated=False, kv=64):
    cfg = dict(vocab_size=32128, d_model=d, d_kv=kv, d_ff=ffn, num_layers=layers, num_decoder_layers=layers,
               num_heads=heads, dropout_rate=0.1, tie_word_embeddings=not gated, decoder_start_token_id=0,
               pad_token_id=0, eos_token_id=1)
    if gated:
        cfg["feed_forward_proj"] = "gated-gelu"
    return ("T5ForConditionalGeneration", "T5Config", cfg)


GEN_MODELS.setdefault("bart-base", bart(768, 6, 12, 3072))
GEN_MODELS.setdefault("bart-large", bart(1024, 12, 16, 4096))
GEN_MODELS.setdefault("t5-base", t5(768, 12, 12, 3072))
GEN_MODELS.setdefault("t5-large", t5(1024, 24, 16, 4096))
GEN_MODELS.setdefault("flan-t5-base", t5(768, 12, 12, 2048, gated=True))


def call173():
    def dev(name, key, grad, points, dtype="bf16"):
        return J("dev94-" + name, "dev94", 20, heldout=False, timeout=240,
                 spec=G(key, dtype, "dynamic", grad, points, snap=True))

    def blind(name, key, grad, points, dtype="bf16"):
        return J("late86-" + name, "late86-generate", 30, heldout=True, timeout=300,
                 spec=G(key, dtype, "dynamic", grad, points))
    return [
        dev("gen-bart-base-bf16", "bart-base", "inference", [(4, 512, 64)]),
        dev("gen-bart-base-fp32", "bart-base", "no_grad", [(2, 256, 32)], dtype="fp32"),
        dev("gen-t5-base-bf16", "t5-base", "inference", [(4, 512, 64)]),
        dev("gen-flan-t5-base-bf16", "flan-t5-base", "no_grad", [(8, 256, 32)]),
        blind("gen-bart-large-bf16", "bart-large", "inference", [(8, 1024, 128)]),
        blind("gen-t5-large-bf16", "t5-large", "no_grad", [(4, 768, 192)]),
        blind("gen-flan-t5-base-bf16", "flan-t5-base", "inference", [(16, 384, 96)]),
    ]


def call174():
    """call173's T5 points again: T5Config leaves decoder_start_token_id unset in transformers 5.17 (t5-base's
    config.json sets 0), which generate refuses."""
    return [j for j in call173() if "t5" in j["name"]]
