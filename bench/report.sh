#!/bin/sh
# Report benchmark (issue 7): on a snapshot of about a million trace events
# (bench/load's repeated fixture trace), times `vramkit report`,
# `export-perfetto` and `export-pprof` against `vramkit analyze` (or `stats`
# where analyze is not built in) in the same run, and prints the ratios and
# output sizes. The target is report <= 2x analyze.
#
#   bench/report.sh [-size 100MiB]    (100 MiB of pickle is ~1.07M events)
set -eu
cd "$(dirname "$0")/.."
size=100MiB
[ "${1:-}" = "-size" ] && size=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/vramkit" ./cmd/vramkit
# Only the generator is wanted here: `true` stands in for python3.
go run ./bench/load -size "$size" -keep -out "$tmp/big.pickle" -python true >"$tmp/gen.log"
head -1 "$tmp/gen.log"
base=analyze
"$tmp/vramkit" help analyze 2>&1 | grep -q "usage: vramkit analyze" || base=stats
secs() { # secs CMD... -> wall seconds
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	echo "$e - $s" | bc
}
tb=$(secs "$tmp/vramkit" $base "$tmp/big.pickle")
tr=$(secs "$tmp/vramkit" report "$tmp/big.pickle" -o "$tmp/r.html")
tp=$(secs "$tmp/vramkit" export-perfetto "$tmp/big.pickle" -o "$tmp/t.json")
tq=$(secs "$tmp/vramkit" export-pprof "$tmp/big.pickle" -o "$tmp/m.pb.gz")
printf '%-16s %7.2fs\n' "$base" "$tb" report "$tr" export-perfetto "$tp" export-pprof "$tq"
printf 'report / %s: %.2fx (target <= 2)\n' "$base" "$(echo "$tr / $tb" | bc -l)"
ls -l "$tmp/r.html" "$tmp/t.json" "$tmp/m.pb.gz" | awk '{printf "%-10s %8.1f MiB\n", $NF, $5/1048576}' | sed "s|$tmp/||"
