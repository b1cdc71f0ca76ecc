#!/usr/bin/env bash
# Benchmark of `ksched run` against the real kube-apiserver of
# ../shared/apiserver (v1.15.5, or v1.26.0 with KUBE_VERSION=1.26, where
# `run` schedules with the v1.26 framework), or upstream's v1.35.4 with KUBE_VERSION=1.35
# (built and cached by scripts/k8s-v135.sh; `run` picks the v1.35 engine there): pods/s bound
# end to end, next to a bare client POSTing bindings to the same server with the same
# concurrency, in the same run.
#
#   scripts/bench-run.sh [NODES] [PODS] [CONNECTIONS]     (defaults 1000 2000 8)
#   KSCHED=build/ksched SERVER_DIR=/dev/shm/x scripts/bench-run.sh 5000 10000 8
#   KSCHED_ARGS="--percentage-of-nodes-to-score 100" scripts/bench-run.sh 5000 10000 8
#   STANDIN=/path/to/kube-scheduler KUBE_VERSION=1.26 scripts/bench-run.sh   (upstream's
#     scheduler in ksched's place, same run: a KubeSchedulerConfiguration with the profile
#     ksched-bench, leader election off, clientConnection qps/burst STANDIN_QPS (default 1000);
#     --secure-port 0, so no metrics)
#   STANDIN=upstream KUBE_VERSION=1.35 scripts/bench-run.sh   (the cached kube-scheduler v1.35.4)
#
# Steps: start etcd + kube-apiserver in a tmpfs directory; create NODES Ready
# nodes (loadgen.py nodes); then
#   1. bare:   PODS pending pods for a scheduler nobody runs, bound by
#              `loadgen.py bind -c CONNECTIONS` (round robin, no decisions)
#              while `loadgen.py wait` watches them;
#   2. ksched: PODS pending pods for `ksched-bench`; `loadgen.py wait` watches
#              them; `ksched run --bind-workers CONNECTIONS` starts, lists the
#              cluster and binds them all.
#   3. bare again: PODS more pending pods bound as in 1, after ksched stopped.
# Reported: the bare bind rate (mean of 1 and 3); ksched's bind-window rate (first bound -> last
# bound) and end-to-end rate (from ksched's start, initial LIST included);
# their ratio; ksched's binding/e2e latency histograms from /metrics.
set -euo pipefail
NODES=${1:-1000}
PODS=${2:-2000}
CONC=${3:-8}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$HERE/../shared/apiserver}
KSCHED=${KSCHED:-$HERE/build/ksched}
DIR=${SERVER_DIR:-$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )/ksched-bench-$$}
LG="python3 $SHARED/loadgen.py"
PORT=${METRICS_PORT:-18251}

cleanup() {
  [ -n "${KPID:-}" ] && kill -TERM "$KPID" 2>/dev/null && wait "$KPID" 2>/dev/null || true
  "$SHARED/stop.sh" "$DIR" --clean >/dev/null 2>&1 || true
}
trap cleanup EXIT

if [ "${KUBE_VERSION:-}" = 1.35 ]; then
  # start.sh has no archive of v1.35: it runs the binary it is given.
  eval "$("$HERE/scripts/k8s-v135.sh")"
  KUBE_VERSION= KUBE_APISERVER="$KUBE_APISERVER" "$SHARED/start.sh" "$DIR" >/dev/null
  [ "${STANDIN:-}" = upstream ] && STANDIN=$KUBE_SCHEDULER
else
  [ "${STANDIN:-}" = upstream ] && { echo "STANDIN=upstream: only with KUBE_VERSION=1.35" >&2; exit 2; }
  "$SHARED/start.sh" "$DIR" >/dev/null
fi
# shellcheck disable=SC1091
. "$DIR/env"
echo "== $NODES nodes, $PODS pods, $CONC connections; server in $DIR"
$LG -k "$ADMIN_KUBECONFIG" nodes "$NODES" | tail -1

# The bare client binds RUN's pods while `loadgen.py wait` watches them, as
# it watches ksched's: the same observer on both sides, and its bind window
# (first to last bound seen) measured the same way as ksched's.
bare() {
  local run=$1
  echo "== bare client ($run): loadgen.py bind -c $CONC"
  $LG -k "$ADMIN_KUBECONFIG" -n "bench-$run" pods "$PODS" --scheduler-name nobody --run "$run" \
    --pod-cpu 10m --pod-memory 16Mi | tail -1
  $LG -k "$ADMIN_KUBECONFIG" -n "bench-$run" --json-out "$DIR/$run-wait.json" wait \
    --selector "loadgen-run=$run" --timeout 1200 > "$DIR/$run-wait.log" &
  local wpid=$!
  sleep 2  # the watch is open
  $LG -k "$SCHEDULER_KUBECONFIG" -n "bench-$run" -c "$CONC" --json-out "$DIR/$run.json" bind \
    --selector "loadgen-run=$run" | tail -1
  wait "$wpid"
}
bare bare

