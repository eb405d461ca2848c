"""One ground-truth workload per process (child side of gt_runner.py).

usage: python3 gt_work.py --out DIR --spec JSON
Prints one or more lines "RESULT {json}" (generate prints one per point).
Kinds: train (HF / torchvision training steps), gen (HF generate points),
sharded (FSDP2 / TP / ZeRO-1 / DDP at world size 1).
"""
import argparse, gc, gzip, json, os, shutil, sys, time, traceback

STAT_KEYS = ["allocated_bytes.all.peak", "reserved_bytes.all.peak", "active_bytes.all.peak",
             "requested_bytes.all.peak", "allocated_bytes.all.current", "reserved_bytes.all.current",
             "inactive_split_bytes.all.peak", "num_alloc_retries", "num_ooms", "num_device_alloc",
             "num_device_free", "allocation.all.allocated", "segment.all.peak",
             "allocated_bytes.large_pool.peak", "allocated_bytes.small_pool.peak",
             "reserved_bytes.large_pool.peak", "reserved_bytes.small_pool.peak",
             "oversize_allocations.peak", "num_sync_all_streams"]


def emit(res):
    print("RESULT " + json.dumps(res, default=str), flush=True)


def versions():
    import torch
    v = {"torch": torch.__version__}
    try:
        import transformers
        v["transformers"] = transformers.__version__
    except Exception:
        pass
    try:
        import peft
        v["peft"] = peft.__version__
    except Exception:
        pass
    return v


def nvml_used():
    out = {}
    try:
        import pynvml, torch
        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
        for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h):
            if p.pid == os.getpid():
                out["nvml_used"] = p.usedGpuMemory
        out["nvml_total"] = pynvml.nvmlDeviceGetMemoryInfo(h).total
    except Exception as e:  # noqa
        out["nvml_error"] = repr(e)[:300]
    return out


def figures(res):
    import torch
    st = torch.cuda.memory_stats()
    res["stats"] = {k: st.get(k) for k in STAT_KEYS}
    res["max_allocated"] = torch.cuda.max_memory_allocated()
    res["max_reserved"] = torch.cuda.max_memory_reserved()
    res.update(nvml_used())
    return res


def start_record(spec):
    import torch
    if spec.get("snap"):
        # stacks "all" (Python and C++ frames) is PyTorch's default, what a user's snapshot most often holds
        torch.cuda.memory._record_memory_history(max_entries=2_000_000, context="alloc",
                                                 stacks=spec.get("stacks", "python"))


def dump(spec, out, res, suffix=""):
    import torch
    if not spec.get("snap"):
        return
    p = os.path.join(out, spec["name"] + suffix + ".pickle")
    try:
        torch.cuda.memory._dump_snapshot(p)
        with open(p, "rb") as f, gzip.open(p + ".gz", "wb", compresslevel=6) as g:
            shutil.copyfileobj(f, g)
        res["snapshot_bytes"] = os.path.getsize(p)
        res["snapshot"] = os.path.basename(p) + ".gz"
        os.remove(p)
    except Exception as e:
        res["snapshot_error"] = repr(e)[:500]


# ------------------------------------------------------------------ models
def hf_config(spec):
    import transformers as tf
    cls = getattr(tf, spec["config"])
    return cls(**spec.get("cfg", {}))


def build(spec):
    """Returns (model, kind) on CPU (or on cuda for big generate models)."""
    m = spec["model"]
    if m.startswith("df:"):
        return build_diffusion(m[3:]), "diffusion"
    if m.startswith("tv:"):
        import torchvision
        return getattr(torchvision.models, m[3:])(weights=None), "vision"
    import transformers as tf
    cfg = hf_config(spec)
    kw = {}
    if spec.get("attn"):
        kw["attn_implementation"] = spec["attn"]
    cls = getattr(tf, m)
    model = cls._from_config(cfg, **kw)
    kind = spec.get("io") or "lm"
    return model, kind


def build_diffusion(name):
    """diffusers' UNet2DConditionModel as Stable Diffusion 1.5 configures it, or DiTTransformer2DModel
    (DiT-XL/2, DiT-B/2); the frozen VAE (and for the UNet the CLIP ViT-L/14 text encoder) ride along
    as model.frozen_extras, not submodules, so that they are resident but not trained. diffusers
    runs from its source tree (carried; PYTHONPATH)."""
    import diffusers
    if name == "sd15-unet":
        m = diffusers.UNet2DConditionModel(
            sample_size=64, in_channels=4, out_channels=4, layers_per_block=2,
            block_out_channels=(320, 640, 1280, 1280), cross_attention_dim=768, attention_head_dim=8,
            down_block_types=("CrossAttnDownBlock2D",) * 3 + ("DownBlock2D",),
            up_block_types=("UpBlock2D",) + ("CrossAttnUpBlock2D",) * 3)
        import transformers as tf
        te = tf.CLIPTextModel(tf.CLIPTextConfig(hidden_size=768, intermediate_size=3072, num_hidden_layers=12,
                                                num_attention_heads=12, max_position_embeddings=77,
                                                vocab_size=49408, projection_dim=768))
        extras = [te]
    else:
        d, layers, heads = {"dit-xl-2": (1152, 28, 16), "dit-l-2": (1024, 24, 16), "dit-b-2": (768, 12, 12)}[name]
        m = diffusers.DiTTransformer2DModel(num_attention_heads=heads, attention_head_dim=d // heads,
                                            in_channels=4, out_channels=8, num_layers=layers, sample_size=32,
                                            patch_size=2, norm_type="ada_norm_zero", num_embeds_ada_norm=1000)
        extras = []
    vae = diffusers.AutoencoderKL(in_channels=3, out_channels=3, latent_channels=4, layers_per_block=2,
                                  block_out_channels=(128, 256, 512, 512),
                                  down_block_types=("DownEncoderBlock2D",) * 4,
                                  up_block_types=("UpDecoderBlock2D",) * 4, sample_size=512)
    extras.append(vae)
    for e in extras:
        e.requires_grad_(False)
    object.__setattr__(m, "frozen_extras", extras)
    return m


