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
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/object_set.h"
#include "api/types.h"

namespace ksched {

// Problems with one object, each "field.path: Type: detail". Empty: valid.
std::vector<std::string> ValidatePod(const Pod& pod);
std::vector<std::string> ValidateNode(const Node& node);

// Every object of `objects`; each line is "file: Kind ns/name: field: ...".
// Stops after `max_errors` lines (the last then says how many more).
std::vector<std::string> ValidateObjects(const ObjectSet& objects, std::string_view file,
                                         size_t max_errors = 20);
// The same for a list of pods alone (--pending, a capacity template).
std::vector<std::string> ValidatePods(const std::vector<Pod>& pods, std::string_view file,
                                      size_t max_errors = 20);

}  // namespace ksched
