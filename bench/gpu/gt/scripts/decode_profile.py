"""Session 52: how much GPU work a greedy decode step does beside the host's time to issue it. generate synchronises
every step, so when the GPU's work per step nears the host's, the part left when the host reaches the sync is
exposed, and max(host, GPU) under-prices the step (dev105: GPT-2 medium greedy at 32 rows p256 ran 20% slower than
priced, its beam steps 16-19%). For four decoder models (random weights, bf16, DynamicCache, inference_mode, 64 new
tokens) at 8, 32 and 128 rows and prompts 128 and 1024: generate timed three times (median), then one generate
under torch.profiler: total self CUDA time (the GPU's busy time), self CPU time (inflated by the profiler), and the
number of kernels launched. One JSON line per point, then a RESULT line."""
import json
import os
import time
import torch
import transformers as tf

MODELS = {
    "gpt2-medium": (tf.GPT2LMHeadModel, tf.GPT2Config(n_embd=1024, n_layer=24, n_head=16, n_positions=2048)),
    "tinyllama": (tf.LlamaForCausalLM, tf.LlamaConfig(
        hidden_size=2048, intermediate_size=5632, num_hidden_layers=22, num_attention_heads=32,
        num_key_value_heads=4, vocab_size=32000, max_position_embeddings=8192)),
    "qwen25-05b": (tf.Qwen2ForCausalLM, tf.Qwen2Config(
        hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
        num_key_value_heads=2, vocab_size=151936, max_position_embeddings=32768, tie_word_embeddings=True)),
    "llama32-1b": (tf.LlamaForCausalLM, tf.LlamaConfig(
        hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
        num_key_value_heads=8, head_dim=64, vocab_size=128256, max_position_embeddings=131072,
        tie_word_embeddings=True, rope_theta=500000.0)),
}
NEW = 64


def main():
    from torch.profiler import profile, ProfilerActivity
    pick = os.environ.get("DP_MODELS")  # a comma-separated subset, for a short call
    for name, (cls, cfg) in MODELS.items():
        if pick and name not in pick.split(","):
            continue
        with torch.device("cuda"):
            model = cls._from_config(cfg, dtype=torch.bfloat16).eval()
        g = model.generation_config
        g.eos_token_id, g.pad_token_id, g.bos_token_id, g.disable_compile = None, 0, None, True
        for rows in [int(x) for x in os.environ.get("DP_ROWS", "8,32,128").split(",")]:
            for prompt in (128, 1024):
                ids = torch.randint(2, cfg.vocab_size, (rows, prompt), device="cuda")
                kw = dict(max_new_tokens=NEW, min_new_tokens=NEW, do_sample=False,
                          attention_mask=torch.ones_like(ids))
                one = dict(kw, max_new_tokens=1, min_new_tokens=1)
                r = dict(model=name, rows=rows, prompt=prompt, new=NEW)
                try:
                    with torch.inference_mode():
                        model.generate(ids, **kw)  # warm-up
                    for key, args in (("gen_s", kw), ("gen1_s", one)):
                        ts = []
                        for _ in range(3):
                            torch.cuda.synchronize()
                            t = time.perf_counter()
                            with torch.inference_mode():
                                model.generate(ids, **args)
                            torch.cuda.synchronize()
                            ts.append(time.perf_counter() - t)
                        r[key], r[key + "_all"] = sorted(ts)[1], ts
                    with torch.inference_mode(), profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
                        model.generate(ids, **kw)
                        torch.cuda.synchronize()
                    ev = p.key_averages()
                    dk = "self_device_time_total" if hasattr(ev[0], "self_device_time_total") else "self_cuda_time_total"
                    r["self_cpu_s"] = sum(e.self_cpu_time_total for e in ev) / 1e6
                    r["self_cuda_s"] = sum(getattr(e, dk) for e in ev if e.device_type == torch.autograd.DeviceType.CUDA) / 1e6
                    r["launches"] = sum(e.count for e in ev if e.key in ("cudaLaunchKernel", "cuLaunchKernelEx", "cuLaunchKernel"))
                    r["top_cuda_ms"] = [(e.key[:60], e.count, round(getattr(e, dk) / 1e3, 2)) for e in
                                        sorted(ev, key=lambda e: -getattr(e, dk))[:6]]
                except torch.OutOfMemoryError:
                    r["status"] = "oom"
                print(json.dumps(r), flush=True)
                del ids
                torch.cuda.empty_cache()
        del model
        torch.cuda.empty_cache()
    print("RESULT " + json.dumps(dict(status="ok", torch=torch.__version__)), flush=True)


main()
