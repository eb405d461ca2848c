"""Session 52, call 192: dev105, DEVELOPMENT only.
- beam_profile.py: why GPT-2 medium's beam-search decode steps take ~2x its greedy ones (dev101), against TinyLlama;
- GPT-2 medium b128 p32 n256 with GenerationConfig's default sampling (dev103's trace: 58.4 GiB reserved for
  4.21 GiB allocated, the legacy cache's torch.cat growth) run under PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True:
  analyze now replays the trace under that setting and advises it (4.85 GiB reserved replayed), and this measures it."""
from gt_jobs import J, G, script


def call192():
    spec = G("gpt2-medium", "bf16", "dynamic", "inference", [(128, 32, 256)], do_sample=True)
    exp = J("dev105-gen-sample-default-gpt2-medium-long-expandable", "dev105", 30, timeout=300,
            spec=spec, env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"})
    probe = script("dev105-beam-profile", "dev105-probe", 20, "beam_profile.py", {}, timeout=400, exclusive=True)
    return [exp, probe]


def call193():
    """dev106: the GPU's busy time per greedy decode step beside the host's (scripts/decode_profile.py)."""
    return [script("dev106-decode-profile", "dev106-probe", 30, "decode_profile.py", {}, timeout=420, exclusive=True)]


def call194():
    """call193 on two of its models, for what device time is left."""
    return [script("dev106-decode-profile", "dev106-probe", 30, "decode_profile.py", {"DP_MODELS": "gpt2-medium,llama32-1b"},
                   timeout=240, exclusive=True)]
