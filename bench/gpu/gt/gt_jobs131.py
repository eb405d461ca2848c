"""Session 47, call 176: BART's relatives plan refuses today - MarianMT (Helsinki-NLP/opus-mt-*: BART's post-norm
layers with static sinusoidal positions, scaled embeddings, SiLU MLPs, no embedding LayerNorm) and mBART
(facebook/mbart-large-50*: pre-norm layers, embedding and final LayerNorms, scaled embeddings) - trained as
seq2seq (io s2s) and under Hugging Face generate (greedy, default EncoderDecoderCache).

dev96: DEVELOPMENT traces (snapshots, one process each).
late88: BLIND memory rows and generate points - kept outside the repository until each family's model is final,
then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker


def marian(d=512, layers=6, heads=8, ffn=2048, vocab=58101, model="MarianMTModel"):
    return (model, "MarianConfig", dict(
        vocab_size=vocab, d_model=d, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
        decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, max_position_embeddings=512,
        activation_function="swish", scale_embedding=True, pad_token_id=vocab - 1, decoder_start_token_id=vocab - 1,
        eos_token_id=0, dropout=0.1, attention_dropout=0.0, activation_dropout=0.0))


def mbart(d=1024, layers=12, heads=16, ffn=4096, vocab=250054):
    return ("MBartForConditionalGeneration", "MBartConfig", dict(
        vocab_size=vocab, d_model=d, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
        decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, max_position_embeddings=1024,
        scale_embedding=True, decoder_start_token_id=2, dropout=0.1, attention_dropout=0.0, activation_dropout=0.0))


MARIAN = marian()
MARIAN_BIG = marian(1024, 6, 16, 4096, vocab=65001)
MBART = mbart()
MBART_SMALL = mbart(512, 6, 8, 2048, vocab=64000)

GEN_MODELS.setdefault("marian", MARIAN)
GEN_MODELS.setdefault("marian-big", MARIAN_BIG)
GEN_MODELS.setdefault("mbart", MBART)
GEN_MODELS.setdefault("mbart-small", MBART_SMALL)


def call176():
    D = maker("dev96-", "dev96", heldout=False)
    B = maker("late88-", "late88", heldout=True)

    def s(spec):
        return dict(spec, snap=True)

    def gdev(name, key, dtype, grad, points):
        return J("dev96-" + name, "dev96", 20, heldout=False, timeout=240,
                 spec=G(key, dtype, "dynamic", grad, points, snap=True))

    def gblind(name, key, dtype, grad, points):
        return J("late88-" + name, "late88-generate", 30, heldout=True, timeout=300,
                 spec=G(key, dtype, "dynamic", grad, points))
    dev = [
        D("marian-s128-b32-bf16", s(T(*MARIAN, io="s2s", b=32, seq=128)), 20),
        D("marian-s256-b16-fp32", s(T(*MARIAN, io="s2s", b=16, seq=256, prec="fp32")), 25),
        D("marian-s256-b16-bf16-ckpt", s(T(*MARIAN, io="s2s", b=16, seq=256, ckpt="block")), 20),
        D("mbart-s256-b8-bf16", s(T(*MBART, io="s2s", b=8, seq=256)), 40),
        D("mbart-small-s128-b8-fp32", s(T(*MBART_SMALL, io="s2s", b=8, seq=128, prec="fp32")), 20),
        D("mbart-s512-b4-bf16-lora16", s(T(*MBART, io="s2s", b=4, seq=512, lora=16)), 30),
        gdev("gen-marian-bf16", "marian", "bf16", "inference", [(8, 128, 64)]),
        gdev("gen-mbart-bf16", "mbart", "bf16", "inference", [(4, 256, 64)]),
    ]
    blind = [
        B("marian-big-s256-b32-fp16-ckpt", T(*MARIAN_BIG, io="s2s", b=32, seq=256, prec="fp16", ckpt="block"), 30),
        B("marian-s128-b64-bf16-lora16", T(*MARIAN, io="s2s", b=64, seq=128, lora=16), 25),
        B("mbart-s512-b4-bf16-ckpt", T(*MBART, io="s2s", b=4, seq=512, ckpt="block"), 40),
        B("mbart-small-s256-b16-bf16", T(*MBART_SMALL, io="s2s", b=16, seq=256), 25),
        gblind("gen-marian-big-fp32", "marian-big", "fp32", "no_grad", [(16, 256, 128)]),
        gblind("gen-mbart-bf16", "mbart", "bf16", "inference", [(8, 512, 128)]),
    ]
    return dev + blind


def call177():
    """dev97: CLIP ViT-B/16 LoRA under checkpointing (late87's blind L/14 LoRA checkpointed row came out -2.84%
    allocated; no dev trace had both) and Wav2Vec2 base in fp16 over five steps (late87's fp16 row never reached
    AdamW's state in its three: GradScaler skipped two), with snapshots. late89: BLIND rows of the session's new
    families at other shapes, kept outside the repository until evaluated once."""
    from gt_jobs130 import CLIP_B16, CLIP_B32, W2V_B, W2V_L, EL_BASE
    D = maker("dev97-", "dev97", heldout=False)
    B = maker("late89-", "late89", heldout=True)
    dev = [
        D("clip-b16-b64-bf16-lora16-ckpt", dict(T(*CLIP_B16, io="clip", b=64, lora=16, ckpt="block"), snap=True), 25),
        D("w2v-base-ctc-10s-b8-fp16-freeze", dict(T(*W2V_B, io="ctc", b=8, seconds=10, prec="fp16", freeze_fe=True),
                                                  snap=True, iters=5), 25),
    ]
    blind = [
        B("clip-b32-b256-fp32-lora16", T(*CLIP_B32, io="clip", b=256, prec="fp32", lora=16), 30),
        B("w2v-large-ctc-6s-b8-fp32-freeze", T(*W2V_L, io="ctc", b=8, seconds=6, prec="fp32", freeze_fe=True), 35),
        B("electra-base-s256-b32-fp16", T(*EL_BASE, io="cls", b=32, seq=256, prec="fp16"), 25),
        B("marian-s256-b32-fp32-ckpt", T(*MARIAN, io="s2s", b=32, seq=256, prec="fp32", ckpt="block"), 25),
        B("mbart-small-s512-b8-bf16-lora16", T(*MBART_SMALL, io="s2s", b=8, seq=512, lora=16), 25),
    ]
    return dev + blind
