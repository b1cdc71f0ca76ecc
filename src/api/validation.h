// The v1.15 API server's validation of the fields the scheduler reads.
//
// An object the API server would reject never reaches a scheduler; read from
// a hand-written file it would be scheduled as no cluster does: a taint with
// effect `NoSchedul` is dropped by the predicate, a node-affinity operator
// `Inn` fails every node with "didn't match node selector". `schedule` and
// `capacity` therefore check every object they read (a `kubectl get` dump
// passes by construction) and stop with exit status 2, naming the file, the
// object and the field, in the API server's words:
//   pending.yaml: Pod shop/web: spec.affinity.nodeAffinity.requiredDuring
//   SchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]
//   .operator: Unsupported value: "Inn": supported values: "DoesNotExist",
//   "Exists", "Gt", "In", "Lt", "NotIn"
// `replay` and `bench` do not validate: conformance scenarios reproduce what
// upstream's scheduler does with such objects (errors at match time).
//
// Checked (upstream's function in brackets):
//   Pod: metadata.labels keys and values (ValidateLabels); spec.nodeSelector
//     (ValidateLabels); containers' and init containers' resources: resource
//     names, integer values for extended resources, requests <= limits, and
//     extended resources' requests == limits with a limit set
//     (ValidateResourceRequirements); ports: containerPort 1-65535, hostPort
//     0-65535 and equal to containerPort with hostNetwork, protocol TCP, UDP
//     or SCTP (validateContainerPorts); tolerations: key, operator, value,
//     effect, tolerationSeconds only with NoExecute (ValidateTolerations);
//     affinity: node selector terms and their requirements (In/NotIn need
//     values, Exists/DoesNotExist take none, Gt/Lt one integer; matchFields
//     only metadata.name with In/NotIn and one value), weights 1-100, pod
//     affinity terms' label selectors, namespace selectors, namespaces and
//     non-empty topologyKey (validateAffinity); topologySpreadConstraints as
//     v1.26 checks them: maxSkew > 0, topologyKey set, whenUnsatisfiable
//     DoNotSchedule or ScheduleAnyway, no two with the same topologyKey and
//     whenUnsatisfiable, minDomains > 0 and only with DoNotSchedule,
//     nodeAffinityPolicy/nodeTaintsPolicy Honor or Ignore, matchLabelKeys
//     label names not in the labelSelector (validateTopologySpreadConstraints).
//   Node: metadata.labels; spec.taints: key, value, effect NoSchedule,
//     PreferNoSchedule or NoExecute, no two with the same key and effect
//     (validateNodeTaints).
//   Service, ReplicationController: spec.selector (ValidateLabels).
//   ReplicaSet, StatefulSet, PodDisruptionBudget, PersistentVolumeClaim:
//     spec.selector (ValidateLabelSelector).
//   Pod (and pod templates) also: container names set and unique across
//     containers and init containers (validateContainers), restartPolicy
//     Always, OnFailure or Never.
//   PodDisruptionBudget: minAvailable and maxUnavailable not both set, each
//     non-negative and at most 100% (ValidatePodDisruptionBudgetSpec).
//   DaemonSet: a selector, not empty, that selects the template's labels;
//     the template's labels and spec as a pod's; restartPolicy Always
//     (ValidateDaemonSetSpec).
//   PersistentVolume: spec.nodeAffinity.required (ValidateNodeSelector).
//
// With a v1.35 API server (ApiServerOptions, the default; v1.15 and v1.26
// keep the rules above) pods and pod templates are checked as v1.35 checks
// a pod it creates:
//   - topologySpreadConstraints' matchLabelKeys: label names, a labelSelector
//     set, and a key given once: v1.34+ merges `key In [value]` into the
//     selector at create time, so the key in matchLabelKeys and once in
//     matchExpressions is what every stored Deployment pod looks like; only
//     the key in matchLabels and matchExpressions, or twice in
//     matchExpressions, is refused (with MatchLabelKeysInPodTopologySpread
//     or ...SelectorMerge off: v1.26's rule); the constraint's labelSelector;
//   - pod (anti-)affinity terms' matchLabelKeys / mismatchLabelKeys, by the
//     same rule, and no key in both;
//   - containers' restartPolicy: on init containers Always (a native
//     sidecar), or with ContainerRestartRules (beta, on) OnFailure / Never,
//     on regular containers only with ContainerRestartRules;
//   - resizePolicy: cpu / memory, each once, NotRequired / RestartContainer,
//     NotRequired when the pod's restartPolicy is Never;
//   - spec.resources (PodLevelResources, beta, on): cpu, memory and
//     hugepages-<size> only, requests within limits, requests at least the
//     containers' (KEP-753 sum), hugepage limits at least theirs, each
//     container's limit within the pod's;
//   - schedulingGates: qualified names, each once;
//   - tolerations: Lt / Gt refused unless TaintTolerationComparisonOperators
//     (alpha), whose values are then decimal integers;
//   - resource names and requests against limits in v1.35's words (`must be
//     less than or equal to cpu limit of 2`, `must be a standard resource for
//     containers`), hugepages amounts whole pages and beside cpu or memory.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/api_server.h"
#include "api/object_set.h"
#include "api/types.h"

namespace ksched {

// Problems with one object, each "field.path: Type: detail". Empty: valid.
// `api`: whose rules (api/api_server.h; default: v1.35's).
std::vector<std::string> ValidatePod(const Pod& pod, const ApiServerOptions& api = {});
std::vector<std::string> ValidateNode(const Node& node);

// Every object of `objects`; each line is "file: Kind ns/name: field: ...".
// Stops after `max_errors` lines (the last then says how many more).
std::vector<std::string> ValidateObjects(const ObjectSet& objects, std::string_view file,
                                         const ApiServerOptions& api = {}, size_t max_errors = 20);
// The same for a list of pods alone (--pending, a capacity template).
std::vector<std::string> ValidatePods(const std::vector<Pod>& pods, std::string_view file,
                                      const ApiServerOptions& api = {}, size_t max_errors = 20);

}  // namespace ksched
