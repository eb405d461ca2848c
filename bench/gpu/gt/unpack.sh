#!/bin/bash
# Unpacks one call's packed results into a set's folder under testdata, the way the sets there are laid out:
#   bash bench/gpu/gt/unpack.sh SET DIR
# SET is the set's name (late107: rows in SET-timing/), DIR the folder the device tool brought back (files_at:
# CALL-part*.tar.gz, console-CALL.txt, env-CALL.txt). The timing rows are appended to
# testdata/SET/SET-timing/results.jsonl beside the logs; the call's probe goes to probe/ if the set has none yet,
# else to probe-CALL/ (two calls' probes are kept apart); runner_log.txt becomes runner_log-CALL.txt. A call
# unpacked twice is refused (its runner log is already there). Blind rows are not printed.
set -eu
set_name=${1:?usage: unpack.sh SET DIR}
dir=${2:?usage: unpack.sh SET DIR}
root=$(git rev-parse --show-toplevel)
tars=("$dir"/call*-part*.tar.gz)
[ -f "${tars[0]}" ] || { echo "unpack.sh: no call*-part*.tar.gz in $dir" >&2; exit 1; }
call=$(basename "${tars[0]}" | sed -E 's/-part[0-9]+\.tar\.gz$//')
dest="$root/testdata/$set_name"
[ -e "$dest/runner_log-$call.txt" ] && { echo "unpack.sh: $call is already in $dest" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "${tars[@]}"; do tar xzf "$t" -C "$tmp"; done
[ -d "$tmp/$set_name-timing" ] || { echo "unpack.sh: $call holds no $set_name-timing rows" >&2; exit 1; }
mkdir -p "$dest/$set_name-timing"
cp "$tmp/$set_name-timing/"*.log "$dest/$set_name-timing/" 2>/dev/null || true
cat "$tmp/$set_name-timing/results.jsonl" >> "$dest/$set_name-timing/results.jsonl"
if [ -d "$tmp/probe" ]; then
  p="$dest/probe"
  [ -e "$p" ] && p="$dest/probe-$call"
  mkdir -p "$p" && cp "$tmp/probe/"* "$p/"
fi
[ -f "$tmp/runner_log.txt" ] && cp "$tmp/runner_log.txt" "$dest/runner_log-$call.txt"
for f in console env; do [ -f "$dir/$f-$call.txt" ] && cp "$dir/$f-$call.txt" "$dest/"; done
echo "$call -> testdata/$set_name: $(wc -l < "$tmp/$set_name-timing/results.jsonl") rows ($(wc -l < "$dest/$set_name-timing/results.jsonl") in the set)"
