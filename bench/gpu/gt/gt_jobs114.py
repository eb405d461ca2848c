"""Session 43, call 147: masked-LM heads on the BERT family (plan's spec head "masked-lm", and config.json files
naming ...ForMaskedLM, which plan had planned with the sequence-classification head: XLM-RoBERTa base at b32 s256 is
8.3 GiB reserved with that head and about 39 GiB with the masked-LM one's batch x seq x 250002 logits).

dev74 (development data, NOT blind; snapshots): BERT-base s512 b8 bf16 AMP, XLM-RoBERTa base s256 b16 bf16 AMP,
RoBERTa-base s128 b32 fp32, one process each.

late73 (BLIND; kept outside the repository until the head's model is final, then evaluated once): XLM-RoBERTa base
s256 b32 bf16 AMP, BERT-large s512 b8 bf16 AMP checkpointed, RoBERTa-base s256 b16 fp32, XLM-RoBERTa large s128 b16
bf16 AMP LoRA r16 (query/value); memory rows one process each; BERT-base s512 b8 bf16 AMP and fp32 timed in one
process alone on the GPU."""
from gt_jobs import J, T, maker, timer, timing_jobs
from gt_jobs113 import XLMR, XLMR_L

BERT_MLM = ("BertForMaskedLM", "BertConfig", {})
BERT_L_MLM = ("BertForMaskedLM", "BertConfig",
              dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096))
ROB_MLM = ("RobertaForMaskedLM", "RobertaConfig",
           dict(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, pad_token_id=1))
XLMR_MLM = ("XLMRobertaForMaskedLM", XLMR[1], {k: v for k, v in XLMR[2].items() if k != "num_labels"})
XLMR_L_MLM = ("XLMRobertaForMaskedLM", XLMR_L[1], {k: v for k, v in XLMR_L[2].items() if k != "num_labels"})


def call147():
    D = maker("dev74-", "dev74", heldout=False)
    B = maker("late73-", "late73", heldout=True)
    t = timer("late73-", "late73-timing")
    dev = [
        D("bert-base-mlm-s512-b8-bf16", dict(T(*BERT_MLM, b=8, seq=512), snap=True), 30),
        D("xlmr-base-mlm-s256-b16-bf16", dict(T(*XLMR_MLM, b=16, seq=256), snap=True), 40),
        D("roberta-base-mlm-s128-b32-fp32", dict(T(*ROB_MLM, b=32, seq=128, prec="fp32"), snap=True), 30),
    ]
    blind = [
        B("xlmr-base-mlm-s256-b32-bf16", T(*XLMR_MLM, b=32, seq=256), 60),
        B("bert-large-mlm-s512-b8-bf16-ckpt", T(*BERT_L_MLM, b=8, seq=512, ckpt="block"), 30),
        B("roberta-base-mlm-s256-b16-fp32", T(*ROB_MLM, b=16, seq=256, prec="fp32"), 30),
        B("xlmr-large-mlm-s128-b16-bf16-lora16", T(*XLMR_L_MLM, b=16, seq=128, lora=16, lora_targets=["query", "value"]),
          40),
    ]
    timing = timing_jobs("late73-", "late73-timing", (
        ("bert-mlm", [t("t-bert-base-mlm-s512-b8-bf16", T(*BERT_MLM, b=8, seq=512)),
                      t("t-bert-base-mlm-s512-b8-fp32", T(*BERT_MLM, b=8, seq=512, prec="fp32"))]),
    ))
    return timing + dev + blind
