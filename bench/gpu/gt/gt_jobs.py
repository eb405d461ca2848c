"""The job lists of the two device calls (see gt_runner.py for a job's fields).

Every job carries heldout=True/False: the hold-out split was fixed here, before any
result existed (whole workloads: other shapes or models of each group).
call1: memory captures and snapshots (up to 8 processes on the GPU at once).
call2: timings (one process at a time, no history): calibration, step times, generate speed.
"""

LLAMA_SMALL = dict(hidden_size=1024, intermediate_size=2816, num_hidden_layers=24, num_attention_heads=16,
                   num_key_value_heads=16, vocab_size=32000, max_position_embeddings=2048)
GPT2 = dict()
GPT2_MEDIUM = dict(n_embd=1024, n_layer=24, n_head=16)


def J(name, group, mem, heldout=False, exclusive=False, timeout=240, **kw):
    j = dict(name=name, group=group, mem_gb=mem, exclusive=exclusive, timeout=timeout)
    j.update(kw)
    if "spec" in j:
        j["spec"] = dict(j["spec"], heldout=heldout)
    j.setdefault("env", {})["GT_HELDOUT"] = "1" if heldout else "0"
    j["heldout"] = heldout
    return j


def T(model, config, cfg, io="lm", **kw):
    s = dict(kind="train", model=model, config=config, cfg=cfg, io=io, prec="bf16", iters=3,
             opt="adamw", ckpt="none")
    s.update(kw)
    return s


def maker(prefix, group, heldout, timeout=240):
    """J for one call's jobs: names prefixed, one group, blind (heldout) or dev."""
    def make(name, spec, mem=30):
        return J(prefix + name, group, mem, heldout=heldout, timeout=timeout, spec=spec)
    return make


def timer(prefix, group, iters=7, heldout=True):
    """One timed workload of a multi group: 7 steps (iters), blind (heldout)."""
    def t(name, spec):
        return dict(spec, iters=iters, name=prefix + name, group=group, heldout=heldout)
    return t


def profiler(prefix, group, kind="ops"):
    """One op-level profile job a workload (gt_work profile="ops": 4 timed steps, then 2 under torch.profiler with
    shapes; "allops": every op and autograd node), alone on the GPU, development data."""
    def p(name, spec, timeout=150):
        return J(prefix + name, group, 40, exclusive=True, timeout=timeout, heldout=False,
                 spec=dict(spec, iters=4, profile=kind))
    return p


def compiled_pair(t, name, spec):
    """A timed workload (t: a timer) and then the same one under torch.compile, in one process."""
    return [t("t-" + name, spec), t("t-" + name + "-compile", dict(spec, compile=True))]


def sharded_maker(prefix, group, heldout=True, snap=False):
    """J for one call's world-size-1 parallel jobs: SH(name, strategy, (model, config, cfg), **S kwargs)."""
    def make(name, strategy, model, **kw):
        m, c, cfg = model
        return J(prefix + name, group, 40, heldout=heldout, timeout=240,
                 spec=S(strategy, model=m, config=c, cfg=cfg, snap=snap, **kw))
    return make


def timing_jobs(prefix, group, groups):
    """One exclusive process per (key, specs) group, alone on the GPU."""
    return [J(prefix + "timing-" + k, group, 60, heldout=True, exclusive=True, timeout=280,
              spec=dict(kind="multi", specs=s)) for k, s in groups]


def dev_timing_jobs(prefix, group, groups):
    """timing_jobs for dev data (NOT held out): the same processes, every row marked as the session's own."""
    jobs = timing_jobs(prefix, group, groups)
    for job in jobs:
        job["heldout"] = False
        job["env"]["GT_HELDOUT"] = "0"
        job["spec"]["heldout"] = False
        for sp in job["spec"]["specs"]:
            sp["heldout"] = False
    return jobs


def script(name, group, mem, file, env, heldout=False, exclusive=False, timeout=180, vramkit=False):
    env = dict(env)
    argv = ["python3", "@HERE/scripts/" + file]
    if vramkit:
        argv = ["@HERE/vramkit", "run", "--format", "json", "--out", "@OUT/vk-" + name, "--"] + argv
        env["GT_SNAP"] = "0"
    return J(name, group, mem, heldout=heldout, exclusive=exclusive, timeout=timeout, cmd=argv, env=env)


