"""Session 43, call 145: late72 (BLIND; kept outside the repository until evaluated once with the binaries of the
session's last change to what it tests).

What the session added, on shapes no set had:
  - XLM-RoBERTa (config.json model_type xlm-roberta, now planned as RoBERTa; its 250002-token vocabulary makes the
    embedding two thirds of the base model): base s256 b32 bf16 AMP, base s512 b16 fp32 checkpointed, large s256
    b16 bf16 LoRA r16 (memory, one process each); base s256 b32 bf16 AMP and fp32 timed in one process alone on the
    GPU (7 steps);
  - Gemma generate under a StaticCache (the sliding layers' prefill attends the prompt's own keys): Gemma 2 2B with a
    prompt past its 4096-token window, Gemma 3 1B whose decode runs past its 512-token window (the roll path), and
    Gemma 2 2B DynamicCache at a batch and prompt no set had. Memory figures only."""
from gt_jobs import J, T, G, GEN_MODELS, maker, timer, timing_jobs
from gt_jobs23 import GE3_1B
from gt_jobs26 import G2_2B

GEN_MODELS.setdefault("gemma3-1b", GE3_1B)
GEN_MODELS.setdefault("gemma2-2b", G2_2B)

XLMR = ("XLMRobertaForSequenceClassification", "XLMRobertaConfig",
        dict(vocab_size=250002, max_position_embeddings=514, type_vocab_size=1, num_labels=2, pad_token_id=1,
             bos_token_id=0, eos_token_id=2, layer_norm_eps=1e-05))
XLMR_L = (XLMR[0], XLMR[1], dict(XLMR[2], hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                                 intermediate_size=4096))


def call145():
    B = maker("late72-", "late72", heldout=True)
    t = timer("late72-", "late72-timing")

    def g(name, key, cache, grad, points, mem=30):
        return J("late72-" + name, "late72-generate", mem, heldout=True, timeout=300,
                 spec=G(key, "bf16", cache, grad, points))
    mem = [
        B("xlmr-base-s256-b32-bf16", T(*XLMR, io="cls", b=32, seq=256), 30),
        B("xlmr-base-s512-b16-fp32-ckpt", T(*XLMR, io="cls", b=16, seq=512, prec="fp32", ckpt="block"), 30),
        B("xlmr-large-s256-b16-bf16-lora16", T(*XLMR_L, io="cls", b=16, seq=256, lora=16,
                                               lora_targets=["query", "value"]), 30),
    ]
    timing = timing_jobs("late72-", "late72-timing", (
        ("xlmr", [t("t-xlmr-base-s256-b32-bf16", T(*XLMR, io="cls", b=32, seq=256)),
                  t("t-xlmr-base-s256-b32-fp32", T(*XLMR, io="cls", b=32, seq=256, prec="fp32"))]),
    ))
    gen = [
        g("gen-gemma2-2b-bf16-static-nograd", "gemma2-2b", "static", "no_grad", [(2, 4500, 64)]),
        g("gen-gemma3-1b-bf16-static-nograd", "gemma3-1b", "static", "no_grad", [(4, 300, 400)]),
        g("gen-gemma2-2b-bf16-dynamic-inf", "gemma2-2b", "dynamic", "inference", [(6, 800, 300)]),
    ]
    return timing + mem + gen


def call146():
    """call145's LoRA row again, with RoBERTa's query/value targets (the harness's default q_proj/v_proj match no
    module of XLM-RoBERTa, and PEFT refused it, as plan does)."""
    return [j for j in call145() if j["name"] == "late72-xlmr-large-s256-b16-bf16-lora16"]
