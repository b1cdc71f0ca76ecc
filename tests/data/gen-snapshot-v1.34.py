#!/usr/bin/env python3
"""Writes tests/data/snapshot-v1.34.yaml: a `kubectl get ... -A -o yaml` List of a Kubernetes
1.34 cluster as its API server stores the objects (3 zones, a GPU node group, a Deployment rolling
out with spread and anti-affinity selectors merged with matchLabelKeys and a native sidecar,
pod-level resources, a DaemonSet with a sidecar, a pod resized in place, a gated pod, a GPU Job
with a sidecar, a WaitForFirstConsumer StatefulSet), for tests/snapshot_v135_cli_test.cc.

    tests/data/gen-snapshot-v1.34.py > tests/data/snapshot-v1.34.yaml
    scripts/snapshot-to-scenario.py tests/data/snapshot-v1.34.yaml | /tmp/refsched135 \\
        > tests/data/snapshot-v1.34.expected.jsonl
"""
import copy
import hashlib
import sys

import yaml

ZONES = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
T0 = "2026-03-02T08:00:00Z"


def uid(*parts):
    h = hashlib.sha1("/".join(parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def ts(minutes):
    h, m = divmod(minutes, 60)
    d, h = divmod(8 + h, 24)
    return f"2026-03-{2 + d:02d}T{h:02d}:{m:02d}:00Z"


rv = [1000]


def meta(kind, name, ns=None, minutes=0, labels=None, owner=None, annotations=None,
         manager="kube-controller-manager", generate_name=None):
    rv[0] += 7
    m = {"creationTimestamp": ts(minutes)}
    if generate_name:
        m["generateName"] = generate_name
    if labels:
        m["labels"] = dict(labels)
    if annotations:
        m["annotations"] = dict(annotations)
    m["name"] = name
    if ns:
        m["namespace"] = ns
    if owner:
        m["ownerReferences"] = [owner]
    m["resourceVersion"] = str(rv[0])
    m["uid"] = uid(kind, ns or "", name)
    return m


def owner_ref(api, kind, name, ns):
    return {"apiVersion": api, "blockOwnerDeletion": True, "controller": True, "kind": kind,
            "name": name, "uid": uid(kind, ns, name)}


# ---------------------------------------------------------------- nodes

def node(name, zone, pool, cpu, mem_ki, gpu=0, minutes=0):
    labels = {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": "g5.2xlarge" if gpu else "m6i.xlarge",
        "beta.kubernetes.io/os": "linux",
        "eks.amazonaws.com/nodegroup": pool,
        "failure-domain.beta.kubernetes.io/region": "eu-west-1",
        "failure-domain.beta.kubernetes.io/zone": zone,
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "g5.2xlarge" if gpu else "m6i.xlarge",
        "topology.ebs.csi.aws.com/zone": zone,
        "topology.kubernetes.io/region": "eu-west-1",
        "topology.kubernetes.io/zone": zone,
    }
    if gpu:
        labels["nvidia.com/gpu.present"] = "true"
    capacity = {"cpu": str(cpu), "ephemeral-storage": "104845292Ki", "hugepages-1Gi": "0",
                "hugepages-2Mi": "0", "memory": f"{mem_ki}Ki", "pods": "58"}
    alloc = {"cpu": f"{cpu * 1000 - 80}m", "ephemeral-storage": "95551679731",
             "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": f"{mem_ki - 1005000}Ki", "pods": "58"}
    if gpu:
        capacity["nvidia.com/gpu"] = str(gpu)
        alloc["nvidia.com/gpu"] = str(gpu)
    spec = {"providerID": f"aws:///{zone}/i-0{hashlib.md5(name.encode()).hexdigest()[:16]}"}
    if gpu:
        spec["taints"] = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "true"}]
    conds = []
    for t, st, reason, msg in [
        ("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        ("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        ("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        ("Ready", "True", "KubeletReady", "kubelet is posting ready status")]:
        conds.append({"lastHeartbeatTime": "2026-03-03T09:58:12Z", "lastTransitionTime": ts(minutes),
                      "message": msg, "reason": reason, "status": st, "type": t})
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": meta("Node", name, minutes=minutes, labels=labels, manager="kubelet",
                         annotations={"alpha.kubernetes.io/provided-node-ip": "10.0.1.17",
                                      "node.alpha.kubernetes.io/ttl": "0",
                                      "volumes.kubernetes.io/controller-managed-attach-detach": "true"}),
        "spec": spec,
        "status": {
            "addresses": [{"address": "10.0.1.17", "type": "InternalIP"},
                          {"address": f"ip-10-0-1-17.eu-west-1.compute.internal", "type": "InternalDNS"},
                          {"address": f"ip-10-0-1-17.eu-west-1.compute.internal", "type": "Hostname"}],
            "allocatable": alloc,
            "capacity": capacity,
            "conditions": conds,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "features": {"supplementalGroupsPolicy": True},
            "images": [
                {"names": ["registry.example.com/shop/web@sha256:" + "a" * 64,
                           "registry.example.com/shop/web:2.14.0"], "sizeBytes": 183421881},
                {"names": ["public.ecr.aws/eks-distro/kubernetes/kube-proxy:v1.34.1"],
                 "sizeBytes": 37112010},
            ],
            "nodeInfo": {"architecture": "amd64", "bootID": uid("boot", name),
                         "containerRuntimeVersion": "containerd://2.1.4",
                         "kernelVersion": "6.12.40-63.114.amzn2023.x86_64",
                         "kubeProxyVersion": "", "kubeletVersion": "v1.34.1-eks-113cf36",
                         "machineID": hashlib.md5(name.encode()).hexdigest(),
                         "operatingSystem": "linux", "osImage": "Amazon Linux 2023.8.20250818",
                         "swap": {"capacity": 0},
                         "systemUUID": uid("sys", name)},
            "runtimeHandlers": [
                {"features": {"recursiveReadOnlyMounts": True, "userNamespaces": True}, "name": "runc"},
                {"features": {"recursiveReadOnlyMounts": True, "userNamespaces": True}, "name": ""}],
        },
    }


NODES = []
for i, z in enumerate(ZONES):
    for j in (1, 2):
        NODES.append(node(f"ip-10-0-{i}{j}-1{j}.eu-west-1.compute.internal", z, "general", 4, 15896504))
for i, z in enumerate(ZONES[:2]):
    NODES.append(node(f"ip-10-0-{i}9-19.eu-west-1.compute.internal", z, "gpu", 8, 32329008, gpu=1))
GEN = [n["metadata"]["name"] for n in NODES[:6]]
GPU = [n["metadata"]["name"] for n in NODES[6:]]


def zone_of(nodename):
    for n in NODES:
        if n["metadata"]["name"] == nodename:
            return n["metadata"]["labels"]["topology.kubernetes.io/zone"]


# ---------------------------------------------------------------- pods

def api_access_volume(suffix):
    return {"name": f"kube-api-access-{suffix}", "projected": {"defaultMode": 420, "sources": [
        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
        {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
        {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"},
                                    "path": "namespace"}]}}]}}