# ------------------------------------------------------------------ generate shapes
GEN_MODELS = {
    "tinyllama": ("LlamaForCausalLM", "LlamaConfig", dict(
        hidden_size=2048, intermediate_size=5632, num_hidden_layers=22, num_attention_heads=32,
        num_key_value_heads=4, vocab_size=32000, max_position_embeddings=8192, tie_word_embeddings=False,
        rms_norm_eps=1e-5)),
    "llama32-1b": ("LlamaForCausalLM", "LlamaConfig", dict(
        hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
        num_key_value_heads=8, head_dim=64, vocab_size=128256, max_position_embeddings=131072,
        tie_word_embeddings=True, rope_theta=500000.0, rms_norm_eps=1e-5)),
    "qwen25-05b": ("Qwen2ForCausalLM", "Qwen2Config", dict(
        hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
        num_key_value_heads=2, vocab_size=151936, max_position_embeddings=32768, tie_word_embeddings=True,
        rope_theta=1000000.0, rms_norm_eps=1e-6)),
    "gpt2-medium": ("GPT2LMHeadModel", "GPT2Config", dict(n_embd=1024, n_layer=24, n_head=16, n_positions=1024)),
    "qwen25-15b": ("Qwen2ForCausalLM", "Qwen2Config", dict(
        hidden_size=1536, intermediate_size=8960, num_hidden_layers=28, num_attention_heads=12,
        num_key_value_heads=2, vocab_size=151936, max_position_embeddings=32768, tie_word_embeddings=True,
        rope_theta=1000000.0, rms_norm_eps=1e-6)),
    "mistral-7b": ("MistralForCausalLM", "MistralConfig", dict(
        hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, vocab_size=32768, max_position_embeddings=32768, sliding_window=None,
        rope_theta=1000000.0, tie_word_embeddings=False)),
}
P_ALL = [(1, 512, 128), (8, 1024, 256), (4, 4096, 64), (32, 2048, 128), (64, 512, 512)]
P3 = [(1, 512, 128), (8, 1024, 256), (4, 4096, 64)]
P_GPT2 = [(1, 512, 128), (8, 512, 256), (32, 768, 128), (4, 960, 64), (64, 256, 512)]
P_GPT2_3 = [(1, 512, 128), (8, 512, 256), (4, 960, 64)]


def G(key, dtype, cache, grad_mode, points, **kw):
    model, config, cfg = GEN_MODELS[key]
    s = dict(kind="gen", model=model, config=config, cfg=cfg, dtype=dtype, cache=cache, grad_mode=grad_mode,
             points=points, gen_model=key)
    s.update(kw)
    return s


def gen_jobs():
    out = []
    held = {"qwen25-15b", "mistral-7b"}
    for key in ("tinyllama", "llama32-1b", "qwen25-05b", "gpt2-medium", "qwen25-15b", "mistral-7b"):
        gpt = key.startswith("gpt2")
        pa, p3 = (P_GPT2, P_GPT2_3) if gpt else (P_ALL, P3)
        big = key == "mistral-7b"
        m = 50 if big else 30
        h = key in held
        out.append(J(f"gen-{key}-bf16-dynamic-inf", "generate", m, heldout=h, timeout=300,
                     spec=G(key, "bf16", "dynamic", "inference", pa)))
        out.append(J(f"gen-{key}-bf16-static-inf", "generate", m, heldout=h, timeout=240,
                     spec=G(key, "bf16", "static", "inference", p3)))
        if not big:
            out.append(J(f"gen-{key}-fp32-dynamic-inf", "generate", m, heldout=h, timeout=240,
                         spec=G(key, "fp32", "dynamic", "inference", p3)))
            out.append(J(f"gen-{key}-bf16-dynamic-nograd", "generate", m, heldout=h or key == "tinyllama",
                         timeout=240, spec=G(key, "bf16", "dynamic", "no_grad", p3)))
    # traces with snapshots
    out.append(J("gentrace-tinyllama-bf16-dynamic", "generate", 10, timeout=180,
                 spec=G("tinyllama", "bf16", "dynamic", "inference", [(4, 256, 64)], snap=True)))
    out.append(J("gentrace-tinyllama-bf16-static", "generate", 10, timeout=180,
                 spec=G("tinyllama", "bf16", "static", "inference", [(4, 256, 64)], snap=True)))
    out.append(J("gentrace-qwen25-05b-bf16-dynamic", "generate", 10, heldout=True, timeout=180,
                 spec=G("qwen25-05b", "bf16", "dynamic", "inference", [(8, 512, 48)], snap=True)))
    return out