echo "== ksched run --bind-workers $CONC"
$LG -k "$ADMIN_KUBECONFIG" -n bench-ksched pods "$PODS" --scheduler-name ksched-bench --run ks \
  --pod-cpu 10m --pod-memory 16Mi | tail -1
$LG -k "$ADMIN_KUBECONFIG" -n bench-ksched --json-out "$DIR/ksched.json" wait \
  --selector loadgen-run=ks --timeout 1200 > "$DIR/wait.log" &
WPID=$!
sleep 2  # the watch is open
if [ -n "${STANDIN:-}" ]; then
  QPS=${STANDIN_QPS:-1000}
  cat > "$DIR/standin.yaml" <<CFG
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection: {leaderElect: false}
clientConnection: {kubeconfig: "$SCHEDULER_KUBECONFIG", qps: $QPS, burst: $QPS}
profiles:
- schedulerName: ksched-bench
CFG
  "$STANDIN" --config "$DIR/standin.yaml" --secure-port 0 2> "$DIR/ksched.log" &
else
  "$KSCHED" run --kubeconfig "$SCHEDULER_KUBECONFIG" --scheduler-name ksched-bench \
    --leader-elect=false --bind-workers "$CONC" --port "$PORT" --bind-address 127.0.0.1 \
    ${KSCHED_ARGS:-} 2> "$DIR/ksched.log" &
fi
KPID=$!
wait "$WPID"
tail -1 "$DIR/wait.log"
curl -s "http://127.0.0.1:$PORT/metrics" > "$DIR/metrics.txt" || true
kill -TERM "$KPID" 2>/dev/null && wait "$KPID" 2>/dev/null || true
KPID=

# The bare client again, on the server as ksched left it: the server's
# speed drifts by tens of percent within a minute on a shared machine, so
# ksched is compared with the mean of the two bare runs around it.
bare bare2

python3 - "$DIR" <<'PY'
import json, sys, re
d = sys.argv[1]
bare = json.load(open(f"{d}/bare.json"))
ks = json.load(open(f"{d}/ksched.json"))
b1 = bare["bind_pods_per_s"]
b2 = json.load(open(f"{d}/bare2.json"))["bind_pods_per_s"]
b = (b1 + b2) / 2
v1 = json.load(open(f"{d}/bare-wait.json")).get("bind_window_pods_per_s") or 0
v2 = json.load(open(f"{d}/bare2-wait.json")).get("bind_window_pods_per_s") or 0
v = (v1 + v2) / 2
w = ks.get("bind_window_pods_per_s") or 0
e = ks.get("e2e_pods_per_s") or 0
print(f"bare client binds:     {b:8.1f} pods/s  (client's own timing; mean of {b1:.1f} before and "
      f"{b2:.1f} after ksched)")
print(f"bare bind window:      {v:8.1f} pods/s  (seen by the watcher, as ksched's; mean of "
      f"{v1:.1f} and {v2:.1f})")
print(f"ksched bind window:    {w:8.1f} pods/s  ({100 * w / b:.0f}% of the bare client, "
      f"{100 * w / v:.0f}% of the bare bind window)")
print(f"ksched end to end:     {e:8.1f} pods/s  (from the watch's start: a 2 s pause, then "
      "ksched's start and initial LIST, included)")
sums = {k: float(v) for k, v in re.findall(r"^(scheduler_scheduling_algorithm_duration_seconds_(?:sum|count)) ([0-9.e+]+)", open(f"{d}/metrics.txt").read(), re.M)}
if sums.get("scheduler_scheduling_algorithm_duration_seconds_count"):
    print(f"ksched algorithm time: {1000 * sums['scheduler_scheduling_algorithm_duration_seconds_sum'] / sums['scheduler_scheduling_algorithm_duration_seconds_count']:.2f} ms/pod on average")
m = open(f"{d}/metrics.txt").read()
dropped = re.findall(r"^ksched_events_dropped_total ([0-9.e+]+)", m, re.M)
if dropped:
    print(f"events dropped:        {float(dropped[0]):.0f} (when the last pod was bound)")
for name in ("scheduler_scheduling_algorithm_duration_seconds",
             "scheduler_binding_duration_seconds", "scheduler_e2e_scheduling_duration_seconds",
             "scheduler_scheduling_attempt_duration_seconds"):
    # v1.26's attempt histogram has result/profile labels: its scheduled series.
    labels = r'(?:[^}]*result="scheduled"[^}]*,)?' if "attempt" in name else ""
    buckets = [(float(le), float(v)) for le, v in
               re.findall(name + r'_bucket\{' + labels + r'le="([0-9.e+-]+)"\} ([0-9.e+]+)', m)]
    count = re.findall(name + r'_count(?:\{[^}]*result="scheduled"[^}]*\})? ([0-9.e+]+)', m)
    total = float((count or ["0"])[0])
    if not total:
        continue
    def q(p):
        for le, v in buckets:
            if v >= p * total:
                return le
        return float("inf")
    print(f"{name}: p50 <= {q(0.5)} s, p90 <= {q(0.9)} s, p99 <= {q(0.99)} s ({int(total)} pods)")
PY