def container(name, image, requests=None, limits=None, ports=None, suffix="abcde", restart=None,
              probes=False, resize=None):
    c = {"image": image, "imagePullPolicy": "IfNotPresent", "name": name}
    if ports:
        c["ports"] = ports
    res = {}
    if limits:
        res["limits"] = dict(limits)
    if requests:
        res["requests"] = dict(requests)
    if resize:
        c["resizePolicy"] = resize
    c["resources"] = res
    if restart:
        c["restartPolicy"] = restart
    if probes:
        c["readinessProbe"] = {"failureThreshold": 3, "httpGet": {"path": "/healthz", "port": 8080,
                                                                 "scheme": "HTTP"},
                               "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1}
    c["terminationMessagePath"] = "/dev/termination-log"
    c["terminationMessagePolicy"] = "File"
    c["volumeMounts"] = [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                          "name": f"kube-api-access-{suffix}", "readOnly": True}]
    return c


DEFAULT_TOLERATIONS = [
    {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists",
     "tolerationSeconds": 300},
    {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists",
     "tolerationSeconds": 300},
]


def status_running(p, nodename, minutes, resized=None):
    spec = p["spec"]
    def cstatus(c, init=False):
        s = {"containerID": "containerd://" + hashlib.sha1(c["name"].encode()).hexdigest() * 1,
             "image": c["image"], "imageID": c["image"].split(":")[0] + "@sha256:" + "b" * 64,
             "lastState": {}, "name": c["name"], "ready": True, "restartCount": 0,
             "started": True,
             "state": {"running": {"startedAt": ts(minutes + 1)}},
             "user": {"linux": {"gid": 0, "supplementalGroups": [0], "uid": 0}},
             "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                               "name": c["volumeMounts"][0]["name"], "readOnly": True,
                               "recursiveReadOnly": "Disabled"}]}
        req = c["resources"].get("requests")
        if req:
            s["allocatedResources"] = dict(req)
            s["resources"] = copy.deepcopy(c["resources"])
        if resized and c["name"] in resized:
            s["allocatedResources"] = resized[c["name"]]
            s["resources"] = {"requests": resized[c["name"]]}
        return s
    st = {
        "conditions": [
            {"lastProbeTime": None, "lastTransitionTime": ts(minutes + 1), "observedGeneration": 1,
             "status": "True", "type": "PodReadyToStartContainers"},
            {"lastProbeTime": None, "lastTransitionTime": ts(minutes + 1), "observedGeneration": 1,
             "status": "True", "type": "Initialized"},
            {"lastProbeTime": None, "lastTransitionTime": ts(minutes + 2), "observedGeneration": 1,
             "status": "True", "type": "Ready"},
            {"lastProbeTime": None, "lastTransitionTime": ts(minutes + 2), "observedGeneration": 1,
             "status": "True", "type": "ContainersReady"},
            {"lastProbeTime": None, "lastTransitionTime": ts(minutes), "observedGeneration": 1,
             "status": "True", "type": "PodScheduled"},
        ],
        "containerStatuses": [cstatus(c) for c in spec["containers"]],
        "hostIP": "10.0.1.17", "hostIPs": [{"ip": "10.0.1.17"}],
        "observedGeneration": 1,
        "phase": "Running",
        "podIP": "10.0.1.44", "podIPs": [{"ip": "10.0.1.44"}],
        "qosClass": "Burstable",
        "startTime": ts(minutes),
    }
    if spec.get("initContainers"):
        st["initContainerStatuses"] = [cstatus(c, True) for c in spec["initContainers"]]
    p["status"] = st


