#!/usr/bin/env python3
"""Turns a cluster snapshot (`kubectl get ... -A -o yaml`, a List or several documents) into a
framework scenario (../shared/framework-v1.35/README.md), to ask the reference harness what
kube-scheduler decides for the pods `ksched schedule -f SNAPSHOT` schedules:

    scripts/snapshot-to-scenario.py snapshot.yaml > scenario.json
    /tmp/refsched135 < scenario.json          # v1.35's steps
    ./build/ksched schedule -f snapshot.yaml -o json

The pending pods are the ones `schedule` takes (no spec.nodeName, not being deleted, not
Succeeded or Failed, spec.schedulerName default-scheduler or unset), in its arrival order
(creationTimestamp, then namespace/name); the scenario runs the scheduler loop with
DefaultPreemption (`"preemption": true`), as `schedule` does. Bound pods that have finished are
left out, as the scheduler's cache leaves them out. Kinds the scenario format has no place for
(DaemonSets, PriorityClasses: stored pods carry their priority) are dropped.
"""
import argparse
import json
import sys

import yaml

# kind -> the scenario's cluster key
KINDS = {
    "Namespace": "namespaces",
    "Node": "nodes",
    "Pod": "pods",
    "Service": "services",
    "ReplicationController": "replicationControllers",
    "ReplicaSet": "replicaSets",
    "StatefulSet": "statefulSets",
    "PersistentVolume": "persistentVolumes",
    "PersistentVolumeClaim": "persistentVolumeClaims",
    "StorageClass": "storageClasses",
    "CSINode": "csiNodes",
    "CSIDriver": "csiDrivers",
    "PodDisruptionBudget": "podDisruptionBudgets",
    "DeviceClass": "deviceClasses",
    "ResourceSlice": "resourceSlices",
    "ResourceClaim": "resourceClaims",
    "ResourceClaimTemplate": "resourceClaimTemplates",
}


def items(doc):
    if isinstance(doc, list):
        for d in doc:
            yield from items(d)
    elif isinstance(doc, dict):
        if str(doc.get("kind", "")).endswith("List") and isinstance(doc.get("items"), list):
            for d in doc["items"]:
                yield from items(d)
        else:
            yield doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snapshot", nargs="+", help="snapshot files (YAML or JSON); - for stdin")
    ap.add_argument("--name", default="snapshot", help="the scenario's name")
    a = ap.parse_args()
    cluster = {}
    pending = []
    for path in a.snapshot:
        src = sys.stdin if path == "-" else open(path, encoding="utf-8")
        with src:
            docs = list(yaml.safe_load_all(src))
        for obj in items(docs):
            key = KINDS.get(obj.get("kind"))
            if key is None:
                continue
            if key == "pods":
                spec, status = obj.get("spec") or {}, obj.get("status") or {}
                if status.get("phase") in ("Succeeded", "Failed"):
                    continue
                if not spec.get("nodeName"):
                    meta = obj.get("metadata") or {}
                    if meta.get("deletionTimestamp"):
                        continue
                    if spec.get("schedulerName", "default-scheduler") != "default-scheduler":
                        continue
                    pending.append(obj)
                    continue
            cluster.setdefault(key, []).append(obj)

    def arrival(p):
        m = p.get("metadata") or {}
        return (m.get("creationTimestamp", ""), m.get("namespace", "default"), m.get("name", ""))

    pending.sort(key=arrival)
    scenario = {"name": a.name, "schedulerVersion": "v1.35", "preemption": True,
                "cluster": cluster, "pending": pending}
    json.dump(scenario, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
