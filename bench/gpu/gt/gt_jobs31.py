"""Session 14. Call 47, at the session's start, before any model of the session changed: a seventeenth
blind set (late17) kept outside the repository until the session's models are final. Real-size
configurations no set has captured: 7-9B LoRA fine-tunes (Llama 3.1 8B, Qwen3-8B, Mistral 7B, Gemma 2 9B),
Phi-3 mini, SmolLM2-1.7B, OLMo 2 1B, Granite 3 2B, Gemma 2B, T5-3B, Whisper large-v3, the real Qwen1.5-MoE
(60 experts, top 4) under LoRA, a new reduced Mixtral shape, ViT-H/14 fp16, ConvNeXt-B checkpointed,
EfficientNet-B5/B7, ResNet-152 checkpointed, DiT-L/2 fp16, the SD 1.5 UNet at a larger batch; one compiled
step and generate points. Step times of technique pairs (checkpointing, LoRA, AMP vs fp32, accumulation vs a
larger batch) in three processes alone on the GPU (issue 14), peak reserved for issue 18's bands."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs11 import df
from gt_jobs26 import BL

LL8B = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
    num_key_value_heads=8, vocab_size=128256, max_position_embeddings=131072, tie_word_embeddings=False,
    rope_theta=500000.0, rms_norm_eps=1e-5))
Q3_8B = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=4096, intermediate_size=12288, num_hidden_layers=36, num_attention_heads=32,
    num_key_value_heads=8, head_dim=128, vocab_size=151936, tie_word_embeddings=False,
    rope_theta=1000000.0, rms_norm_eps=1e-6, max_position_embeddings=40960))
MI7B = ("MistralForCausalLM", "MistralConfig", dict(
    hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
    num_key_value_heads=8, vocab_size=32768, sliding_window=None, rope_theta=1000000.0,
    max_position_embeddings=32768))
G2_9B = ("Gemma2ForCausalLM", "Gemma2Config", dict(
    hidden_size=3584, intermediate_size=14336, num_hidden_layers=42, num_attention_heads=16,
    num_key_value_heads=8, head_dim=256, vocab_size=256000, sliding_window=4096, query_pre_attn_scalar=256,
    final_logit_softcapping=30.0, attn_logit_softcapping=50.0))
P3M = ("Phi3ForCausalLM", "Phi3Config", dict(
    hidden_size=3072, intermediate_size=8192, num_hidden_layers=32, num_attention_heads=32,
    num_key_value_heads=32, vocab_size=32064, max_position_embeddings=4096))
SM17 = ("LlamaForCausalLM", "LlamaConfig", dict(
    hidden_size=2048, intermediate_size=8192, num_hidden_layers=24, num_attention_heads=32,
    num_key_value_heads=32, vocab_size=49152, tie_word_embeddings=True, rope_theta=130000.0,
    max_position_embeddings=8192, rms_norm_eps=1e-5))
OL1B = ("Olmo2ForCausalLM", "Olmo2Config", dict(
    hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=16,
    num_key_value_heads=16, vocab_size=100352, rope_theta=500000.0, rms_norm_eps=1e-6,
    max_position_embeddings=4096))
GR2B = ("GraniteForCausalLM", "GraniteConfig", dict(
    hidden_size=2048, intermediate_size=8192, num_hidden_layers=40, num_attention_heads=32,
    num_key_value_heads=8, vocab_size=49155, tie_word_embeddings=True, embedding_multiplier=12.0,
    logits_scaling=8.0, residual_multiplier=0.22, attention_multiplier=0.015625, max_position_embeddings=4096))
QMOE = ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
    hidden_size=2048, intermediate_size=5632, moe_intermediate_size=1408, shared_expert_intermediate_size=5632,
    num_experts=60, num_experts_per_tok=4, num_hidden_layers=24, num_attention_heads=16,
    num_key_value_heads=16, vocab_size=151936, max_position_embeddings=8192, tie_word_embeddings=False))
MXG = ("MixtralForCausalLM", "MixtralConfig", dict(
    hidden_size=1536, intermediate_size=3072, num_hidden_layers=8, num_attention_heads=12,
    num_key_value_heads=4, num_local_experts=8, num_experts_per_tok=2, vocab_size=32000))
QMG = ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
    hidden_size=1536, intermediate_size=4096, moe_intermediate_size=1024, shared_expert_intermediate_size=4096,
    num_experts=16, num_experts_per_tok=4, num_hidden_layers=6, num_attention_heads=12,
    num_key_value_heads=4, vocab_size=151936))
GE2B = ("GemmaForCausalLM", "GemmaConfig", dict(
    hidden_size=2048, intermediate_size=16384, num_hidden_layers=18, num_attention_heads=8,
    num_key_value_heads=1, head_dim=256, vocab_size=256000))
QW15 = GEN_MODELS["qwen25-15b"]
T5_3B = ("T5ForConditionalGeneration", "T5Config", dict(d_model=1024, d_ff=16384, num_heads=32, num_layers=24,
                                                       num_decoder_layers=24, d_kv=128))
WHL = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=1280, encoder_layers=32, decoder_layers=32, encoder_attention_heads=20, decoder_attention_heads=20,
    encoder_ffn_dim=5120, decoder_ffn_dim=5120, vocab_size=51866, num_mel_bins=128))
WHS = ("WhisperForConditionalGeneration", "WhisperConfig", dict(
    d_model=768, encoder_layers=12, decoder_layers=12, encoder_attention_heads=12, decoder_attention_heads=12,
    encoder_ffn_dim=3072, decoder_ffn_dim=3072, vocab_size=51865, num_mel_bins=80))
GEN_MODELS.setdefault("llama31-8b", LL8B)
GEN_MODELS.setdefault("qwen3-8b", Q3_8B)
GEN_MODELS.setdefault("phi3-mini", P3M)

B = maker("late17-", "late17", heldout=True)
C = maker("late17-", "late17-compile", heldout=True, timeout=300)


def blind_jobs():
    return [
        B("llama31-8b-s2048-b2-bf16-lora16-ckpt", T(*LL8B, b=2, seq=2048, lora=16, ckpt="block", family="llama"),
          mem=46),
        B("qwen3-8b-s1024-b2-bf16-lora16", T(*Q3_8B, b=2, seq=1024, lora=16, family="qwen3"), mem=67),
        B("mistral-7b-s4096-b1-bf16-lora16-ckpt", T(*MI7B, b=1, seq=4096, lora=16, ckpt="block", family="mistral"),
          mem=37),
        B("gemma2-9b-s1024-b2-bf16-lora16-ckpt", T(*G2_9B, b=2, seq=1024, lora=16, ckpt="block", family="gemma2"),
          mem=52),
        B("phi3-mini-s2048-b2-bf16-lora16", T(*P3M, b=2, seq=2048, lora=16, family="phi3"), mem=45),
        B("qwen25-15b-s2048-b4-bf16", T(*QW15, b=4, seq=2048, family="qwen2"), mem=72),
        B("smollm2-17b-s2048-b4-bf16-ckpt", T(*SM17, b=4, seq=2048, ckpt="block", family="llama"), mem=42),
        B("olmo2-1b-s2048-b4-bf16", T(*OL1B, b=4, seq=2048, family="olmo2"), mem=56),
        B("granite3-2b-s2048-b2-bf16-lora16-ckpt", T(*GR2B, b=2, seq=2048, lora=16, ckpt="block", family="granite"),
          mem=17),
        B("qwen15-moe-s1024-b2-bf16-lora16", T(*QMOE, b=2, seq=1024, lora=16, family="qwen2moe"), mem=77),
        B("mixtral-g-s1024-b4-bf16", T(*MXG, b=4, seq=1024, family="mixtral"), mem=27),
        B("gemma-2b-s1024-b4-bf16-ckpt", T(*GE2B, b=4, seq=1024, ckpt="block", family="gemma"), mem=64),
        B("t5-3b-s512-b4-bf16-ckpt", T(*T5_3B, io="s2s", b=4, seq=512, ckpt="block"), mem=60),
        B("whisper-large-b4-bf16-ckpt", T(*WHL, io="whisper", b=4, seq=64, ckpt="block", family="whisper"),
          mem=35),
        B("vith14-b32-fp16", tv("vit_h_14", 32, prec="fp16"), mem=60),
        B("convnext-base-b128-bf16-ckpt", tv("convnext_base", 128, ckpt="block"), mem=40),
        B("efficientnet-b7-b32-bf16", tv("efficientnet_b7", 32), mem=30),
        B("efficientnet-b5-b64-fp32", tv("efficientnet_b5", 64, prec="fp32"), mem=40),
        B("resnet152-b256-bf16-ckpt", tv("resnet152", 256, ckpt="block"), mem=40),
        B("dit-l-2-b64-fp16", df("dit-l-2", 64, prec="fp16", family="dit"), mem=40),
        B("sd15-unet-b32-bf16-ckpt", df("sd15-unet", 32, ckpt="block", family="unet"), mem=50),
        C("smollm2-17b-s1024-b4-bf16-compile", T(*SM17, b=4, seq=1024, compile=True, iters=4, family="llama"),
          mem=50),
        J("late17-gen-llama31-8b-bf16-static-nograd", "late17-generate", 40, heldout=True, timeout=240,
          spec=G("llama31-8b", "bf16", "static", "no_grad", [(8, 2048, 128)])),
        J("late17-gen-qwen3-8b-bf16-dynamic-inf", "late17-generate", 50, heldout=True, timeout=240,
          spec=G("qwen3-8b", "bf16", "dynamic", "inference", [(32, 1024, 128), (4, 6000, 64)])),
        J("late17-gen-phi3-mini-fp16-dynamic-nograd", "late17-generate", 40, heldout=True, timeout=240,
          spec=G("phi3-mini", "fp16", "dynamic", "no_grad", [(16, 1500, 200)])),
    ]


t = timer("late17-", "late17-timing")


def timing_groups():
    lm = [
        t("t-qwen25-15b-s1024-b8-bf16", T(*QW15, b=8, seq=1024)),
        t("t-qwen25-15b-s1024-b8-bf16-ckpt", T(*QW15, b=8, seq=1024, ckpt="block")),
        t("t-qwen25-15b-s1024-b8-bf16-lora16", T(*QW15, b=8, seq=1024, lora=16)),
        t("t-qwen25-15b-s1024-b8-fp32", T(*QW15, b=8, seq=1024, prec="fp32")),
        t("t-phi3-mini-s1024-b4-bf16-lora16", T(*P3M, b=4, seq=1024, lora=16)),
        t("t-phi3-mini-s1024-b4-bf16-lora16-ckpt", T(*P3M, b=4, seq=1024, lora=16, ckpt="block")),
        t("t-olmo2-1b-s2048-b4-bf16", T(*OL1B, b=4, seq=2048)),
        t("t-olmo2-1b-s2048-b2x2-bf16", T(*OL1B, b=2, seq=2048, accum=2)),
        t("t-llama31-8b-s1024-b2-bf16-lora16", T(*LL8B, b=2, seq=1024, lora=16)),
        t("t-llama31-8b-s1024-b2-bf16-lora16-ckpt", T(*LL8B, b=2, seq=1024, lora=16, ckpt="block")),
    ]
    enc = [
        t("t-resnet152-b128-bf16", tv("resnet152", 128)),
        t("t-resnet152-b128-bf16-ckpt", tv("resnet152", 128, ckpt="block")),
        t("t-vitb16-b256-bf16", tv("vit_b_16", 256)),
        t("t-vitb16-b256-fp32", tv("vit_b_16", 256, prec="fp32")),
        t("t-convnext-small-b128-bf16", tv("convnext_small", 128)),
        t("t-convnext-small-b64x2-bf16", tv("convnext_small", 64, accum=2)),
        t("t-efficientnet-b2-b128-bf16", tv("efficientnet_b2", 128)),
        t("t-efficientnet-b2-b128-bf16-ckpt", tv("efficientnet_b2", 128, ckpt="block")),
        t("t-bert-large-s512-b16-bf16", T(*BL, io="cls", b=16, seq=512)),
        t("t-bert-large-s512-b16-bf16-ckpt", T(*BL, io="cls", b=16, seq=512, ckpt="block")),
        t("t-whisper-small-b32-bf16", T(*WHS, io="whisper", b=32, seq=64)),
        t("t-whisper-small-b32-fp32", T(*WHS, io="whisper", b=32, seq=64, prec="fp32")),
    ]
    dif = [
        t("t-dit-l-2-b64-bf16", df("dit-l-2", 64)),
        t("t-dit-l-2-b64-fp32", df("dit-l-2", 64, prec="fp32")),
        t("t-sd15-unet-b8-bf16", df("sd15-unet", 8)),
        t("t-sd15-unet-b8-bf16-lora16", df("sd15-unet", 8, lora=16)),
        t("t-mixtral-g-s1024-b4-bf16", T(*MXG, b=4, seq=1024)),
        t("t-mixtral-g-s1024-b4-bf16-lora16", T(*MXG, b=4, seq=1024, lora=16)),
        t("t-qwen2moe-g-s1024-b4-bf16", T(*QMG, b=4, seq=1024)),
        t("t-qwen2moe-g-s1024-b4-bf16-lora16", T(*QMG, b=4, seq=1024, lora=16)),
        t("t-qwen15-moe-s1024-b2-bf16-lora16", T(*QMOE, b=2, seq=1024, lora=16)),
        t("t-qwen15-moe-s1024-b2-bf16-lora16-ckpt", T(*QMOE, b=2, seq=1024, lora=16, ckpt="block")),
    ]
    return timing_jobs("late17-", "late17-timing", (("lm", lm), ("enc-vision", enc), ("diffusion-moe", dif)))


def jobs():
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_groups() + blind_jobs()