def quantize(model, spec):
    """QLoRA as people run it: the randomly initialised model saved, then loaded by from_pretrained with
    bitsandbytes' 4-bit NF4 (double quantisation, bf16 compute) straight onto the GPU."""
    import tempfile
    import torch
    import transformers as tf
    d = tempfile.mkdtemp()
    model.save_pretrained(d)
    del model
    qc = tf.BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=spec["quant"], bnb_4bit_use_double_quant=True,
                               bnb_4bit_compute_dtype=torch.bfloat16)
    m = getattr(tf, spec["model"]).from_pretrained(d, quantization_config=qc, dtype=torch.bfloat16, device_map={"": 0})
    torch.cuda.reset_peak_memory_stats()
    return m


def params_of(model):
    return sum(p.numel() for p in model.parameters())


def enable_ckpt(model, spec):
    from torch.utils.checkpoint import checkpoint
    if spec["model"].startswith("df:"):
        model.enable_gradient_checkpointing()
        return
    if hasattr(model, "gradient_checkpointing_enable"):
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        return
    m = spec["model"]
    blocks = []
    if "resnet" in m:
        for layer in (model.layer1, model.layer2, model.layer3, model.layer4):
            blocks += list(layer)
    elif "vit" in m:
        blocks = list(model.encoder.layers)
    elif "convnext" in m:
        for st in model.features:
            if st.__class__.__name__ == "Sequential":
                blocks += [b for b in st if b.__class__.__name__ == "CNBlock"]
    elif "efficientnet" in m:  # each MBConv of features[1..7], the unit memmodel's EfficientNet checkpoints
        for st in model.features:
            if st.__class__.__name__ == "Sequential":
                blocks += [b for b in st if b.__class__.__name__ == "MBConv"]
    else:
        raise ValueError("no ckpt for " + m)
    for blk in blocks:
        fwd = blk.forward
        blk.forward = (lambda f: (lambda *a: checkpoint(f, *a, use_reentrant=False) if CKPT["on"] else f(*a)))(fwd)


# whether enable_ckpt's wrapped blocks checkpoint (set_ckpt turns them off and on between alternated steps)
CKPT = {"on": True}


def set_ckpt(model, spec, on):
    """Checkpointing on or off between the alternated steps of one model: transformers' own switch, or the
    flag enable_ckpt's wrappers read (enable_ckpt wraps once, on the first variant that checkpoints)."""
    if hasattr(model, "gradient_checkpointing_enable") and not spec["model"].startswith("df:"):
        if on:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        elif model.is_gradient_checkpointing:
            model.gradient_checkpointing_disable()
        return
    if on and not getattr(model, "_gt_wrapped", False):
        enable_ckpt(model, spec)
        model._gt_wrapped = True
    CKPT["on"] = on


def enable_selective_ckpt():
    """ckpt="selective": recompute each attention call in backward (what plan's "selective" models: the
    attention internals, not the block). Every scaled_dot_product_attention the model makes goes through
    torch.nn.functional's module attribute (transformers' sdpa path, diffusers' AttnProcessor2_0 and
    F.multi_head_attention_forward, torchvision ViT's), so patching it there checkpoints each call. Rotary
    embedding and q/k norms, which plan's decoders also mark, are not recomputed here: a few pointwise ops."""
    import torch
    import torch.nn.functional as F
    from torch.utils.checkpoint import checkpoint
    orig = F.scaled_dot_product_attention

    def sdpa(q, k, v, *a, **kw):
        if torch.is_grad_enabled() and (q.requires_grad or k.requires_grad or v.requires_grad):
            return checkpoint(orig, q, k, v, *a, use_reentrant=False, **kw)
        return orig(q, k, v, *a, **kw)
    F.scaled_dot_product_attention = sdpa


def make_opt(spec, params):
    import torch
    o = spec.get("opt", "adamw")
    if o == "adamw":
        return torch.optim.AdamW(params, lr=1e-4)
    if o == "adamw-fused":
        return torch.optim.AdamW(params, lr=1e-4, fused=True)
    if o == "sgd":
        return torch.optim.SGD(params, lr=1e-2, momentum=0.9)
    if o == "adafactor":
        from transformers.optimization import Adafactor
        return Adafactor(params, lr=1e-3, relative_step=False, scale_parameter=False, warmup_init=False)
    if o == "adamw8bit":
        try:
            import bitsandbytes as bnb
            return bnb.optim.AdamW8bit(params, lr=1e-4)
        except ImportError:
            from torchao.optim import AdamW8bit
            return AdamW8bit(params, lr=1e-4)
    raise ValueError(o)


