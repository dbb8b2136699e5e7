#!/usr/bin/env bash
# load-hooks.sh drives credence-hook as eight busy Claude Code sessions
# would and checks that no prompt or exchange was lost, duplicated or
# paired with the wrong reply, as docs/BENCHMARKS.md ("Hooks under load")
# reports.
#
#   scripts/load-hooks.sh [duration] [streams]
#
# It builds credence, credence-hook and the load driver, then runs four
# settings one after another, each in a fresh temporary HOME: no agent and
# the agent, on the machine as it is ("quiet") and with two CPU spinners
# and an fsync loop started by the driver ("loaded"). Each prints the
# counts and the p50/p99/max wall time of UserPromptSubmit and Stop as
# whole processes. It exits non-zero when any setting lost, duplicated or
# mispaired anything.
set -euo pipefail
duration=${1:-60s}
streams=${2:-8}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cd "$root"
go build -o "$bin/credence-hook" ./cmd/credence-hook
go build -o "$bin/credence" ./cmd/credence
go build -o "$bin/load-hooks" ./scripts/load-hooks
status=0
for agent in false true; do
	for burn in 0 2; do
		echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
		"$bin/load-hooks" run -bin "$bin" -duration "$duration" -streams "$streams" -agent="$agent" -burn "$burn" || status=1
	done
done
exit $status
