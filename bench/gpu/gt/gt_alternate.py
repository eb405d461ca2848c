"""Alternated timing (session 56): several configurations of one model timed step by step in turn, in one process,
so that the host's speed, which moves up to 1.5x between processes (dev13, dev111), moves every configuration
alike and their ratio is measured rather than the processes' difference.

A train spec with "alternate": [variant, ...] builds the model once; each variant names a suffix for its row's name
and what it changes: "prec" (fp32, bf16: autocast on or off over the same float32 weights), "ckpt" ("block" or
"none": transformers' switch, or gt_work's block wrappers), "b" and "accum" (micro-batch and accumulation steps),
"compile" (the same model under torch.compile, compiled on its first step). Each variant runs "warm" steps back
to back first (2: allocator growth, the compile), then "rounds" rounds of one step each, the order rotated each
round so that no variant always follows the same one. A variant's row has iter_s = its warm steps then its timed
ones (multi takes the median of iter_s[2:]), and phase_s and cpu_s per step as train() has them. No memory
figures: the process's peak is every variant's at once.

After every timed step, one step per variant runs under a TorchDispatchMode that counts the ATen ops dispatched
(forward, backward and optimizer; casts autocast inserts show as _to_copy), which the step-time walk's op and
kernel counts are checked against. The counting steps change no timing. A compiled configuration counts as its
eager twin (dev112: the same ops, the dispatch mode running the model unfused), so its counts say nothing of
Inductor's launches."""
import time
import traceback

MEMORY_KEYS = ("stats", "max_allocated", "max_reserved", "nvml_used", "nvml_total", "alloc_after_iter")


def alternate(spec, res, step, apply, phases):
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    vs = spec["alternate"]
    n = len(vs)
    warm, rounds = spec.get("warm", 2), spec.get("rounds", 12)
    # a variant the model cannot take (transformers' ConvNeXt has no gradient checkpointing: late102) is left out
    # of the rounds and its row says why, rather than failing the others
    refused = {}
    for i, v in enumerate(vs):
        try:
            apply(v)
        except Exception:
            refused[i] = traceback.format_exc()[-800:]
    live = [i for i in range(n) if i not in refused]
    order = [i for i in live for _ in range(warm)]
    for r in range(rounds):
        k = r % len(live) if live else 0
        order += live[k:] + live[:k]
    times, ph, cpu = [[] for _ in vs], [[] for _ in vs], [[] for _ in vs]
    status, err = "ok", None
    try:
        for i in order:
            apply(vs[i])
            torch.cuda.synchronize()
            t0, c0 = time.perf_counter(), time.process_time()
            step()
            torch.cuda.synchronize()
            times[i].append(time.perf_counter() - t0)
            cpu[i].append(time.process_time() - c0)
            ph[i].append(phases[-1])
    except torch.OutOfMemoryError as e:
        status, err = "oom", str(e)[:1500]
    except Exception:
        status, err = "error", traceback.format_exc()[-1500:]

    class Count(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = {}

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func.overloadpacket.__name__
            self.ops[name] = self.ops.get(name, 0) + 1
            return func(*args, **(kwargs or {}))

    counts = [None] * n
    if status == "ok":
        for i, v in enumerate(vs):
            if i in refused:
                continue
            try:
                apply(v)
                c = Count()
                with c:
                    step()
                torch.cuda.synchronize()
                top = sorted(c.ops.items(), key=lambda kv: -kv[1])
                counts[i] = dict(total=sum(c.ops.values()), to_copy=c.ops.get("_to_copy", 0),
                                 copy_=c.ops.get("copy_", 0), top=dict(top[:40]))
            except Exception:
                counts[i] = dict(error=traceback.format_exc()[-800:])
    names = [spec["name"] + v["suffix"] for v in vs]
    rows = []
    for i, v in enumerate(vs):
        r = {k: x for k, x in res.items() if k not in MEMORY_KEYS}
        r.update({k: x for k, x in v.items() if k != "suffix"})
        r.update(name=names[i], iter_s=times[i], cpu_s=cpu[i], phase_s=ph[i], iters=len(times[i]),
                 alternated=[names[j] for j in live], alternate=None, status=status, aten_ops=counts[i])
        r.setdefault("accum", 1)
        if err:
            r["error"] = err
        if i in refused:
            r.update(status="error", error=refused[i], alternated=[])
        rows.append(r)
    return rows