# ------------------------------------------------------------------ train
def train(spec, out):
    import torch
    res = dict(spec)
    res["versions"] = versions()
    dev = torch.device("cuda")
    torch.manual_seed(0)
    if spec.get("fraction"):
        torch.cuda.set_per_process_memory_fraction(spec["fraction"])
    start_record(spec)
    dt0 = torch.get_default_dtype()
    if spec.get("build_bf16"):  # weights created in bfloat16, as from_pretrained(torch_dtype=bfloat16) loads them
        torch.set_default_dtype(torch.bfloat16)
    try:
        if spec.get("build_on_gpu"):
            with torch.device("cuda"):
                model, kind = build(spec)
        else:
            model, kind = build(spec)
    finally:
        torch.set_default_dtype(dt0)
    if spec.get("quant"):
        model = quantize(model, spec)
    res["params"] = params_of(model)
    if hasattr(model, "config") and hasattr(model.config, "to_dict"):
        res["hf_config"] = model.config.to_dict()
        res["attn_used"] = getattr(model.config, "_attn_implementation", None)
    if spec.get("use_cache") is not None:
        model.config.use_cache = spec["use_cache"]
    prec = spec.get("prec", "fp32")
    if prec == "bf16w":
        model.to(torch.bfloat16)
    # the planner's default LoRA targets: q/v projections, or Phi-3's fused qkv_proj (PEFT's table)
    default_targets = ["qkv_proj"] if type(model).__name__.startswith("Phi3") else ["q_proj", "v_proj"]
    if spec.get("lora") and kind == "diffusion":
        import peft
        model.requires_grad_(False)
        model.add_adapter(peft.LoraConfig(r=spec["lora"], lora_alpha=2 * spec["lora"], init_lora_weights="gaussian",
                                          target_modules=spec.get("lora_targets", ["to_q", "to_k", "to_v", "to_out.0"])))
    elif spec.get("lora") and spec.get("quant"):
        import peft
        if spec.get("kbit_prep", True):
            model = peft.prepare_model_for_kbit_training(model, use_gradient_checkpointing=spec.get("ckpt") == "block",
                                                         gradient_checkpointing_kwargs={"use_reentrant": False})
        lcfg = peft.LoraConfig(r=spec["lora"], lora_alpha=2 * spec["lora"], lora_dropout=0.0, task_type="CAUSAL_LM",
                               target_modules=spec.get("lora_targets", default_targets))
        model = peft.get_peft_model(model, lcfg)
    elif spec.get("lora"):
        import peft
        lcfg = peft.LoraConfig(r=spec["lora"], lora_alpha=2 * spec["lora"],
                               target_modules=spec.get("lora_targets", default_targets),
                               lora_dropout=0.0)
        model = peft.get_peft_model(model, lcfg)
    if spec.get("freeze_fe"):  # Wav2Vec2 fine-tuning recipes freeze the convolutional feature encoder
        model.freeze_feature_encoder()
    res["trainable_params"] = sum(p.numel() for p in model.parameters() if p.requires_grad)
    if spec.get("ckpt") == "block":
        enable_ckpt(model, spec)
        if spec.get("lora") and hasattr(model, "enable_input_require_grads"):
            try:
                model.enable_input_require_grads()
            except NotImplementedError:  # a dual-tower model (CLIP) names no one input embedding
                res["input_require_grads"] = "not available"
    elif spec.get("ckpt") == "selective":
        enable_selective_ckpt()
    if not spec.get("quant"):  # a 4-bit model is loaded onto the GPU by from_pretrained
        model.to(dev)
    if spec.get("channels_last"):  # session 19: eager channels-last CNNs, beside Inductor's layout
        model.to(memory_format=torch.channels_last)
    model.train()
    for e in getattr(model, "frozen_extras", []):
        e.to(dev, dtype=torch.bfloat16 if prec == "bf16w" else torch.float32).eval()
    if kind == "diffusion":
        res["frozen_params"] = sum(params_of(e) for e in model.frozen_extras)
    res["use_cache_config"] = getattr(getattr(model, "config", None), "use_cache", None)
    opt = make_opt(spec, [p for p in model.parameters() if p.requires_grad])
    fwd_model = torch.compile(model) if spec.get("compile") else model
    scaler = torch.amp.GradScaler("cuda") if prec == "fp16" else None
    ac = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(prec)
    in_dtype = torch.bfloat16 if prec == "bf16w" else torch.float32
    b, seq = spec["b"], spec.get("seq", 0)
    cfg = getattr(model, "config", None)
    vocab = getattr(cfg, "vocab_size", 0) or 0

    def batch():
        if kind == "diffusion":
            r = spec.get("res", 512 if "unet" in spec["model"] else 256)
            lat = r // 8
            if spec.get("vae_encode"):
                with torch.no_grad():
                    img = torch.randn(b, 3, r, r, device=dev, dtype=in_dtype)
                    x = model.frozen_extras[-1].encode(img).latent_dist.sample() * 0.18215
                    del img
            else:
                x = torch.randn(b, 4, lat, lat, device=dev, dtype=in_dtype)
            noise = torch.randn(b, 4, lat, lat, device=dev, dtype=in_dtype)
            t = torch.randint(0, 1000, (b,), device=dev)
            if "unet" in spec["model"]:
                return dict(sample=x, timestep=t,
                            encoder_hidden_states=torch.randn(b, 77, 768, device=dev, dtype=in_dtype)), noise
            return dict(hidden_states=x, timestep=t, class_labels=torch.randint(0, 1000, (b,), device=dev)), noise
        if kind == "vision":
            r = spec.get("res", 224)
            x = torch.randn(b, 3, r, r, device=dev, dtype=in_dtype)
            if spec.get("channels_last"):
                x = x.contiguous(memory_format=torch.channels_last)
            return dict(x=x), torch.randint(0, 1000, (b,), device=dev)
        if kind == "hfvision":  # transformers' ...ForImageClassification: pixel_values and labels
            r = spec.get("res", 224)
            x = torch.randn(b, 3, r, r, device=dev, dtype=in_dtype)
            return dict(pixel_values=x, labels=torch.randint(0, cfg.num_labels, (b,), device=dev)), None
        if kind == "clip":  # CLIPModel's contrastive loss: 77 text tokens and an image per pair
            r = cfg.vision_config.image_size
            return dict(input_ids=torch.randint(0, cfg.text_config.vocab_size, (b, seq or 77), device=dev),
                        pixel_values=torch.randn(b, 3, r, r, device=dev, dtype=in_dtype), return_loss=True), None
        if kind in ("ctc", "audiocls"):  # Wav2Vec2: raw 16 kHz audio, spec["seconds"] long
            x = torch.randn(b, int(16000 * spec["seconds"]), device=dev, dtype=in_dtype)
            if kind == "audiocls":
                return dict(input_values=x, labels=torch.randint(0, cfg.num_labels, (b,), device=dev)), None
            n = int(spec["seconds"] * 12)  # about 12 characters a second of speech
            return dict(input_values=x, labels=torch.randint(1, vocab, (b, n), device=dev)), None
        if kind == "whisper":
            feats = torch.randn(b, cfg.num_mel_bins, 2 * cfg.max_source_positions, device=dev, dtype=in_dtype)
            lab = torch.randint(0, vocab, (b, seq), device=dev)
            return dict(input_features=feats, labels=lab), None
        ids = torch.randint(0, vocab, (b, seq), device=dev)
        if kind == "cls":
            return dict(input_ids=ids, labels=torch.randint(0, 2, (b,), device=dev)), None
        if kind == "tok":  # ...ForTokenClassification: a label per token
            return dict(input_ids=ids, labels=torch.randint(0, cfg.num_labels, (b, seq), device=dev)), None
        if kind == "qa":  # ...ForQuestionAnswering: an answer span per sequence
            return dict(input_ids=ids, start_positions=torch.randint(0, seq, (b,), device=dev),
                        end_positions=torch.randint(0, seq, (b,), device=dev)), None
        if kind == "s2s":
            return dict(input_ids=ids, labels=ids, decoder_input_ids=ids), None
        return dict(input_ids=ids, labels=ids), None

    def loss_of(inp, tgt):
        if kind == "diffusion":
            o = fwd_model(**inp).sample
            if o.shape[1] != tgt.shape[1]:
                o = o.chunk(2, dim=1)[0]
            return torch.nn.functional.mse_loss(o.float(), tgt.float())
        if kind == "vision":
            o = fwd_model(inp["x"])
            return torch.nn.functional.cross_entropy(o.float(), tgt)
        return fwd_model(**inp).loss

    phases = []  # per step, the host's wall time in forward, backward and optimizer (no sync: what issuing took)

    accum = spec.get("accum", 1)

    def step():
        ph = [0.0, 0.0, 0.0]
        for _ in range(accum):
            t0 = time.perf_counter()
            inp, tgt = batch()
            with torch.autocast("cuda", dtype=ac, enabled=ac is not None):
                loss = loss_of(inp, tgt) / accum
            t1 = time.perf_counter()
            if scaler:
                scaler.scale(loss).backward()
            else:
                loss.backward()
            del loss
            t2 = time.perf_counter()
            ph[0] += t1 - t0
            ph[1] += t2 - t1
        t2 = time.perf_counter()
        if scaler:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        opt.zero_grad(set_to_none=True)
        ph[2] = time.perf_counter() - t2
        phases.append(ph)

    if spec.get("alternate"):
        eager = fwd_model
        compiled = []

        def apply(v):
            # one variant of the alternation: rebinds what batch(), loss_of() and step() read at call time
            nonlocal ac, b, accum, fwd_model
            ac = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(v.get("prec", prec))
            b, accum = v.get("b", spec["b"]), v.get("accum", 1)
            set_ckpt(model, spec, v.get("ckpt", "none") == "block")
            if v.get("compile"):
                if not compiled:
                    compiled.append(torch.compile(model))
                fwd_model = compiled[0]
            else:
                fwd_model = eager
        from gt_alternate import alternate
        return alternate(spec, res, step, apply, phases)

    times = []
    try:
        for it in range(spec.get("iters", 3)):
            torch.cuda.synchronize()
            t0, c0 = time.perf_counter(), time.process_time()
            step()
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
            # the process's CPU time in the step, all its threads (session 35): a host-bound step whose CPU time
            # falls short of its wall time was kept off the CPU (another process, a slow phase after a compile)
            res.setdefault("cpu_s", []).append(time.process_time() - c0)
            res.setdefault("alloc_after_iter", []).append(torch.cuda.memory_allocated())
        if spec.get("profile"):
            ops = {"ops": True, "allops": "all"}.get(spec["profile"], False)
            res["profile"] = profile_steps(step, out, spec["name"], ops=ops, host=spec["profile"] == "host")
        res["status"] = "ok"
    except torch.OutOfMemoryError as e:
        res["status"] = "oom"
        res["oom_message"] = str(e)[:1500]
    res["iter_s"] = times
    res["phase_s"] = phases[:len(times)]  # [forward, backward, optimizer] host wall per timed step
    figures(res)
    dump(spec, out, res)
    return [res]


