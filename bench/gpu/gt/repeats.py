"""Lists the jobs of a call whose workload some earlier capture already ran: the same model, config and
technique mix (batch, sequence, precision, checkpointing, LoRA, optimizer, accumulation, strategy, format,
resolution) and the same number of steps (a timed workload's seven against a memory row's three: the one
does not repeat the other). Rows of the call's own set (its name prefix) do not count. A blind set's job list should show none before it is committed; late46 (session 24) carried six
such rows unnoticed until after its evaluation.

usage: python3 repeats.py CALL [TESTDATA]     (e.g. python3 repeats.py call95 ../../../testdata)
"""
import glob, json, os, sys

KEYS = ("kind", "iters", "model", "config", "cfg", "io", "b", "seq", "prec", "ckpt", "lora", "opt", "accum", "strategy",
        "channels_last", "res", "reshard", "compile", "dtype", "cache", "grad_mode")


def key(spec):
    return json.dumps([spec.get(k) for k in KEYS], sort_keys=True)


def testdata_rows(testdata):
    """Every completed row of every results.jsonl under testdata."""
    for f in glob.glob(os.path.join(testdata, "**", "results.jsonl"), recursive=True):
        for line in open(f):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if isinstance(r, dict) and "name" in r and r.get("status", "ok") == "ok":
                yield r


def captured(testdata):
    out = {}
    for r in testdata_rows(testdata):
        out.setdefault(key(r), []).append(r["name"])
    return out


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gt_jobs
    call = sys.argv[1]
    testdata = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                                  "testdata")
    seen = captured(testdata)
    n = 0
    for j in getattr(gt_jobs, call)():
        spec = j.get("spec")
        if not spec:
            continue
        for s in spec.get("specs", [spec]):  # a timing group's workloads, or the job's own
            own = (s.get("name") or j["name"]).split("-")[0] + "-"
            twins = [t for t in seen.get(key(s), []) if not t.startswith(own)]
            if twins and s.get("kind") != "probe":
                n += 1
                print("%-52s repeats %s" % (s.get("name") or j["name"], ", ".join(sorted(set(twins))[:4])))
    print("%d of the call's workloads repeat earlier captures" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
