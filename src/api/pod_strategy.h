// What the API server does to a pod it creates (the pod strategy's
// PrepareForCreate) that a scheduler reads, for the pods ksched creates
// itself: `schedule --pending` pods, `capacity --pod` copies (and
// `--add-node`'s), so that they look as the cluster's API server would store
// them. A snapshot's pods went through it already.
//
// v1.35 (api/api_server.h):
//   - pod (anti-)affinity terms, required and preferred, with a
//     labelSelector (MatchLabelKeysInPodAffinity, GA): each matchLabelKeys
//     key the pod has a label for adds `key In [value]` to the selector,
//     each mismatchLabelKeys key `key NotIn [value]`. The scheduler reads
//     only the selector, so without this a copy's anti-affinity against its
//     own ReplicaSet (matchLabelKeys: [pod-template-hash]) would match every
//     revision's pods;
//   - topologySpreadConstraints with a labelSelector (both
//     MatchLabelKeysInPodTopologySpread and ...SelectorMerge, beta, on):
//     matchLabelKeys become `key In [value]` the same way (the scheduler
//     adds them again itself: a repeated requirement changes nothing);
//   - no container has run: status.containerStatuses and
//     initContainerStatuses are dropped (a pod copied from `kubectl get -o
//     yaml` of a resized pod would otherwise count its old allocation once
//     bound).
// One difference from upstream, on purpose: a requirement the selector
// already holds is not added again, so a stored pod (`kubectl get pod -o
// yaml`) given to --pending is taken as it is instead of being refused as
// a key given twice, which the API server would do if it were created anew.
//
// v1.15 and v1.26: nothing (their API servers had no such merge).
#pragma once

#include "api/api_server.h"
#include "api/types.h"

namespace ksched {

void PreparePodForCreate(Pod* pod, const ApiServerOptions& api);

}  // namespace ksched