# ------------------------------------------------------------------ families
FAM = {
    "mixtral-a": ("MixtralForCausalLM", "MixtralConfig", dict(
        hidden_size=1024, intermediate_size=2048, num_hidden_layers=8, num_attention_heads=16,
        num_key_value_heads=4, num_local_experts=8, num_experts_per_tok=2, vocab_size=32000), 8, 512),
    "mixtral-b": ("MixtralForCausalLM", "MixtralConfig", dict(
        hidden_size=768, intermediate_size=1536, num_hidden_layers=12, num_attention_heads=12,
        num_key_value_heads=4, num_local_experts=8, num_experts_per_tok=2, vocab_size=32000), 4, 1024),
    "qwen2moe-a": ("Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
        hidden_size=1024, intermediate_size=2816, moe_intermediate_size=704, shared_expert_intermediate_size=2816,
        num_experts=16, num_experts_per_tok=4, num_hidden_layers=8, num_attention_heads=16,
        num_key_value_heads=4, vocab_size=151936), 4, 1024),
    "qwen3moe-b": ("Qwen3MoeForCausalLM", "Qwen3MoeConfig", dict(
        hidden_size=1024, intermediate_size=3072, moe_intermediate_size=768, num_experts=32,
        num_experts_per_tok=4, num_hidden_layers=8, num_attention_heads=16, num_key_value_heads=4,
        head_dim=64, vocab_size=151936), 8, 512),
    "gemma-a": ("GemmaForCausalLM", "GemmaConfig", dict(
        hidden_size=1024, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=8,
        num_key_value_heads=1, head_dim=128, vocab_size=256000), 4, 1024),
    "gemma-b": ("GemmaForCausalLM", "GemmaConfig", dict(
        hidden_size=768, intermediate_size=3072, num_hidden_layers=12, num_attention_heads=4,
        num_key_value_heads=1, head_dim=192, vocab_size=256000), 8, 512),
    "gemma2-a": ("Gemma2ForCausalLM", "Gemma2Config", dict(
        hidden_size=1024, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=8,
        num_key_value_heads=4, head_dim=128, vocab_size=256000, sliding_window=512), 4, 1024),
    "gemma2-b": ("Gemma2ForCausalLM", "Gemma2Config", dict(
        hidden_size=768, intermediate_size=3072, num_hidden_layers=6, num_attention_heads=8,
        num_key_value_heads=4, head_dim=96, vocab_size=256000, sliding_window=256), 8, 512),
    "gemma3-a": ("Gemma3ForCausalLM", "Gemma3TextConfig", dict(
        hidden_size=1024, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=8,
        num_key_value_heads=4, head_dim=128, vocab_size=262144, sliding_window=512), 4, 1024),
    "gemma3-b": ("Gemma3ForCausalLM", "Gemma3TextConfig", dict(
        hidden_size=640, intermediate_size=2048, num_hidden_layers=12, num_attention_heads=4,
        num_key_value_heads=1, head_dim=256, vocab_size=262144, sliding_window=256), 8, 512),
    "phi3-a": ("Phi3ForCausalLM", "Phi3Config", dict(
        hidden_size=1024, intermediate_size=2816, num_hidden_layers=12, num_attention_heads=16,
        num_key_value_heads=16, vocab_size=32064), 4, 1024),
    "phi3-b": ("Phi3ForCausalLM", "Phi3Config", dict(
        hidden_size=1536, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=16,
        num_key_value_heads=8, vocab_size=32064), 8, 512),
    "qwen3-a": ("Qwen3ForCausalLM", "Qwen3Config", dict(
        hidden_size=1024, intermediate_size=3072, num_hidden_layers=12, num_attention_heads=16,
        num_key_value_heads=8, head_dim=128, vocab_size=151936), 4, 1024),
    "qwen3-b": ("Qwen3ForCausalLM", "Qwen3Config", dict(
        hidden_size=768, intermediate_size=2048, num_hidden_layers=16, num_attention_heads=12,
        num_key_value_heads=4, head_dim=64, vocab_size=151936), 8, 512),
    "olmo2-a": ("Olmo2ForCausalLM", "Olmo2Config", dict(
        hidden_size=1024, intermediate_size=2816, num_hidden_layers=12, num_attention_heads=16,
        vocab_size=100352), 4, 1024),
    "olmo2-b": ("Olmo2ForCausalLM", "Olmo2Config", dict(
        hidden_size=768, intermediate_size=2048, num_hidden_layers=16, num_attention_heads=12,
        vocab_size=100352), 8, 512),
    "granite-a": ("GraniteForCausalLM", "GraniteConfig", dict(
        hidden_size=1024, intermediate_size=2816, num_hidden_layers=12, num_attention_heads=16,
        num_key_value_heads=4, vocab_size=49155), 4, 1024),
    "granite-b": ("GraniteForCausalLM", "GraniteConfig", dict(
        hidden_size=1536, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=12,
        num_key_value_heads=4, vocab_size=49155), 8, 512),
    "whisper-a": ("WhisperForConditionalGeneration", "WhisperConfig", dict(
        d_model=384, encoder_layers=4, decoder_layers=4, encoder_attention_heads=6, decoder_attention_heads=6,
        encoder_ffn_dim=1536, decoder_ffn_dim=1536, vocab_size=51865, num_mel_bins=80), 16, 128),
    "whisper-b": ("WhisperForConditionalGeneration", "WhisperConfig", dict(
        d_model=768, encoder_layers=12, decoder_layers=12, encoder_attention_heads=12, decoder_attention_heads=12,
        encoder_ffn_dim=3072, decoder_ffn_dim=3072, vocab_size=51865, num_mel_bins=80), 8, 224),
}
FAM_HELD = {"olmo2-a", "olmo2-b", "granite-b", "gemma3-b", "phi3-b", "whisper-b", "qwen3moe-b"}
FAM_SNAP = {"mixtral-a", "qwen2moe-a", "gemma2-a", "whisper-a", "olmo2-a", "gemma3-a"}


