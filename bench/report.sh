#!/bin/sh
# Report benchmark (issue 7): on a snapshot of about a million trace events
# (bench/load's repeated fixture trace), times `vramkit report`,
# `export-perfetto` and `export-pprof` against `vramkit analyze` (or `stats`
# where analyze is not built in) in the same run, and prints the ratios and
# output sizes, best of three runs each. The target is report <= 2x analyze.
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
# run CMD... -> "WALL CPU" seconds, the best of three runs each: on a
# shared machine wall time swings with other load, CPU time (user+sys)
# much less.
run() {
	bw="" bc=""
	for _ in 1 2 3; do
		/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null
		read -r w u s <"$tmp/time"
		c=$(echo "$u + $s" | bc)
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w; fi
		if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc)" = 1 ]; then bc=$c; fi
	done
	echo "$bw $bc"
}
set -- $(run "$tmp/vramkit" $base "$tmp/big.pickle"); bw=$1 bc=$2
set -- $(run "$tmp/vramkit" report "$tmp/big.pickle" -o "$tmp/r.html"); rw=$1 rc=$2
set -- $(run "$tmp/vramkit" export-perfetto "$tmp/big.pickle" -o "$tmp/t.json"); pw=$1 pc=$2
set -- $(run "$tmp/vramkit" export-pprof "$tmp/big.pickle" -o "$tmp/m.pb.gz"); qw=$1 qc=$2
printf '%-16s %8s %8s\n' "" wall cpu
printf '%-16s %7.2fs %7.2fs\n' "$base" "$bw" "$bc" report "$rw" "$rc" export-perfetto "$pw" "$pc" export-pprof "$qw" "$qc"
printf 'report / %s: %.2fx wall, %.2fx cpu (target <= 2)\n' "$base" "$(echo "$rw / $bw" | bc -l)" "$(echo "$rc / $bc" | bc -l)"
ls -l "$tmp/r.html" "$tmp/t.json" "$tmp/m.pb.gz" | awk '{printf "%-10s %8.1f MiB\n", $NF, $5/1048576}' | sed "s|$tmp/||"
