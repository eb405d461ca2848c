"""Prediction rows for a timing call that has not run: one results.jsonl row per timed spec of the call's jobs, in the
shape bench/steptime reads, so that a blind set's predictions can be written before capture:

    python3 bench/gpu/gt/gt_predict.py call137 > /tmp/pred-h200.jsonl
    python3 bench/gpu/gt/gt_predict.py call137 "NVIDIA H100 80GB HBM3" > /tmp/pred-h100.jsonl
    go run ./bench/steptime /tmp/pred-h200.jsonl

Each row copies the model's built configuration (hf_config, params) from a row of the same model, config and io that
testdata already holds (a spec with none is reported on stderr and left out) and takes the shape and technique from the
spec. The measured fields are placeholders (10 ms a step): only the predicted columns mean anything."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
TESTDATA = os.path.join(HERE, "..", "..", "..", "testdata")


def templates():
    from repeats import testdata_rows
    return [r for r in testdata_rows(TESTDATA) if r.get("kind") == "train"]


def specs(call):
    import gt_jobs
    for job in getattr(gt_jobs, call)():
        spec = job.get("spec", {})
        yield from spec.get("specs", [spec] if spec.get("kind") == "train" else [])


def main(call, gpu=""):
    rows = templates()
    for s in specs(call):
        tpl = next((r for r in rows if r.get("model") == s["model"] and r.get("cfg") == s.get("cfg")
                    and r.get("io") == s.get("io")), None)
        if tpl is None:
            print("no row of", s["model"], "to copy for", s["name"], file=sys.stderr)
            continue
        r = {k: tpl[k] for k in ("kind", "model", "config", "cfg", "io", "hf_config", "params", "versions") if k in tpl}
        r.update({k: s[k] for k in ("name", "b", "seq", "prec", "ckpt", "lora", "accum", "lora_targets", "opt", "iters",
                                    "compile", "channels_last") if k in s})
        r.setdefault("prec", "bf16")
        r.setdefault("ckpt", "none")
        r.update(status="ok", timing=True, step_median_s=0.01, iter_s=[1] + [0.01] * 6, host_probe={"gpu": gpu})
        print(json.dumps(r))


if __name__ == "__main__":
    main(*sys.argv[1:3])
