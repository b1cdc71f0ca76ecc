#include "framework/plugins/nodeaffinity/node_affinity_hints.h"

#include <memory>

#include "framework/plugins/helper/hints.h"
#include "framework/plugins/helper/node_affinity.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> NodeAffinityEventsToRegister(
    std::optional<labels::CompiledNodeSelectorTerms> added_node_selector) {
  auto added = std::make_shared<const std::optional<labels::CompiledNodeSelectorTerms>>(
      std::move(added_node_selector));
  // Without preCheck (QueueingHints) no taint update is needed.
  return {{{EventResource::kNode, kAdd | kUpdateNodeLabel, ""},
           [added](const Pod& pod, const EventObject& o, const EventObject& n) {
             return NodeAffinityAfterNodeChange(*added, pod, o, n);
           }}};
}

QueueingHint NodeAffinityAfterNodeChange(
    const std::optional<labels::CompiledNodeSelectorTerms>& added_node_selector, const Pod& pod,
    const EventObject& old_obj, const EventObject& new_obj) {
  const Node *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  if (added_node_selector &&
      !added_node_selector->Matches(modified->meta.labels, modified->meta.name))
    return QueueingHint::kQueueSkip;
  const helper::RequiredNodeAffinity required = helper::RequiredNodeAffinity::ForPod(pod);
  auto matches = [&](const Node& node) {
    NodeInfo info;
    info.node = &node;
    return required.Match(info);
  };
  if (!matches(*modified)) return QueueingHint::kQueueSkip;
  if (original == nullptr) return QueueingHint::kQueue;
  // Updated: only a change from not matching to matching helps.
  return helper::QueueIf(!matches(*original));
}

}  // namespace ksched::framework::plugins
