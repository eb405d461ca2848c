"""Session 47, call 175: families plan refuses today - CLIP (CLIPModel's contrastive loss over a text and a ViT
tower), Wav2Vec2 (raw-audio convolutional feature encoder, convolutional position embedding, post-norm base and
stable-layer-norm large layers; CTC and sequence-classification heads, the feature encoder frozen as fine-tuning
recipes do) and ELECTRA (BERT with a factorised embedding projection) - and Whisper under generate (a 30 s log-mel
window, greedy, the default EncoderDecoderCache).

dev95: DEVELOPMENT traces (snapshots, one process each).
late87: BLIND memory rows, generate points and timings - kept outside the repository until each family's model is
final, then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs


def clip(text, vision, patch, proj):
    th, ti, tl, ta = text
    vh, vi, vl, va = vision
    return ("CLIPModel", "CLIPConfig", dict(
        text_config=dict(hidden_size=th, intermediate_size=ti, num_hidden_layers=tl, num_attention_heads=ta,
                         max_position_embeddings=77, vocab_size=49408),
        vision_config=dict(hidden_size=vh, intermediate_size=vi, num_hidden_layers=vl, num_attention_heads=va,
                           image_size=224, patch_size=patch),
        projection_dim=proj))


def w2v(hidden, layers, heads, inter, large=False, model="Wav2Vec2ForCTC"):
    return (model, "Wav2Vec2Config", dict(
        vocab_size=32, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
        intermediate_size=inter, feat_extract_norm="layer" if large else "group", do_stable_layer_norm=large,
        conv_bias=large, pad_token_id=0, ctc_loss_reduction="mean", mask_time_prob=0.05, num_labels=10))


def electra(emb, hidden, layers, heads, inter, model="ElectraForSequenceClassification"):
    return (model, "ElectraConfig", dict(
        vocab_size=30522, embedding_size=emb, hidden_size=hidden, num_hidden_layers=layers,
        num_attention_heads=heads, intermediate_size=inter, max_position_embeddings=512))


def whisper(d, layers, heads, ffn, mel=80, vocab=51865):
    return ("WhisperForConditionalGeneration", "WhisperConfig", dict(
        d_model=d, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
        decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, vocab_size=vocab,
        num_mel_bins=mel, max_source_positions=1500, max_target_positions=448))


CLIP_B32 = clip((512, 2048, 12, 8), (768, 3072, 12, 12), 32, 512)
CLIP_B16 = clip((512, 2048, 12, 8), (768, 3072, 12, 12), 16, 512)
CLIP_L14 = clip((768, 3072, 12, 12), (1024, 4096, 24, 16), 14, 768)
W2V_B = w2v(768, 12, 12, 3072)
W2V_L = w2v(1024, 24, 16, 4096, large=True)
W2V_B_CLS = w2v(768, 12, 12, 3072, model="Wav2Vec2ForSequenceClassification")
EL_SMALL = electra(128, 256, 12, 4, 1024)
EL_BASE = electra(768, 768, 12, 12, 3072)
EL_LARGE = electra(1024, 1024, 24, 16, 4096)
EL_SMALL_QA = electra(128, 256, 12, 4, 1024, "ElectraForQuestionAnswering")
EL_BASE_TOK = electra(768, 768, 12, 12, 3072, "ElectraForTokenClassification")

GEN_MODELS.setdefault("whisper-base", whisper(512, 6, 8, 2048))
GEN_MODELS.setdefault("whisper-small", whisper(768, 12, 12, 3072))
GEN_MODELS.setdefault("whisper-medium", whisper(1024, 24, 16, 4096))
GEN_MODELS.setdefault("whisper-large-v3", whisper(1280, 32, 20, 5120, mel=128, vocab=51866))


def call175():
    D = maker("dev95-", "dev95", heldout=False)
    B = maker("late87-", "late87", heldout=True)
    t = timer("late87-", "late87-timing")

    def s(spec):
        return dict(spec, snap=True)

    def gdev(name, key, dtype, grad, points):
        return J("dev95-" + name, "dev95", 20, heldout=False, timeout=240,
                 spec=G(key, dtype, "dynamic", grad, points, audio=True, snap=True))

    def gblind(name, key, dtype, grad, points):
        return J("late87-" + name, "late87-generate", 30, heldout=True, timeout=300,
                 spec=G(key, dtype, "dynamic", grad, points, audio=True))
    dev = [
        D("clip-b32-b128-bf16", s(T(*CLIP_B32, io="clip", b=128)), 25),
        D("clip-b16-b32-fp32", s(T(*CLIP_B16, io="clip", b=32, prec="fp32")), 25),
        D("clip-b16-b64-bf16-ckpt", s(T(*CLIP_B16, io="clip", b=64, ckpt="block")), 25),
        D("clip-b32-b128-bf16-lora16", s(T(*CLIP_B32, io="clip", b=128, lora=16)), 25),
        D("w2v-base-ctc-10s-b8-bf16-freeze", s(T(*W2V_B, io="ctc", b=8, seconds=10, freeze_fe=True)), 25),
        D("w2v-base-ctc-5s-b4-fp32", s(T(*W2V_B, io="ctc", b=4, seconds=5, prec="fp32")), 25),
        D("w2v-base-ctc-10s-b8-bf16-ckpt-freeze", s(T(*W2V_B, io="ctc", b=8, seconds=10, ckpt="block",
                                                     freeze_fe=True)), 25),
        D("w2v-large-ctc-8s-b4-bf16-freeze", s(T(*W2V_L, io="ctc", b=4, seconds=8, freeze_fe=True)), 30),
        D("w2v-base-cls-4s-b16-bf16-lora16", s(T(*W2V_B_CLS, io="audiocls", b=16, seconds=4, lora=16)), 25),
        D("electra-small-cls-s512-b32-bf16", s(T(*EL_SMALL, io="cls", b=32, seq=512)), 20),
        D("electra-base-tok-s256-b16-fp32", s(T(*EL_BASE_TOK, io="tok", b=16, seq=256, prec="fp32")), 25),
        gdev("gen-whisper-small-bf16", "whisper-small", "bf16", "inference", [(8, 0, 64)]),
        gdev("gen-whisper-base-fp32", "whisper-base", "fp32", "no_grad", [(16, 0, 128)]),
    ]
    blind = [
        B("clip-l14-b32-bf16", T(*CLIP_L14, io="clip", b=32), 35),
        B("clip-b16-b128-fp16-ckpt", T(*CLIP_B16, io="clip", b=128, prec="fp16", ckpt="block"), 30),
        B("clip-l14-b64-bf16-lora16-ckpt", T(*CLIP_L14, io="clip", b=64, lora=16, ckpt="block"), 30),
        B("w2v-large-ctc-15s-b4-bf16-ckpt-freeze", T(*W2V_L, io="ctc", b=4, seconds=15, ckpt="block",
                                                     freeze_fe=True), 35),
        B("w2v-base-ctc-20s-b4-fp16-freeze", T(*W2V_B, io="ctc", b=4, seconds=20, prec="fp16", freeze_fe=True), 30),
        B("w2v-base-cls-8s-b16-bf16", T(*W2V_B_CLS, io="audiocls", b=16, seconds=8), 30),
        B("electra-large-cls-s512-b8-bf16-ckpt", T(*EL_LARGE, io="cls", b=8, seq=512, ckpt="block"), 30),
        B("electra-small-qa-s384-b32-fp32", T(*EL_SMALL_QA, io="qa", b=32, seq=384, prec="fp32"), 25),
        gblind("gen-whisper-medium-bf16", "whisper-medium", "bf16", "inference", [(16, 0, 128)]),
        gblind("gen-whisper-large-v3-fp16", "whisper-large-v3", "fp16", "no_grad", [(8, 0, 96)]),
    ]
    timing = timing_jobs("late87-", "late87-timing", (
        ("clip", [t("t-clip-b16-b64-bf16", T(*CLIP_B16, io="clip", b=64)),
                  t("t-clip-b16-b64-bf16-ckpt", T(*CLIP_B16, io="clip", b=64, ckpt="block"))]),
        ("w2v", [t("t-w2v-base-ctc-10s-b8-bf16-freeze", T(*W2V_B, io="ctc", b=8, seconds=10, freeze_fe=True)),
                 t("t-electra-base-cls-s512-b16-bf16", T(*EL_BASE, io="cls", b=16, seq=512))]),
    ))
    return timing + dev + blind