def F(key, **kw):
    model, config, cfg, b, seq = FAM[key]
    io = "whisper" if key.startswith("whisper") else "lm"
    return T(model, config, cfg, io=io, b=b, seq=seq, family=key.split("-")[0], **kw)


def family_jobs():
    out = []
    for key in FAM:
        out.append(J(f"fam-{key}-bf16", "families", 30, heldout=key in FAM_HELD, spec=F(key, snap=key in FAM_SNAP)))
    V = [("qwen3-a", "bf16w", dict(prec="bf16w"), False, False),
         ("mixtral-a", "bf16w", dict(prec="bf16w"), False, False),
         ("qwen3-a", "bf16-ckpt", dict(ckpt="block"), False, False),
         ("gemma2-a", "bf16-ckpt", dict(ckpt="block"), True, False),
         ("mixtral-b", "bf16-ckpt", dict(ckpt="block"), True, False),
         ("qwen3-a", "bf16-lora16", dict(lora=16), False, True),
         ("mixtral-a", "bf16-lora16", dict(lora=16), True, False),
         ("qwen3-a", "bf16-eager", dict(attn="eager"), False, False),
         ("qwen3-b", "bf16-eager", dict(attn="eager"), True, False)]
    for key, tag, kw, held, snap in V:
        out.append(J(f"fam-{key}-{tag}", "families", 30, heldout=held, spec=F(key, snap=snap, **kw)))
    return out


# ------------------------------------------------------------------ A.1 scripts and OOMs
def script_jobs():
    out = [
        script("nanogpt-b8-bf16", "scripts", 25, "nanogpt_train.py", dict(GT_SNAP="1", GT_BATCH="8", GT_ITERS="4")),
        script("nanogpt-b4-bf16-leak", "scripts", 45, "nanogpt_train.py",
               dict(GT_SNAP="1", GT_BATCH="4", GT_ITERS="5", GT_LEAK="1")),
        script("nanogpt-b16-bf16", "scripts", 35, "nanogpt_train.py", dict(GT_SNAP="1", GT_BATCH="16", GT_ITERS="3"),
               heldout=True),
        script("nanogpt-b2-bf16-leak", "scripts", 30, "nanogpt_train.py",
               dict(GT_SNAP="1", GT_BATCH="2", GT_ITERS="6", GT_LEAK="1"), heldout=True),
    ]
    return out


def vit(name, mem, model, b, prec="fp32", ckpt=False, frac=None, snap=False, **kw):
    env = dict(GT_MODEL=model, GT_BATCH=str(b), GT_PREC=prec, GT_CKPT="1" if ckpt else "0",
               GT_SNAP="1" if snap else "0", GT_ITERS="2")
    if frac:
        env["GT_FRACTION"] = str(frac)
    return script(name, "oom", mem, "vit_train.py", env, **kw)


def oom_exclusive():
    return [
        vit("vitl16-b512-fp32", 140, "vit_l_16", 512, snap=True, exclusive=True),
        vit("vitl16-b512-fp32-vramkit", 140, "vit_l_16", 512, exclusive=True, vramkit=True),
        vit("vitl16-b768-fp32", 140, "vit_l_16", 768, snap=True, exclusive=True, heldout=True),
        vit("vitl16-b512-bf16", 140, "vit_l_16", 512, prec="bf16", exclusive=True),
    ]