def profile_steps(step, out, name, n=2, ops=False, host=False):
    """n more steps under torch.profiler: wall time, GPU busy time (union of kernel intervals) and
    every CUDA kernel's total time and count, so a step-time model can be checked op class by op
    class. The full table goes to OUT/NAME-kernels.json; the row keeps the summary. ops (session 19):
    shapes recorded too, and OUT/NAME-ops.json holds per ATen op and input shapes the GPU time of the
    kernels it launched, so one convolution's time can be set beside the same one in another run."""
    import torch
    from torch.profiler import profile, ProfilerActivity
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=bool(ops)) as p:
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        torch.cuda.synchronize()
        wall = time.perf_counter() - t0
    iv = []
    kern = {}
    for e in p.events():
        if getattr(e, "device_type", None) == torch.autograd.DeviceType.CUDA:
            tr = e.time_range
            # ranges on the GPU row are not kernels: "## Call CompiledFxGraph ... ##", "Optimizer.step#..."
            if not (e.name.startswith("## ") or ("#" in e.name and " " not in e.name)):
                iv.append((tr.start, tr.end))
            k = kern.setdefault(e.name, [0, 0.0])
            k[0] += 1
            k[1] += (tr.end - tr.start)
    iv.sort()
    busy, cur_s, cur_e = 0.0, None, None
    for a, b in iv:
        if cur_e is None or a > cur_e:
            if cur_e is not None:
                busy += cur_e - cur_s
            cur_s, cur_e = a, b
        else:
            cur_e = max(cur_e, b)
    if cur_e is not None:
        busy += cur_e - cur_s
    span = (iv[-1][1] - iv[0][0]) if iv else 0.0
    rows = sorted(([k, v[0] / n, v[1] / n / 1e6] for k, v in kern.items()), key=lambda r: -r[2])
    if host:
        try:
            dump_host(p, out, name, n)
        except Exception as e:
            json.dump(dict(error=repr(e)[:500]), open(os.path.join(out, name + "-host.json"), "w"))
    if ops:
        try:
            dump_ops(p, out, name, n, every=ops == "all")
        except Exception as e:  # the kernel table below must still be written
            json.dump(dict(error=repr(e)[:500]), open(os.path.join(out, name + "-ops.json"), "w"))
    json.dump(dict(steps=n, wall_s=wall / n, gpu_busy_s=busy / n / 1e6, gpu_span_s=span / n / 1e6,
                   kernels=[dict(name=r[0], count=r[1], s=r[2]) for r in rows]),
              open(os.path.join(out, name + "-kernels.json"), "w"), indent=0)
    return dict(wall_s=wall / n, gpu_busy_s=busy / n / 1e6, gpu_span_s=span / n / 1e6, kernels=len(rows),
                top=[dict(name=r[0][:120], count=r[1], s=r[2]) for r in rows[:25]])


