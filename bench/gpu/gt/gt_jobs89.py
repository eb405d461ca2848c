"""Session 27, call 112. dev59 (development data, NOT blind): every-op profiles (gt_work profile="allops": per ATen
op and autograd node with input shapes, the device time of the kernels each launched) of two decoders whose
pointwise class the walk prices 15-25% over and copy class short (testdata/profile's Llama-small s1024 b8 bf16:
pointwise 43.2 ms priced against 37.3, copies 15.9 against 19.0; dev50's Qwen2.5-0.5B s1024 b8 bf16), to find which
ops the walk counts that do not run (dev58: a same-shape add's backward launches no kernel) and which it misses,
before repricing either."""
from gt_jobs import J, T, LLAMA_SMALL, profiler
from gt_jobs7 import QW05

P = profiler("dev59-prof-", "dev59-profile", kind="allops")
LS = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)


def call112():
    return [J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe")),
            P("llama-small-s1024-b8-bf16", T(*LS, b=8, seq=1024)),
            P("qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024))]