def status_pending(p, minutes, gated=False):
    if gated:
        cond = {"lastProbeTime": None, "lastTransitionTime": ts(minutes), "message":
                "Scheduling is blocked due to non-empty scheduling gates", "reason": "SchedulingGated",
                "status": "False", "type": "PodScheduled"}
    else:
        cond = {"lastProbeTime": None, "lastTransitionTime": ts(minutes), "message":
                "0/8 nodes are available: waiting for the cluster autoscaler.", "reason": "Unschedulable",
                "status": "False", "type": "PodScheduled"}
    p["status"] = {"conditions": [cond], "phase": "Pending", "qosClass": "Burstable"}


def pod(name, ns, minutes, labels, containers, owner=None, init=None, extra_spec=None,
        nodename=None, priority=0, priority_class=None, tolerations=None, resized=None,
        generate_name=None, gated=False, volumes=None, pod_resources=None, hostname=None,
        subdomain=None):
    suffix = hashlib.md5(name.encode()).hexdigest()[:5]
    for c in containers + (init or []):
        c["volumeMounts"][0]["name"] = f"kube-api-access-{suffix}"
    spec = {"containers": containers}
    spec.update({"dnsPolicy": "ClusterFirst", "enableServiceLinks": True})
    if hostname:
        spec["hostname"] = hostname
    if init:
        spec["initContainers"] = init
    if nodename:
        spec["nodeName"] = nodename
    spec.update({"preemptionPolicy": "PreemptLowerPriority", "priority": priority})
    if priority_class:
        spec["priorityClassName"] = priority_class
    if pod_resources:
        spec["resources"] = pod_resources
    spec.update({"restartPolicy": "Always", "schedulerName": "default-scheduler",
                 "securityContext": {}, "serviceAccount": "default",
                 "serviceAccountName": "default"})
    if subdomain:
        spec["subdomain"] = subdomain
    spec["terminationGracePeriodSeconds"] = 30
    spec["tolerations"] = (tolerations or []) + DEFAULT_TOLERATIONS
    if extra_spec:
        spec.update(copy.deepcopy(extra_spec))
    spec["volumes"] = (volumes or []) + [api_access_volume(suffix)]
    spec = dict(sorted(spec.items()))
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": meta("Pod", name, ns, minutes, labels, owner, generate_name=generate_name,
                          manager="kubelet" if nodename else "kube-controller-manager"),
         "spec": spec}
    if nodename:
        status_running(p, nodename, minutes, resized)
    else:
        status_pending(p, minutes, gated)
    return p


def spread_zone(match, hash_value, when="DoNotSchedule", skew=1, min_domains=None):
    c = {"labelSelector": {"matchExpressions": [
        {"key": "pod-template-hash", "operator": "In", "values": [hash_value]}],
        "matchLabels": dict(match)},
        "matchLabelKeys": ["pod-template-hash"], "maxSkew": skew,
        "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": when}
    if min_domains:
        c["minDomains"] = min_domains
    return c


ITEMS = []

# Namespaces
for i, ns in enumerate(["default", "kube-system", "shop", "data", "ml"]):
    ITEMS.append({"apiVersion": "v1", "kind": "Namespace",
                  "metadata": meta("Namespace", ns, minutes=i,
                                   labels={"kubernetes.io/metadata.name": ns}),
                  "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})

# PriorityClasses
ITEMS.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
              "description": "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
              "metadata": meta("PriorityClass", "system-cluster-critical"), "preemptionPolicy": "PreemptLowerPriority",
              "value": 2000000000})
