"""Session 21, call 81: late37 (blind; kept outside the repository until evaluated once with the binaries of the
commit that registers this job list, which may not look at it).

The session changed two things: BERT's tensors now live as long as Python names them (layer inputs, attention and
FFN intermediates, dropout outputs: allocated exact on every BERT AMP row), and channels-last CNNs gained the
transients their traces showed (the batch's channels-last copy, ResNet's padded stem image, ResNet-18/34's first
downsampling conv's workspace, the squeeze-excitation's NHWC pooling buffer). late37 tests both on shapes no set
had: BERT-large fp16 and checkpointed bf16, RoBERTa-base (config.json model_type roberta) bf16 checkpointed,
BERT-base fp32 checkpointed at s256, BERT-tiny bf16 at b256; channels-last ResNet-18 b256 bf16, ResNet-34 b128 fp16
checkpointed, ResNet-18 b384 fp32, EfficientNet-B0 b128 fp16, EfficientNet-B2 b64 fp32, EfficientNet-B3 b48 bf16
checkpointed. Memory rows each in their own process (snapshots of four); step times one process per group alone on
the GPU (7 steps, median of 3..7)."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs9 import cl

BERT_TINY = ("BertForSequenceClassification", "BertConfig",
             dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512, num_labels=2))
BERT = ("BertForSequenceClassification", "BertConfig", {})
BERT_L = ("BertForSequenceClassification", "BertConfig",
          dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, num_labels=2))
ROBERTA = ("RobertaForSequenceClassification", "RobertaConfig",
           dict(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, num_labels=2))

t = timer("late37-", "late37-timing")


def blind():
    B = maker("late37-", "late37", heldout=True)
    mem = [
        B("bert-large-s384-b24-fp16", dict(T(*BERT_L, io="cls", b=24, seq=384, prec="fp16"), snap=True), 40),
        B("bert-large-s512-b16-bf16-ckpt", T(*BERT_L, io="cls", b=16, seq=512, ckpt="block"), 30),
        B("roberta-base-s512-b32-bf16-ckpt", dict(T(*ROBERTA, io="cls", b=32, seq=512, ckpt="block"), snap=True), 30),
        B("bert-base-s256-b64-fp32-ckpt", T(*BERT, io="cls", b=64, seq=256, prec="fp32", ckpt="block"), 30),
        B("bert-tiny-s128-b256-bf16", T(*BERT_TINY, io="cls", b=256, seq=128), 20),
        B("resnet18-b256-bf16-cl", dict(cl("resnet18", 256), snap=True), 30),
        B("resnet34-b128-fp16-cl-ckpt", cl("resnet34", 128, prec="fp16", ckpt="block"), 30),
        B("resnet18-b384-fp32-cl", cl("resnet18", 384, prec="fp32"), 50),
        B("efficientnet-b0-b128-fp16-cl", dict(cl("efficientnet_b0", 128, prec="fp16"), snap=True), 40),
        B("efficientnet-b2-b64-fp32-cl", cl("efficientnet_b2", 64, prec="fp32"), 40),
        B("efficientnet-b3-b48-bf16-cl-ckpt", cl("efficientnet_b3", 48, ckpt="block"), 30),
    ]
    timing = timing_jobs("late37-", "late37-timing", (
        ("bert", [t("t-bert-large-s384-b24-fp16", T(*BERT_L, io="cls", b=24, seq=384, prec="fp16")),
                  t("t-roberta-base-s512-b32-bf16", T(*ROBERTA, io="cls", b=32, seq=512)),
                  t("t-roberta-base-s512-b32-bf16-ckpt", T(*ROBERTA, io="cls", b=32, seq=512, ckpt="block")),
                  t("t-bert-tiny-s128-b256-bf16", T(*BERT_TINY, io="cls", b=256, seq=128))]),
        ("cnn", [t("t-resnet18-b256-bf16-cl", cl("resnet18", 256)),
                 t("t-resnet34-b128-fp16-cl-ckpt", cl("resnet34", 128, prec="fp16", ckpt="block")),
                 t("t-resnet34-b128-fp16-cl", cl("resnet34", 128, prec="fp16")),
                 t("t-efficientnet-b0-b128-fp16-cl", cl("efficientnet_b0", 128, prec="fp16")),
                 t("t-efficientnet-b3-b48-bf16-cl-ckpt", cl("efficientnet_b3", 48, ckpt="block"))]),
    ))
    return timing + mem


def call81():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + blind()
