#!/usr/bin/env bash
# Upstream's algorithm and ksched on the same perf files, back to back, in CPU time.
#
#   scripts/side-by-side.sh REFSCHED_BINARY FILE...
#   scripts/side-by-side.sh ~/refsched ../shared/perf/perf-mixed-5000n-1000e-1000p.json
#
# For each file: upstream's loop CPU = task-clock of `refsched -bench -workers 16` on the file minus
# task-clock on the same file cut to 0 pending pods (loading and building the cache cancel out),
# with refsched's own wall pods/s; then three `ksched bench --threads 1` runs (their CPU s column
# is the loop's CPU time). On a shared machine the wall clocks measure the wait for a core; the
# CPU figures do not (docs/performance.md explains the ratio and its 2-core bound).
# Needs perf (linux-perf) and python3; refsched is built by ../shared/refsched/build.sh.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 REFSCHED_BINARY FILE..." >&2; exit 2; }
REFSCHED=$1; shift
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KSCHED=${KSCHED:-$HERE/../build/ksched}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cpu_ms() {  # task-clock milliseconds of "$@" (stdin from the caller)
  perf stat -x, -o "$TMP/stat" -e task-clock "$@" >/dev/null 2>"$TMP/err"
  awk -F, '/task-clock/{printf "%.0f", $1}' "$TMP/stat"
}
for f in "$@"; do
  name=$(basename "$f" .json)
  "$HERE/cut-scenario.py" --pending 0 "$f" > "$TMP/cut0.json"
  full=$(cpu_ms "$REFSCHED" -bench -workers 16 < "$f")
  wall=$(grep -o '[0-9.]* pods/s' "$TMP/err" || true)
  cut=$(cpu_ms "$REFSCHED" -bench -workers 16 < "$TMP/cut0.json")
  echo "$name upstream: loop CPU $(awk -v a="$full" -v b="$cut" 'BEGIN{printf "%.2f", (a-b)/1000}') s, wall $wall"
  for _ in 1 2 3; do
    "$KSCHED" bench "$f" --threads 1 | tail -1 | awk '{printf "%s ksched: loop CPU %s s, wall %s pods/s, digest %s\n", $1, $6, $7, $11}'
  done
done
