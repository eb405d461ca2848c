"""Session 11. Call 39, after the session's step-time model was final (steptime20/21/22/23 merged):
issue 14's `plan --fit` check on three more models no pick set had timed — each model's top three `--fit`
candidates on one H200 (`plan --fit --gpu h200 --model olmo-2-1b --seq 1024 --global-batch 32`,
`--model t5-base --seq 512 --global-batch 64`, `--model convnext-small --global-batch 256`), one process
per model alone on the GPU, 7 steps each. Then (dev14, not blind) kernel profiles of Phi-3 (f) bf16 AMP and fp32."""
from gt_jobs import J, T, timer, timing_jobs
from gt_jobs7 import T5B
from gt_jobs9 import tv

p = timer("pick5-", "pick5")
OLMO2_1B = ("Olmo2ForCausalLM", "Olmo2Config", dict(
    hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=16,
    num_key_value_heads=16, vocab_size=100352, rope_theta=500000.0, rms_norm_eps=1e-6,
    max_position_embeddings=4096, tie_word_embeddings=False))


def picks():
    ol = [p("olmo2-1b-s1024-bf16-b16x2", T(*OLMO2_1B, b=16, seq=1024, accum=2)),
          p("olmo2-1b-s1024-fp16-b16x2", T(*OLMO2_1B, b=16, seq=1024, accum=2, prec="fp16")),
          p("olmo2-1b-s1024-bf16-b8x4", T(*OLMO2_1B, b=8, seq=1024, accum=4))]
    t5 = [p("t5-base-s512-bf16-b64x1", T(*T5B, io="s2s", b=64, seq=512)),
          p("t5-base-s512-fp16-b64x1", T(*T5B, io="s2s", b=64, seq=512, prec="fp16")),
          p("t5-base-s512-bf16-b32x2", T(*T5B, io="s2s", b=32, seq=512, accum=2))]
    cn = [p("convnext-small-bf16-b256x1", tv("convnext_small", 256)),
          p("convnext-small-fp16-b256x1", tv("convnext_small", 256, prec="fp16")),
          p("convnext-small-bf16-b128x2", tv("convnext_small", 128, accum=2))]
    return timing_jobs("pick5-", "pick5", (("olmo2-1b", ol), ("t5-base", t5), ("convnext-small", cn)))


def jobs():
    return [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))] + picks()


def profiles():
    """Dev (not blind): kernel profiles of Phi-3 (f), under on every timed set (-10..-30%), whose
    kernels no committed profile lists (dev7's Phi-3 profile kept only its summary)."""
    from gt_jobs9 import P3

    def P(name, spec):
        s = dict(spec, iters=6, profile=True, build_on_gpu=True)
        return J("prof-" + name, "dev14-profile", 60, exclusive=True, timeout=150, spec=s)
    return [P("phi3-f-s1024-b4-bf16", T(*P3, b=4, seq=1024)),
            P("phi3-f-s1024-b4-fp32", T(*P3, b=4, seq=1024, prec="fp32"))]


def call39():
    return jobs() + profiles()
