"""Session 46, calls 170-171: the late83 GPT-J shapes as development traces (its blind rows were +1.5..+1.7%
allocated over and the checkpointed fp16 row +15.7% reserved; late83 carried no snapshots), GPT-J generate, and
three families plan refuses: ModernBERT (answerdotai/ModernBERT-*: fused Wqkv, rotary, alternating sliding-window
and global attention, GeGLU Wi/Wo, bias-free LayerNorms), DeBERTa-v3 (microsoft/deberta-v3-*: DebertaV2 with
disentangled relative-position attention, 256 position buckets, shared attention keys) and Swin
(microsoft/swin-*: shifted-window attention with a relative position bias table, patch merging).

call170: dev92 (development data, NOT blind; snapshots, one process each) and late84-timing (BLIND timings, one
process alone on the GPU).
call171: late84 (BLIND memory rows and generate points) - kept outside the repository until each family's model is
final, then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs
from gt_jobs126 import GPTJ_S, GPTJ_W


def mbert(hidden, layers, heads, inter, model="ModernBertForSequenceClassification"):
    return (model, "ModernBertConfig", dict(
        vocab_size=50368, hidden_size=hidden, intermediate_size=inter, num_hidden_layers=layers,
        num_attention_heads=heads, max_position_embeddings=8192, pad_token_id=50283, bos_token_id=50281,
        eos_token_id=50282, cls_token_id=50281, sep_token_id=50282))


def debv3(hidden, layers, heads, inter, model="DebertaV2ForSequenceClassification"):
    return (model, "DebertaV2Config", dict(
        vocab_size=128100, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
        intermediate_size=inter, hidden_act="gelu", relative_attention=True, position_buckets=256,
        norm_rel_ebd="layer_norm", share_att_key=True, pos_att_type=["p2c", "c2p"], max_relative_positions=-1,
        position_biased_input=False, max_position_embeddings=512, type_vocab_size=0, layer_norm_eps=1e-7))


def swin(embed, depths, heads):
    return ("SwinForImageClassification", "SwinConfig", dict(
        image_size=224, patch_size=4, embed_dim=embed, depths=depths, num_heads=heads, window_size=7,
        num_labels=1000))


MB_BASE = mbert(768, 22, 12, 1152)
MB_BASE_MLM = mbert(768, 22, 12, 1152, "ModernBertForMaskedLM")
MB_BASE_TOK = mbert(768, 22, 12, 1152, "ModernBertForTokenClassification")
MB_SMALL = mbert(512, 8, 8, 768)
MB_LARGE = mbert(1024, 28, 16, 2624)
MB_LORA = ["Wqkv"]
DEB_BASE = debv3(768, 12, 12, 3072)
DEB_SMALL = debv3(768, 6, 12, 3072)
DEB_LARGE = debv3(1024, 24, 16, 4096)
DEB_BASE_TOK = debv3(768, 12, 12, 3072, "DebertaV2ForTokenClassification")
DEB_BASE_QA = debv3(768, 12, 12, 3072, "DebertaV2ForQuestionAnswering")
DEB_LORA = ["query_proj", "value_proj"]  # PEFT's default targets for deberta-v2
SWIN_T = swin(96, [2, 2, 6, 2], [3, 6, 12, 24])
SWIN_S = swin(96, [2, 2, 18, 2], [3, 6, 12, 24])
SWIN_B = swin(128, [2, 2, 18, 2], [4, 8, 16, 32])
SWIN_LORA = r".*\.(query|value|q_proj|v_proj)$"  # transformers 5 renamed them in some vision models

GEN_MODELS.setdefault("gptj-small", GPTJ_S)
GEN_MODELS.setdefault("gptj-wide", GPTJ_W)


def call170():
    D = maker("dev92-", "dev92", heldout=False)
    t = timer("late84-", "late84-timing")

    def gen(name, key, cache, points):
        return J("dev92-" + name, "dev92", 15, heldout=False, timeout=180,
                 spec=G(key, "bf16", cache, "inference", points, snap=True))

    def s(spec):
        return dict(spec, snap=True)
    dev = [
        D("gptj-small-s2048-b4-fp16-ckpt", s(T(*GPTJ_S, b=4, seq=2048, prec="fp16", ckpt="block")), 25),
        D("gptj-wide-s1024-b4-bf16", s(T(*GPTJ_W, b=4, seq=1024)), 35),
        gen("gen-gptj-small-bf16-dynamic", "gptj-small", "dynamic", [(4, 256, 64)]),
        gen("gen-gptj-small-bf16-static", "gptj-small", "static", [(4, 256, 64)]),
        D("mbert-base-s512-b16-bf16", s(T(*MB_BASE, io="cls", b=16, seq=512)), 25),
        D("mbert-base-mlm-s1024-b8-bf16", s(T(*MB_BASE_MLM, b=8, seq=1024)), 30),
        D("mbert-small-s512-b8-fp32", s(T(*MB_SMALL, io="cls", b=8, seq=512, prec="fp32")), 20),
        D("mbert-base-s1024-b8-bf16-ckpt", s(T(*MB_BASE, io="cls", b=8, seq=1024, ckpt="block")), 25),
        D("mbert-base-s512-b16-bf16-lora16", s(T(*MB_BASE, io="cls", b=16, seq=512, lora=16,
                                                 lora_targets=MB_LORA)), 25),
        D("debv3-base-s512-b8-bf16", s(T(*DEB_BASE, io="cls", b=8, seq=512)), 30),
        D("debv3-small-s256-b8-fp32", s(T(*DEB_SMALL, io="cls", b=8, seq=256, prec="fp32")), 20),
        D("debv3-base-s512-b8-bf16-ckpt", s(T(*DEB_BASE, io="cls", b=8, seq=512, ckpt="block")), 30),
        D("debv3-base-s512-b8-bf16-lora16", s(T(*DEB_BASE, io="cls", b=8, seq=512, lora=16,
                                                lora_targets=DEB_LORA)), 30),
        D("swin-tiny-b32-bf16", s(T(*SWIN_T, io="hfvision", b=32)), 25),
        D("swin-tiny-b16-fp32", s(T(*SWIN_T, io="hfvision", b=16, prec="fp32")), 25),
        D("swin-tiny-b32-bf16-ckpt", s(T(*SWIN_T, io="hfvision", b=32, ckpt="block")), 25),
        D("swin-tiny-b32-bf16-lora16", s(T(*SWIN_T, io="hfvision", b=32, lora=16,
                                           lora_targets=SWIN_LORA)), 25),
    ]
    timing = timing_jobs("late84-", "late84-timing", (
        ("mbert", [t("t-mbert-base-s512-b16-bf16", T(*MB_BASE, io="cls", b=16, seq=512)),
                   t("t-mbert-base-s512-b16-bf16-ckpt", T(*MB_BASE, io="cls", b=16, seq=512, ckpt="block"))]),
        ("debv3", [t("t-debv3-base-s512-b8-bf16", T(*DEB_BASE, io="cls", b=8, seq=512)),
                   t("t-swin-tiny-b64-bf16", T(*SWIN_T, io="hfvision", b=64))]),
    ))
    return timing + dev


def call171():
    B = maker("late84-", "late84", heldout=True)

    def g(name, key, cache, grad, points, mem=30):
        return J("late84-" + name, "late84-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    mem = [
        B("mbert-large-s512-b8-bf16", T(*MB_LARGE, io="cls", b=8, seq=512), 35),
        B("mbert-base-tok-s2048-b4-fp16-ckpt", T(*MB_BASE_TOK, io="tok", b=4, seq=2048, prec="fp16",
                                                 ckpt="block"), 30),
        B("mbert-base-mlm-s512-b4-fp32", T(*MB_BASE_MLM, b=4, seq=512, prec="fp32"), 30),
        B("mbert-large-s1024-b4-bf16-lora16", T(*MB_LARGE, io="cls", b=4, seq=1024, lora=16,
                                                lora_targets=MB_LORA), 30),
        B("debv3-large-s512-b4-bf16", T(*DEB_LARGE, io="cls", b=4, seq=512), 40),
        B("debv3-base-tok-s256-b16-fp16-ckpt", T(*DEB_BASE_TOK, io="tok", b=16, seq=256, prec="fp16",
                                                 ckpt="block"), 30),
        B("debv3-base-qa-s384-b8-bf16-lora16", T(*DEB_BASE_QA, io="qa", b=8, seq=384, lora=16,
                                                 lora_targets=DEB_LORA), 30),
        B("swin-base-b32-bf16", T(*SWIN_B, io="hfvision", b=32), 35),
        B("swin-small-b64-fp16-ckpt", T(*SWIN_S, io="hfvision", b=64, prec="fp16", ckpt="block"), 30),
        B("swin-tiny-b32-fp32-lora16", T(*SWIN_T, io="hfvision", b=32, prec="fp32", lora=16,
                                         lora_targets=SWIN_LORA), 30),
    ]
    gen = [g("gen-gptj-wide-bf16-static-nograd", "gptj-wide", "static", "no_grad", [(4, 512, 128)]),
           g("gen-gptj-small-bf16-dynamic", "gptj-small", "dynamic", "inference", [(8, 1024, 256)])]
    D = maker("dev92-", "dev92", heldout=False)  # call170's Swin LoRA row again, with targets that exist
    dev = [D("swin-tiny-b32-bf16-lora16", dict(T(*SWIN_T, io="hfvision", b=32, lora=16, lora_targets=SWIN_LORA),
                                              snap=True), 25)]
    return mem + gen + dev
