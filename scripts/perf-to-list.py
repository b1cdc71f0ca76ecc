#!/usr/bin/env python3
"""Turns a scenario (the format of ../shared/perf) into a `kind: List` cluster snapshot for `ksched schedule`.

    scripts/perf-to-list.py ../shared/perf/perf-mixed-5000n-1000e-1000p.json \\
        --existing 100000 --pending 20 > snap.json
    ./build/ksched schedule -f snap.json -o json > steps.json

The snapshot holds the scenario's nodes and workload objects (services, controllers, volumes),
its existing pods and the first N pending pods. With --existing larger than the scenario's own
count, the existing pods are cloned in turn (name and uid get a `-cK` suffix, labels and requests
are kept) and the clones are spread over the nodes by a fixed stride, so a 5,000-node /
100,000-pod cluster keeps the scenario's mix of labels. Pending pods get creation timestamps one
second apart, so `schedule` takes them in the scenario's order (it sorts by creation time).
"""
import argparse
import copy
import datetime
import json
import sys

KINDS = [("services", "v1", "Service"),
         ("replicationControllers", "v1", "ReplicationController"),
         ("replicaSets", "apps/v1", "ReplicaSet"),
         ("statefulSets", "apps/v1", "StatefulSet"),
         ("persistentVolumes", "v1", "PersistentVolume"),
         ("persistentVolumeClaims", "v1", "PersistentVolumeClaim"),
         ("storageClasses", "storage.k8s.io/v1", "StorageClass")]


START = datetime.datetime(2026, 1, 1)


def gcd(x, y):
    while y:
        x, y = y, x % y
    return x


def typed(obj, api_version, kind):
    obj.setdefault("apiVersion", api_version)
    obj.setdefault("kind", kind)
    return obj


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", help="scenario file (JSON)")
    ap.add_argument("--pending", type=int, default=20, help="pending pods to keep (default 20)")
    ap.add_argument("--existing", type=int, default=-1,
                    help="existing pods in the snapshot (default: the scenario's own)")
    a = ap.parse_args()
    with open(a.scenario, encoding="utf-8") as f:
        scenario = json.load(f)
    cluster = scenario.get("cluster", {})
    nodes = [typed(n, "v1", "Node") for n in cluster.get("nodes", [])]
    pods = [typed(p, "v1", "Pod") for p in cluster.get("pods", [])]
    pending = scenario.get("pending", [])
    if a.pending < 0 or a.pending > len(pending):
        sys.exit(f"{a.scenario}: --pending must be between 0 and {len(pending)}")
    if a.existing >= 0 and a.existing < len(pods):
        pods = pods[:a.existing]
    elif a.existing > len(pods):
        if not pods or not nodes:
            sys.exit(f"{a.scenario}: no existing pods or nodes to clone")
        base = len(pods)
        # A stride coprime with the node count spreads the clones evenly.
        stride = next(s for s in range(len(nodes) * 7 // 12 + 1, 2 * len(nodes) + 2)
                      if gcd(s, len(nodes)) == 1)
        for i in range(a.existing - base):
            src = pods[i % base]
            clone = copy.deepcopy(src)
            suffix = f"-c{i // base + 1}"
            meta = clone["metadata"]
            meta["name"] += suffix
            if "uid" in meta:
                meta["uid"] += suffix
            clone["spec"]["nodeName"] = nodes[((base + i) * stride) % len(nodes)]["metadata"]["name"]
            pods.append(clone)
    items = list(nodes)
    for field, api_version, kind in KINDS:
        items += [typed(o, api_version, kind) for o in cluster.get(field, [])]
    items += pods
    for i, p in enumerate(pending[:a.pending]):
        p = typed(copy.deepcopy(p), "v1", "Pod")
        created = START + datetime.timedelta(seconds=i)
        p["metadata"].setdefault("creationTimestamp", created.strftime("%Y-%m-%dT%H:%M:%SZ"))
        items.append(p)
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, sys.stdout,
              separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
