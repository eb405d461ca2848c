"""Session 50: what each of transformers' sampling warpers costs the host and the GPU per generate step, by shape.
For float32 batch x vocab scores: host time per call (perf_counter over 200 calls issued without synchronising,
GPU work queued behind), GPU time per call (CUDA events around 200 calls after the queue drained), for
TemperatureLogitsWarper, TopKLogitsWarper(50), TopPLogitsWarper(0.9), MinPLogitsWarper(0.1) (session 51), softmax + multinomial, argmax (greedy), and
the chain Llama 3 Instruct's generation_config runs. One JSON line per (warper, shape)."""
import json
import time
import torch
import transformers.generation.logits_process as lp

SHAPES = ((8, 32000), (32, 128256), (64, 128256), (128, 151936), (160, 151936), (32, 50257))


def sample(s):
    return torch.multinomial(torch.softmax(s, -1), num_samples=1)


def main():
    ids = None
    for b, v in SHAPES:
        x = torch.randn(b, v, device="cuda")
        ids = torch.randint(0, v, (b, 64), device="cuda")
        temp, topk, topp = lp.TemperatureLogitsWarper(0.6), lp.TopKLogitsWarper(50), lp.TopPLogitsWarper(0.9)
        rep = lp.RepetitionPenaltyLogitsProcessor(1.05)
        minp = lp.MinPLogitsWarper(0.1)  # session 51
        chain = lp.LogitsProcessorList([temp, topk, topp])
        ops = {
            "argmax": lambda: torch.argmax(x, -1),
            "temperature": lambda: temp(ids, x),
            "top_k50": lambda: topk(ids, x),
            "top_p0.9": lambda: topp(ids, x),
            "repetition_penalty": lambda: rep(ids, x),
            "softmax_multinomial": lambda: sample(x),
            "min_p0.1": lambda: minp(ids, x),
            "l3inst_chain_and_sample": lambda: sample(chain(ids, x)),
        }
        for name, fn in ops.items():
            for _ in range(5):
                fn()
            torch.cuda.synchronize()
            n = 200
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            host = (time.perf_counter() - t0) / n
            torch.cuda.synchronize()
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(n):
                fn()
            e1.record()
            torch.cuda.synchronize()
            wall = e0.elapsed_time(e1) / 1e3 / n
            # the same calls with a synchronize after each: latency when nothing overlaps
            t0 = time.perf_counter()
            for _ in range(50):
                fn()
                torch.cuda.synchronize()
            lat = (time.perf_counter() - t0) / 50
            print(json.dumps(dict(op=name, b=b, vocab=v, host_s=host, gpu_s=wall, sync_s=lat)), flush=True)
        del x
        torch.cuda.empty_cache()
    # the runner's row (gt_runner.py reads RESULT lines; without one it files the job as a crash, as call 186 did)
    print("RESULT " + json.dumps(dict(status="ok", torch=torch.__version__)), flush=True)


main()
