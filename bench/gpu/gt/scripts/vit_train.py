# A plain torchvision ViT training script, loop at module level (no main()).
# Env: GT_MODEL (vit_l_16|vit_b_16), GT_BATCH, GT_PREC (fp32|bf16 autocast), GT_CKPT (1: per-block
# checkpointing), GT_FRACTION (per-process memory fraction), GT_SNAP (1: record from the top and
# dump a snapshot at the end or at the out-of-memory error), GT_NAME, GT_OUT, GT_ITERS.
import json, os, time
import torch
import torchvision
from torch.utils.checkpoint import checkpoint

snap = os.environ.get("GT_SNAP") == "1"
if snap:
    torch.cuda.memory._record_memory_history(max_entries=2_000_000, context="alloc", stacks="python")
frac = float(os.environ.get("GT_FRACTION", "0") or 0)
if frac:
    torch.cuda.set_per_process_memory_fraction(frac)

arch = os.environ.get("GT_MODEL", "vit_l_16")
batch_size = int(os.environ.get("GT_BATCH", "512"))
prec = os.environ.get("GT_PREC", "fp32")
use_ckpt = os.environ.get("GT_CKPT") == "1"
iters = int(os.environ.get("GT_ITERS", "2"))
name = os.environ.get("GT_NAME", f"{arch}-b{batch_size}-{prec}")
out_dir = os.environ.get("GT_OUT", ".")

model = getattr(torchvision.models, arch)(weights=None).cuda()
if use_ckpt:
    for blk in model.encoder.layers:
        blk.forward = (lambda f: (lambda *a: checkpoint(f, *a, use_reentrant=False)))(blk.forward)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
criterion = torch.nn.CrossEntropyLoss()
res = dict(name=name, script="vit_train.py", model=arch, b=batch_size, prec=prec,
           ckpt="block" if use_ckpt else "none", fraction=frac or None, iters=iters,
           params=sum(p.numel() for p in model.parameters()))
iter_s = []
try:
    for step in range(iters):
        t0 = time.perf_counter()
        images = torch.randn(batch_size, 3, 224, 224, device="cuda")
        labels = torch.randint(0, 1000, (batch_size,), device="cuda")
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=prec == "bf16"):
            loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        iter_s.append(time.perf_counter() - t0)
    res["status"] = "ok"
except torch.OutOfMemoryError as e:
    res["status"] = "oom"
    res["oom_message"] = str(e)[:1500]
    res["oom_step"] = len(iter_s)
    if snap:
        p = os.path.join(out_dir, name + ".pickle")
        torch.cuda.memory._dump_snapshot(p)
        res["snapshot"] = os.path.basename(p) + ".gz"
        snap = False
res["iter_s"] = iter_s
res["max_allocated"] = torch.cuda.max_memory_allocated()
res["max_reserved"] = torch.cuda.max_memory_reserved()
st = torch.cuda.memory_stats()
res["stats"] = {k: st.get(k) for k in ("allocated_bytes.all.peak", "reserved_bytes.all.peak",
                                       "num_alloc_retries", "num_ooms", "segment.all.peak")}
res["total_memory"] = torch.cuda.get_device_properties(0).total_memory
if snap:
    p = os.path.join(out_dir, name + ".pickle")
    torch.cuda.memory._dump_snapshot(p)
    res["snapshot"] = os.path.basename(p) + ".gz"
print("RESULT " + json.dumps(res), flush=True)
if res["status"] == "oom":
    raise SystemExit(1)
