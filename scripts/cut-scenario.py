#!/usr/bin/env python3
"""Cuts a scenario (the format of ../shared/conformance and ../shared/perf) to its first N pending pods.

    scripts/cut-scenario.py --pending 50 ../shared/perf/perf-basic-5000n-1000e-1000p.json > basic-50.json
    ./build/ksched replay basic-50.json > steps.jsonl

Everything else (cluster, policy, provider, percentageOfNodesToScore, ...) is kept as it is, in
its order, so the cut replays exactly the first N steps of the whole file.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", help="scenario file (JSON); - for stdin")
    ap.add_argument("--pending", type=int, required=True, help="how many pending pods to keep")
    a = ap.parse_args()
    if a.pending < 0:
        sys.exit("--pending must not be negative")
    src = sys.stdin if a.scenario == "-" else open(a.scenario, encoding="utf-8")
    with src:
        scenario = json.load(src)
    if not isinstance(scenario, dict) or not isinstance(scenario.get("pending", []), list):
        sys.exit(f"{a.scenario}: not a scenario (an object with a \"pending\" list)")
    pending = scenario.get("pending", [])
    if a.pending > len(pending):
        sys.exit(f"{a.scenario}: has {len(pending)} pending pods, fewer than --pending {a.pending}")
    scenario["pending"] = pending[:a.pending]
    if "name" in scenario:
        scenario["name"] = f"{scenario['name']}-first{a.pending}"
    json.dump(scenario, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
