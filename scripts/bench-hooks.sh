#!/usr/bin/env bash
# bench-hooks.sh times credence-hook as whole processes against a large
# synthetic database, as docs/BENCHMARKS.md ("## Hooks") reports.
#
#   scripts/bench-hooks.sh [runs] [episodes] [beliefs]
#
# It builds credence-hook, seeds $BENCH_HOME (default /tmp/credence-bench;
# reused when already seeded, delete it to reseed) with deterministic
# synthetic history (no network), then runs each hook `runs` times (default
# 50) with realistic stdin and prints p50/p95/max wall time, median CPU and
# peak RSS. Under /usr/bin/time -v the peak RSS of one UserPromptSubmit is
# printed too.
set -euo pipefail
runs=${1:-50}
episodes=${2:-100000}
beliefs=${3:-10000}
home=${BENCH_HOME:-/tmp/credence-bench}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cd "$root"
go build -o "$bin/credence-hook" ./cmd/credence-hook
go build -o "$bin/bench-hooks" ./scripts/bench-hooks
if [ ! -f "$home/queries.json" ]; then
	rm -rf "$home"
	mkdir -p "$home"
	"$bin/bench-hooks" seed -home "$home" -episodes "$episodes" -beliefs "$beliefs"
fi
echo "database: $(du -h "$home/.local/share/credence/credence.db" | cut -f1); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
"$bin/bench-hooks" run -home "$home" -bin "$bin/credence-hook" -runs "$runs"
if [ -x /usr/bin/time ]; then
	printf '{"session_id":"bench-session","cwd":"/home/dev/src/storefront","hook_event_name":"UserPromptSubmit","prompt":"which package manager does this repo use"}' |
		HOME="$home" /usr/bin/time -v "$bin/credence-hook" UserPromptSubmit 2>&1 >/dev/null | grep -E 'Maximum resident|Elapsed' || true
fi