ITEMS.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
              "description": "Used for system critical pods that must not be moved from their current node.",
              "metadata": meta("PriorityClass", "system-node-critical"), "preemptionPolicy": "PreemptLowerPriority",
              "value": 2000001000})
ITEMS.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
              "description": "shop frontends", "metadata": meta("PriorityClass", "shop-high"),
              "preemptionPolicy": "PreemptLowerPriority", "value": 1000})
ITEMS.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
              "description": "batch", "metadata": meta("PriorityClass", "batch-low"),
              "preemptionPolicy": "Never", "value": -10})

ITEMS.extend(NODES)

# DaemonSets: kube-proxy and ebs-csi-node (a native sidecar), one pod per node.
def daemonset(name, labels, containers, init=None, tolerations=None):
    tmpl_spec = {"containers": containers, "dnsPolicy": "ClusterFirst", "hostNetwork": True,
                 "priorityClassName": "system-node-critical", "restartPolicy": "Always",
                 "schedulerName": "default-scheduler", "securityContext": {},
                 "terminationGracePeriodSeconds": 30,
                 "tolerations": tolerations or [{"operator": "Exists"}]}
    if init:
        tmpl_spec["initContainers"] = init
    tmpl_spec = copy.deepcopy(tmpl_spec)
    for c in tmpl_spec["containers"] + tmpl_spec.get("initContainers", []):
        c.pop("volumeMounts", None)
    return {"apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {**meta("DaemonSet", name, "kube-system", 5, labels),
                         "annotations": {"deprecated.daemonset.template.generation": "1"},
                         "generation": 1},
            "spec": {"revisionHistoryLimit": 10, "selector": {"matchLabels": labels},
                     "template": {"metadata": {"labels": labels}, "spec": tmpl_spec},
                     "updateStrategy": {"rollingUpdate": {"maxSurge": 0, "maxUnavailable": "10%"},
                                        "type": "RollingUpdate"}},
            "status": {"currentNumberScheduled": 8, "desiredNumberScheduled": 8,
                       "numberAvailable": 8, "numberMisscheduled": 0, "numberReady": 8,
                       "observedGeneration": 1, "updatedNumberScheduled": 8}}


kp_labels = {"k8s-app": "kube-proxy"}
kp_c = [container("kube-proxy", "public.ecr.aws/eks-distro/kubernetes/kube-proxy:v1.34.1",
                  requests={"cpu": "100m"})]
ebs_labels = {"app": "ebs-csi-node", "app.kubernetes.io/name": "aws-ebs-csi-driver"}
ebs_c = [container("ebs-plugin", "public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.48.0",
                   requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"})]
ebs_init = [container("node-driver-registrar", "public.ecr.aws/csi-components/csi-node-driver-registrar:v2.14.0",
                      requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
                      restart="Always")]
ITEMS.append(daemonset("ebs-csi-node", ebs_labels, copy.deepcopy(ebs_c), copy.deepcopy(ebs_init)))
for k, n in enumerate(GEN + GPU):
    for dsname, labels, cs, init in [("ebs-csi-node", ebs_labels, ebs_c, ebs_init)]:
        suffix = hashlib.md5(f"{dsname}{n}".encode()).hexdigest()[:5]
        pname = f"{dsname}-{suffix}"
        p = pod(pname, "kube-system", 10 + k, {**labels, "controller-revision-hash": "6d9b7f5c8",
                                                "pod-template-generation": "1"},
                copy.deepcopy(cs), owner_ref("apps/v1", "DaemonSet", dsname, "kube-system"),
                init=copy.deepcopy(init) if init else None, nodename=n,
                priority=2000001000, priority_class="system-node-critical",
                tolerations=[{"operator": "Exists"}], generate_name=dsname + "-",
                extra_spec={"hostNetwork": True, "affinity": {"nodeAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [n]}]}]}}}})
        ITEMS.append(p)

# ---------------------------------------------------------------- shop/web
# Deployment web rolling out: the old ReplicaSet's 6 pods run, the new one's 2
# pods are pending. Each pod: an envoy native sidecar (100m / 128Mi) and the
# app (500m / 512Mi); spread over zones per revision (matchLabelKeys merged by
# the API server), preferred anti-affinity per revision by hostname.
WEB_OLD, WEB_NEW = "7c9d8f6b5d", "5f4b8d7c96"
web_labels = {"app": "web", "app.kubernetes.io/part-of": "shop"}


def web_spec(hash_value):
    return {
        "topologySpreadConstraints": [spread_zone({"app": "web"}, hash_value)],
        "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"podAffinityTerm": {"labelSelector": {"matchExpressions": [
                {"key": "pod-template-hash", "operator": "In", "values": [hash_value]}],
                "matchLabels": {"app": "web"}},
                "matchLabelKeys": ["pod-template-hash"],
                "topologyKey": "kubernetes.io/hostname"}, "weight": 100}]}},
    }


