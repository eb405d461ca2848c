"""Session 45, calls 160-161: two families plan did not know (config.json model_type vit and bart were refused).

transformers' ViTForImageClassification (google/vit-base-patch16-224, vit-large-patch16-224): a pre-norm encoder over
a patch convolution, a class token and learned positions, separate query/key/value projections with biases, GELU
MLP, a final LayerNorm and a linear classifier on the class token (batch-first throughout, unlike torchvision's ViT).
BartForConditionalGeneration (facebook/bart-base, bart-large): a post-norm encoder-decoder with learned positions
(offset 2), a LayerNorm after the embeddings, the query scaled before attention, GELU MLPs, cross-attention, the LM
head tied to the shared embedding plus a final_logits_bias buffer.

call160: dev84 (development data, NOT blind; snapshots, one process each) and late79-timing (BLIND timings, one
process per family alone on the GPU).
call161: late79 (BLIND memory rows) - kept outside the repository until the families' models are final, then
evaluated once."""
from gt_jobs import T, maker, timer, timing_jobs


def hfvit(hidden=768, layers=12, heads=12, ffn=3072):
    return ("ViTForImageClassification", "ViTConfig", dict(
        hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads, intermediate_size=ffn,
        image_size=224, patch_size=16, num_labels=1000, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0))


def bart(d, layers, heads, ffn):
    return ("BartForConditionalGeneration", "BartConfig", dict(
        d_model=d, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
        decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, vocab_size=50265,
        max_position_embeddings=1024, dropout=0.1, attention_dropout=0.0, activation_dropout=0.0,
        activation_function="gelu", scale_embedding=False, pad_token_id=1, bos_token_id=0, eos_token_id=2,
        decoder_start_token_id=2, forced_eos_token_id=2))


VIT_B = hfvit()
VIT_L = hfvit(1024, 24, 16, 4096)
BART_B = bart(768, 6, 12, 3072)
BART_L = bart(1024, 12, 16, 4096)
VIT_LORA = ["query", "value"]  # PEFT's default targets for vit


def V(model, b, **kw):
    return T(*model, io="hfvision", b=b, **kw)


def S(model, b, seq, **kw):
    return T(*model, io="s2s", b=b, seq=seq, **kw)


def call160():
    D = maker("dev84-", "dev84", heldout=False)
    t = timer("late79-", "late79-timing")
    dev = [
        D("hfvit-b16-b64-bf16", dict(V(VIT_B, 64), snap=True), 20),
        D("hfvit-b16-b32-fp32", dict(V(VIT_B, 32, prec="fp32"), snap=True), 20),
        D("hfvit-b16-b64-bf16-ckpt", dict(V(VIT_B, 64, ckpt="block"), snap=True), 15),
        D("bart-base-s512-b16-bf16", dict(S(BART_B, 16, 512), snap=True), 25),
        D("bart-base-s512-b8-fp32", dict(S(BART_B, 8, 512, prec="fp32"), snap=True), 25),
        D("bart-large-s512-b8-bf16-ckpt", dict(S(BART_L, 8, 512, ckpt="block"), snap=True), 25),
        D("bart-base-s512-b16-bf16-lora16", dict(S(BART_B, 16, 512, lora=16), snap=True), 25),
    ]
    timing = timing_jobs("late79-", "late79-timing", (
        ("hfvit", [t("t-hfvit-b16-b64-bf16", V(VIT_B, 64)),
                   t("t-hfvit-b16-b64-bf16-ckpt", V(VIT_B, 64, ckpt="block"))]),
        ("bart", [t("t-bart-base-s512-b16-bf16", S(BART_B, 16, 512)),
                  t("t-bart-base-s512-b16-fp32", S(BART_B, 16, 512, prec="fp32"))]),
    ))
    return timing + dev


def call161():
    B = maker("late79-", "late79", heldout=True)
    return [
        B("hfvit-l16-b32-bf16", V(VIT_L, 32), 30),
        B("hfvit-b16-b128-fp16-ckpt", V(VIT_B, 128, prec="fp16", ckpt="block"), 20),
        B("hfvit-b16-b64-bf16-lora16", V(VIT_B, 64, lora=16, lora_targets=VIT_LORA), 20),
        B("bart-large-s1024-b4-bf16", S(BART_L, 4, 1024), 40),
        B("bart-base-s256-b32-fp16-ckpt", S(BART_B, 32, 256, prec="fp16", ckpt="block"), 25),
        B("bart-large-s512-b8-bf16-lora16", S(BART_L, 8, 512, lora=16), 30),
    ]


def call162():
    """late79's ViT LoRA row again (BLIND): call161's ran with PEFT's documented targets (query, value), which
    transformers 5's ViT no longer names; the query and value projections are picked by a regular expression."""
    B = maker("late79-", "late79", heldout=True)
    return [B("hfvit-b16-b64-bf16-lora16", V(VIT_B, 64, lora=16,
                                              lora_targets=r".*\.(query|value|q_proj|v_proj)$"), 20)]


HF_RESNET50 = ("ResNetForImageClassification", "ResNetConfig", dict(
    num_channels=3, embedding_size=64, hidden_sizes=[256, 512, 1024, 2048], depths=[3, 4, 6, 3],
    layer_type="bottleneck", hidden_act="relu", downsample_in_first_stage=False, num_labels=1000))


def call163():
    """dev86 (development data, NOT blind; snapshots): late79's bart-base fp16 checkpointed row (-0.45% allocated at
    first sight) again with a snapshot, and transformers' ResNetForImageClassification from microsoft/resnet-50's
    config (the catalog aliases microsoft/resnet-50 to torchvision's resnet50: out-of-place ReLUs) at b64 bf16 and
    b32 float32."""
    D = maker("dev86-", "dev86", heldout=False)
    return [
        D("bart-base-s256-b32-fp16-ckpt", dict(S(BART_B, 32, 256, prec="fp16", ckpt="block"), snap=True), 25),
        D("hfresnet50-b64-bf16", dict(V(HF_RESNET50, 64), snap=True), 20),
        D("hfresnet50-b32-fp32", dict(V(HF_RESNET50, 32, prec="fp32"), snap=True), 20),
    ]
