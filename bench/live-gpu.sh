#!/usr/bin/env bash
# Validates `vramkit run`, `watch` and `export` on a real GPU machine (the
# H200 box with torch 2.11 and nvidia-ml-py). Everything lands in $OUT
# (default bench/out/live-gpu); results.txt says what passed.
#
#   bench/live-gpu.sh                  # builds ./vramkit with go if present
#   VRAMKIT=/path/to/vramkit bench/live-gpu.sh
#
# Steps: 1 run a training script -> snapshot + sidecar peaks == the script's
# torch.cuda.max_memory_*; 2 a script that dies of OOM under
# set_per_process_memory_fraction -> exit 1 kept, snapshot at OOM;
# 3 torchrun with 2 ranks -> one snapshot per rank; 4 SIGTERM to vramkit ->
# forwarded, snapshot, status 143; 5 watch --once lists the training
# process with NVML's number (cross-checked with nvidia-ml-py); 6 export
# answers a scrape; 7 step time: plain vs own _record_memory_history vs shim.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/out/live-gpu}
rm -rf "$OUT"; mkdir -p "$OUT"
R="$OUT/results.txt"
pass() { echo "PASS $*" | tee -a "$R"; }
fail() { echo "FAIL $*" | tee -a "$R"; }

if [ -z "${VRAMKIT:-}" ]; then
  if command -v go >/dev/null; then go build -o "$OUT/vramkit" ./cmd/vramkit 2>"$OUT/build.log" || { cat "$OUT/build.log"; exit 1; }; VRAMKIT=$OUT/vramkit
  else VRAMKIT=./vramkit; fi
fi
V=$VRAMKIT
{ nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'; } >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

# 1. Normal run: the shim's sidecar peaks must equal what the script printed.
"$V" run --out "$OUT/train" -- python3 bench/train_small.py --steps 20 --report "$OUT/train-peaks.json" >"$OUT/train.stdout" 2>"$OUT/train.stderr"
rc=$?
[ $rc -eq 0 ] && [ -s "$OUT/train/snapshot.pickle" ] && pass "run: exit 0 and snapshot.pickle written" || fail "run: rc=$rc"
python3 - "$OUT/train-peaks.json" "$OUT/train/snapshot.json" >>"$R" 2>&1 <<'PY' 
import json, sys
want = json.load(open(sys.argv[1])); side = json.load(open(sys.argv[2]))
d = [x for x in side["devices"] if x["index"] == want["device"]][0]
ok = d["max_allocated_bytes"] == want["max_memory_allocated"] and d["max_reserved_bytes"] == want["max_memory_reserved"]
print(("PASS" if ok else "FAIL"), "run: sidecar peaks", d["max_allocated_bytes"], d["max_reserved_bytes"], "vs torch", want["max_memory_allocated"], want["max_memory_reserved"])
sys.exit(0 if ok else 1)
PY
true
# vramkit stats comes with the lead's snapshot reader; its peak must match too.
if "$V" help | grep -q "^  stats "; then
  "$V" stats "$OUT/train/snapshot.pickle" >"$OUT/train-stats.txt" 2>&1
  "$V" stats --format json "$OUT/train/snapshot.pickle" >"$OUT/train-stats.json" 2>&1
  echo "INFO compare $OUT/train-stats.json with $OUT/train-peaks.json" | tee -a "$R"
fi

# 2. OOM: exit status 1 passes through; the snapshot is written at the OOM.
"$V" run --out "$OUT/oom" -- python3 bench/train_small.py --oom >"$OUT/oom.stdout" 2>"$OUT/oom.stderr"
rc=$?
[ $rc -eq 1 ] && pass "oom: exit status 1 preserved" || fail "oom: rc=$rc (want 1)"
[ -s "$OUT/oom/snapshot-oom.pickle" ] && pass "oom: snapshot-oom.pickle written" || fail "oom: no snapshot-oom.pickle"
grep -q "OUT OF MEMORY" "$OUT/oom.stderr" && pass "oom: summary explains the OOM" || fail "oom: no OOM explanation in summary"
"$V" help | grep -q "^  stats " && "$V" stats "$OUT/oom/snapshot-oom.pickle" >"$OUT/oom-stats.txt" 2>&1

# 3. torchrun: one snapshot per rank.
if command -v torchrun >/dev/null; then
  "$V" run --out "$OUT/ranks" -- torchrun --standalone --nproc-per-node 2 bench/train_small.py --steps 5 >"$OUT/ranks.stdout" 2>"$OUT/ranks.stderr"
  [ -s "$OUT/ranks/snapshot-rank0.pickle" ] && [ -s "$OUT/ranks/snapshot-rank1.pickle" ] && pass "torchrun: snapshot-rank0/1.pickle" || fail "torchrun: $(ls "$OUT/ranks")"
fi

# 4. SIGTERM to vramkit reaches the trainer, which dumps and dies of it.
"$V" run --out "$OUT/term" -- python3 bench/train_small.py --steps 5 --hold 120 >"$OUT/term.stdout" 2>"$OUT/term.stderr" &
vpid=$!
for _ in $(seq 120); do grep -q "holding memory" "$OUT/term.stdout" 2>/dev/null && break; sleep 0.5; done
kill -TERM $vpid; wait $vpid; rc=$?
[ $rc -eq 143 ] && [ -s "$OUT/term/snapshot.pickle" ] && pass "sigterm: status 143 and snapshot" || fail "sigterm: rc=$rc $(ls "$OUT/term")"

# 5. watch --once lists the trainer with the memory NVML reports.
python3 bench/train_small.py --steps 5 --hold 30 >"$OUT/hold.stdout" 2>&1 &
tpid=$!
for _ in $(seq 120); do grep -q "holding memory" "$OUT/hold.stdout" 2>/dev/null && break; sleep 0.5; done
"$V" watch --once >"$OUT/watch-once.txt" 2>&1
"$V" watch --once --format json >"$OUT/watch-once.json" 2>&1
nvidia-smi --query-compute-apps=pid,used_memory --format=csv >"$OUT/nvidia-smi.csv" 2>&1
python3 - "$tpid" "$OUT/watch-once.json" >>"$R" 2>&1 <<'PY' || true
import json, sys
import pynvml  # nvidia-ml-py
pid = int(sys.argv[1]); w = json.load(open(sys.argv[2]))
ours = [p["used_bytes"] for g in w["gpus"] for p in g["processes"] if p["pid"] == pid]
pynvml.nvmlInit()
theirs = []
for i in range(pynvml.nvmlDeviceGetCount()):
    h = pynvml.nvmlDeviceGetHandleByIndex(i)
    theirs += [p.usedGpuMemory for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h) if p.pid == pid]