def web_containers():
    return [container("web", "registry.example.com/shop/web:2.14.0",
                      requests={"cpu": "500m", "memory": "512Mi"}, limits={"memory": "1Gi"},
                      ports=[{"containerPort": 8080, "name": "http", "protocol": "TCP"}], probes=True)]


def web_init():
    return [container("envoy", "envoyproxy/envoy:v1.35.2", requests={"cpu": "100m", "memory": "128Mi"},
                      limits={"memory": "256Mi"}, restart="Always",
                      ports=[{"containerPort": 15001, "name": "proxy", "protocol": "TCP"}])]


def replicaset(name, ns, labels, hash_value, replicas, tmpl_spec, owner_kind, owner_name, minutes):
    full = {**labels, "pod-template-hash": hash_value}
    return {"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {**meta("ReplicaSet", name, ns, minutes, full,
                                owner_ref("apps/v1", owner_kind, owner_name, ns)),
                         "annotations": {"deployment.kubernetes.io/desired-replicas": str(replicas),
                                         "deployment.kubernetes.io/max-replicas": str(replicas + 1),
                                         "deployment.kubernetes.io/revision": "3"},
                         "generation": 2},
            "spec": {"replicas": replicas,
                     "selector": {"matchLabels": {k: v for k, v in full.items() if k != "app.kubernetes.io/part-of"}},
                     "template": {"metadata": {"labels": full}, "spec": tmpl_spec}},
            "status": {"availableReplicas": replicas, "fullyLabeledReplicas": replicas,
                       "observedGeneration": 2, "readyReplicas": replicas, "replicas": replicas,
                       "terminatingReplicas": 0}}


def strip_template(pod_spec):
    s = copy.deepcopy(pod_spec)
    for c in s["containers"] + s.get("initContainers", []):
        c.pop("volumeMounts", None)
    s["tolerations"] = [t for t in s.get("tolerations", []) if t not in DEFAULT_TOLERATIONS]
    if not s["tolerations"]:
        del s["tolerations"]
    s.pop("volumes", None)
    for k in ("serviceAccount", "serviceAccountName", "enableServiceLinks", "preemptionPolicy",
              "priority", "nodeName"):
        s.pop(k, None)
    return s


web_pods = []
for r, n in enumerate(GEN):
    name = f"web-{WEB_OLD}-{hashlib.md5(f'web{r}'.encode()).hexdigest()[:5]}"
    p = pod(name, "shop", 100 + r, {**web_labels, "pod-template-hash": WEB_OLD},
            web_containers(), owner_ref("apps/v1", "ReplicaSet", f"web-{WEB_OLD}", "shop"),
            init=web_init(), extra_spec=web_spec(WEB_OLD), nodename=n, priority=1000,
            priority_class="shop-high", generate_name=f"web-{WEB_OLD}-")
    web_pods.append(p)
ITEMS.append(replicaset(f"web-{WEB_OLD}", "shop", web_labels, WEB_OLD, 6,
                        strip_template(web_pods[0]["spec"]), "Deployment", "web", 90))
ITEMS.append(replicaset(f"web-{WEB_NEW}", "shop", web_labels, WEB_NEW, 2,
                        strip_template({**web_pods[0]["spec"], **web_spec(WEB_NEW)}), "Deployment", "web", 400))
ITEMS.extend(web_pods)
for r in range(2):
    name = f"web-{WEB_NEW}-{hashlib.md5(f'webnew{r}'.encode()).hexdigest()[:5]}"
    ITEMS.append(pod(name, "shop", 401 + r, {**web_labels, "pod-template-hash": WEB_NEW},
                     web_containers(), owner_ref("apps/v1", "ReplicaSet", f"web-{WEB_NEW}", "shop"),
                     init=web_init(), extra_spec=web_spec(WEB_NEW), priority=1000,
                     priority_class="shop-high", generate_name=f"web-{WEB_NEW}-"))

# ---------------------------------------------------------------- shop/api
# Pod-level resources: 1 cpu / 1Gi requested for the pod as a whole (limits
# 2 / 2Gi), containers without requests of their own.
API_HASH = "6b7f9c8d54"
api_labels = {"app": "api"}
api_res = {"limits": {"cpu": "2", "memory": "2Gi"}, "requests": {"cpu": "1500m", "memory": "1Gi"}}


