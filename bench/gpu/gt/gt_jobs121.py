"""Session 45, calls 157-158: two families plan did not know (config.json model_type opt and distilbert were refused or
sent to a neighbour).

OPT (facebook/opt-*): a pre-norm decoder with nn.LayerNorm (weight and bias), learned position embeddings offset by 2
and taken per batch row from the attention mask's cumulative sum, q/k/v/out_proj with biases and the query scaled
before attention, an ungated ReLU MLP (fc1, fc2) on the flattened tokens, dropout 0.1 after each branch, the LM head
tied to the token embedding. opt-350m differs: LayerNorm after each residual add (do_layer_norm_before false), no
final norm, and a 512-wide token embedding projected in (project_in) and out (project_out) of the 1024-wide layers.
DistilBERT (distilbert-base-uncased, -multilingual-cased): BERT's post-norm encoder with 6 layers, no token types,
q_lin/k_lin/v_lin/out_lin, lin1/lin2, and its own heads (pre_classifier + ReLU + dropout 0.2 for classification).
Configurations follow the Hub's config.json.

call157: dev82 (development data, NOT blind; snapshots, one process each), generate dev points, and late78-timing
(BLIND timings, one process per group alone on the GPU).
call158: late78 (BLIND memory rows and generate points) - kept outside the repository until the families' models
are final, then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs


def opt(hidden, layers, heads, ffn, proj=None, before=True):
    return ("OPTForCausalLM", "OPTConfig", dict(
        hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads, ffn_dim=ffn,
        word_embed_proj_dim=proj or hidden, do_layer_norm_before=before, vocab_size=50272,
        max_position_embeddings=2048, dropout=0.1, attention_dropout=0.0, activation_function="relu",
        enable_bias=True, layer_norm_elementwise_affine=True, pad_token_id=1, bos_token_id=2, eos_token_id=2))


OPT_125M = opt(768, 12, 12, 3072)
OPT_350M = opt(1024, 24, 16, 4096, proj=512, before=False)
OPT_13B = opt(2048, 24, 32, 8192)
OPT_27B = opt(2560, 32, 32, 10240)
OPT_67B = opt(4096, 32, 32, 16384)

GEN_MODELS.setdefault("opt-350m", OPT_350M)
GEN_MODELS.setdefault("opt-1.3b", OPT_13B)
GEN_MODELS.setdefault("opt-2.7b", OPT_27B)

DBERT = dict(vocab_size=30522, max_position_embeddings=512, dim=768, n_layers=6, n_heads=12, hidden_dim=3072,
             dropout=0.1, attention_dropout=0.1, seq_classif_dropout=0.2, qa_dropout=0.1, activation="gelu",
             pad_token_id=0)
DB_CLS = ("DistilBertForSequenceClassification", "DistilBertConfig", DBERT)
DB_TOK = ("DistilBertForTokenClassification", "DistilBertConfig", dict(DBERT, num_labels=9))
DB_QA = ("DistilBertForQuestionAnswering", "DistilBertConfig", DBERT)
DB_ML = ("DistilBertForSequenceClassification", "DistilBertConfig", dict(DBERT, vocab_size=119547))
DB_LORA = ["q_lin", "v_lin"]  # PEFT's default targets for distilbert


def call157():
    D = maker("dev82-", "dev82", heldout=False)
    t = timer("late78-", "late78-timing")

    def gen(name, key, cache, points):
        return J("dev82-" + name, "dev82", 15, heldout=False, timeout=180,
                 spec=G(key, "bf16", cache, "inference", points, snap=True))
    dev = [
        D("opt-125m-s2048-b8-bf16", dict(T(*OPT_125M, b=8, seq=2048), snap=True), 25),
        D("opt-125m-s1024-b8-fp32", dict(T(*OPT_125M, b=8, seq=1024, prec="fp32"), snap=True), 20),
        D("opt-350m-s1024-b8-bf16", dict(T(*OPT_350M, b=8, seq=1024), snap=True), 25),
        D("opt-13b-s1024-b4-bf16-lora16", dict(T(*OPT_13B, b=4, seq=1024, lora=16), snap=True), 25),
        D("opt-13b-s2048-b4-bf16-ckpt", dict(T(*OPT_13B, b=4, seq=2048, ckpt="block"), snap=True), 40),
        D("distilbert-s512-b64-bf16", dict(T(*DB_CLS, io="cls", b=64, seq=512), snap=True), 20),
        D("distilbert-s256-b32-fp32", dict(T(*DB_CLS, io="cls", b=32, seq=256, prec="fp32"), snap=True), 15),
        D("distilbert-s512-b64-bf16-ckpt", dict(T(*DB_CLS, io="cls", b=64, seq=512, ckpt="block"), snap=True), 15),
        D("distilbert-qa-s384-b32-bf16", dict(T(*DB_QA, io="qa", b=32, seq=384), snap=True), 15),
        gen("gen-opt-13b-bf16-dynamic", "opt-1.3b", "dynamic", [(4, 256, 64)]),
    ]
    timing = timing_jobs("late78-", "late78-timing", (
        ("opt", [t("t-opt-125m-s2048-b8-bf16", T(*OPT_125M, b=8, seq=2048)),
                 t("t-opt-125m-s2048-b8-fp32", T(*OPT_125M, b=8, seq=2048, prec="fp32")),
                 t("t-opt-125m-s2048-b8-bf16-ckpt", T(*OPT_125M, b=8, seq=2048, ckpt="block"))]),
        ("distilbert", [t("t-distilbert-s512-b32-bf16", T(*DB_CLS, io="cls", b=32, seq=512)),
                        t("t-distilbert-s512-b32-bf16-ckpt", T(*DB_CLS, io="cls", b=32, seq=512, ckpt="block"))]),
    ))
    return timing + dev


def call158():
    B = maker("late78-", "late78", heldout=True)

    def g(name, key, cache, grad, points, mem=30):
        return J("late78-" + name, "late78-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    mem = [
        B("opt-27b-s1024-b4-bf16-ckpt", T(*OPT_27B, b=4, seq=1024, ckpt="block"), 60),
        B("opt-67b-s1024-b2-bf16-lora16", T(*OPT_67B, b=2, seq=1024, lora=16), 50),
        B("opt-350m-s2048-b4-fp32", T(*OPT_350M, b=4, seq=2048, prec="fp32"), 30),
        B("opt-125m-s2048-b16-fp16-ckpt", T(*OPT_125M, b=16, seq=2048, prec="fp16", ckpt="block"), 40),
        B("distilbert-ml-s512-b32-bf16", T(*DB_ML, io="cls", b=32, seq=512), 20),
        B("distilbert-tok-s128-b128-fp32", T(*DB_TOK, io="tok", b=128, seq=128, prec="fp32"), 20),
        B("distilbert-s256-b64-fp16-ckpt", T(*DB_CLS, io="cls", b=64, seq=256, prec="fp16", ckpt="block"), 15),
        B("distilbert-s512-b32-bf16-lora16", T(*DB_CLS, io="cls", b=32, seq=512, lora=16, lora_targets=DB_LORA), 15),
    ]
    gen = [
        g("gen-opt-27b-bf16-static-nograd", "opt-2.7b", "static", "no_grad", [(4, 512, 128)]),
        g("gen-opt-350m-bf16-dynamic-inf", "opt-350m", "dynamic", "inference", [(8, 500, 100)]),
    ]
    return mem + gen


BERT_BASE = ("BertForSequenceClassification", "BertConfig", {})


def call159():
    """dev83 (development data, NOT blind; snapshots): late78's DistilBERT LoRA row (+5.7% allocated at first sight)
    again with a snapshot, and BERT-base LoRA (query/value) at the same shape, whose first layer reads the frozen
    embeddings likewise."""
    D = maker("dev83-", "dev83", heldout=False)
    return [
        D("distilbert-s512-b32-bf16-lora16", dict(T(*DB_CLS, io="cls", b=32, seq=512, lora=16, lora_targets=DB_LORA),
                                                   snap=True), 15),
        D("bert-base-s512-b32-bf16-lora16", dict(T(*BERT_BASE, io="cls", b=32, seq=512, lora=16,
                                                   lora_targets=["query", "value"]), snap=True), 15),
    ]
