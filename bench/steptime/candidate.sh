#!/bin/bash
# Evaluates a registered candidate (a patch to the step-time model, as the predictions files under bench/gpu/gt
# hold it) on timed files, beside HEAD, from one invocation:
#   bash bench/steptime/candidate.sh bench/gpu/gt/late106_predictions.md testdata/late106/late106-timing/results.jsonl
# The patch is the file's ```diff block (or the file itself, if it is a patch). HEAD runs in this tree; the
# candidate in a temporary git worktree of HEAD with the patch applied, removed afterwards. Each run's summary
# lines (steps, band, ratios, order, the alternated pairs and the ratios by kind of model) print under its name;
# the full outputs stay in $OUT (default /tmp/candidate) as head.txt and candidate.txt.
set -eu
src=${1:?usage: candidate.sh PATCH_OR_PREDICTIONS.md FILE...}
shift
out=${OUT:-/tmp/candidate}
mkdir -p "$out"
root=$(git rev-parse --show-toplevel)
cd "$root"
patch="$out/candidate.diff"
if grep -q '^```diff' "$src"; then
  sed -n '/^```diff$/,/^```$/p' "$src" | sed '1d;$d' > "$patch"
else
  cp "$src" "$patch"
fi
wt=$(mktemp -d /tmp/candidate-wt.XXXXXX)
trap 'git worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
git worktree add -q --detach "$wt" HEAD
git -C "$wt" apply "$patch"
abs=()
for f in "$@"; do abs+=("$root/$f"); done
go run ./bench/steptime "${abs[@]}" > "$out/head.txt" 2>&1
(cd "$wt" && go run ./bench/steptime "${abs[@]}") > "$out/candidate.txt" 2>&1
for run in head candidate; do
  echo "== $run"
  grep -E '^(step time|band|technique ratios|ordering|alternated pairs):|^  (misordered|outside)' "$out/$run.txt" | tail -12
  sed -n '/^alternated pairs (the measured/,/^alternated pairs:/p' "$out/$run.txt" | grep '^  ' || true
  awk '/^alternated technique ratios by the kind/{b=""; on=1; next} on && /^  /{b=b $0 "\n"; next} on{on=0} END{printf "%s", b}' "$out/$run.txt"
done