def oom_shared():
    return [
        vit("vitl16-b192-fp32", 75, "vit_l_16", 192, heldout=True),
        vit("vitl16-b128-fp32", 50, "vit_l_16", 128),
        vit("vitl16-b512-fp32-ckpt", 50, "vit_l_16", 512, ckpt=True),
        vit("vitb16-b256-fp32-frac0.1", 16, "vit_b_16", 256, frac=0.1, snap=True),
        vit("vitb16-b64-fp32-frac0.1", 16, "vit_b_16", 64, frac=0.1),
        vit("vitb16-b96-fp32-frac0.1", 16, "vit_b_16", 96, frac=0.1),
        vit("vitb16-b128-fp32-frac0.1", 16, "vit_b_16", 128, frac=0.1),
        vit("vitb16-b112-fp32-frac0.1", 16, "vit_b_16", 112, frac=0.1, heldout=True),
        vit("vitb16-b192-fp32-frac0.1", 16, "vit_b_16", 192, frac=0.1, snap=True, heldout=True),
    ]


# ------------------------------------------------------------------ A.2 optimisers / precision
def optim_jobs():
    L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
    out = [
        J("llama-small-s1024-b4-bf16w-lora16-cache-on", "optim", 25,
          spec=T(*L, b=4, seq=1024, prec="bf16w", lora=16, snap=True)),
        J("llama-small-s1024-b4-bf16w-lora16-cache-off", "optim", 25,
          spec=T(*L, b=4, seq=1024, prec="bf16w", lora=16, use_cache=False, snap=True)),
        J("llama-small-s512-b8-bf16w-lora8-cache-on", "optim", 25, heldout=True,
          spec=T(*L, b=8, seq=512, prec="bf16w", lora=8, snap=True)),
        J("t5-small-s512-b16-fp32-adafactor", "optim", 20,
          spec=T("T5ForConditionalGeneration", "T5Config", {}, io="s2s", b=16, seq=512, prec="fp32",
                 opt="adafactor", snap=True)),
        J("gpt2-s1024-b8-bf16-adafactor", "optim", 25, heldout=True,
          spec=T("GPT2LMHeadModel", "GPT2Config", GPT2, b=8, seq=1024, opt="adafactor", snap=True)),
        J("gpt2-s1024-b8-bf16-adamw8bit", "optim", 25,
          spec=T("GPT2LMHeadModel", "GPT2Config", GPT2, b=8, seq=1024, opt="adamw8bit")),
        J("llama-small-s1024-b4-bf16w-adamw", "optim", 25,
          spec=T(*L, b=4, seq=1024, prec="bf16w", snap=True)),
        J("gpt2-medium-s1024-b4-bf16w-adamw", "optim", 25, heldout=True,
          spec=T("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM, b=4, seq=1024, prec="bf16w", snap=True)),
        J("bert-large-s512-b16-fp32", "optim", 35,
          spec=T("BertForSequenceClassification", "BertConfig",
                 dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
                      num_labels=2), io="cls", b=16, seq=512, prec="fp32", snap=True)),
        J("convnext-tiny-b64-fp32", "optim", 20, spec=T("tv:convnext_tiny", None, None, io="vision", b=64,
                                                        prec="fp32", snap=True)),
        J("convnext-small-b32-fp32", "optim", 20, heldout=True,
          spec=T("tv:convnext_small", None, None, io="vision", b=32, prec="fp32", snap=True)),
        J("bert-large-s256-b16-bf16", "optim", 25,
          spec=T("BertForSequenceClassification", "BertConfig",
                 dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
                      num_labels=2), io="cls", b=16, seq=256, prec="bf16")),
    ]
    return out


# ------------------------------------------------------------------ A.3 sharded at world size 1
def S(strategy, b=4, seq=1024, **kw):
    s = dict(kind="sharded", model="LlamaForCausalLM", config="LlamaConfig", cfg=LLAMA_SMALL, strategy=strategy,
             b=b, seq=seq, iters=3, snap=True)
    s.update(kw)
    return s


