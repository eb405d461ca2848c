"""Private memory pools (CUDA graph capture, torch.cuda.MemPool) on a real GPU, for the
allocator simulator. Each scenario runs in a fresh process, records history from the start,
and writes <name>.pickle.gz and <name>.json (memory_stats at the end).

usage: python3 pool_probes.py OUTDIR
"""
import gzip, json, os, subprocess, sys

SCEN = ["graph-mlp", "graph-release", "mempool", "mempool-nosplit"]


def child(name):
    import torch
    torch.cuda.memory._record_memory_history(max_entries=1_000_000, context="alloc", stacks="python")
    dev = "cuda"
    torch.manual_seed(0)
    if name.startswith("graph"):
        model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 1024)).to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x = torch.randn(64, 1024, device=dev)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                opt.zero_grad(set_to_none=True)
                model(x).sum().backward()
                opt.step()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        opt.zero_grad(set_to_none=True)
        with torch.cuda.graph(g):
            loss = model(x).sum()
            loss.backward()
            opt.step()
        for _ in range(5):
            x.copy_(torch.randn(64, 1024, device=dev))
            g.replay()
        extra = [torch.empty(n, device=dev) for n in (1000, 300000, 5_000_000)]
        del extra
        if name == "graph-release":
            del g, loss
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            y = torch.empty(20_000_000, device=dev)
            del y
    else:
        kw = {"use_on_oom": False}
        if name == "mempool-nosplit":
            kw["no_split"] = True
        try:
            pool = torch.cuda.MemPool(**kw)
        except TypeError:
            pool = torch.cuda.MemPool()
        a = torch.empty(3_000_000, device=dev)
        with torch.cuda.use_mem_pool(pool):
            b = [torch.empty(n, device=dev) for n in (100, 200_000, 2_000_000, 6_000_000, 500)]
            del b[1]
            c = torch.empty(100_000, device=dev)
        d = torch.empty(4_000_000, device=dev)
        del b, c
        torch.cuda.empty_cache()
        del pool
        torch.cuda.empty_cache()
        e = torch.empty(1_000_000, device=dev)
    torch.cuda.synchronize()
    st = torch.cuda.memory_stats()
    out = os.environ["PROBE_OUT"]
    snap = os.path.join(out, name + ".pickle")
    torch.cuda.memory._dump_snapshot(snap)
    with open(snap, "rb") as f, gzip.open(snap + ".gz", "wb") as g2:
        g2.write(f.read())
    os.remove(snap)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(dict(name=name, torch=torch.__version__, stats=st), f, indent=0, sort_keys=True)
    print(name, "ok reserved peak", st["reserved_bytes.all.peak"], flush=True)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for n in SCEN:
        r = subprocess.run([sys.executable, __file__, "--child", n], env=dict(os.environ, PROBE_OUT=out),
                           timeout=240, capture_output=True, text=True)
        print(n, "rc", r.returncode, r.stdout.strip()[-300:], r.stderr.strip()[-800:], flush=True)


if __name__ == "__main__":
    main()
