"""Session 14. Call 49, after the session's step-time change (MoE experts priced as torch 2.11 runs them):
late18, a blind MoE timing set on shapes no set had timed (Qwen3-MoE, a 4-layer Mixtral at s2048 with its
checkpointing pair, a 60-expert Qwen2-MoE at small width, Mixtral (f) at b8 through both _grouped_mm paths, the real
Qwen1.5-MoE at s2048), kept outside the repository until evaluated; and pick7, `plan --fit`'s top three on three
models no pick had timed (issue 14's third criterion), ranked by this session's models."""
from gt_jobs import T, timer, timing_jobs
from gt_jobs9 import MX, tv
from gt_jobs31 import QMOE

QW3M = ("Qwen3MoeForCausalLM", "Qwen3MoeConfig", dict(
    hidden_size=1024, intermediate_size=3072, moe_intermediate_size=512, num_experts=32, num_experts_per_tok=4,
    num_hidden_layers=8, num_attention_heads=16, num_key_value_heads=4, head_dim=64, vocab_size=151936,
    norm_topk_prob=True))
MXH = ("MixtralForCausalLM", "MixtralConfig", dict(
    hidden_size=2048, intermediate_size=4096, num_hidden_layers=4, num_attention_heads=16,
    num_key_value_heads=8, num_local_experts=8, num_experts_per_tok=2, vocab_size=32000))
QMH = ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
    hidden_size=1024, intermediate_size=2816, moe_intermediate_size=512, shared_expert_intermediate_size=2048,
    num_experts=60, num_experts_per_tok=4, num_hidden_layers=6, num_attention_heads=16,
    num_key_value_heads=16, vocab_size=151936))
Q3_17B = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=2048, intermediate_size=6144, num_hidden_layers=28, num_attention_heads=16,
    num_key_value_heads=8, head_dim=128, vocab_size=151936, tie_word_embeddings=True,
    rope_theta=1000000.0, rms_norm_eps=1e-6, max_position_embeddings=40960))

t = timer("late18-", "late18-timing")


def moe():
    return [
        t("t-qwen3moe-h-s1024-b4-bf16", T(*QW3M, b=4, seq=1024)),
        t("t-qwen3moe-h-s1024-b4-bf16-lora16", T(*QW3M, b=4, seq=1024, lora=16)),
        t("t-mixtral-h-s2048-b2-bf16", T(*MXH, b=2, seq=2048)),
        t("t-mixtral-h-s2048-b2-bf16-ckpt", T(*MXH, b=2, seq=2048, ckpt="block")),
        t("t-qwen2moe-h-s512-b4-bf16", T(*QMH, b=4, seq=512)),
        t("t-qwen2moe-h-s512-b4-bf16-lora16", T(*QMH, b=4, seq=512, lora=16)),
        t("t-mixtral-f-s1024-b8-bf16", T(*MX, b=8, seq=1024)),
        t("t-mixtral-f-s1024-b8-bf16w", T(*MX, b=8, seq=1024, prec="bf16w")),
        t("t-qwen15-moe-s2048-b1-bf16-lora16", T(*QMOE, b=1, seq=2048, lora=16)),
    ]


p = timer("pick7-", "pick7")


def picks():
    """`vramkit plan --fit --gpu h200` at commit c003192 (session 14's MoE pricing), top three each:
    --model qwen1.5-moe-a2.7b --lora-rank 16 --seq 1024 --global-batch 16: bf16 b8x2 2.101 s, fp16 b8x2 2.103 s,
      bf16 selective b8x2 2.134 s;
    --model qwen3-1.7b --seq 2048 --global-batch 16: bf16 b8x2 1.171 s, fp16 b8x2 1.178 s, bf16 b4x4 1.237 s;
    --model convnext-base --global-batch 256: bf16 b256 0.179 s, fp16 b256 0.181 s, bf16 b128x2 0.185 s."""
    qm = [p("qwen15-moe-lora16-s1024-bf16-b8x2", T(*QMOE, b=8, seq=1024, accum=2, lora=16)),
          p("qwen15-moe-lora16-s1024-fp16-b8x2", T(*QMOE, b=8, seq=1024, accum=2, lora=16, prec="fp16")),
          p("qwen15-moe-lora16-s1024-bf16-sel-b8x2", T(*QMOE, b=8, seq=1024, accum=2, lora=16, ckpt="selective"))]
    q3 = [p("qwen3-17b-s2048-bf16-b8x2", T(*Q3_17B, b=8, seq=2048, accum=2)),
          p("qwen3-17b-s2048-fp16-b8x2", T(*Q3_17B, b=8, seq=2048, accum=2, prec="fp16")),
          p("qwen3-17b-s2048-bf16-b4x4", T(*Q3_17B, b=4, seq=2048, accum=4))]
    cb = [p("convnext-base-bf16-b256x1", tv("convnext_base", 256)),
          p("convnext-base-fp16-b256x1", tv("convnext_base", 256, prec="fp16")),
          p("convnext-base-bf16-b128x2", tv("convnext_base", 128, accum=2))]
    return timing_jobs("pick7-", "pick7", (("qwen15-moe", qm), ("qwen3-17b", q3), ("convnext-base", cb)))


def call49():
    from gt_jobs import J
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late18-", "late18-timing", (("moe", moe()),)) + picks()


QW3M128 = ("Qwen3MoeForCausalLM", "Qwen3MoeConfig", dict(
    hidden_size=512, intermediate_size=1536, moe_intermediate_size=256, num_experts=128, num_experts_per_tok=8,
    num_hidden_layers=4, num_attention_heads=8, num_key_value_heads=4, head_dim=64, vocab_size=32000,
    norm_topk_prob=True))


def call50():
    """dev22 (NOT blind): where late18's 60-expert Qwen2-MoE (h) step goes short (-20%): its kernel profile, and a
    128-expert top-8 Qwen3-MoE at small width (Qwen3-30B-A3B's routing) profiled, each alone on the GPU."""
    from gt_jobs import J

    def P(name, spec):
        s = dict(spec, iters=4, profile=True, build_on_gpu=True)
        return J("dev22-prof-" + name, "dev22-profile", 40, exclusive=True, timeout=100, heldout=False, spec=s)
    return [P("qwen2moe-h-s512-b4-bf16", T(*QMH, b=4, seq=512, family="qwen2moe")),
            P("qwen3moe-e128-s512-b4-bf16", T(*QW3M128, b=4, seq=512, family="qwen3moe"))]
