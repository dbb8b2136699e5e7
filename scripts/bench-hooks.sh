#!/usr/bin/env bash
# bench-hooks.sh times credence-hook as whole processes against a large
# synthetic database, as docs/BENCHMARKS.md ("## Hooks") reports.
#
#   scripts/bench-hooks.sh [runs] [episodes] [beliefs]
#
# It builds credence and credence-hook, seeds $BENCH_HOME (default
# /tmp/credence-bench; reused when already seeded, delete it to reseed) with
# deterministic synthetic history (no network), then runs each hook `runs`
# times (default 50) with realistic stdin and prints p50/p95/max wall time,
# median CPU and peak RSS, twice: with no agent running (credence-hook execs
# `credence hook`, which handles the event in-process) and with
# `credence agent` running (credence-hook hands the event to it over its
# socket), the normal state after install. The agent's first start
# consolidates the whole seeded history; the timing waits for that cycle to
# end. Under /usr/bin/time -v the peak RSS of one UserPromptSubmit is
# printed too. Each hook run is paired with a /bin/true run, and the ratios
# of the two are printed: the targets are ratios (docs/BENCHMARKS.md). With
# the agent, the agent's log gives where a served prompt's time goes.
# BENCH_BIN=DIR times the credence, credence-hook, bench-hooks and (when
# there) credence-hook-local already built in DIR instead of building them
# (same binaries for A/B runs; without credence-hook-local, credence-hook
# execs `credence hook`, as before it existed).
set -euo pipefail
runs=${1:-50}
episodes=${2:-100000}
beliefs=${3:-10000}
home=${BENCH_HOME:-/tmp/credence-bench}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)
agent=
from=${BENCH_BIN:-} # prebuilt credence, credence-hook and bench-hooks, for A/B runs
# The cleanup runs under set -e too: a command failing in it (killing an
# agent that already exited) would end the script with status 1 and leave
# $bin behind, so nothing in it may fail.
cleanup() {
	if [ -n "$agent" ]; then
		kill "$agent" 2>/dev/null || true
		wait "$agent" 2>/dev/null || true
	fi
	rm -rf "$bin"
}
trap cleanup EXIT
cd "$root"
if [ -n "$from" ]; then
	cp "$from/credence-hook" "$from/credence" "$from/bench-hooks" "$bin/"
	if [ -f "$from/credence-hook-local" ]; then
		cp "$from/credence-hook-local" "$bin/"
	fi
else
	go build -o "$bin/credence-hook" ./cmd/credence-hook
	go build -o "$bin/credence" ./cmd/credence
	go build -o "$bin/credence-hook-local" ./cmd/credence-hook-local
	go build -o "$bin/bench-hooks" ./scripts/bench-hooks
fi
if [ ! -f "$home/queries.json" ]; then
	rm -rf "$home"
	mkdir -p "$home"
	"$bin/bench-hooks" seed -home "$home" -episodes "$episodes" -beliefs "$beliefs"
fi
echo "database: $(du -h "$home/.local/share/credence/credence.db" | cut -f1); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
peak_rss() {
	if [ -x /usr/bin/time ]; then
		printf '{"session_id":"bench-session","cwd":"/home/dev/src/storefront","hook_event_name":"UserPromptSubmit","prompt":"which package manager does this repo use"}' |
			HOME="$home" /usr/bin/time -v "$bin/credence-hook" UserPromptSubmit 2>&1 >/dev/null | grep -E 'Maximum resident' || true
	fi
}

echo "== no agent: credence-hook execs credence hook (in-process)"
"$bin/bench-hooks" run -home "$home" -bin "$bin/credence-hook" -runs "$runs"
peak_rss

echo "== agent running: credence-hook hands each event to it"
# The agent logs at debug level (the front does not see the variable, so it
# still relays): each served prompt's time inside the agent and its recall
# stages, for the breakdown printed at the end.
agentlog="$home/.local/share/credence/logs/hook.log" # served events log as the hook component
rm -f "$agentlog"
HOME="$home" CREDENCE_LOG_LEVEL=debug "$bin/credence" agent >"$bin/agent.out" 2>&1 &
agent=$!
for _ in $(seq 600); do # the first start consolidates the seeded history
	if HOME="$home" "$bin/credence" status --json 2>/dev/null | grep -q '"state": *"idle"' &&
		[ -S "$home/.local/share/credence/agent.sock" ]; then
		break
	fi
	sleep 1
done
"$bin/bench-hooks" run -home "$home" -bin "$bin/credence-hook" -runs "$runs"
peak_rss
"$bin/bench-hooks" breakdown -log "$agentlog"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
kill "$agent"
wait "$agent" 2>/dev/null || true
agent=