def sharded_jobs():
    return [
        J("ws1-fsdp2-llama-small-s1024-b4", "sharded1", 25, spec=S("fsdp2")),
        J("ws1-fsdp2-llama-small-s1024-b4-ckpt", "sharded1", 25, spec=S("fsdp2", ckpt="block")),
        J("ws1-fsdp2-noreshard-llama-small-s1024-b4", "sharded1", 25, spec=S("fsdp2", reshard=False)),
        J("ws1-tp-llama-small-s1024-b4", "sharded1", 25, spec=S("tp")),
        J("ws1-zero1-llama-small-s1024-b4", "sharded1", 25, spec=S("zero1")),
        J("ws1-ddp-llama-small-s1024-b4", "sharded1", 25, spec=S("ddp")),
        J("ws1-fsdp2-noreshard-llama-small-s512-b8-ckpt", "sharded1", 25, heldout=True,
          spec=S("fsdp2", b=8, seq=512, reshard=False, ckpt="block")),
        J("ws1-tp-llama-small-s1024-b4-ckpt", "sharded1", 25, heldout=True, spec=S("tp", ckpt="block")),
        J("ws1-zero1-llama-small-s512-b8", "sharded1", 25, heldout=True, spec=S("zero1", b=8, seq=512)),
        J("ws1-ddp-llama-small-s512-b8-ckpt", "sharded1", 25, heldout=True, spec=S("ddp", b=8, seq=512, ckpt="block")),
    ]


# ------------------------------------------------------------------ C. compile vs eager (memory)
def compile_jobs():
    L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
    g = ("GPT2LMHeadModel", "GPT2Config", GPT2)
    gm = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
    return [
        J("gpt2-s1024-b8-bf16-eager", "compile", 20, spec=T(*g, b=8, seq=1024, iters=4)),
        J("gpt2-s1024-b8-bf16-compile", "compile", 20, timeout=300, spec=T(*g, b=8, seq=1024, iters=4, compile=True)),
        J("llama-small-s1024-b4-bf16-eager", "compile", 20, spec=T(*L, b=4, seq=1024, iters=4)),
        J("llama-small-s1024-b4-bf16-compile", "compile", 20, timeout=300,
          spec=T(*L, b=4, seq=1024, iters=4, compile=True)),
        J("gpt2-medium-s1024-b4-bf16-eager", "compile", 20, heldout=True, spec=T(*gm, b=4, seq=1024, iters=4)),
        J("gpt2-medium-s1024-b4-bf16-compile", "compile", 20, heldout=True, timeout=300,
          spec=T(*gm, b=4, seq=1024, iters=4, compile=True)),
    ]


def call1():
    long_first = gen_jobs()[:8] + compile_jobs()[1::2]
    rest = (script_jobs() + oom_shared() + sharded_jobs() + optim_jobs() + family_jobs()
            + gen_jobs()[8:] + compile_jobs()[0::2])
    return oom_exclusive() + long_first + rest


