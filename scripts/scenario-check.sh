#!/usr/bin/env bash
# scenario-check.sh scores a CHECK scenario set in aggregate only: the
# metrics (current truth, stale unmarked, empty, false injections, by
# kind) and a stage diagnostic of the misses (scripts/scenario-diag.py:
# extraction loss against recall loss, and where each value was told),
# never a case. The per-case report and the debug log are deleted.
#
#   scripts/scenario-check.sh testdata/scenarios_check5.jsonl [budget]
#
# The budget (default 5s) is the hooks' time budget, long enough that a
# loaded machine measures what recall says, not how busy it was. Needs go
# and python3.
set -euo pipefail
set_file=${1:?usage: scenario-check.sh testdata/SET.jsonl [budget]}
budget=${2:-5s}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root/e2e"
CREDENCE_SCENARIO_DEBUG=1 CREDENCE_SCENARIO_HOOK_BUDGET="$budget" CREDENCE_SCENARIO_FILE="$set_file" \
	CREDENCE_SCENARIO_REPORT="$tmp/report.json" go test . -run 'TestScenarios2026$' -count=1 -v >"$tmp/log" 2>&1 || true
if [ ! -s "$tmp/report.json" ]; then
	echo "scenario-check: the suite wrote no report (build or setup failure); last lines of its log:" >&2
	tail -5 "$tmp/log" | sed 's/^/  /' >&2
	exit 1
fi
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["metrics"], indent=2))' "$tmp/report.json"
python3 "$root/scripts/scenario-diag.py" "$set_file" "$tmp/report.json" "$tmp/log"
