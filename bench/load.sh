#!/bin/sh
# Snapshot-load benchmark (issue 2, benchmark a): builds a >= 1 GiB snapshot
# pickle from a fixture's trace, then times vramkit's load against CPython's
# pickle.load of the same file and prints the ratios. Needs Go, python3,
# 1 GiB of free disk and ~7 GiB of RAM (for Python). Flags are documented
# in bench/load/main.go, e.g.
#
#   bench/load.sh -size 256MiB
#   bench/load.sh -vramkit ./vramkit     # time `vramkit stats` instead
#   bench/load.sh -vramkit ./vramkit -analyze -python '' -runs 2   # analyze / stats ratio (issue 3)
#   bench/load.sh -keep -vramkit ./vramkit -commands analyze,tune,report -runs 3   # issue 17's figures
#   go run ./bench/load -profile cpu.pprof stats FILE && go tool pprof -top cpu.pprof
#
# The generated file is deleted afterwards unless -keep is given.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/benchload
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./bench/load
"$bin" "$@"
