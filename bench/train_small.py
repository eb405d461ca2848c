"""A small PyTorch training job for validating `vramkit run` on a real GPU.

  python3 bench/train_small.py --steps 20 --report peaks.json   train, print/write torch's peaks
  python3 bench/train_small.py --oom                             die of OOM under a memory fraction
  python3 bench/train_small.py --hold 60                         train, then keep memory for 60 s
  python3 bench/train_small.py --time --steps 200 [--record]     median step time (ms)

Under torchrun each rank uses cuda:$LOCAL_RANK modulo the GPU count (no
process group: the point is one snapshot per rank, not DDP).
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=20)
p.add_argument("--batch", type=int, default=512)
p.add_argument("--width", type=int, default=4096)
p.add_argument("--report", help="write torch's peak counters here as JSON")
p.add_argument("--oom", action="store_true", help="cap memory with set_per_process_memory_fraction and overflow it")
p.add_argument("--fraction", type=float, default=0.02)
p.add_argument("--hold", type=float, default=0, help="seconds to keep memory after training")
p.add_argument("--time", action="store_true", help="print the median step time")
p.add_argument("--record", action="store_true", help="enable _record_memory_history ourselves (baseline for the shim's cost)")
a = p.parse_args()

local_rank = int(os.environ.get("LOCAL_RANK", "0"))
dev = torch.device("cuda", local_rank % torch.cuda.device_count())
torch.cuda.set_device(dev)
if a.record:
    torch.cuda.memory._record_memory_history(max_entries=1_000_000, stacks="python")
if a.oom:
    torch.cuda.set_per_process_memory_fraction(a.fraction, dev)
    # The input (256 MiB) and the weights (512 MiB) fit in 2% of an H200
    # (2.8 GiB); the forward pass's activations (4 x 512 MiB) do not.
    a.batch = 16384

w = a.width
model = torch.nn.Sequential(
    torch.nn.Linear(w, 2 * w), torch.nn.GELU(), torch.nn.Linear(2 * w, 2 * w), torch.nn.GELU(), torch.nn.Linear(2 * w, w)
).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(a.batch, w, device=dev)

times = []
for step in range(a.steps):
    t0 = time.perf_counter()
    loss = model(x).float().square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize(dev)
    times.append(time.perf_counter() - t0)

peaks = {
    "pid": os.getpid(),
    "rank": os.environ.get("RANK"),
    "device": dev.index,
    "max_memory_allocated": torch.cuda.max_memory_allocated(dev),
    "max_memory_reserved": torch.cuda.max_memory_reserved(dev),
    "memory_allocated": torch.cuda.memory_allocated(dev),
    "memory_reserved": torch.cuda.memory_reserved(dev),
    "torch": torch.__version__,
}
print("torch peaks:", json.dumps(peaks), flush=True)
if a.report:
    with open(a.report, "w") as f:
        json.dump(peaks, f, indent=1)
if a.time:
    warm = times[10:] if len(times) > 20 else times
    print("median step %.3f ms over %d steps (record=%s, shim=%s)" % (
        1000 * statistics.median(warm), len(warm), a.record, "_vramkit_shim" in sys.modules), flush=True)
if a.hold:
    print("holding memory for %.0f s" % a.hold, flush=True)
    time.sleep(a.hold)