def api_pod(i, nodename, minutes):
    name = f"api-{API_HASH}-{hashlib.md5(f'api{i}'.encode()).hexdigest()[:5]}"
    return pod(name, "shop", minutes, {**api_labels, "pod-template-hash": API_HASH},
               [container("api", "registry.example.com/shop/api:5.2.1",
                          ports=[{"containerPort": 9000, "protocol": "TCP"}]),
                container("metrics", "registry.example.com/shop/metrics:1.0.3")],
               owner_ref("apps/v1", "ReplicaSet", f"api-{API_HASH}", "shop"),
               pod_resources=copy.deepcopy(api_res), nodename=nodename,
               extra_spec={"topologySpreadConstraints": [
                   spread_zone(api_labels, API_HASH, when="ScheduleAnyway")]},
               generate_name=f"api-{API_HASH}-")


api_pods = [api_pod(0, GEN[0], 200), api_pod(1, GEN[2], 201), api_pod(2, GEN[4], 202)]
ITEMS.append(replicaset(f"api-{API_HASH}", "shop", api_labels, API_HASH, 6,
                        strip_template(api_pods[0]["spec"]), "Deployment", "api", 190))
ITEMS.extend(api_pods)
for i in range(3, 6):
    ITEMS.append(api_pod(i, None, 410 + i))

# ---------------------------------------------------------------- data/pg
# StatefulSet pg with a WaitForFirstConsumer gp3 class: pg-0 runs with its
# volume bound in zone a; pg-1 and pg-2 are pending, their claims unbound.
ITEMS.append({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
              "metadata": {**meta("StorageClass", "gp3", minutes=3),
                           "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
              "allowVolumeExpansion": True, "parameters": {"encrypted": "true", "type": "gp3"},
              "provisioner": "ebs.csi.aws.com", "reclaimPolicy": "Delete",
              "volumeBindingMode": "WaitForFirstConsumer"})
ITEMS.append({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver",
              "metadata": meta("CSIDriver", "ebs.csi.aws.com", minutes=3),
              "spec": {"attachRequired": True, "fsGroupPolicy": "ReadWriteOnceWithFSType",
                       "nodeAllocatableUpdatePeriodSeconds": 10, "podInfoOnMount": False,
                       "requiresRepublish": False, "seLinuxMount": False,
                       "serviceAccountTokenInSecrets": False,
                       "storageCapacity": False, "volumeLifecycleModes": ["Persistent"]}})
for n in NODES:
    name = n["metadata"]["name"]
    ITEMS.append({"apiVersion": "storage.k8s.io/v1", "kind": "CSINode",
                  "metadata": {**meta("CSINode", name, minutes=4, manager="kubelet"),
                               "annotations": {"storage.alpha.kubernetes.io/migrated-plugins":
                                               "kubernetes.io/aws-ebs,kubernetes.io/azure-disk,kubernetes.io/azure-file,kubernetes.io/cinder,kubernetes.io/gce-pd,kubernetes.io/portworx-volume,kubernetes.io/vsphere-volume"},
                               "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": name,
                                                    "uid": uid("Node", "", name)}]},
                  "spec": {"drivers": [{"allocatable": {"count": 26}, "name": "ebs.csi.aws.com",
                                        "nodeID": n["spec"]["providerID"].split("/")[-1],
                                        "topologyKeys": ["kubernetes.io/os", "topology.ebs.csi.aws.com/zone",
                                                         "topology.kubernetes.io/zone"]}]}})

pg_tmpl = {"containers": [container("postgres", "postgres:17.6", requests={"cpu": "1", "memory": "2Gi"},
                                    limits={"memory": "4Gi"}, ports=[{"containerPort": 5432, "protocol": "TCP"}])],
           "topologySpreadConstraints": [{"labelSelector": {"matchLabels": {"app": "pg"}}, "maxSkew": 1,
                                          "topologyKey": "topology.kubernetes.io/zone",
                                          "whenUnsatisfiable": "DoNotSchedule", "minDomains": 3}]}
ITEMS.append({"apiVersion": "apps/v1", "kind": "StatefulSet",
              "metadata": {**meta("StatefulSet", "pg", "data", 300, {"app": "pg"}), "generation": 1},
              "spec": {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
                       "podManagementPolicy": "Parallel", "replicas": 3, "revisionHistoryLimit": 10,
                       "selector": {"matchLabels": {"app": "pg"}}, "serviceName": "pg",
                       "template": {"metadata": {"labels": {"app": "pg"}},
                                    "spec": {**strip_template({**pg_tmpl, "dnsPolicy": "ClusterFirst",
                                                               "restartPolicy": "Always",
                                                               "schedulerName": "default-scheduler",
                                                               "securityContext": {},
                                                               "terminationGracePeriodSeconds": 30})}},
                       "updateStrategy": {"rollingUpdate": {"partition": 0}, "type": "RollingUpdate"},
                       "volumeClaimTemplates": [{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                                                 "metadata": {"name": "data"},
                                                 "spec": {"accessModes": ["ReadWriteOnce"],
                                                          "resources": {"requests": {"storage": "50Gi"}},
                                                          "storageClassName": "gp3", "volumeMode": "Filesystem"},
                                                 "status": {"phase": "Pending"}}]},
              "status": {"availableReplicas": 1, "collisionCount": 0, "currentReplicas": 3,
                         "currentRevision": "pg-7b6c9f8d4", "observedGeneration": 1, "readyReplicas": 1,
                         "replicas": 3, "updateRevision": "pg-7b6c9f8d4", "updatedReplicas": 3}})
