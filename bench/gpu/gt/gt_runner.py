"""Runs ground-truth jobs on the one GPU, each in its own fresh process, and packs the
results into at most a few tar.gz archives under --pack (the device's $OUT).

usage: python3 gt_runner.py --jobs call1|call2 --raw DIR --pack DIR --budget SECONDS [--par N]
        [--only SUBSTR ...] [--gpu-gb GB]

A job is a dict: name, group, and either spec (for gt_work.py) or cmd (argv) + env; mem_gb (a
guess of its peak: the scheduler keeps the sum of running guesses under --gpu-gb); exclusive
(runs with nothing else on the GPU: timings and full-GPU OOMs); timeout (seconds). A job that
fails, crashes or times out leaves a row with status error/crash/timeout and the tail of its
output; the runner goes on. No new job starts once less than its timeout (capped at 60 s)
remains before the budget; jobs still running at the budget are killed.
"""
import argparse, gzip, json, os, re, shutil, signal, subprocess, sys, tarfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def gzip_pickles(d, name):
    """gzip the finished job's own snapshot (never another running job's file)."""
    for f in (name + ".pickle",):
        p = os.path.join(d, f)
        if os.path.exists(p):
            with open(p, "rb") as a, gzip.open(p + ".gz", "wb", compresslevel=6) as b:
                shutil.copyfileobj(a, b)
            os.remove(p)


def pack(raw, dest, prefix, limit=15 * 1024 * 1024, max_files=6):
    files = []
    for root, _, fs in os.walk(raw):
        for f in fs:
            p = os.path.join(root, f)
            files.append((os.path.getsize(p), p))
    files.sort(key=lambda x: (not x[1].endswith((".jsonl", ".txt", ".json")), x[0]))
    parts, cur, size = [], [], 0
    for sz, p in files:
        if cur and size + sz > limit:
            parts.append(cur)
            cur, size = [], 0
        cur.append(p)
        size += sz
    if cur:
        parts.append(cur)
    os.makedirs(dest, exist_ok=True)
    written = []
    for i, part in enumerate(parts[:max_files]):
        t = os.path.join(dest, f"{prefix}-part{i}.tar.gz")
        with tarfile.open(t, "w:gz") as tf:
            for p in part:
                tf.add(p, arcname=os.path.relpath(p, raw))
        written.append((t, os.path.getsize(t)))
    if len(parts) > max_files:
        print(f"PACK: {len(parts) - max_files} parts dropped (too many)", flush=True)
    return written


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", required=True)
    ap.add_argument("--raw", required=True)
    ap.add_argument("--pack", required=True)
    ap.add_argument("--budget", type=float, default=480)
    ap.add_argument("--par", type=int, default=6)
    ap.add_argument("--gpu-gb", type=float, default=128)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    t_start = time.time()
    sys.path.insert(0, HERE)
    import gt_jobs
    jobs = getattr(gt_jobs, a.jobs)()
    if a.only:
        jobs = [j for j in jobs if any(s in j["name"] for s in a.only)]
    os.makedirs(a.raw, exist_ok=True)
    log = open(os.path.join(a.raw, "runner_log.txt"), "a")

    def say(msg):
        line = f"[{time.time() - t_start:6.1f}s] {msg}"
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    say(f"{len(jobs)} jobs, budget {a.budget}s, par {a.par}, gpu {a.gpu_gb} GB")
    try:
        loop(a, jobs, say, t_start)
    except Exception:
        import traceback
        say("RUNNER FAILED: " + traceback.format_exc()[-2000:])
    log.close()
    for t, sz in pack(a.raw, a.pack, a.jobs):
        print(f"PACKED {t} {sz}", flush=True)


