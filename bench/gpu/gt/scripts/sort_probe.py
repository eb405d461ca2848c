"""Session 50: what the sampling warpers' operators allocate through the caching allocator, by shape: torch.sort
(ascending, as TopPLogitsWarper calls it; the CUDA sort picks its algorithm by the segment length and the number
of segments), topk, softmax, cumsum, scatter of a bool mask, masked_fill and multinomial(num_samples=1), on float32
batch x vocab scores. One JSON line per (op, shape): the allocations in order (bytes; negative = a free) recorded
by the allocator's history, and the peak above the inputs."""
import json
import torch

VOCABS = (32000, 50257, 128256, 151936, 256000)
BATCHES = (1, 4, 16, 64, 256)


def events(fn):
    torch.cuda.synchronize()
    torch.cuda.memory._record_memory_history(max_entries=100000)
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    out = fn()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    snap = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    ev = []
    for e in snap["device_traces"][0]:
        if e["action"] == "alloc":
            ev.append(e["size"])
        elif e["action"] == "free_requested":
            ev.append(-e["size"])
    del out
    return ev, peak


def main():
    for v in VOCABS:
        for b in BATCHES:
            x = torch.randn(b, v, device="cuda")
            p = torch.softmax(x, -1)
            srt, idx = torch.sort(x)
            mask = torch.rand(b, v, device="cuda") < 0.5
            ops = {
                "sort": lambda: torch.sort(x, descending=False),
                "sort_desc": lambda: torch.sort(x, descending=True),
                "topk50": lambda: torch.topk(x, 50),
                "topk50_lt": lambda: x < torch.topk(x, 50)[0][..., -1, None],
                "softmax_cumsum": lambda: srt.softmax(dim=-1).cumsum(dim=-1),
                "scatter_bool": lambda: mask.scatter(1, idx, mask),
                "masked_fill": lambda: x.masked_fill(mask, -float("inf")),
                "multinomial": lambda: torch.multinomial(p, num_samples=1),
                "div": lambda: x / 0.7,
            }
            for name, fn in ops.items():
                try:
                    fn()  # warm: kernels and any lazily made state
                    ev, peak = events(fn)
                    print(json.dumps(dict(op=name, b=b, vocab=v, unit=b * v * 4, events=ev, peak=peak)), flush=True)
                except Exception as e:  # noqa: BLE001
                    print(json.dumps(dict(op=name, b=b, vocab=v, error=repr(e)[:300])), flush=True)
            del x, p, srt, idx, mask
            torch.cuda.empty_cache()
    print(json.dumps(dict(torch=torch.__version__)))


main()