pv_name = "pvc-" + uid("PersistentVolumeClaim", "data", "data-pg-0")
for i in range(3):
    claim = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
             "metadata": {**meta("PersistentVolumeClaim", f"data-pg-{i}", "data", 301 + i, {"app": "pg"}),
                          "annotations": {"volume.beta.kubernetes.io/storage-provisioner": "ebs.csi.aws.com",
                                          "volume.kubernetes.io/storage-provisioner": "ebs.csi.aws.com"},
                          "finalizers": ["kubernetes.io/pvc-protection"]},
             "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "50Gi"}},
                      "storageClassName": "gp3", "volumeMode": "Filesystem"},
             "status": {"phase": "Pending"}}
    if i == 0:
        claim["metadata"]["annotations"].update({"pv.kubernetes.io/bind-completed": "yes",
                                                 "pv.kubernetes.io/bound-by-controller": "yes",
                                                 "volume.kubernetes.io/selected-node": GEN[1]})
        claim["spec"]["volumeName"] = pv_name
        claim["status"] = {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "50Gi"}, "phase": "Bound"}
    ITEMS.append(claim)
ITEMS.append({"apiVersion": "v1", "kind": "PersistentVolume",
              "metadata": {**meta("PersistentVolume", pv_name, minutes=305, manager="csi-provisioner"),
                           "annotations": {"pv.kubernetes.io/provisioned-by": "ebs.csi.aws.com",
                                           "volume.kubernetes.io/provisioner-deletion-secret-name": "",
                                           "volume.kubernetes.io/provisioner-deletion-secret-namespace": ""},
                           "finalizers": ["external-provisioner.volume.kubernetes.io/finalizer",
                                          "kubernetes.io/pv-protection", "external-attacher/ebs-csi-aws-com"]},
              "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "50Gi"},
                       "claimRef": {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "name": "data-pg-0",
                                    "namespace": "data", "resourceVersion": "4242",
                                    "uid": uid("PersistentVolumeClaim", "data", "data-pg-0")},
                       "csi": {"driver": "ebs.csi.aws.com", "fsType": "ext4",
                               "volumeAttributes": {"storage.kubernetes.io/csiProvisionerIdentity": "1740000000000-1234-ebs.csi.aws.com"},
                               "volumeHandle": "vol-0123456789abcdef0"},
                       "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                           {"key": "topology.kubernetes.io/zone", "operator": "In", "values": [ZONES[0]]}]}]}},
                       "persistentVolumeReclaimPolicy": "Delete", "storageClassName": "gp3",
                       "volumeMode": "Filesystem"},
              "status": {"lastPhaseTransitionTime": ts(305), "phase": "Bound"}})
