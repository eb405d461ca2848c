"""Session 10. Call 36, after the session's step-time model was final (steptime16a/16b/17/18 merged,
36318a2): issue 14's `plan --fit` check on three more models no set had timed — each model's top three
`--fit` candidates on one H200 (`plan --fit --gpu h200 --model efficientnet-b3 --global-batch 256` at its
native 300 px, `--model qwen3-0.6b --seq 1024 --global-batch 32`, `--model resnet152 --global-batch 256`),
one process per model alone on the GPU, 7 steps each."""
from gt_jobs import T, timer, timing_jobs
from gt_jobs9 import tv

p = timer("pick4-", "pick4")
Q3_06B = ("Qwen3ForCausalLM", "Qwen3Config", dict(
    hidden_size=1024, intermediate_size=3072, num_hidden_layers=28, num_attention_heads=16,
    num_key_value_heads=8, head_dim=128, vocab_size=151936, tie_word_embeddings=True,
    max_position_embeddings=40960, rope_theta=1000000.0, rms_norm_eps=1e-6))


def picks():
    ef = [p("efficientnet-b3-fp16-b256x1", tv("efficientnet_b3", 256, prec="fp16", res=300)),
          p("efficientnet-b3-fp16-b128x2", tv("efficientnet_b3", 128, prec="fp16", accum=2, res=300)),
          p("efficientnet-b3-fp16-b64x4", tv("efficientnet_b3", 64, prec="fp16", accum=4, res=300))]
    qw = [p("qwen3-06b-s1024-bf16-b16x2", T(*Q3_06B, b=16, seq=1024, accum=2)),
          p("qwen3-06b-s1024-fp16-b16x2", T(*Q3_06B, b=16, seq=1024, accum=2, prec="fp16")),
          p("qwen3-06b-s1024-bf16-b8x4", T(*Q3_06B, b=8, seq=1024, accum=4))]
    rn = [p("resnet152-fp16-b256x1", tv("resnet152", 256, prec="fp16")),
          p("resnet152-fp16-b128x2", tv("resnet152", 128, prec="fp16", accum=2)),
          p("resnet152-bf16-b256x1", tv("resnet152", 256))]
    return timing_jobs("pick4-", "pick4", (("efficientnet-b3", ef), ("qwen3-06b", qw), ("resnet152", rn)))


def jobs():
    return picks()
