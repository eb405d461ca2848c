"""Session 21, call 83: late38 (blind; kept outside the repository until evaluated once with the binaries of the
commit that registers this job list, which may not look at it).

The session's final memory changes after late37 was captured: the NHWC column reductions' staging sized as ATen sizes
it (EfficientNet's squeeze-excitation pool forward and scale gradient backward), on top of the channels-last
transients and BERT's lifetimes late37 tested. late38: channels-last EfficientNets with and without checkpointing at
widths and batches no set had (B0 b256 fp16, B1 b96 bf16 checkpointed, B2 b96 bf16 checkpointed, B5 b16 bf16),
channels-last ResNets (ResNet-34 b256 bf16 checkpointed, ResNet-50 b128 fp16, ResNet-18 b128 bf16), and BERT under
AMP (BERT-base s384 b48 fp16 checkpointed, RoBERTa-large s256 b16 bf16, BERT-large s128 b64 bf16). Memory rows each
in their own process, snapshots of two."""
from gt_jobs import J, T, maker
from gt_jobs9 import cl

BERT = ("BertForSequenceClassification", "BertConfig", {})
BERT_L = ("BertForSequenceClassification", "BertConfig",
          dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, num_labels=2))
ROBERTA_L = ("RobertaForSequenceClassification", "RobertaConfig",
             dict(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, hidden_size=1024,
                  num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096, num_labels=2))


def call83():
    B = maker("late38-", "late38", heldout=True)
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe,
            B("efficientnet-b0-b256-fp16-cl", cl("efficientnet_b0", 256, prec="fp16"), 50),
            B("efficientnet-b1-b96-bf16-cl-ckpt", dict(cl("efficientnet_b1", 96, ckpt="block"), snap=True), 30),
            B("efficientnet-b2-b96-bf16-cl-ckpt", cl("efficientnet_b2", 96, ckpt="block"), 30),
            B("efficientnet-b5-b16-bf16-cl", cl("efficientnet_b5", 16), 30),
            B("resnet34-b256-bf16-cl-ckpt", dict(cl("resnet34", 256, ckpt="block"), snap=True), 30),
            B("resnet50-b128-fp16-cl", cl("resnet50", 128, prec="fp16"), 40),
            B("resnet18-b128-bf16-cl", cl("resnet18", 128), 20),
            B("bert-base-s384-b48-fp16-ckpt", T(*BERT, io="cls", b=48, seq=384, prec="fp16", ckpt="block"), 30),
            B("roberta-large-s256-b16-bf16", T(*ROBERTA_L, io="cls", b=16, seq=256), 30),
            B("bert-large-s128-b64-bf16", T(*BERT_L, io="cls", b=64, seq=128), 30)]