for i in range(3):
    name = f"pg-{i}"
    labels = {"app": "pg", "apps.kubernetes.io/pod-index": str(i),
              "controller-revision-hash": "pg-7b6c9f8d4", "statefulset.kubernetes.io/pod-name": name}
    p = pod(name, "data", 302 + i, labels, copy.deepcopy(pg_tmpl["containers"]),
            owner_ref("apps/v1", "StatefulSet", "pg", "data"),
            extra_spec={"topologySpreadConstraints": pg_tmpl["topologySpreadConstraints"]},
            nodename=GEN[1] if i == 0 else None, hostname=name, subdomain="pg",
            volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": f"data-pg-{i}"}}])
    ITEMS.append(p)

# ---------------------------------------------------------------- ml
# A Job whose pods need a GPU and run a log-shipping native sidecar; a
# notebook resized in place (its allocation still 2 cpu while the spec asks
# for 500m); a gated batch pod.
JOB_UID = uid("Job", "ml", "train")
for i in range(2):
    name = f"train-{hashlib.md5(f'train{i}'.encode()).hexdigest()[:5]}"
    labels = {"batch.kubernetes.io/controller-uid": JOB_UID, "batch.kubernetes.io/job-completion-index": str(i),
              "batch.kubernetes.io/job-name": "train", "controller-uid": JOB_UID, "job-name": "train"}
    ITEMS.append(pod(name, "ml", 420 + i, labels,
                     [container("trainer", "nvcr.io/nvidia/pytorch:25.08-py3",
                                requests={"cpu": "3", "memory": "12Gi", "nvidia.com/gpu": "1"},
                                limits={"memory": "16Gi", "nvidia.com/gpu": "1"})],
                     {"apiVersion": "batch/v1", "blockOwnerDeletion": True, "controller": True,
                      "kind": "Job", "name": "train", "uid": JOB_UID},
                     init=[container("fluent-bit", "fluent/fluent-bit:4.0.7",
                                     requests={"cpu": "200m", "memory": "128Mi"}, restart="Always")],
                     tolerations=[{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}],
                     extra_spec={"restartPolicy": "Never"}, priority=0, generate_name="train-"))
ITEMS.append(pod("notebook-0", "ml", 250, {"app": "notebook"},
                 [container("jupyter", "quay.io/jupyter/scipy-notebook:2025-09-01",
                            requests={"cpu": "500m", "memory": "2Gi"}, limits={"memory": "4Gi"},
                            resize=[{"resourceName": "cpu", "restartPolicy": "NotRequired"},
                                    {"resourceName": "memory", "restartPolicy": "RestartContainer"}])],
                 nodename=GEN[3], resized={"jupyter": {"cpu": "2", "memory": "2Gi"}}))
ITEMS[-1]["status"]["conditions"].insert(0, {"lastProbeTime": None, "lastTransitionTime": ts(260),
                                             "message": "", "observedGeneration": 2, "reason": "",
                                             "status": "True", "type": "PodResizeInProgress"})
ITEMS[-1]["metadata"]["generation"] = 2
ITEMS.append(pod("batch-export", "default", 430, {"app": "export"},
                 [container("export", "registry.example.com/batch/export:0.9.1",
                            requests={"cpu": "250m", "memory": "256Mi"})],
                 extra_spec={"schedulingGates": [{"name": "example.com/quota-check"}]}, gated=True,
                 priority=-10, priority_class="batch-low"))
# A report that asks for more cpu than any general node has left.
ITEMS.append(pod("report-builder", "default", 431, {"app": "report"},
                 [container("report", "registry.example.com/batch/report:3.1.0",
                            requests={"cpu": "3500m", "memory": "6Gi"})],
                 priority=-10, priority_class="batch-low"))

# Services and a PodDisruptionBudget
for name, ns, sel, port in [("web", "shop", {"app": "web"}, 8080), ("api", "shop", {"app": "api"}, 9000),
                            ("pg", "data", {"app": "pg"}, 5432)]:
    spec = {"clusterIP": "172.20.%d.%d" % (len(name), port % 250), "clusterIPs": [],
            "internalTrafficPolicy": "Cluster", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
            "ports": [{"name": "tcp", "port": port, "protocol": "TCP", "targetPort": port}],
            "selector": sel, "sessionAffinity": "None", "type": "ClusterIP"}
    if name == "pg":
        spec["clusterIP"] = "None"
        spec["publishNotReadyAddresses"] = True
    spec["clusterIPs"] = [spec["clusterIP"]]
    ITEMS.append({"apiVersion": "v1", "kind": "Service",
                  "metadata": meta("Service", name, ns, 50, {"app": name}),
                  "spec": spec, "status": {"loadBalancer": {}}})
ITEMS.append({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
              "metadata": {**meta("PodDisruptionBudget", "web", "shop", 60), "generation": 1},
              "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "web"}},
                       "unhealthyPodEvictionPolicy": "AlwaysAllow"},
              "status": {"conditions": [{"lastTransitionTime": ts(110), "message": "", "observedGeneration": 1,
                                         "reason": "SufficientPods", "status": "True", "type": "DisruptionAllowed"}],
                         "currentHealthy": 6, "desiredHealthy": 5, "disruptionsAllowed": 1,
                         "expectedPods": 6, "observedGeneration": 1}})


def clean(o):
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items() if not (k == "apps.kubernetes.io/pod-index" and v is None)}
    if isinstance(o, list):
        return [clean(v) for v in o]
    return o


doc = {"apiVersion": "v1", "items": clean(ITEMS), "kind": "List",
       "metadata": {"resourceVersion": ""}}
sys.stdout.write(
    "# `kubectl get nodes,pods,services,replicasets,statefulsets,daemonsets,persistentvolumes,\n"
    "# persistentvolumeclaims,storageclasses,poddisruptionbudgets,priorityclasses,namespaces,\n"
    "# csinodes,csidrivers -A -o yaml` of a Kubernetes 1.34 cluster, as its API server stores the\n"
    "# objects; written by tests/data/gen-snapshot-v1.34.py (see tests/snapshot_v135_cli_test.cc).\n")
sys.stdout.write(yaml.safe_dump(doc, sort_keys=False, width=100))
