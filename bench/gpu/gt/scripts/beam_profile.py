"""Session 52: why GPT-2 medium's beam-search decode steps take ~2x its greedy ones (dev101, a lent H100: 23.7 ms at
b2 x 4 beams p512, 19.8 ms at b8 x 4 beams p256, greedy 11.5 ms at 8 and 32 rows) while BART-large's take 0.83x
the price. For GPT-2 medium and TinyLlama (random weights, bf16, DynamicCache, inference_mode, eos set so beam
search runs to min_new_tokens): each generate timed three times (median), beam 4 and greedy at the same rows, at
two prompt lengths; then one generate of each under torch.profiler: total self CPU and CUDA time, and the ten
operators with the most self CPU time and the most CUDA time. One JSON line per measurement, then a RESULT line."""
import json
import time
import torch
import transformers as tf

MODELS = {
    "gpt2-medium": (tf.GPT2LMHeadModel, tf.GPT2Config(n_embd=1024, n_layer=24, n_head=16, n_positions=1024)),
    "tinyllama": (tf.LlamaForCausalLM, tf.LlamaConfig(
        hidden_size=2048, intermediate_size=5632, num_hidden_layers=22, num_attention_heads=32,
        num_key_value_heads=4, vocab_size=32000, max_position_embeddings=8192)),
}
NEW = 64


def run(model, rows, prompt, beams, vocab):
    ids = torch.randint(2, vocab, (rows // beams, prompt), device="cuda")
    kw = dict(max_new_tokens=NEW, min_new_tokens=NEW, do_sample=False, attention_mask=torch.ones_like(ids))
    if beams > 1:
        kw.update(num_beams=beams, early_stopping=False)
    return lambda: model.generate(ids, **kw)


def timed(fn):
    out = []
    for _ in range(3):
        torch.cuda.synchronize()
        t = time.perf_counter()
        with torch.inference_mode():
            fn()
        torch.cuda.synchronize()
        out.append(time.perf_counter() - t)
    return sorted(out)[1], out


def profiled(fn):
    from torch.profiler import profile, ProfilerActivity
    with torch.inference_mode(), profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    ev = p.key_averages()
    cpu = sum(e.self_cpu_time_total for e in ev) / 1e6
    cuda = sum(getattr(e, "self_device_time_total", getattr(e, "self_cuda_time_total", 0)) for e in ev) / 1e6
    top = lambda key: [(e.key, e.count, round(getattr(e, key) / 1e3, 2)) for e in
                       sorted(ev, key=lambda e: -getattr(e, key))[:10]]
    dkey = "self_device_time_total" if hasattr(ev[0], "self_device_time_total") else "self_cuda_time_total"
    return dict(self_cpu_s=cpu, self_cuda_s=cuda, top_cpu_ms=top("self_cpu_time_total"), top_cuda_ms=top(dkey))


def main():
    for name, (cls, cfg) in MODELS.items():
        with torch.device("cuda"):
            model = cls._from_config(cfg, dtype=torch.bfloat16).eval()
        g = model.generation_config
        g.eos_token_id, g.pad_token_id, g.bos_token_id, g.disable_compile = 1, 0, None, True
        for rows, prompt in ((8, 128), (8, 512), (32, 256)):
            for beams in (1, 4):
                fn = run(model, rows, prompt, beams, cfg.vocab_size)
                with torch.inference_mode():
                    fn()  # warm-up
                med, all_ = timed(fn)
                r = dict(model=name, rows=rows, prompt=prompt, beams=beams, new=NEW, gen_s=med, gen_s_all=all_)
                if prompt == 512:
                    r.update(profiled(fn))
                print(json.dumps(r), flush=True)
        del model
        torch.cuda.empty_cache()
    print("RESULT " + json.dumps(dict(status="ok", torch=torch.__version__)), flush=True)


main()
