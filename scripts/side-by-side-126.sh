#!/usr/bin/env bash
# kube-scheduler v1.26's framework (refsched126 -bench) and ksched's framework engine on the same
# v1.26 scenario files, back to back, in CPU time and wall time.
#
#   scripts/side-by-side-126.sh REFSCHED126_BINARY FILE...
#   scripts/side-by-side-126.sh /tmp/refsched126 ../shared/perf/mperf-*.json
#
# For each file, one tab-separated line:
#   file  up_wall_s  up_pods_s  up_cpu_s  up_setup_cpu_s  up_loop_cpu_s
#         ks_cpu_s (best of 3, --threads 1)  ks_wall_pods_s (that run)  ks_cpu2_s  ks_pods_s2 (default threads)
#         ks_details_cpu_s  ks_details_pods_s (--details --threads 1)  digest  details_digest
# upstream's loop CPU = task-clock of `refsched126 -bench` on the file minus that on the file cut to 0
# pending pods (reading the JSON and filling the cache cancel out); its wall pods/s is the harness's
# own figure. ksched's CPU is bench's `CPU s` (process CPU over the scheduling loop). On a shared
# machine wall clocks measure the wait for a core; CPU times do not (docs/performance.md).
# Needs perf (linux-perf) and python3; refsched126 is built by ../shared/refsched126/build.sh.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 REFSCHED126_BINARY FILE..." >&2; exit 2; }
REF=$1; shift
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KSCHED=${KSCHED:-$HERE/../build/ksched}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cpu_s() {  # task-clock seconds of "$@" (stdin from the caller)
  perf stat -x, -o "$TMP/stat" -e task-clock "$@" >/dev/null 2>"$TMP/err"
  awk -F, '/task-clock/{printf "%.3f", $1/1000}' "$TMP/stat"
}
bench() {  # ksched bench "$@" -o json: "cpu pods/s digest"
  "$KSCHED" bench "$@" -o json 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
print("%.4f %.0f %s" % (r["scheduleCpuSeconds"], r["podsPerSecond"], r["digest"]))'
}
printf 'file\tup_wall_s\tup_pods_s\tup_cpu_s\tup_setup_cpu_s\tup_loop_cpu_s\tks_cpu_s\tks_pods_s\tks_cpu2_s\tks_pods2_s\tks_det_cpu_s\tks_det_pods_s\tdigest\tdet_digest\n'
for f in "$@"; do
  name=$(basename "$f" .json)
  "$HERE/cut-scenario.py" --pending 0 "$f" > "$TMP/cut0.json"
  full=$(cpu_s "$REF" -bench < "$f")
  line=$(grep -o 'in [0-9.]*s ([0-9.]* pods/s)' "$TMP/err" || true)
  up_wall=$(echo "$line" | awk '{print $2}' | tr -d s)
  up_pods=$(echo "$line" | awk '{print $3}' | tr -d '(')
  setup=$(cpu_s "$REF" -bench < "$TMP/cut0.json")
  loop=$(awk -v a="$full" -v b="$setup" 'BEGIN{printf "%.3f", a-b}')
  best_cpu=""; best_pods=""; digest=""
  for _ in 1 2 3; do
    read -r cpu pods dig < <(bench "$f" --threads 1)
    if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN{exit !(a<b)}'; then
      best_cpu=$cpu; best_pods=$pods
    fi
    digest=$dig
  done
  read -r cpu2 pods2 _ < <(bench "$f")
  read -r dcpu dpods ddig < <(bench "$f" --threads 1 --details)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$up_wall" "$up_pods" \
    "$full" "$setup" "$loop" "$best_cpu" "$best_pods" "$cpu2" "$pods2" "$dcpu" "$dpods" "$digest" "$ddig"
done