def loop(a, jobs, say, t_start):
    pending = list(jobs)
    running = []  # (job, popen, t0, logpath)
    done = 0
    while pending or running:
        now = time.time() - t_start
        used = sum(j["mem_gb"] for j, *_ in running)
        excl_running = any(j.get("exclusive") for j, *_ in running)
        started = False
        for j in list(pending):
            if excl_running or len(running) >= a.par:
                break
            if now + min(j.get("timeout", 120), 60) > a.budget or now > j.get("not_after", 1e9):
                pending.remove(j)
                write_row(a.raw, j, dict(status="skipped", reason="time budget"))
                say(f"{j['name']}: skipped (budget)")
                continue
            if j.get("exclusive") and running:
                break  # wait for the GPU to empty (keeps order for exclusive jobs)
            if used + j["mem_gb"] > a.gpu_gb and running:
                continue
            pending.remove(j)
            gdir = os.path.join(a.raw, j["group"])
            os.makedirs(gdir, exist_ok=True)
            env = dict(os.environ, PYTHONUNBUFFERED="1", TOKENIZERS_PARALLELISM="false",
                       HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
                       OMP_NUM_THREADS=str(max(1, 16 // a.par)), GT_OUT=gdir, GT_NAME=j["name"])
            env.update(j.get("env", {}))
            if "spec" in j:
                spec = dict(j["spec"], name=j["name"], group=j["group"])
                argv = [sys.executable, os.path.join(HERE, "gt_work.py"), "--out", gdir, "--spec", json.dumps(spec)]
            else:
                argv = [x.replace("@HERE", HERE).replace("@OUT", gdir) for x in j["cmd"]]
            lp = os.path.join(gdir, j["name"] + ".log")
            lf = open(lp, "w")
            try:
                p = subprocess.Popen(argv, stdout=lf, stderr=subprocess.STDOUT, env=env, cwd=gdir,
                                     start_new_session=True)
            except OSError as e:
                lf.close()
                write_row(a.raw, j, dict(status="crash", error="cannot start: " + repr(e)))
                say(f"{j['name']}: cannot start: {e!r}")
                continue
            running.append((j, p, time.time(), lp, lf))
            used += j["mem_gb"]
            started = True
            if j.get("exclusive"):
                break
        time.sleep(0.5)
        for item in list(running):
            j, p, t0, lp, lf = item
            el = time.time() - t0
            over = el > j.get("timeout", 300) or time.time() - t_start > a.budget
            if p.poll() is None and not over:
                continue
            status_override = None
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except Exception:
                    pass
                p.wait()
                status_override = "timeout"
            running.remove(item)
            lf.close()
            txt = open(lp, errors="replace").read()
            # torchrun may prefix its workers' lines with "[rankN]:"
            lines = [re.sub(r"^\[(?:default)?rank\d+\]:", "", l) for l in txt.splitlines()]
            rows = [json.loads(l[7:]) for l in lines if l.startswith("RESULT ")]
            gzip_pickles(os.path.join(a.raw, j["group"]), j["name"])
            if not rows:
                rows = [dict(j.get("spec", {}), name=j["name"], status=status_override or "crash",
                             returncode=p.returncode, log_tail=txt[-2500:])]
            elif status_override:
                for r in rows:
                    r.setdefault("note", "process killed at timeout after this row")
            for r in rows:
                r.setdefault("name", j["name"])
                r["group"] = j["group"]
                r.setdefault("heldout", j.get("heldout", False))
                r["job"] = j["name"]
                r["wall_s"] = round(el, 1)
                r["returncode"] = p.returncode
                if r.get("status") in ("error", "crash", "timeout") and "log_tail" not in r:
                    r["log_tail"] = txt[-2500:]
                write_row(a.raw, j, r)
                say(f"{r['name']}: {r.get('status')} alloc={r.get('max_allocated')} "
                    f"resv={r.get('max_reserved')} nvml={r.get('nvml_used')} wall={r['wall_s']}")
                if r.get("status") in ("error", "crash", "timeout"):
                    say("   " + (r.get("error") or r.get("log_tail") or "")[-600:].replace("\n", "\n   "))
            done += 1
    say(f"all done: {done} jobs in {time.time() - t_start:.0f}s")


def write_row(raw, j, r):
    gdir = os.path.join(raw, j["group"])
    os.makedirs(gdir, exist_ok=True)
    if "status" in r and "name" not in r:
        r = dict(j.get("spec", {}), name=j["name"], group=j["group"], **r)
    with open(os.path.join(gdir, "results.jsonl"), "a") as f:
        f.write(json.dumps(r, default=str) + "\n")


if __name__ == "__main__":
    main()