print(("PASS" if ours and ours == theirs else "FAIL"), "watch --once: pid", pid, "vramkit", ours, "nvidia-ml-py", theirs)
PY
kill $tpid 2>/dev/null; wait $tpid 2>/dev/null

# 6. export answers a scrape.
"$V" export --listen 127.0.0.1:19947 2>"$OUT/export.log" &
epid=$!
sleep 1
python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:19947/metrics").read().decode())' >"$OUT/metrics.txt" 2>&1
kill -INT $epid; wait $epid
grep -q '^vramkit_gpu_memory_used_bytes{' "$OUT/metrics.txt" && grep -q '^vramkit_nvml_up 1' "$OUT/metrics.txt" && pass "export: scrape has vramkit_gpu_memory_used_bytes" || fail "export: see $OUT/metrics.txt"
grep '^vramkit_' "$OUT/metrics.txt" | head -20 >>"$R"

# 7. Step-time cost: plain, PyTorch's recording alone, and the shim.
for mode in plain record shim; do
  case $mode in
    plain) python3 bench/train_small.py --time --steps 200 ;;
    record) python3 bench/train_small.py --time --steps 200 --record ;;
    shim) "$V" run --out "$OUT/time-shim" -- python3 bench/train_small.py --time --steps 200 2>/dev/null ;;
  esac | grep "median step" | sed "s/^/INFO $mode: /" | tee -a "$R"
done

# 8. Sampler overhead with the fake (no GPU needed), for the record.
command -v go >/dev/null && go test -run XXX -bench 'Sample|Trends' -benchtime 2s ./internal/monitor/ 2>/dev/null | grep -E '^Benchmark' | sed 's/^/INFO /' | tee -a "$R"

echo; echo "== $R"; cat "$R"
