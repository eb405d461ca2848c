"""Session 22, call 85.

dev42 (development data, NOT blind): snapshots of the two checkpointed fp16 ViT rows the model under-estimates most
(late20 ViT-L/16 b160 -6.3%, late36 ViT-B/16 b128 -2.7% reserved), each in its own process.

late39 (blind; kept outside the repository until evaluated once with the binaries of the commit that registers this
job list, which may not look at it): float32 steps where the session's change matters (a linear's input gradient
added into its residual after the node returns; BERT's [CLS] slice a view the pooler saves): BERT-base, -large and
-tiny and RoBERTa-base with and without checkpointing and with accumulation, GPT-2 and GPT-2 medium, the small Llama,
T5-small, ViT-B/16, at shapes no set had. Memory rows each in their own process; four step times, one process per
group alone on the GPU (7 steps, median of 3..7)."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs57 import BERT, BERT_TINY, G2, G2M, LS, T5
from gt_jobs60 import BERT_L
ROBERTA = ("RobertaForSequenceClassification", "RobertaConfig",
           dict(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, num_labels=2))


def dev():
    M = maker("dev42-", "dev42", heldout=False)
    return [
        M("vitl16-b160-fp16-ckpt", dict(tv("vit_l_16", 160, prec="fp16", ckpt="block"), snap=True), 40),
        M("vitb16-b128-fp16-ckpt", dict(tv("vit_b_16", 128, prec="fp16", ckpt="block"), snap=True), 30),
    ]


t = timer("late39-", "late39-timing")


def blind():
    B = maker("late39-", "late39", heldout=True)
    fp = dict(prec="fp32")
    mem = [
        B("bert-base-s512-b16-fp32-ckpt", T(*BERT, io="cls", b=16, seq=512, ckpt="block", **fp), 20),
        B("bert-base-s384-b32-fp32", T(*BERT, io="cls", b=32, seq=384, **fp), 30),
        B("bert-large-s256-b16-fp32-ckpt", T(*BERT_L, io="cls", b=16, seq=256, ckpt="block", **fp), 20),
        B("bert-base-s256-b16x2-fp32", T(*BERT, io="cls", b=16, seq=256, accum=2, **fp), 20),
        B("bert-tiny-s512-b256-fp32-ckpt", T(*BERT_TINY, io="cls", b=256, seq=512, ckpt="block", **fp), 20),
        B("roberta-base-s512-b16-fp32-ckpt", T(*ROBERTA, io="cls", b=16, seq=512, ckpt="block", **fp), 20),
        B("gpt2-s1024-b4-fp32-ckpt", T(*G2, b=4, seq=1024, ckpt="block", **fp), 20),
        B("gpt2-medium-s512-b8-fp32", T(*G2M, b=8, seq=512, **fp), 30),
        B("llama-small-s1024-b4-fp32-ckpt", T(*LS, b=4, seq=1024, ckpt="block", **fp), 20),
        B("t5-small-s512-b16-fp32-ckpt", T(*T5, io="s2s", b=16, seq=512, ckpt="block", **fp), 20),
        B("vitb16-b96-fp32-ckpt", tv("vit_b_16", 96, ckpt="block", **fp), 20),
    ]
    timing = timing_jobs("late39-", "late39-timing", (
        ("bert", [t("t-bert-base-s512-b16-fp32", T(*BERT, io="cls", b=16, seq=512, **fp)),
                  t("t-bert-base-s512-b16-fp32-ckpt", T(*BERT, io="cls", b=16, seq=512, ckpt="block", **fp))]),
        ("gpt", [t("t-gpt2-s1024-b4-fp32", T(*G2, b=4, seq=1024, **fp)),
                 t("t-gpt2-s1024-b4-fp32-ckpt", T(*G2, b=4, seq=1024, ckpt="block", **fp))]),
    ))
    return mem + timing


def call85():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + dev() + blind()
