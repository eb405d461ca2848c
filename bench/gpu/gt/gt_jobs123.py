"""Session 45, calls 164-165: BLOOM (bigscience/bloom-560m .. bloom-7b1, config.json model_type bloom, refused) and
transformers' ConvNextForImageClassification (facebook/convnext-tiny-224; model_type convnext, refused; the catalog
has torchvision's ConvNeXt).

BLOOM: a pre-norm decoder with ALiBi position biases (no rotary, no position embedding), a LayerNorm after the word
embedding, one fused query_key_value projection with bias, dense with bias, BLOOM's GELU MLP (dense_h_to_4h,
dense_4h_to_h), dropout-add residuals, a final ln_f and the LM head tied to the word embedding; vocabulary 250,880.

call164: dev87 (development data, NOT blind; snapshots, one process each), a generate dev point, and late80-timing
(BLIND timings, one process per family alone on the GPU).
call165: late80 (BLIND memory rows and generate points) - kept outside the repository until the families' models
are final, then evaluated once."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs


def bloom(hidden, layers, heads):
    return ("BloomForCausalLM", "BloomConfig", dict(
        vocab_size=250880, hidden_size=hidden, n_layer=layers, n_head=heads, layer_norm_epsilon=1e-5,
        apply_residual_connection_post_layernorm=False, hidden_dropout=0.0, attention_dropout=0.0,
        bos_token_id=1, eos_token_id=2, pad_token_id=3, tie_word_embeddings=True))


def hfconvnext(depths, hidden):
    return ("ConvNextForImageClassification", "ConvNextConfig", dict(
        num_channels=3, patch_size=4, num_stages=4, hidden_sizes=hidden, depths=depths, hidden_act="gelu",
        layer_scale_init_value=1e-6, drop_path_rate=0.0, image_size=224, num_labels=1000))


BLOOM_560M = bloom(1024, 24, 16)
BLOOM_1B1 = bloom(1536, 24, 16)
BLOOM_1B7 = bloom(2048, 24, 16)
CNX_T = hfconvnext([3, 3, 9, 3], [96, 192, 384, 768])
CNX_B = hfconvnext([3, 3, 27, 3], [128, 256, 512, 1024])
BLOOM_LORA = ["query_key_value"]  # PEFT's default targets for bloom

GEN_MODELS.setdefault("bloom-560m", BLOOM_560M)
GEN_MODELS.setdefault("bloom-1b1", BLOOM_1B1)


def V(model, b, **kw):
    return T(*model, io="hfvision", b=b, **kw)


def call164():
    D = maker("dev87-", "dev87", heldout=False)
    t = timer("late80-", "late80-timing")

    def gen(name, key, cache, points):
        return J("dev87-" + name, "dev87", 15, heldout=False, timeout=180,
                 spec=G(key, "bf16", cache, "inference", points, snap=True))
    dev = [
        D("bloom-560m-s1024-b4-bf16", dict(T(*BLOOM_560M, b=4, seq=1024), snap=True), 30),
        D("bloom-560m-s512-b4-fp32", dict(T(*BLOOM_560M, b=4, seq=512, prec="fp32"), snap=True), 30),
        D("bloom-560m-s1024-b4-bf16-lora16", dict(T(*BLOOM_560M, b=4, seq=1024, lora=16, lora_targets=BLOOM_LORA),
                                                   snap=True), 30),
        D("bloom-560m-s1024-b4-bf16-ckpt", dict(T(*BLOOM_560M, b=4, seq=1024, ckpt="block"), snap=True), 30),
        D("hfconvnext-t-b64-bf16", dict(V(CNX_T, 64), snap=True), 20),
        D("hfconvnext-t-b32-fp32", dict(V(CNX_T, 32, prec="fp32"), snap=True), 20),
        gen("gen-bloom-560m-bf16-dynamic", "bloom-560m", "dynamic", [(4, 256, 64)]),
    ]
    timing = timing_jobs("late80-", "late80-timing", (
        ("bloom", [t("t-bloom-560m-s1024-b4-bf16", T(*BLOOM_560M, b=4, seq=1024)),
                   t("t-bloom-560m-s1024-b4-bf16-ckpt", T(*BLOOM_560M, b=4, seq=1024, ckpt="block"))]),
        ("hfconvnext", [t("t-hfconvnext-t-b64-bf16", V(CNX_T, 64)),
                        t("t-hfconvnext-t-b64-fp32", V(CNX_T, 64, prec="fp32"))]),
    ))
    return timing + dev


def call165():
    B = maker("late80-", "late80", heldout=True)

    def g(name, key, cache, grad, points, mem=30):
        return J("late80-" + name, "late80-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    mem = [
        B("bloom-1b1-s1024-b4-bf16-ckpt", T(*BLOOM_1B1, b=4, seq=1024, ckpt="block"), 40),
        B("bloom-560m-s2048-b2-fp16", T(*BLOOM_560M, b=2, seq=2048, prec="fp16"), 40),
        B("bloom-1b7-s512-b4-bf16-lora16", T(*BLOOM_1B7, b=4, seq=512, lora=16, lora_targets=BLOOM_LORA), 30),
        B("hfconvnext-b-b32-bf16", V(CNX_B, 32), 20),
        B("hfconvnext-t-b128-fp16", V(CNX_T, 128, prec="fp16"), 25),
    ]
    gen = [g("gen-bloom-1b1-bf16-static-nograd", "bloom-1b1", "static", "no_grad", [(4, 512, 128)])]
    return mem + gen
