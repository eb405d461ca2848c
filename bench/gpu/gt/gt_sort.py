"""Sorts the unpacked device results of call 1 and call 2 into testdata/captures/<group>/ and
testdata/heldout/<group>/ by each row's heldout flag (fixed in gt_jobs.py before any run).

usage: python3 gt_sort.py RAW1 RAW2 TESTDATA
A job run in both calls keeps call 2's rows. Rows that are not measurements (skipped, error,
crash) are left out of results and listed in TESTDATA/captures/NOT_CAPTURED.txt.
"""
import json, os, shutil, sys

MEASURED = ("ok", "oom", "short")
# calibration rows held out: every third shape of each section (by position in gt_calib.py)
HELD_GEMM = {(8192, 8192, 8192), (128, 4096, 4096), (4096, 1024, 4096), (32768, 1024, 4096), (8192, 50304, 768),
             (16384, 2816, 1024), (1024, 1024, 16384)}
HELD_SDPA = {(4, 16, 1024, 64), (1, 32, 8192, 128)}
HELD_PW = {"gelu", "softmax"}


def rows_of(raw, call):
    out = {}
    for g in sorted(os.listdir(raw)):
        p = os.path.join(raw, g, "results.jsonl")
        if not os.path.exists(p):
            continue
        for l in open(p):
            r = json.loads(l)
            r["call"] = call
            r["source_group"] = g
            out.setdefault(r.get("job") or r["name"], []).append(r)
    return out


def main():
    raw1, raw2, td = sys.argv[1:4]
    jobs = rows_of(raw1, 1)
    for k, v in rows_of(raw2, 2).items():
        jobs[k] = v
    missing = []
    files = {}
    for job, rows in sorted(jobs.items()):
        for r in rows:
            if r.get("status") not in MEASURED:
                missing.append(f"{r['name']}\t{r.get('status')}\t{(r.get('reason') or r.get('error') or '')[-160:]!r}")
                continue
            g = r["source_group"]
            name = "results.jsonl"
            if g == "timing_gen":
                g, name = "timing", "generate_timing.jsonl"
            elif g == "timing" or (g == "compile" and r.get("timing")):
                name = "timing.jsonl"
            if g == "calibration":
                continue
            dest = os.path.join(td, "heldout" if r.get("heldout") else "captures", g)
            os.makedirs(dest, exist_ok=True)
            r.pop("log_tail", None)
            files.setdefault(os.path.join(dest, name), []).append(r)
            snap = r.get("snapshot")
            if snap:
                raw = raw2 if r["call"] == 2 else raw1
                src = os.path.join(raw, r["source_group"], snap)
                if os.path.exists(src):
                    shutil.copy(src, os.path.join(dest, snap))
                else:
                    r["snapshot_missing"] = True
    for p, rows in files.items():
        with open(p, "w") as f:
            for r in rows:
                f.write(json.dumps(r, sort_keys=False) + "\n")
        print(p, len(rows))
    # calibration: split by shape
    cal = json.load(open(os.path.join(raw2, "calibration", "calibration.json")))
    keep, held = dict(cal), dict(cal)
    for sec, key, hs in (("gemm", lambda r: (r["M"], r["N"], r["K"]), HELD_GEMM),
                         ("sdpa", lambda r: (r["B"], r["H"], r["S"], r["D"]), HELD_SDPA),
                         ("pointwise", lambda r: r["op"], HELD_PW)):
        rows = cal.get(sec, [])
        keep[sec] = [r for r in rows if key(r) not in hs]
        held[sec] = [r for r in rows if key(r) in hs]
    for d, obj in (("captures", keep), ("heldout", held)):
        p = os.path.join(td, d, "calibration")
        os.makedirs(p, exist_ok=True)
        with open(os.path.join(p, "calibration.json"), "w") as f:
            json.dump(obj, f, indent=1)
    # the vramkit-run capture of the full-GPU OOM
    vk = os.path.join(raw1, "oom", "vk-vitl16-b512-fp32-vramkit")
    if os.path.isdir(vk):
        dest = os.path.join(td, "captures", "oom", "vramkit-run-vitl16-b512-fp32")
        os.makedirs(dest, exist_ok=True)
        for f in os.listdir(vk):
            src = os.path.join(vk, f)
            if f.endswith(".pickle"):
                import gzip
                with open(src, "rb") as a, gzip.open(os.path.join(dest, f + ".gz"), "wb") as b:
                    shutil.copyfileobj(a, b)
            else:
                shutil.copy(src, dest)
    with open(os.path.join(td, "captures", "NOT_CAPTURED.txt"), "w") as f:
        f.write("# jobs defined in bench/gpu/gt/gt_jobs*.py without a measurement (name, status, reason)\n")
        f.write("\n".join(missing) + "\n")
    print(len(missing), "not captured")


if __name__ == "__main__":
    main()
