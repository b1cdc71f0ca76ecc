// What a v1.15 API server does to an object before any scheduler reads it:
// the v1 defaulting functions (pkg/apis/core/v1/defaults.go) and the default
// admission plugins that change a field the scheduler reads.
//
// `kubectl get` output has been through all of this already; a hand-written
// object (`schedule --pending`, `capacity --pod`, a snapshot written by hand)
// has not, and would otherwise be scheduled as no cluster would ever see it:
// a GPU pod that writes only `limits: {nvidia.com/gpu: 1}` requests nothing
// and lands on a node without GPUs.
//
// Every function here is idempotent, and a no-op on an object the API server
// has stored: `schedule` and `capacity` apply them to every object they read,
// snapshot or not. `replay` and `bench` do not: the conformance format
// defines its objects exactly as written.
//
// Applied (by the function named):
//   SetPodDefaults
//     - containers' and init containers' requests default to their limits,
//       resource by resource (SetDefaults_Pod);
//     - v1.35 with PodLevelResources (beta, on), for a pod with
//       spec.resources (SetDefaults_Pod, after the above):
//       defaultHugePagePodLimits, a hugepage size the containers limit and
//       the pod neither requests nor limits gets a pod limit of their
//       KEP-753 sum; then defaultPodRequests, when the pod sets limits: cpu
//       and memory the containers request get a pod request of their sum,
//       and every other pod limit without a request a request equal to it.
//       So a stored pod with pod-level limits always has pod-level requests,
//       which the scheduler counts (a pod limited to 4 cpu requests 4);
//     - spec.schedulerName defaults to "default-scheduler" (SetDefaults_PodSpec);
//     - with spec.hostNetwork, a port's hostPort defaults to its
//       containerPort (SetDefaults_PodSpec, defaultHostNetworkPorts);
//     - a port's protocol defaults to TCP (SetDefaults_ContainerPort).
//   AdmitDefaultTolerationSeconds (the DefaultTolerationSeconds plugin)
//     - a pod that does not tolerate node.kubernetes.io/not-ready:NoExecute
//       (or .../unreachable:NoExecute) gets an Exists toleration for it with
//       tolerationSeconds 300.
//   SetNodeDefaults
//     - status.allocatable defaults to status.capacity when absent
//       (SetDefaults_NodeStatus).
//   SetReplicationControllerDefaults
//     - an empty spec.selector defaults to spec.template.metadata.labels.
//   AdmitDefaultStorageClass (the DefaultStorageClass plugin)
//     - a claim with no class gets the cluster's one default StorageClass.
// The Priority plugin needs the cluster's classes and lives in
// api/priority_admission.h.
//
// Not applied, on purpose:
//   - no default for a toleration's operator: v1.15 has none; an empty
//     operator means Equal wherever it is read (validation, the predicate);
//   - no default for a port's hostIP: v1.15 has none; an empty hostIP means
//     every address (0.0.0.0), which is how PodFitsHostPorts reads it;
//   - TaintNodesByCondition's admission taint (not-ready:NoSchedule on a new
//     node) lasts only until the node reports Ready, and a snapshot's nodes
//     are past that;
//   - LimitRanger needs LimitRange objects, which ksched does not read;
//     ServiceAccount adds a token volume the scheduler does not count.
//
// v1.26 (ApplyV126Defaults): what the framework scenarios' reference
// harness does to every object before the scheduler sees it, which is the
// v1.26 scheme's defaulting and no admission plugin:
//   - pods: SetPodDefaults as above (v1.26 defaults the same fields the
//     scheduler reads: requests from limits, schedulerName, host-network
//     ports, port protocol); no DefaultTolerationSeconds, no priority from
//     priorityClassName, and spec.preemptionPolicy stays unset (which
//     DefaultPreemption reads as PreemptLowerPriority);
//   - nodes: allocatable from capacity; replication controllers: selector
//     from the template's labels;
//   - namespaces: the label kubernetes.io/metadata.name=<name> (v1.21+), and
//     a Namespace for every namespace a pod uses without one being listed;
//   - persistent volumes and claims: status.phase "Pending" when absent;
//   - no DefaultStorageClass admission.
#pragma once

#include <string_view>
#include <vector>

#include "api/api_server.h"
#include "api/object_set.h"
#include "api/types.h"

namespace ksched {

inline constexpr std::string_view kDefaultSchedulerName = "default-scheduler";
inline constexpr std::string_view kTaintNodeNotReady = "node.kubernetes.io/not-ready";
inline constexpr std::string_view kTaintNodeUnreachable = "node.kubernetes.io/unreachable";
inline constexpr int64_t kDefaultTolerationSeconds = 300;
inline constexpr std::string_view kIsDefaultStorageClassAnnotation =
    "storageclass.kubernetes.io/is-default-class";
inline constexpr std::string_view kBetaIsDefaultStorageClassAnnotation =
    "storageclass.beta.kubernetes.io/is-default-class";

void SetPodDefaults(Pod* pod);
// SetPodDefaults, then what `api`'s release adds: v1.35 with
// PodLevelResources defaults a pod with spec.resources as described above.
void SetPodDefaults(Pod* pod, const ApiServerOptions& api);
void AdmitDefaultTolerationSeconds(Pod* pod);
void SetNodeDefaults(Node* node);
void SetReplicationControllerDefaults(ReplicationController* rc);
void AdmitDefaultStorageClass(const std::vector<StorageClass>& classes,
                              std::vector<PersistentVolumeClaim>* claims);

// SetPodDefaults and AdmitDefaultTolerationSeconds, for each pod.
void ApplyPodDefaults(std::vector<Pod>* pods, const ApiServerOptions& api = {});

// Everything above, for every object of the set (DefaultTolerationSeconds
// only for pods without spec.nodeName: a bound pod's tolerations are read by
// no predicate or priority).
void ApplyApiServerDefaults(ObjectSet* objects, const ApiServerOptions& api = {});

inline constexpr std::string_view kLabelMetadataName = "kubernetes.io/metadata.name";

// v1.21+: a namespace is labelled with its own name.
void SetNamespaceDefaults(Namespace* ns);
// Appends a Namespace (without labels; SetNamespaceDefaults adds its name
// label) for each namespace that a pod of objects->pods or `pending` uses and
// objects->namespaces does not list, in the pods' order.
void AddPodNamespaces(ObjectSet* objects, const std::vector<Pod>& pending);
// The v1.26 defaulting described above, for every object of the set and for
// `pending` (may be null), plus what `api`'s release adds to pods (v1.35:
// pod-level requests and hugepage limits, as the v1.35 harness defaults its
// scenarios). Idempotent.
void ApplyV126Defaults(ObjectSet* objects, std::vector<Pod>* pending,
                       const ApiServerOptions& api = ApiServerOptions::For(ApiRelease::kV126));

// What a v1.26 API server stores beyond ApplyApiServerDefaults (which holds
// for both versions, admission included): a labelled Namespace for every
// namespace the pods use, and volumes' status.phase "Pending" when absent.
void ApplyV126ServerDefaults(ObjectSet* objects);

}  // namespace ksched
