"""Host cost per module kind (session 38, dev69): what the host spends issuing one module call, forward and
backward, at shapes so small that the GPU never holds it up.

The step-time walk prices every module-level op at one cost (memmodel.HostCosts.Op). The phase split of dev67-68 and
late63-65 says that price is too high for leaf modules (BERT, torchvision, GPT-2 forwards 0.46-0.9x the walk's) and
too low for Hugging Face decoder layers (Llama-small 1.06-1.4x). This measures, per module in one process: the
forward call's host time with grad (fp32 and under bf16 autocast), the backward call's host time, and what each
issued: aten ops (TorchDispatchMode) and autograd nodes (walking grad_fn). Leaf modules (Linear, LayerNorm, Dropout,
GELU, Conv2d, BatchNorm2d), whole blocks (torchvision Bottleneck, BasicBlock, ConvNeXt and MBConv blocks, ViT encoder
block; Hugging Face BertLayer, GPT2Block, LlamaDecoderLayer) and PEFT's LoRA Linear beside the frozen Linear it wraps.
Times are medians of 5 batches of 100 calls after warm-up, in microseconds; the probe's issue time is in the row.
"""
import statistics, time


def _count_ops(fn):
    from torch.utils._python_dispatch import TorchDispatchMode

    class Count(TorchDispatchMode):
        n = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            Count.n += 1
            return func(*args, **(kwargs or {}))

    with Count():
        out = fn()
    return Count.n, out


def _nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(g for g, _ in f.next_functions)
    return len(seen)


def _first(y):
    if isinstance(y, (tuple, list)):
        return y[0]
    return getattr(y, "last_hidden_state", y)


def _time(fn, n=100, reps=5):
    import torch
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        ts.append((time.perf_counter() - t0) / n * 1e6)
        torch.cuda.synchronize()
    return statistics.median(ts)


def _time_bwd(make, n=50, reps=5):
    """Median host time of loss.backward() alone over graphs made by make() (not timed)."""
    import torch
    for _ in range(5):
        make().backward()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        tot = 0.0
        for _ in range(n):
            loss = make()
            t0 = time.perf_counter()
            loss.backward()
            tot += time.perf_counter() - t0
        ts.append(tot / n * 1e6)
        torch.cuda.synchronize()
    return statistics.median(ts)


def _rope_layer(layer_cls, rope_cls, cfg, d):
    """Decoder layer 0 of cfg with the rotary embedding its model would pass it (computed on first call)."""
    import torch
    m = layer_cls(cfg, 0)
    m._rope = rope_cls(cfg).to(d)
    m._pos = torch.arange(8, device=d)[None]
    m._pe = None
    return m


