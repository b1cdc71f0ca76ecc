#!/usr/bin/env bash
# Throughput against cluster size and pending-pod count, with scenarios from
# scripts/gen-perf-scenario.py. Prints a markdown table (docs/scaling.md).
#   scripts/scaling.sh [BUILD_DIR]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build}/ksched
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
echo "| family | nodes | existing | pending | threads | load s | pods/s | µs per pod | ns per pod per node | p50 µs | p99 µs | peak MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
run() {  # family nodes existing pending
  local f="$DIR/$1-$2-$4.json"
  scripts/gen-perf-scenario.py --family "$1" --nodes "$2" --existing "$3" --pending "$4" > "$f"
  for t in 1 2; do
    "$BIN" bench "$f" --threads "$t" -o json | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
fam, nodes, existing, pending, threads = sys.argv[1:6]
us = 1e6 / r["podsPerSecond"]
cells = [fam, nodes, existing, pending, threads, "%.2f" % r["loadSeconds"],
         "{:,.0f}".format(r["podsPerSecond"]), "%.1f" % us, "%.2f" % (us * 1000 / int(nodes)),
         "%.1f" % r["p50Micros"], "%.1f" % r["p99Micros"], "%.0f" % r["peakRssMiB"]]
print("| " + " | ".join(cells) + " |")' "$1" "$2" "$3" "$4" "$t"
  done
}
for family in basic spreading pod-anti-affinity preferred-pod-affinity; do
  for nodes in 1000 5000 15000; do run "$family" "$nodes" $((nodes / 5)) 1000; done
done
run basic 5000 1000 10000
run spreading 5000 1000 10000