def dump_host(p, out, name, n):
    """Session 25: per event name (ATen ops, autograd nodes, CUDA runtime calls such as cudaLaunchKernel), the
    calls per step and the self and total CPU time per step, every name, longest self time first: where a
    host-bound step's host time goes, to set a batch-1 step beside a larger one of the same model."""
    rows = []
    for a in p.key_averages():
        rows.append(dict(name=a.key[:120], count=a.count / n, self_cpu_s=a.self_cpu_time_total / n / 1e6,
                         cpu_s=a.cpu_time_total / n / 1e6))
    rows.sort(key=lambda r: -r["self_cpu_s"])
    json.dump(dict(steps=n, events=rows), open(os.path.join(out, name + "-host.json"), "w"), indent=0)


OPS_OF_INTEREST = ("aten::convolution", "aten::convolution_backward", "aten::mm", "aten::addmm", "aten::bmm",
                   "aten::_scaled_dot_product", "aten::native_batch_norm", "aten::cudnn_batch_norm",
                   "aten::_softmax", "aten::max_pool2d", "aten::linear")


def dump_ops(p, out, name, n, every=False):
    """Per ATen op of interest and input shapes: calls and the device time of its kernels, per step. every
    (profile="allops", session 27): every op and autograd node with device time, nested ones too (aten::to's
    total holds its aten::copy_'s: read leaves, or subtract)."""
    rows = []
    for a in p.key_averages(group_by_input_shape=True):
        if not (a.key.startswith(OPS_OF_INTEREST) or every):
            continue
        dev = getattr(a, "device_time_total", None)
        if dev is None:
            dev = getattr(a, "cuda_time_total", 0)
        rows.append(dict(op=a.key, shapes=str(a.input_shapes)[:300], count=a.count / n, device_s=dev / n / 1e6,
                         cpu_s=a.cpu_time_total / n / 1e6))
    rows.sort(key=lambda r: -r["device_s"])
    json.dump(dict(steps=n, ops=rows), open(os.path.join(out, name + "-ops.json"), "w"), indent=0)


# ------------------------------------------------------------------ generate
def gen(spec, out):
    """Points run one after another in this process; before each: gc, empty_cache,
    reset_peak_memory_stats (so max_reserved includes the weights' segments)."""
    import torch
    import transformers as tf
    dtype = {"bf16": torch.bfloat16, "fp32": torch.float32, "fp16": torch.float16}[spec["dtype"]]
    torch.manual_seed(0)
    if spec.get("fraction"):
        torch.cuda.set_per_process_memory_fraction(spec["fraction"])
    start_record(spec)
    cfg = hf_config(spec)
    t0 = time.time()
    cls = getattr(tf, spec["model"])
    with torch.device("cuda"):
        try:
            model = cls._from_config(cfg, dtype=dtype)
        except TypeError:
            model = cls._from_config(cfg, torch_dtype=dtype)
    model.to(dtype).eval()
    weights = torch.cuda.memory_allocated()
    base = dict(spec)
    base.pop("points", None)
    base["versions"] = versions()
    base["alloc_conf"] = os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "")
    base["params"] = params_of(model)
    base["weights_bytes"] = weights
    base["weights_reserved"] = torch.cuda.memory_reserved()
    base["load_s"] = round(time.time() - t0, 2)
    base["hf_config"] = model.config.to_dict()
    gc_ = model.generation_config
    gc_.eos_token_id = None
    gc_.pad_token_id = 0
    gc_.bos_token_id = None
    gc_.disable_compile = True
    if spec.get("num_beams"):  # beam search scores finished hypotheses by an end token; min_new_tokens keeps the length
        gc_.eos_token_id = 1
    rows = []
    for i, (b, prompt, new) in enumerate(spec["points"]):
        res = dict(base, b=b, prompt=prompt, new_tokens=new, point_index=i,
                   name=f"{spec['name']}-b{b}-p{prompt}-n{new}")
        gc.collect()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        res["alloc_before"] = torch.cuda.memory_allocated()
        res["reserved_before"] = torch.cuda.memory_reserved()
        if spec.get("audio"):  # Whisper: a 30 s log-mel window (the prompt figure is ignored), decoder from its start
            ids = torch.randn(b, cfg.num_mel_bins, 2 * cfg.max_source_positions, device="cuda", dtype=dtype)
            kw = dict(max_new_tokens=new, min_new_tokens=new, do_sample=False)
        else:
            ids = torch.randint(1, cfg.vocab_size, (b, prompt), device="cuda")
            kw = dict(max_new_tokens=new, min_new_tokens=new, do_sample=False, attention_mask=torch.ones_like(ids))
        if spec.get("cache") == "static":
            kw["cache_implementation"] = "static"
        if spec.get("num_beams"):  # session 49: beam search (generation_config's num_beams of BART-CNN, Pegasus)
            kw["num_beams"] = spec["num_beams"]
            kw["early_stopping"] = False
        if spec.get("do_sample"):  # session 50: sampling (what an instruct checkpoint's generation_config turns on)
            kw["do_sample"] = True
            for k in ("top_k", "top_p", "temperature", "repetition_penalty", "num_return_sequences", "min_p"):
                if spec.get(k) is not None:
                    kw[k] = spec[k]
        if spec.get("output_scores") or spec.get("output_logits"):  # every step's scores kept in the output
            kw["return_dict_in_generate"] = True
            kw["output_scores"] = bool(spec.get("output_scores"))
            kw["output_logits"] = bool(spec.get("output_logits"))
        ctx = torch.inference_mode() if spec.get("grad_mode", "inference") == "inference" else torch.no_grad()
        try:
            torch.cuda.synchronize()
            t1 = time.perf_counter()
            with ctx:
                o = audio_generate(model, ids, kw, res) if spec.get("audio") else model.generate(ids, **kw)
            torch.cuda.synchronize()
            res["gen_s"] = time.perf_counter() - t1
            o = getattr(o, "sequences", o)  # return_dict_in_generate: a GenerateOutput
            res["out_len"] = int(o.shape[1])
            # an encoder-decoder returns the decoder's tokens: its start token and the new ones
            want = 1 + new if getattr(model.config, "is_encoder_decoder", False) else prompt + new
            res["status"] = "ok" if o.shape[1] == want or (spec.get("audio") and o.shape[1] >= new) else "short"
            del o
            if spec.get("timing"):
                res.update(time_point(model, ids, kw, ctx, new, spec.get("timing_detail", False)))
        except torch.OutOfMemoryError as e:
            res["status"] = "oom"
            res["oom_message"] = str(e)[:800]
        except Exception:
            res["status"] = "error"
            res["error"] = traceback.format_exc()[-1500:]
        figures(res)
        del ids
        if spec.get("snap") and i == len(spec["points"]) - 1:
            dump(spec, out, res)
        emit(res)
        rows.append(res)
    return []


