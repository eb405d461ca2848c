"""Allocator probes for vramkit's simulator, run on a real GPU.

Each scenario runs in a fresh process under its own PYTORCH_CUDA_ALLOC_CONF, records the
allocator trace from the first allocation, and writes <name>.pickle.gz (the snapshot) and
<name>.json (torch.cuda.memory_stats() at the end, the settings, the memory fraction).
The scenarios exercise what the training fixtures do not: GC under a memory fraction,
oversize blocks with OOM retries, several streams with record_stream, expandable segments
with empty_cache churn, list-form roundup, large_segment_size_mb, max_non_split_rounding_mb.

usage: python3 engine_probes.py OUTDIR [NAME...]
"""
import gzip, json, os, random, subprocess, sys

SCEN = {
    "gc-fraction": dict(conf="garbage_collection_threshold:0.6,max_split_size_mb:64", frac=0.02),
    "split64-oom": dict(conf="max_split_size_mb:64", frac=0.015),
    "default-oom-retry": dict(conf="", frac=0.01),
    "streams": dict(conf="", frac=None),
    "expandable-churn": dict(conf="expandable_segments:True", frac=None),
    "expandable-fraction": dict(conf="expandable_segments:True", frac=0.01),
    "roundup-list": dict(conf="roundup_power2_divisions:[64:8,256:4,>:1],large_segment_size_mb:64", frac=None),
    "nonsplit-rounding": dict(conf="max_split_size_mb:40,max_non_split_rounding_mb:60", frac=None),
}


def child(name):
    import torch
    spec = SCEN[name]
    if spec["frac"]:
        torch.cuda.set_per_process_memory_fraction(spec["frac"])
    torch.cuda.memory._record_memory_history(max_entries=1_000_000, context="alloc", stacks="python")
    rng = random.Random(hash(name) & 0xffff)
    dev = "cuda"
    live = []
    ooms = 0
    MB = 1 << 20
    streams = [torch.cuda.current_stream()] + ([torch.cuda.Stream(), torch.cuda.Stream()] if name == "streams" else [])

    def sizes():
        r = rng.random()
        if r < 0.45:
            return rng.randint(1, 1 << 20)          # small pool
        if r < 0.8:
            return rng.randint(1 << 20, 40 * MB)      # large, split territory
        return rng.randint(40 * MB, 300 * MB)         # oversize territory

    for step in range(1500):
        op = rng.random()
        if op < 0.55 or not live:
            n = sizes()
            s = rng.choice(streams)
            try:
                with torch.cuda.stream(s):
                    t = torch.empty(n, dtype=torch.uint8, device=dev)
                live.append((t, s))
            except torch.OutOfMemoryError:
                ooms += 1
                # free a third, like a script that catches OOM and retries smaller
                rng.shuffle(live)
                del live[: len(live) // 3]
        elif op < 0.9:
            i = rng.randrange(len(live))
            t, s = live.pop(i)
            if len(streams) > 1 and rng.random() < 0.3:
                other = rng.choice([x for x in streams if x is not s])
                t.record_stream(other)
                with torch.cuda.stream(other):
                    torch.cuda._sleep(rng.randint(1000, 200000))
            del t
        elif op < 0.97:
            # a tiny compute so kernels run between allocations
            if live:
                t, s = rng.choice(live)
                with torch.cuda.stream(s):
                    t[: min(t.numel(), 1024)].add_(1)
        else:
            if name in ("expandable-churn", "streams", "roundup-list") or rng.random() < 0.3:
                torch.cuda.empty_cache()
    torch.cuda.synchronize()
    del live
    st = torch.cuda.memory_stats()
    out = os.environ["PROBE_OUT"]
    snap = os.path.join(out, name + ".pickle")
    torch.cuda.memory._dump_snapshot(snap)
    with open(snap, "rb") as f, gzip.open(snap + ".gz", "wb") as g:
        g.write(f.read())
    os.remove(snap)
    info = dict(name=name, alloc_conf=spec["conf"], memory_fraction=spec["frac"], ooms_caught=ooms,
                total_memory=torch.cuda.get_device_properties(0).total_memory,
                torch=torch.__version__, stats=st)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(info, f, indent=0, sort_keys=True)
    print(name, "ooms", ooms, "peak reserved", st["reserved_bytes.all.peak"], "retries", st["num_alloc_retries"],
          "device free", st["num_device_free"], flush=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = sys.argv[2:] or list(SCEN)
    for n in names:
        env = dict(os.environ, PROBE_OUT=out)
        if SCEN[n]["conf"]:
            env["PYTORCH_CUDA_ALLOC_CONF"] = SCEN[n]["conf"]
        r = subprocess.run([sys.executable, __file__, "--child", n], env=env, timeout=300)
        if r.returncode:
            print(n, "FAILED", r.returncode, flush=True)


if __name__ == "__main__":
    main()