def modules(extra=False):
    """(name, kind, module factory, input factory, call) for each measured module; extra adds
    extra_modules'."""
    import torch
    import torch.nn as nn
    d = "cuda"
    tok = lambda h: (lambda: torch.randn(1, 8, h, device=d, requires_grad=True))
    img = lambda c, s=16: (lambda: torch.randn(1, c, s, s, device=d, requires_grad=True))
    call = lambda m, x: m(x)
    out = [
        ("linear-768", "leaf", lambda: nn.Linear(768, 768), tok(768), call),
        ("linear-768-nobias", "leaf", lambda: nn.Linear(768, 768, bias=False), tok(768), call),
        ("layernorm-768", "leaf", lambda: nn.LayerNorm(768), tok(768), call),
        ("dropout-0.1", "leaf", lambda: nn.Dropout(0.1), tok(768), call),
        ("gelu", "leaf", lambda: nn.GELU(), tok(768), call),
        ("conv3x3-64", "leaf", lambda: nn.Conv2d(64, 64, 3, padding=1, bias=False), img(64), call),
        ("batchnorm2d-64", "leaf", lambda: nn.BatchNorm2d(64), img(64), call),
        ("relu", "leaf", lambda: nn.ReLU(), img(64), call),
    ]
    import torchvision
    out += [
        ("tv-bottleneck-256", "block", lambda: torchvision.models.resnet50().layer1[1], img(256), call),
        ("tv-basicblock-64", "block", lambda: torchvision.models.resnet34().layer1[1], img(64), call),
        ("tv-convnext-block-96", "block", lambda: torchvision.models.convnext_tiny().features[1][1], img(96), call),
        ("tv-mbconv-24", "block", lambda: torchvision.models.efficientnet_b0().features[2][1], img(24), call),
        ("tv-vit-encoder-block", "block", lambda: torchvision.models.vit_b_16().encoder.layers[0], tok(768), call),
    ]
    import transformers as T
    bert = T.BertConfig(attn_implementation="sdpa")
    gpt2 = T.GPT2Config(attn_implementation="sdpa")
    llama = T.LlamaConfig(hidden_size=1024, intermediate_size=2816, num_hidden_layers=24, num_attention_heads=16,
                          num_key_value_heads=16, attn_implementation="sdpa")

    def llama_call(m, x):
        if m._pe is None:  # the model computes these once per forward, not per layer
            with torch.no_grad():
                m._pe = m._rope(x, m._pos)
        return m(x, position_embeddings=m._pe, attention_mask=None, position_ids=m._pos)

    def llama_layer():
        from transformers.models.llama.modeling_llama import LlamaDecoderLayer, LlamaRotaryEmbedding
        return _rope_layer(LlamaDecoderLayer, LlamaRotaryEmbedding, llama, d)

    def bert_layer():
        from transformers.models.bert.modeling_bert import BertLayer
        return BertLayer(bert)

    def gpt2_block():
        from transformers.models.gpt2.modeling_gpt2 import GPT2Block
        return GPT2Block(gpt2, layer_idx=0)

    out += [
        ("hf-bert-layer", "hf", bert_layer, tok(768), call),
        ("hf-gpt2-block", "hf", gpt2_block, tok(768), call),
        ("hf-llama-decoder-layer", "hf", llama_layer, tok(1024), llama_call),
    ]

    def lora_linear():
        import peft

        class Q(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(768, 768)

            def forward(self, x):
                return self.q(x)
        pm = peft.get_peft_model(Q(), peft.LoraConfig(r=16, lora_alpha=32, target_modules=["q"], lora_dropout=0.0))
        return pm.base_model.model.q  # the LoRA layer itself, as a model's forward calls it

    def frozen_linear():
        m = nn.Linear(768, 768)
        m.requires_grad_(False)
        return m

    out += [
        ("peft-lora-linear-768", "lora", lora_linear, tok(768), call),
        ("frozen-linear-768", "lora", frozen_linear, tok(768), call),
    ]
    if extra:
        out += extra_modules(d, tok, call, llama_call, llama)
    return out


def extra_modules(d, tok, call, llama_call, llama):
    """Session 38's second call (dev70): more Hugging Face layer kinds, and whole models at 8 tokens whose layers
    the list above times alone (the step's per-layer host against the model's)."""
    import torch
    import transformers as T
    qwen = T.Qwen2Config(hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
                         num_key_value_heads=2, attn_implementation="sdpa")
    moe = T.MixtralConfig(hidden_size=256, intermediate_size=512, num_local_experts=8, num_experts_per_tok=2,
                          num_hidden_layers=2, num_attention_heads=8, num_key_value_heads=8)

    def qwen_layer():
        from transformers.models.qwen2.modeling_qwen2 import Qwen2DecoderLayer, Qwen2RotaryEmbedding
        return _rope_layer(Qwen2DecoderLayer, Qwen2RotaryEmbedding, qwen, d)

    def moe_block():
        from transformers.models.mixtral.modeling_mixtral import MixtralSparseMoeBlock
        return MixtralSparseMoeBlock(moe)

    def t5_block():
        from transformers.models.t5.modeling_t5 import T5Block
        return T5Block(T.T5Config(), has_relative_attention_bias=True, layer_idx=0)

    def whisper_layer():
        from transformers.models.whisper.modeling_whisper import WhisperEncoderLayer
        return WhisperEncoderLayer(T.WhisperConfig(d_model=768, encoder_attention_heads=12, encoder_ffn_dim=3072))

    ids = lambda: torch.randint(0, 1000, (1, 8), device=d)
    lm = lambda m, x: m(input_ids=x).logits
    out = [
        ("hf-qwen2-decoder-layer", "hf", qwen_layer, tok(896), llama_call),
        ("hf-mixtral-moe-block-256", "hf", moe_block, tok(256), call),
        ("hf-t5-block", "hf", t5_block, tok(512), lambda m, x: m(x, attention_mask=None)),
        ("hf-whisper-encoder-layer", "hf", whisper_layer, tok(768), lambda m, x: m(x, attention_mask=None)),
        ("model-bert-base", "model", lambda: T.BertForSequenceClassification(T.BertConfig(attn_implementation="sdpa")),
         ids, lm),
        ("model-gpt2", "model", lambda: T.GPT2LMHeadModel(T.GPT2Config(attn_implementation="sdpa")), ids, lm),
        ("model-llama-small", "model", lambda: T.LlamaForCausalLM(llama), ids, lm),
    ]
    return out


def measure(only=None, issue_us=None, extra=False):
    import torch
    rows = []
    for name, kind, mk, inp, fn in modules(extra):
        if only and name not in only:
            continue
        try:
            m = mk().to("cuda").train()
            x = inp()
            r = dict(name=name, kind_of_module=kind, params=sum(1 for p in m.parameters() if p.requires_grad),
                     issue_us_per_op=issue_us)
            n, nb = (20, 10) if kind == "model" else (100, 50)  # a whole model's call is 10-100x a layer's
            for mode in ("fp32", "bf16-amp"):
                amp = mode == "bf16-amp"

                def fwd():
                    with torch.autocast("cuda", torch.bfloat16, enabled=amp):
                        return _first(fn(m, x))

                with torch.no_grad():
                    r[mode + "_fwd_nograd_us"] = _time(fwd, n)
                r[mode + "_fwd_us"] = _time(fwd, n)
                r[mode + "_fwd_aten_ops"], y = _count_ops(fwd)
                r[mode + "_bwd_nodes"] = _nodes(y)
                r[mode + "_bwd_us"] = _time_bwd(lambda: fwd().float().sum(), nb)
                try:
                    loss = fwd().float().sum()
                    r[mode + "_bwd_aten_ops"], _ = _count_ops(lambda: loss.backward())
                except Exception as e:  # noqa: counting is secondary to the times
                    r[mode + "_bwd_aten_ops_error"] = repr(e)[:200]
            rows.append(r)
        except Exception as e:  # noqa: one module's failure should not lose the others
            rows.append(dict(name=name, kind_of_module=kind, error=repr(e)[:500]))
    return rows


if __name__ == "__main__":
    import json
    for r in measure():
        print(json.dumps(r))