def audio_generate(model, feats, kw, res):
    """Whisper's own generate (short form); if it refuses the random config, the plain GenerationMixin one with
    the same input_features (recorded in res)."""
    import transformers as tf
    try:
        return model.generate(feats, **kw)
    except Exception:
        res["whisper_generate_error"] = traceback.format_exc()[-800:]
        return tf.GenerationMixin.generate(model, input_features=feats, **kw)


def time_point(model, ids, kw, ctx, new, detail=False):
    """Warm-up already done by the measured generate: timed prefill-only forward (x3)
    and timed full generate (x3), medians."""
    import torch
    r = {}
    pre = []
    encdec = getattr(model.config, "is_encoder_decoder", False)
    one = dict(kw, max_new_tokens=1, min_new_tokens=1)
    for _ in range(3):
        torch.cuda.synchronize()
        t = time.perf_counter()
        with ctx:
            if encdec:
                # an encoder-decoder's prefill is generate's first token: the encoder pass and one decoder step
                model.generate(ids, **one)
            else:
                try:
                    model(input_ids=ids, use_cache=True, logits_to_keep=1)
                except TypeError:
                    model(input_ids=ids, use_cache=True)
        torch.cuda.synchronize()
        pre.append(time.perf_counter() - t)
    gen_t = []
    for _ in range(3):
        torch.cuda.synchronize()
        t = time.perf_counter()
        with ctx:
            model.generate(ids, **kw)
        torch.cuda.synchronize()
        gen_t.append(time.perf_counter() - t)
    p, g = sorted(pre)[1], sorted(gen_t)[1]
    r["prefill_s_all"], r["generate_s_all"] = pre, gen_t
    r["prefill_s"], r["generate_s"] = p, g
    if g > p and new > 1:
        r["decode_tok_s"] = ids.shape[0] * (new - 1) / (g - p)
        r["decode_step_s"] = (g - p) / (new - 1)
    if detail:
        try:
            r.update(time_detail(model, ids, kw, ctx, new, encdec))
        except Exception:
            r["detail_error"] = traceback.format_exc()[-1500:]
    return r


