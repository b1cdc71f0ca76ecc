#!/usr/bin/env python3
"""Writes a scheduler_perf-shaped scenario (the format of ../shared/perf) of any size.

    scripts/gen-perf-scenario.py --family basic --nodes 15000 --existing 3000 --pending 1000 > s.json
    scripts/gen-perf-scenario.py --family spreading --nodes 5000 --existing 100000 --pending 0 \
        --format list > snapshot.json      # a `kubectl get -o json`-style List for `ksched schedule`

Nodes: 4 cpu, 32Gi, 110 pods, Ready, hostname/zone/region labels (zones round-robin).
Pods: one pause container requesting 100m cpu / 500Mi. Existing pods are spread over the nodes
by a fixed stride, so a file is reproducible from its arguments.
"""
import argparse
import json
import sys

FAMILIES = ["basic", "spreading", "pod-affinity", "pod-anti-affinity", "preferred-pod-affinity",
            "preferred-anti-affinity", "node-affinity", "taints"]
HOST, ZONE, REGION = ("kubernetes.io/hostname", "failure-domain.beta.kubernetes.io/zone",
                      "failure-domain.beta.kubernetes.io/region")


def node(i, zones, family):
    name = f"node-{i:05d}"
    n = {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": name, "labels": {HOST: name, ZONE: f"zone{i % zones + 1}",
                                               REGION: f"region{i % 2 + 1}"}},
         "spec": {},
         "status": {"capacity": {"cpu": "4", "memory": "32Gi", "pods": "110"},
                    "allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"},
                    "conditions": [{"type": "Ready", "status": "True"}]}}
    if family == "taints":
        if i % 4 == 0:
            n["spec"]["taints"] = [{"key": "dedicated", "value": f"team{i % 3}",
                                    "effect": "NoSchedule"}]
        elif i % 4 == 1:
            n["spec"]["taints"] = [{"key": "spot", "value": "true", "effect": "PreferNoSchedule"}]
    return n


def pod(name, labels, extra_meta=None, spec_extra=None):
    res = {"cpu": "100m", "memory": "500Mi"}
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": name, "namespace": "default", "labels": labels},
         "spec": {"containers": [{"name": "pause", "image": "k8s.gcr.io/pause:3.1",
                                  "resources": {"requests": res, "limits": dict(res)}}]}}
    if extra_meta:
        p["metadata"].update(extra_meta)
    if spec_extra:
        p["spec"].update(spec_extra)
    return p


def term(labels, key):
    return {"labelSelector": {"matchLabels": labels}, "topologyKey": key}


def pending_pod(i, family):
    name = f"pod-{i}"
    if family == "spreading":
        return pod(name, {"app": "spread"},
                   {"ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                         "name": "rs-spread", "uid": "rs-spread-uid",
                                         "controller": True}]})
    if family == "pod-anti-affinity":
        return pod(name, {"color": "green", "group": f"anti-{i}"}, spec_extra={"affinity": {
            "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                term({"color": "green"}, HOST)]}}})
    if family == "pod-affinity":
        return pod(name, {"foo": ""}, spec_extra={"affinity": {"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [term({"foo": ""}, ZONE)]}}})
    if family in ("preferred-pod-affinity", "preferred-anti-affinity"):
        group = f"g{i % 10}"
        kind = "podAffinity" if family == "preferred-pod-affinity" else "podAntiAffinity"
        key = ZONE if family == "preferred-pod-affinity" else HOST
        return pod(name, {"group": group}, spec_extra={"affinity": {kind: {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 1, "podAffinityTerm": term({"group": group}, key)}]}}})
    if family == "node-affinity":
        return pod(name, {}, spec_extra={"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": ZONE, "operator": "In",
                                       "values": ["zone1", "zone2"]}]}]}}}})
    if family == "taints":
        return pod(name, {}, spec_extra={"tolerations": [
            {"key": "dedicated", "operator": "Equal", "value": f"team{i % 3}",
             "effect": "NoSchedule"}]})
    return pod(name, {})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", choices=FAMILIES, default="basic")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--existing", type=int, default=1000)
    ap.add_argument("--pending", type=int, default=1000)
    ap.add_argument("--zones", type=int, default=0, help="default: 10 for pod-affinity "
                    "families, 5 for node-affinity, else 3")
    ap.add_argument("--format", choices=["scenario", "list"], default="scenario")
    a = ap.parse_args()
    if a.nodes <= 0:
        sys.exit("--nodes must be positive")
    zones = a.zones or (10 if "affinity" in a.family and a.family != "node-affinity"
                        else 5 if a.family == "node-affinity" else 3)
    nodes = [node(i, zones, a.family) for i in range(a.nodes)]
    # A stride coprime with the node count spreads existing pods evenly.
    stride = next(s for s in range(a.nodes * 7 // 12 + 1, 2 * a.nodes + 2)
                  if _gcd(s, a.nodes) == 1)
    existing = []
    for i in range(a.existing):
        labels = {"name": "setup", "app": "spread" if a.family == "spreading" and i % 2 == 0
                  else "setup"}
        p = pod(f"setup-{i}", labels, {"uid": f"setup-uid-{i}"})
        p["spec"]["nodeName"] = nodes[(i * stride) % a.nodes]["metadata"]["name"]
        existing.append(p)
    pending = [pending_pod(i, a.family) for i in range(a.pending)]
    services, replica_sets = [], []
    if a.family == "spreading":
        services.append({"apiVersion": "v1", "kind": "Service",
                         "metadata": {"name": "svc-spread", "namespace": "default"},
                         "spec": {"selector": {"app": "spread"}, "ports": [{"port": 80}]}})
        replica_sets.append({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                             "metadata": {"name": "rs-spread", "namespace": "default",
                                          "uid": "rs-spread-uid"},
                             "spec": {"replicas": a.pending,
                                      "selector": {"matchLabels": {"app": "spread"}}}})
    name = f"gen-{a.family}-{a.nodes}n-{a.existing}e-{a.pending}p"
    if a.format == "scenario":
        out = {"name": name,
               "cluster": {"nodes": nodes, "pods": existing, "services": services,
                           "replicaSets": replica_sets},
               "pending": pending}
    else:
        out = {"apiVersion": "v1", "kind": "List",
               "items": nodes + services + replica_sets + existing + pending}
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


def _gcd(x, y):
    while y:
        x, y = y, x % y
    return x


if __name__ == "__main__":
    main()