# the later calls' job lists live in their own modules: call name -> (module, function)
LATER_CALLS = {
    "call2": ("gt_jobs2", "jobs"), "call3": ("gt_jobs3", "jobs"), "call4": ("gt_jobs4", "jobs"),
    "call5": ("gt_jobs5", "jobs"), "call6": ("gt_jobs5", "snapshots"), "call9": ("gt_jobs6", "jobs"),
    "call10": ("gt_jobs7", "jobs"), "call11": ("gt_jobs7", "calibration"),
    "call12": ("gt_jobs7", "profiles"), "call13": ("gt_jobs8", "jobs"),
    "call14": ("gt_jobs9", "jobs"), "call15": ("gt_jobs10", "jobs"), "call16": ("gt_jobs10", "unaligned"),
    "call17": ("gt_jobs11", "jobs"), "call18": ("gt_jobs12", "jobs"),
    "call19a": ("gt_jobs13", "contrast"), "call19b": ("gt_jobs13", "qlora"),
    "call20": ("gt_jobs13", "calib"), "call23": ("gt_jobs14", "jobs"), "call23q": ("gt_jobs14", "qlora"),
    "call24": ("gt_jobs14", "call24"), "call25": ("gt_jobs14", "fit_check"),
    "call28": ("gt_jobs15", "jobs"), "call28q": ("gt_jobs15", "qlora"), "call29": ("gt_jobs16", "jobs"),
    "call32": ("gt_jobs17", "jobs"), "call32q": ("gt_jobs17", "qlora"),
    "call32c": ("gt_jobs17", "compile_snaps"), "call33": ("gt_jobs18", "jobs"), "call34": ("gt_jobs19", "jobs"),
    "call35": ("gt_jobs20", "jobs"), "call36": ("gt_jobs21", "jobs"), "call37": ("gt_jobs22", "jobs"), "call38": ("gt_jobs23", "jobs"), "call39": ("gt_jobs24", "call39"), "call40": ("gt_jobs25", "jobs"), "call41": ("gt_jobs26", "jobs"), "call42": ("gt_jobs27", "jobs"), "call43": ("gt_jobs29", "jobs"), "call44": ("gt_jobs29", "call44"), "call45": ("gt_jobs30", "jobs"), "call46": ("gt_jobs30", "profiles"), "call47": ("gt_jobs31", "jobs"), "call48": ("gt_jobs32", "call48"), "call49": ("gt_jobs33", "call49"), "call50": ("gt_jobs33", "call50"), "call51": ("gt_jobs34", "call51"), "call52": ("gt_jobs35", "call52"), "call53": ("gt_jobs36", "call53"), "call54": ("gt_jobs37", "call54"), "call55": ("gt_jobs38", "call55"), "call56": ("gt_jobs39", "call56"), "call57": ("gt_jobs40", "call57"), "call58": ("gt_jobs41", "call58"), "call59": ("gt_jobs42", "call59"), "call60": ("gt_jobs43", "call60"), "call61": ("gt_jobs44", "call61"), "call62": ("gt_jobs45", "call62"), "call63": ("gt_jobs46", "call63"), "call64": ("gt_jobs47", "call64"), "call65": ("gt_jobs48", "call65"), "call66": ("gt_jobs48", "call66"), "call67": ("gt_jobs49", "call67"), "call68": ("gt_jobs49", "call68"), "call69": ("gt_jobs50", "call69"), "call70": ("gt_jobs50", "call70"), "call71": ("gt_jobs50", "call71"), "call72": ("gt_jobs51", "call72"), "call73": ("gt_jobs51", "call73"), "call74": ("gt_jobs51", "call74"), "call75": ("gt_jobs52", "call75"), "call76": ("gt_jobs53", "call76"), "call77": ("gt_jobs54", "call77"), "call78": ("gt_jobs55", "call78"), "call79": ("gt_jobs56", "call79"), "call80": ("gt_jobs57", "call80"), "call81": ("gt_jobs58", "call81"), "call82": ("gt_jobs59", "call82"), "call83": ("gt_jobs60", "call83"), "call84": ("gt_jobs61", "call84"), "call85": ("gt_jobs62", "call85"), "call86": ("gt_jobs63", "call86"), "call87": ("gt_jobs64", "call87"), "call88": ("gt_jobs65", "call88"), "call89": ("gt_jobs66", "call89"), "call90": ("gt_jobs67", "call90"), "call91": ("gt_jobs68", "call91"), "call92": ("gt_jobs69", "call92"), "call93": ("gt_jobs70", "call93"), "call94": ("gt_jobs71", "call94"), "call95": ("gt_jobs72", "call95"), "call96": ("gt_jobs73", "call96"), "call97": ("gt_jobs74", "call97"), "call98": ("gt_jobs75", "call98"), "call99": ("gt_jobs76", "call99"), "call100": ("gt_jobs77", "call100"), "call101": ("gt_jobs78", "call101"), "call102": ("gt_jobs79", "call102"), "call103": ("gt_jobs80", "call103"), "call104": ("gt_jobs81", "call104"), "call105": ("gt_jobs82", "call105"), "call106": ("gt_jobs83", "call106"), "call107": ("gt_jobs84", "call107"), "call108": ("gt_jobs85", "call108"), "call109": ("gt_jobs86", "call109"), "call110": ("gt_jobs87", "call110"), "call111": ("gt_jobs88", "call111"), "call112": ("gt_jobs89", "call112"), "call113": ("gt_jobs90", "call113"), "call114": ("gt_jobs91", "call114"), "call115": ("gt_jobs92", "call115"), "call116": ("gt_jobs93", "call116"), "call117": ("gt_jobs94", "call117"), "call118": ("gt_jobs95", "call118"), "call119": ("gt_jobs95", "call119"),
    "call120": ("gt_jobs96", "call120"), "call121": ("gt_jobs96", "call121"), "call122": ("gt_jobs97", "call122"), "call123": ("gt_jobs97", "call123"), "call124": ("gt_jobs98", "call124"), "call125": ("gt_jobs98", "call125"), "call126": ("gt_jobs98", "call126"), "call127": ("gt_jobs99", "call127"), "call128": ("gt_jobs99", "call128"), "call129": ("gt_jobs100", "call129"), "call130": ("gt_jobs100", "call130"), "call131": ("gt_jobs100", "call131"), "call132": ("gt_jobs101", "call132"), "call133": ("gt_jobs102", "call133"), "call134": ("gt_jobs103", "call134"), "call135": ("gt_jobs104", "call135"), "call136": ("gt_jobs105", "call136"), "call137": ("gt_jobs106", "call137"), "call138": ("gt_jobs107", "call138"), "call139": ("gt_jobs108", "call139"), "call140": ("gt_jobs109", "call140"), "call141": ("gt_jobs110", "call141"), "call142": ("gt_jobs111", "call142"), "call143": ("gt_jobs112", "call143"), "call144": ("gt_jobs112", "call144"), "call145": ("gt_jobs113", "call145"), "call146": ("gt_jobs113", "call146"), "call147": ("gt_jobs114", "call147"), "call148": ("gt_jobs115", "call148"), "call149": ("gt_jobs116", "call149"), "call150": ("gt_jobs117", "call150"),
    "call151": ("gt_jobs117", "call151"), "call152": ("gt_jobs117", "call152"), "call153": ("gt_jobs118", "call153"),
    "call154": ("gt_jobs118", "call154"), "call155": ("gt_jobs119", "call155"), "call156": ("gt_jobs120", "call156"),
    "call157": ("gt_jobs121", "call157"), "call158": ("gt_jobs121", "call158"), "call159": ("gt_jobs121", "call159"),
    "call160": ("gt_jobs122", "call160"), "call161": ("gt_jobs122", "call161"),
    "call162": ("gt_jobs122", "call162"), "call163": ("gt_jobs122", "call163"),
    "call164": ("gt_jobs123", "call164"), "call165": ("gt_jobs123", "call165"),
    "call166": ("gt_jobs124", "call166"), "call167": ("gt_jobs124", "call167"),
    "call168": ("gt_jobs125", "call168"), "call169": ("gt_jobs126", "call169"), "call170": ("gt_jobs127", "call170"), "call171": ("gt_jobs127", "call171"), "call172": ("gt_jobs128", "call172"), "call173": ("gt_jobs129", "call173"), "call174": ("gt_jobs129", "call174"), "call175": ("gt_jobs130", "call175"), "call176": ("gt_jobs131", "call176"), "call177": ("gt_jobs131", "call177"), "call178": ("gt_jobs132", "call178"), "call179": ("gt_jobs133", "call179"), "call180": ("gt_jobs133", "call180"), "call181": ("gt_jobs133", "call181"), "call182": ("gt_jobs133", "call182"), "call183": ("gt_jobs134", "call183"), "call184": ("gt_jobs135", "call184"), "call185": ("gt_jobs136", "call185"), "call186": ("gt_jobs136", "call186"), "call187": ("gt_jobs136", "call187"), "call188": ("gt_jobs136", "call188"), "call189": ("gt_jobs137", "call189"), "call190": ("gt_jobs138", "call190"), "call191": ("gt_jobs138", "call191"), "call192": ("gt_jobs139", "call192"), "call193": ("gt_jobs139", "call193"), "call194": ("gt_jobs139", "call194"), "call195": ("gt_jobs140", "call195"), "call196": ("gt_jobs140", "call196"), "call197": ("gt_jobs140", "call197"), "call198": ("gt_jobs140", "call198"), "call199": ("gt_jobs141", "call199"), "call200": ("gt_jobs141", "call200"), "call201": ("gt_jobs142", "call201"), "call202": ("gt_jobs143", "call202"), "call203": ("gt_jobs143", "call203"), "call204": ("gt_jobs144", "call204"), "call205": ("gt_jobs144", "call205"), "call206": ("gt_jobs144", "call206"), "call207": ("gt_jobs144", "call207"), "call208": ("gt_jobs144", "call208"), "call209": ("gt_jobs145", "call209"), "call210": ("gt_jobs145", "call210"), "call211": ("gt_jobs146", "call211"), "call212": ("gt_jobs146", "call212"), "call213": ("gt_jobs147", "call213"), "call214": ("gt_jobs148", "call214"), "call215": ("gt_jobs148", "call215"), "call216": ("gt_jobs149", "call216"), "call217": ("gt_jobs149", "call217"), "call218": ("gt_jobs150", "call218"), "call219": ("gt_jobs150", "call219"), "call220": ("gt_jobs150", "call220"), "call221": ("gt_jobs151", "call221"), "call222": ("gt_jobs152", "call222"), "call223": ("gt_jobs152", "call223"), "call224": ("gt_jobs152", "call224"), "call225": ("gt_jobs153", "call225"), "call226": ("gt_jobs154", "call226"),
}


def __getattr__(name):
    """gt_jobs.callN for a later call imports its module on first use (gt_runner's getattr)."""
    if name in LATER_CALLS:
        import importlib
        mod, fn = LATER_CALLS[name]
        return getattr(importlib.import_module(mod), fn)
    raise AttributeError(name)