def time_detail(model, ids, kw, ctx, new, encdec):
    """Where the time of a generate goes, after the timed calls: an encoder-decoder's encoder pass alone (x5,
    median; with its ATen operator and CUDA allocation counts), a decoder-only model's prefill forward's counts,
    and the operators and allocations of generate with one and with all new tokens (a TorchDispatchMode counts
    every ATen op dispatched, views included; the caching allocator's allocation counter counts the blocks).
    The counting calls run after every timed one, so they change no timing."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class Count(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.n = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.n += 1
            return func(*args, **(kwargs or {}))

    def allocs():
        return torch.cuda.memory_stats().get("allocation.all.allocated", 0)

    def counted(fn):
        a = allocs()
        with ctx:
            fn()
        torch.cuda.synchronize()
        na = allocs() - a
        c = Count()
        with ctx, c:
            fn()
        torch.cuda.synchronize()
        return c.n, na

    out = {}
    one = dict(kw, max_new_tokens=1, min_new_tokens=1)
    if encdec:
        enc = model.get_encoder()
        mask = kw.get("attention_mask")

        def fwd():
            if ids.dtype.is_floating_point:
                enc(input_features=ids)
            elif mask is not None:
                enc(input_ids=ids, attention_mask=mask)
            else:
                enc(input_ids=ids)
    else:
        def fwd():
            try:
                model(input_ids=ids, use_cache=True, logits_to_keep=1)
            except TypeError:
                model(input_ids=ids, use_cache=True)
    ts = []
    for _ in range(5):
        torch.cuda.synchronize()
        t = time.perf_counter()
        with ctx:
            fwd()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t)
    out["fwd_s_all"] = ts
    out["fwd_s"] = sorted(ts)[2]
    out["ops_fwd"], out["allocs_fwd"] = counted(fwd)
    out["ops_gen1"], out["allocs_gen1"] = counted(lambda: model.generate(ids, **one))
    out["ops_genN"], out["allocs_genN"] = counted(lambda: model.generate(ids, **kw))
    if new > 1:
        out["ops_step"] = (out["ops_genN"] - out["ops_gen1"]) / (new - 1)
        out["allocs_step"] = (out["allocs_genN"] - out["allocs_gen1"]) / (new - 1)
    return out


# ------------------------------------------------------------------ sharded (world size 1, or several GPUs under torchrun)
def sharded(spec, out):
    import torch
    import torch.distributed as dist
    res = dict(spec)
    res["versions"] = versions()
    if "RANK" in os.environ:
        # launched by torchrun (several GPUs): one process per rank, each recording its own snapshot
        # and row, named <name>-rank<r>
        dist.init_process_group("nccl")
        rank, world, local = dist.get_rank(), dist.get_world_size(), int(os.environ.get("LOCAL_RANK", "0"))
    else:
        store = os.path.join("/tmp", "pg-" + spec["name"])
        if os.path.exists(store):
            os.remove(store)
        dist.init_process_group("nccl", init_method="file://" + store, rank=0, world_size=1)
        rank, world, local = 0, 1, 0
    if world > 1:
        spec = dict(spec, name=spec["name"] + "-rank%d" % rank)
        res["name"] = spec["name"]
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    torch.manual_seed(0)  # every rank the same batch: tensor parallelism needs it, memory does not mind
    start_record(spec)
    meta = spec.get("init") == "meta"
    if meta:
        # torchtitan's load: built on the meta device, fully_shard, then to_empty allocates each rank's shards
        with torch.device("meta"):
            model, kind = build(spec)
    else:
        model, kind = build(spec)
    res["params"] = params_of(model)
    res["hf_config"] = model.config.to_dict()
    model.config.use_cache = False
    strat = spec["strategy"]
    if meta and strat != "fsdp2":
        raise ValueError("init meta is for fsdp2")
    if spec.get("ckpt") == "block":
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    autocast = spec.get("prec", "bf16") == "bf16"
    # LLaMA-like models keep their blocks in model.model.layers, GPT-2 in model.transformer.h (late30's two GPT-2
    # rows failed on the first)
    layers = model.model.layers if hasattr(model, "model") else model.transformer.h
    if strat == "fsdp2":
        from torch.distributed.fsdp import fully_shard, MixedPrecisionPolicy
        if not meta:
            model.to(dev)
        mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        rf = spec.get("reshard", True)
        for blk in layers:
            fully_shard(blk, mp_policy=mp, reshard_after_forward=rf)
        fully_shard(model, mp_policy=mp, reshard_after_forward=rf)
        if meta:
            model.to_empty(device=dev)
            with torch.no_grad():
                model.apply(model._init_weights)  # values only: the storage is to_empty's
                for m in model.modules():  # rotary tables are non-persistent buffers to_empty left unset
                    if hasattr(m, "inv_freq") and hasattr(m, "rope_init_fn"):
                        inv, _ = m.rope_init_fn(m.config, dev)
                        m.inv_freq.copy_(inv)
        autocast = False
    elif strat == "tp":
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.tensor.parallel import (parallelize_module, ColwiseParallel,
                                                       RowwiseParallel)
        mesh = init_device_mesh("cuda", (world,))
        model.to(dev)
        plan = {"self_attn.q_proj": ColwiseParallel(), "self_attn.k_proj": ColwiseParallel(),
                "self_attn.v_proj": ColwiseParallel(), "self_attn.o_proj": RowwiseParallel(),
                "mlp.gate_proj": ColwiseParallel(), "mlp.up_proj": ColwiseParallel(),
                "mlp.down_proj": RowwiseParallel()}
        for blk in layers:
            parallelize_module(blk, mesh, plan)
    elif strat == "ddp":
        model.to(dev)
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local])
    elif strat in ("zero1", "none"):
        model.to(dev)
    elif strat == "pp":
        return pipeline(spec, out, res, model, layers, rank, world, dev, autocast)
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    if strat == "zero1":
        from torch.distributed.optim import ZeroRedundancyOptimizer
        opt = ZeroRedundancyOptimizer(params, optimizer_class=torch.optim.AdamW, lr=1e-4)
    elif strat == "tp":
        # the foreach path cannot mix DTensor (sharded linears) and plain tensors (norms, embeddings)
        opt = torch.optim.AdamW(params, lr=1e-4, foreach=False)
        res["optimizer_note"] = "AdamW(foreach=False): foreach rejects mixed DTensor/Tensor lists"
    else:
        opt = torch.optim.AdamW(params, lr=1e-4)
    vocab = model.config.vocab_size if hasattr(model, "config") else model.module.config.vocab_size

    def step():
        ids = torch.randint(0, vocab, (spec["b"], spec["seq"]), device=dev)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()

    run_steps(spec, res, step, opt)
    return finish_sharded(spec, out, res, rank, world)


def run_steps(spec, res, step, opt):
    """The sharded runs' loop: spec["iters"] steps of step() (the batch, forward and backward), then the optimizer's
    step and zero_grad, each timed (iter_s) with the allocated bytes after it; an out-of-memory error ends the loop
    with status oom."""
    import torch
    times = []
    try:
        for _ in range(spec.get("iters", 3)):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            step()
            opt.step()
            opt.zero_grad(set_to_none=True)
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
            res.setdefault("alloc_after_iter", []).append(torch.cuda.memory_allocated())
        res["status"] = "ok"
    except torch.OutOfMemoryError as e:
        res["status"] = "oom"
        res["oom_message"] = str(e)[:1500]
    res["iter_s"] = times


def finish_sharded(spec, out, res, rank, world):
    """A rank's row: its figures and snapshot, then the process group's end."""
    import torch.distributed as dist
    res["rank"], res["world"] = rank, world
    figures(res)
    dump(spec, out, res)
    try:
        dist.destroy_process_group()
    except Exception:
        pass
    return [res]


def pipeline(spec, out, res, model, layers, rank, world, dev, autocast):
    """Session 26: pipeline parallelism over the ranks (torch.distributed.pipelining), a Llama-style model split by
    hand into equal runs of decoder layers, the embedding on the first stage, the final norm and lm_head on the last;
    spec["mb"] micro-batches of spec["b"] sequences each per step, schedule spec["schedule"] (1f1b or gpipe), the
    loss (cross-entropy over the logits in float32) on the last stage. Each rank's row is its stage's memory."""
    import torch
    import torch.distributed as dist
    from torch.distributed.pipelining import PipelineStage, Schedule1F1B, ScheduleGPipe
    n = len(layers)
    k = (n + world - 1) // world
    lo, hi = rank * k, min(n, (rank + 1) * k)
    first, last = rank == 0, rank == world - 1
    inner = model.model

    class Stage(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = inner.embed_tokens if first else None
            self.layers = torch.nn.ModuleList(list(layers[lo:hi]))
            self.rotary = inner.rotary_emb
            self.norm = inner.norm if last else None
            self.head = model.lm_head if last else None

        def forward(self, x):
            if self.embed is not None:
                x = self.embed(x)
            pos = torch.arange(x.shape[1], device=x.device).unsqueeze(0)
            pe = self.rotary(x, pos)
            for blk in self.layers:
                o = blk(x, attention_mask=None, position_ids=pos, position_embeddings=pe)
                x = o[0] if isinstance(o, tuple) else o
            if self.head is not None:
                x = self.head(self.norm(x))
            return x

    stage_mod = Stage().to(dev)
    stage_mod.train()
    res["stage_layers"] = [lo, hi]
    res["stage_params"] = sum(p.numel() for p in stage_mod.parameters())
    mb = spec.get("mb", world)
    stage = PipelineStage(stage_mod, rank, world, dev)

    def loss_fn(logits, target):
        return torch.nn.functional.cross_entropy(logits.float().view(-1, logits.size(-1)), target.view(-1))

    cls = ScheduleGPipe if spec.get("schedule", "1f1b") == "gpipe" else Schedule1F1B
    sched = cls(stage, n_microbatches=mb, loss_fn=loss_fn)
    opt = torch.optim.AdamW([p for p in stage_mod.parameters() if p.requires_grad], lr=1e-4)
    vocab = model.config.vocab_size

    def step():
        ids = torch.randint(0, vocab, (spec["b"] * mb, spec["seq"]), device=dev)
        dist.broadcast(ids, 0)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
            if first:
                sched.step(ids)
            elif last:
                sched.step(target=ids, losses=[])
            else:
                sched.step()

    run_steps(spec, res, step, opt)
    return finish_sharded(spec, out, res, rank, world)


def multi(spec, out):
    """Timing pass: several training specs one after another in this process, no history;
    each row's iter_s has every step (drop the first ones), step_median_s = median of steps 3..N."""
    import torch
    try:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import gt_probe
        host = gt_probe.probe()
    except Exception:
        host = {"error": traceback.format_exc()[-500:]}
    import torch.nn.functional as F
    sdpa = F.scaled_dot_product_attention
    for sub in spec["specs"]:
        sub = dict(sub, snap=False, build_on_gpu=True)
        try:
            rows = train(sub, out)
        except Exception:
            rows = [dict(sub, status="error", error=traceback.format_exc()[-1500:])]
        # ckpt="selective" patches SDPA for the process: undo it, or every later workload of the group
        # runs selective too (late42's T5-large and late43's Qwen3 plain rows did, before session 23's fix)
        F.scaled_dot_product_attention = sdpa
        for r in rows:
            it = r.get("iter_s") or []
            tail = sorted(it[2:]) if len(it) > 2 else []
            if tail:
                r["step_median_s"] = tail[len(tail) // 2]
            r["timing"] = True
            # the row ran with F.scaled_dot_product_attention as torch has it (the patch undone above): a reader
            # need not drop the rows timed after a selective workload of the same process
            r["sdpa_restored"] = True
            r["host_probe"] = host
            r["heldout"] = sub.get("heldout", False)
            emit(r)
        gc.collect()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    return []


def probe(spec, out):
    """The machine's figure alone (gt_probe.py), as a result row."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gt_probe
    return [dict(name=spec.get("name", "probe"), status="ok", probe=gt_probe.probe())]


def modhost(spec, out):
    """Host cost per module kind (gt_modhost.py), one row per module, each named PREFIX-MODULE."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gt_modhost, gt_probe
    p = gt_probe.probe()
    rows = gt_modhost.measure(issue_us=p.get("issue_us_per_op"), extra=spec.get("extra", False))
    return [dict(r, name=spec["name"] + "-" + r["name"], job=spec["name"], status="error" if "error" in r else "ok",
                 host_probe=p) for r in rows]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--spec", required=True)
    a = ap.parse_args()
    spec = json.loads(a.spec)
    os.makedirs(a.out, exist_ok=True)
    fn = {"train": train, "gen": gen, "sharded": sharded, "multi": multi, "probe": probe, "modhost": modhost}[spec["kind"]]
    try:
        for r in fn(spec, a.out):
            emit(r)
    except Exception:
        emit(dict(spec, status="error", error=traceback.format_exc()[-3000:]))


if __name__ == "__main__":
    main()
