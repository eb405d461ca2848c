#!/bin/sh
# Runs the HTML report's browser test in headless Chromium, installing
# Debian's chromium package first when it is missing. Without root or a
# network the install fails and the test skips with a message.
# Usage (from the repository root):
#   scripts/browser-test.sh                       check every fixture's report
#   scripts/browser-test.sh docs [REPORT.html]    also refresh docs/report-*.png
set -u
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
	echo "browser-test: installing chromium (apt-get)..." >&2
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1; then
		echo "browser-test: could not install chromium (offline or not root); the test will skip" >&2
	fi
fi
set -- "$@" "" ""
args="-browser"
[ -n "$1" ] && args="$args -screenshots=$(cd "$1" && pwd)"
[ -n "$2" ] && args="$args -page=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
exec go test -count=1 -run 'TestBrowser' -v ./internal/report/html/ -args $args
