"""Session 44, call 156: BERT-family token-classification (NER) and extractive question-answering heads, which
plan had priced with the sequence-classification head (plan's spec head token-classification / question-answering,
and a config.json naming ...ForTokenClassification / ...ForQuestionAnswering).

dev81 (development data, NOT blind; snapshots): BERT-base token classification (9 labels) s256 b32 bf16 AMP, BERT-base
QA s384 b32 bf16 AMP.
late77 (BLIND; kept outside the repository until evaluated once): RoBERTa-large token classification s512 b16 bf16
AMP, BERT-large QA s384 b24 fp32 checkpointed, XLM-R base token classification s256 b32 fp32."""
from gt_jobs import T, maker

BERT = ("BertForTokenClassification", "BertConfig", dict(num_labels=9))
BERT_QA = ("BertForQuestionAnswering", "BertConfig", {})
BERT_L_QA = ("BertForQuestionAnswering", "BertConfig", dict(hidden_size=1024, num_hidden_layers=24,
                                                           num_attention_heads=16, intermediate_size=4096))
ROBERTA_L = ("RobertaForTokenClassification", "RobertaConfig", dict(
    vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2,
    layer_norm_eps=1e-05, hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
    num_labels=9))
XLMR = ("XLMRobertaForTokenClassification", "XLMRobertaConfig", dict(
    vocab_size=250002, max_position_embeddings=514, type_vocab_size=1, pad_token_id=1, bos_token_id=0, eos_token_id=2,
    layer_norm_eps=1e-05, num_labels=9))


def call156():
    D = maker("dev81-", "dev81", heldout=False)
    B = maker("late77-", "late77", heldout=True)
    dev = [
        D("bert-base-tok-s256-b32-bf16", dict(T(*BERT, io="tok", b=32, seq=256), snap=True), 15),
        D("bert-base-qa-s384-b32-bf16", dict(T(*BERT_QA, io="qa", b=32, seq=384), snap=True), 15),
    ]
    blind = [
        B("roberta-large-tok-s512-b16-bf16", T(*ROBERTA_L, io="tok", b=16, seq=512), 30),
        B("bert-large-qa-s384-b24-fp32-ckpt", T(*BERT_L_QA, io="qa", b=24, seq=384, prec="fp32", ckpt="block"), 30),
        B("xlmr-base-tok-s256-b32-fp32", T(*XLMR, io="tok", b=32, seq=256, prec="fp32"), 30),
    ]
    return dev + blind
