#include "framework/plugins/interpodaffinity/plugin_hints.h"

#include "framework/plugins/helper/hints.h"
#include "framework/plugins/interpodaffinity/plugin.h"
#include "framework/plugins/interpodaffinity/terms.h"

namespace ksched::framework::interpodaffinity {

std::vector<ClusterEventWithHint> InterPodAffinity::EventsToRegisterWithHints() const {
  return InterPodAffinityEventsToRegister();
}

std::vector<ClusterEventWithHint> InterPodAffinityEventsToRegister() {
  // Without preCheck (QueueingHints) no node taint update is needed.
  return {
      {{EventResource::kPod, kAdd | kUpdatePodLabel | kDelete, ""}, InterPodAffinityAfterPodChange},
      {{EventResource::kNode, kAdd | kUpdateNodeLabel, ""}, InterPodAffinityAfterNodeChange},
  };
}

QueueingHint InterPodAffinityAfterPodChange(const Pod& pod, const EventObject& old_obj,
                                            const EventObject& new_obj) {
  const Pod *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified)) return QueueingHint::kError;
  if ((modified != nullptr && modified->spec.node_name.empty()) ||
      (original != nullptr && original->spec.node_name.empty()))
    return QueueingHint::kQueueSkip;
  // The pod's own required terms, namespace selectors not merged
  // (fwk.GetAffinityTerms); a selector that does not parse queues the pod.
  const PodTerms parsed = ParsePodTerms(pod);
  if (!parsed.error.empty()) return QueueingHint::kError;
  const std::vector<AffinityTerm>& terms = parsed.required_affinity;
  const std::vector<AffinityTerm>& anti = parsed.required_anti_affinity;
  if (modified != nullptr && original != nullptr) {
    if (!PodMatchesAllTerms(terms, *original) && PodMatchesAllTerms(terms, *modified))
      return QueueingHint::kQueue;
    return helper::QueueIf(PodMatchesAllTerms(anti, *original) &&
                           !PodMatchesAllTerms(anti, *modified));
  }
  if (modified != nullptr) return helper::QueueIf(PodMatchesAllTerms(terms, *modified));
  if (original == nullptr) return QueueingHint::kError;
  return helper::QueueIf(PodMatchesAllTerms(anti, *original));
}

QueueingHint InterPodAffinityAfterNodeChange(const Pod& pod, const EventObject& old_obj,
                                             const EventObject& new_obj) {
  const Node *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  const PodTerms parsed = ParsePodTerms(pod);
  if (!parsed.error.empty()) return QueueingHint::kError;
  for (const AffinityTerm& t : parsed.required_affinity) {
    const std::optional<StrId> after = modified->meta.labels.Get(t.topology_key);
    if (original == nullptr) {
      if (after) return QueueingHint::kQueue;
      continue;
    }
    const std::optional<StrId> before = original->meta.labels.Get(t.topology_key);
    if (!before && after) return QueueingHint::kQueue;
    if (before && after && *before != *after) return QueueingHint::kQueue;
  }
  for (const AffinityTerm& t : parsed.required_anti_affinity) {
    // A node without the key always takes a pod with anti-affinity; whether
    // a new one's domain is free is beyond the hint: always worth a retry.
    if (original == nullptr) return QueueingHint::kQueue;
    const std::optional<StrId> before = original->meta.labels.Get(t.topology_key);
    const std::optional<StrId> after = modified->meta.labels.Get(t.topology_key);
    if (before && !after) return QueueingHint::kQueue;
    if (before && after && *before != *after) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace ksched::framework::interpodaffinity
