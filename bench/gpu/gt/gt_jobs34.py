"""Session 15. Call 51, at the session's start, before any model of the session changed: a nineteenth blind
set (late19) kept outside the repository until evaluated with the session-start binaries. Above all the
configuration `plan --fit` began to choose in session 14 and no set had timed at scale: LoRA on a base loaded
in bfloat16 ("bf16w": no autocast, frozen weights bf16, adapters float32), against bf16 AMP on the same model
(Llama 3.2 3B, Qwen3-4B, Gemma 2 2B, a new Qwen3-MoE shape); and new shapes elsewhere: SmolLM2-360M,
ResNet-34, ViT-L/16 checkpointed, EfficientNet-B4/B6, ConvNeXt-L, Whisper medium, DiT-B/2, the SD 1.5 UNet
checkpointed, T5-large at s1024, a new Mixtral shape, a compiled Llama 3.2 1B, and generate points of
Phi-3 mini, Llama 3.2 3B and Qwen3-4B. Timed rows build on the GPU (bf16w ones directly in bfloat16)."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs
from gt_jobs7 import LL1B
from gt_jobs9 import T5L, tv
from gt_jobs11 import df
from gt_jobs31 import P3M
from gt_jobs29 import LL3B, Q3_4B, WHM

QW3B = ("Qwen2ForCausalLM", "Qwen2Config", dict(
    hidden_size=2048, intermediate_size=11008, num_hidden_layers=36, num_attention_heads=16,
    num_key_value_heads=2, vocab_size=151936, max_position_embeddings=32768, tie_word_embeddings=True,
    rope_theta=1000000.0, rms_norm_eps=1e-6))
G2_2B = ("Gemma2ForCausalLM", "Gemma2Config", dict(
    hidden_size=2304, intermediate_size=9216, num_hidden_layers=26, num_attention_heads=8,
    num_key_value_heads=4, head_dim=256, vocab_size=256000, sliding_window=4096, query_pre_attn_scalar=256,
    final_logit_softcapping=30.0, attn_logit_softcapping=50.0))
SM360 = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=960, intermediate_size=2560, num_hidden_layers=32, num_attention_heads=15,
    num_key_value_heads=5, vocab_size=49152, tie_word_embeddings=True, rope_theta=100000.0,
    max_position_embeddings=8192, rms_norm_eps=1e-5))
QW3MI = ("Qwen3MoeForCausalLM", "Qwen3MoeConfig", dict(
    hidden_size=1280, intermediate_size=3840, moe_intermediate_size=640, num_experts=32, num_experts_per_tok=4,
    num_hidden_layers=12, num_attention_heads=16, num_key_value_heads=4, head_dim=80, vocab_size=151936,
    norm_topk_prob=True))
MXI = ("MixtralForCausalLM", "MixtralConfig", dict(
    hidden_size=1280, intermediate_size=3584, num_hidden_layers=10, num_attention_heads=10,
    num_key_value_heads=2, num_local_experts=6, num_experts_per_tok=2, vocab_size=32000))
GEN_MODELS.setdefault("phi3-mini", P3M)
GEN_MODELS.setdefault("llama32-3b", LL3B)
GEN_MODELS.setdefault("qwen3-4b", Q3_4B)

W = dict(prec="bf16w", build_bf16=True)  # a bf16-loaded base (timed rows build on the GPU)

t = timer("late19-", "late19-timing")


def timing_groups():
    lm = [
        t("t-llama32-3b-s1024-b4-bf16-lora16", T(*LL3B, b=4, seq=1024, lora=16)),
        t("t-llama32-3b-s1024-b4-bf16w-lora16", T(*LL3B, b=4, seq=1024, lora=16, **W)),
        t("t-qwen3-4b-s2048-b2-bf16-lora16", T(*Q3_4B, b=2, seq=2048, lora=16)),
        t("t-qwen3-4b-s2048-b2-bf16w-lora16", T(*Q3_4B, b=2, seq=2048, lora=16, **W)),
        t("t-gemma2-2b-s1024-b4-bf16w-lora16", T(*G2_2B, b=4, seq=1024, lora=16, **W)),
        t("t-gemma2-2b-s1024-b4-bf16w-lora16-ckpt", T(*G2_2B, b=4, seq=1024, lora=16, ckpt="block", **W)),
        t("t-smollm2-360m-s1024-b16-bf16", T(*SM360, b=16, seq=1024)),
        t("t-smollm2-360m-s1024-b8x2-bf16", T(*SM360, b=8, seq=1024, accum=2)),
    ]
    enc = [
        t("t-resnet34-b256-bf16", tv("resnet34", 256)),
        t("t-resnet34-b256-fp32", tv("resnet34", 256, prec="fp32")),
        t("t-vitl16-b96-bf16", tv("vit_l_16", 96)),
        t("t-vitl16-b96-bf16-ckpt", tv("vit_l_16", 96, ckpt="block")),
        t("t-convnext-large-b64-bf16", tv("convnext_large", 64)),
        t("t-convnext-large-b32x2-bf16", tv("convnext_large", 32, accum=2)),
        t("t-whisper-medium-b16-bf16", T(*WHM, io="whisper", b=16, seq=64)),
        t("t-whisper-medium-b16-bf16-ckpt", T(*WHM, io="whisper", b=16, seq=64, ckpt="block")),
    ]
    dif = [
        t("t-dit-b-2-b128-bf16", df("dit-b-2", 128)),
        t("t-dit-b-2-b128-fp32", df("dit-b-2", 128, prec="fp32")),
        t("t-efficientnet-b4-b64-bf16", tv("efficientnet_b4", 64, res=380)),
        t("t-efficientnet-b4-b64-bf16-ckpt", tv("efficientnet_b4", 64, res=380, ckpt="block")),
        t("t-qwen3moe-i-s1024-b4-bf16-lora16", T(*QW3MI, b=4, seq=1024, lora=16)),
        t("t-qwen3moe-i-s1024-b4-bf16w-lora16", T(*QW3MI, b=4, seq=1024, lora=16, **W)),
        t("t-mixtral-i-s1024-b4-bf16", T(*MXI, b=4, seq=1024)),
        t("t-mixtral-i-s1024-b4-bf16-lora16", T(*MXI, b=4, seq=1024, lora=16)),
    ]
    return timing_jobs("late19-", "late19-timing", (("lm", lm), ("enc-vision", enc), ("diffusion-moe", dif)))


B = maker("late19-", "late19", heldout=True)
C = maker("late19-", "late19-compile", heldout=True, timeout=300)


def blind_jobs():
    bw = dict(prec="bf16w")
    return [
        J("late19-gen-phi3-mini-bf16-static-inf", "late19-generate", 40, heldout=True, timeout=240,
          spec=G("phi3-mini", "bf16", "static", "inference", [(8, 1024, 256), (32, 512, 128)])),
        J("late19-gen-llama32-3b-bf16-dynamic-nograd", "late19-generate", 40, heldout=True, timeout=240,
          spec=G("llama32-3b", "bf16", "dynamic", "no_grad", [(16, 2048, 128), (2, 8000, 64)])),
        J("late19-gen-qwen3-4b-fp16-static-inf", "late19-generate", 40, heldout=True, timeout=240,
          spec=G("qwen3-4b", "fp16", "static", "inference", [(24, 1024, 256)])),
        B("llama32-3b-s4096-b2-bf16w-lora16-ckpt", T(*LL3B, b=2, seq=4096, lora=16, ckpt="block", family="llama",
                                                     **bw), mem=30),
        B("qwen25-3b-s2048-b4-bf16-ckpt", T(*QW3B, b=4, seq=2048, ckpt="block", family="qwen2"), mem=70),
        B("gemma2-2b-s2048-b4-bf16w-lora16", T(*G2_2B, b=4, seq=2048, lora=16, family="gemma2", **bw), mem=60),
        B("phi3-mini-s1024-b4-bf16w-lora16-ckpt", T(*P3M, b=4, seq=1024, lora=16, ckpt="block", family="phi3",
                                                    **bw), mem=20),
        B("qwen3-4b-s1024-b4-bf16w-lora16", T(*Q3_4B, b=4, seq=1024, lora=16, family="qwen3", **bw), mem=40),
        B("smollm2-360m-s2048-b16-bf16", T(*SM360, b=16, seq=2048, family="llama"), mem=60),
        B("qwen3moe-i-s1024-b4-bf16w-lora16", T(*QW3MI, b=4, seq=1024, lora=16, family="qwen3moe", **bw), mem=30),
        B("mixtral-i-s1024-b2-bf16-lora16", T(*MXI, b=2, seq=1024, lora=16, family="mixtral"), mem=30),
        B("whisper-medium-b8-bf16", T(*WHM, io="whisper", b=8, seq=64, family="whisper"), mem=30),
        B("t5-large-s1024-b4-bf16-ckpt", T(*T5L, io="s2s", b=4, seq=1024, ckpt="block"), mem=30),
        B("vitl16-b128-fp16-ckpt", tv("vit_l_16", 128, prec="fp16", ckpt="block"), mem=30),
        B("convnext-large-b64-bf16", tv("convnext_large", 64), mem=40),
        B("efficientnet-b6-b16-bf16", tv("efficientnet_b6", 16, res=528), mem=40),
        B("resnet34-b512-fp16", tv("resnet34", 512, prec="fp16"), mem=40),
        B("dit-b-2-b256-bf16", df("dit-b-2", 256, family="dit"), mem=40),
        B("sd15-unet-b16-bf16w-lora16-ckpt", df("sd15-unet", 16, lora=16, ckpt="block", family="unet", **bw),
          mem=30),
        C("llama32-1b-s1024-b4-bf16-compile", T(*LL1B, b=4, seq=1024, compile=True, iters=4, family="llama"),
          mem=40),
    ]


def call51():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()
