"""A quick figure of the machine a timing ran on (host and GPU), so that timings taken on different
lent machines can be compared: CPU model, a pure-Python loop, PyTorch's per-op issue time (tiny
CUDA ops queued without a sync), a sync round trip, and the GPU's GEMM rate, copy bandwidth and
clocks/power limit. probe() takes about two seconds; gt_work.py's timing pass records one per process.

usage: python3 gt_probe.py [OUT.json]
"""
import json, os, subprocess, sys, time


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def smi():
    q = "name,power.limit,clocks.max.sm,clocks.sm,clocks.mem,driver_version,temperature.gpu"
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=" + q, "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        return dict(zip(q.split(","), [x.strip() for x in out.split("\n")[0].split(",")]))
    except Exception as e:  # noqa
        return {"error": repr(e)[:200]}


def probe():
    import torch
    r = {"cpu": cpu_model(), "nproc": os.cpu_count(), "smi": smi(), "torch": torch.__version__,
         "gpu": torch.cuda.get_device_name()}
    t0 = time.perf_counter()
    s = 0
    for i in range(2_000_000):
        s += i
    r["py_loop_ns_per_iter"] = (time.perf_counter() - t0) / 2e6 * 1e9
    x = torch.ones(1, device="cuda")
    for _ in range(200):
        x.add_(1)
    torch.cuda.synchronize()
    best = []
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(3000):
            x.add_(1)
        best.append((time.perf_counter() - t0) / 3000 * 1e6)
        torch.cuda.synchronize()
    r["issue_us_per_op"] = min(best)
    t0 = time.perf_counter()
    for _ in range(300):
        x.add_(1)
        torch.cuda.synchronize()
    r["sync_roundtrip_us"] = (time.perf_counter() - t0) / 300 * 1e6
    for n, dt in ((8192, torch.bfloat16), (4096, torch.bfloat16), (4096, torch.float32)):
        a = torch.randn(n, n, device="cuda", dtype=dt)
        b = torch.randn(n, n, device="cuda", dtype=dt)
        for _ in range(3):
            a @ b
        torch.cuda.synchronize()
        st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        reps = 20
        st.record()
        for _ in range(reps):
            a @ b
        en.record()
        en.synchronize()
        r[f"gemm_{n}_{str(dt)[6:]}_tflops"] = 2 * n ** 3 * reps / (st.elapsed_time(en) / 1000) / 1e12
        del a, b
    a = torch.empty(256 << 20, device="cuda", dtype=torch.float32)
    b = torch.empty_like(a)
    b.copy_(a)
    torch.cuda.synchronize()
    st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    st.record()
    for _ in range(10):
        b.copy_(a)
    en.record()
    en.synchronize()
    r["copy_gbps"] = 2 * a.numel() * 4 * 10 / (st.elapsed_time(en) / 1000) / 1e9
    del a, b
    torch.cuda.empty_cache()
    return r


if __name__ == "__main__":
    res = probe()
    print("RESULT " + json.dumps(dict(name="probe", status="ok", probe=res)), flush=True)
    if len(sys.argv) > 1:
        json.dump(res, open(sys.argv[1], "w"), indent=1)
