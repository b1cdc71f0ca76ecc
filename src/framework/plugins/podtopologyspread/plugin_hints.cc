#include "framework/plugins/podtopologyspread/plugin_hints.h"

#include <memory>

#include "framework/plugins/helper/hints.h"
#include "framework/plugins/podtopologyspread/plugin.h"

namespace ksched::framework::plugins::podtopologyspread {
namespace {

namespace hint = ::ksched::framework::helper;

bool AnyHonorsTaints(const Constraints& constraints) {
  for (const Constraint& c : constraints.items)
    if (c.honor_node_taints) return true;
  return false;
}

bool LabelsMatchAny(const Constraints& constraints, const Labels& labels) {
  for (const Constraint& c : constraints.items)
    if (c.selector.Matches(labels)) return true;
  return false;
}

// checkTopologyKeyLabelsChanged.
bool TopologyValuesChanged(const Labels& before, const Labels& after,
                           const Constraints& constraints) {
  for (const Constraint& c : constraints.items)
    if (before.Get(c.topology_key).value_or(kEmptyStr) !=
        after.Get(c.topology_key).value_or(kEmptyStr))
      return true;
  return false;
}

bool SameTaints(const std::vector<Taint>& a, const std::vector<Taint>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].key != b[i].key || a[i].value != b[i].value || a[i].effect_str != b[i].effect_str)
      return false;
  return true;
}

}  // namespace

std::vector<ClusterEventWithHint> PodTopologySpread::EventsToRegisterWithHints() const {
  // getConstraints for the hints, with what this plugin was built with.
  auto constraints = std::make_shared<const std::function<HintConstraints(const Pod&)>>(
      [features = features_, defaults = defaults_do_not_schedule_](const Pod& pod) {
        if (!pod.spec.topology_spread_constraints.empty()) {
          Result<Constraints> c = FilterConstraints(pod.spec.topology_spread_constraints,
                                                    pod.meta.labels, kDoNotSchedule, features);
          return c.ok() ? HintConstraints(std::move(*c)) : std::nullopt;
        }
        if (!defaults.ok()) return HintConstraints();
        // Hard default constraints select by the pod's Services and
        // controller, which the queue does not see.
        if (!defaults->empty()) return HintConstraints();
        return HintConstraints(Constraints{});
      });
  std::vector<ClusterEventWithHint> events(2);
  // With QueueingHints a pod's own new toleration may help (NodeTaintsPolicy).
  events[0].event.resource = EventResource::kPod;
  events[0].event.action = kAdd | kUpdatePodLabel | kUpdatePodToleration | kDelete;
  events[0].hint = [constraints](const Pod& pod, const EventObject& o, const EventObject& n) {
    return SpreadAfterPodChange((*constraints)(pod), pod, o, n);
  };
  events[1].event.resource = EventResource::kNode;
  events[1].event.action = kAdd | kDelete | kUpdateNodeLabel | kUpdateNodeTaint;
  events[1].hint = [constraints](const Pod& pod, const EventObject& o, const EventObject& n) {
    return SpreadAfterNodeChange((*constraints)(pod), pod, o, n);
  };
  return events;
}

QueueingHint SpreadAfterPodChange(const HintConstraints& constraints, const Pod& pod,
                                  const EventObject& old_obj, const EventObject& new_obj) {
  const Pod *original, *modified;
  if (!hint::As(old_obj, new_obj, &original, &modified)) return QueueingHint::kError;
  // involvedInTopologySpreading: the pod itself, or a bound pod of its namespace.
  auto involved = [&](const Pod& p) {
    return p.meta.uid == pod.meta.uid || (!p.spec.node_name.empty() && p.meta.ns == pod.meta.ns);
  };
  if ((modified != nullptr && !involved(*modified)) ||
      (original != nullptr && !involved(*original)))
    return QueueingHint::kQueueSkip;
  if (!constraints) return QueueingHint::kError;
  if (modified != nullptr && original != nullptr) {
    if (pod.meta.uid == modified->meta.uid &&
        !(modified->spec.tolerations == original->spec.tolerations) &&
        AnyHonorsTaints(*constraints))
      return QueueingHint::kQueue;
    if (modified->meta.labels == original->meta.labels) return QueueingHint::kQueueSkip;
    for (const Constraint& c : constraints->items)
      if (c.selector.Matches(original->meta.labels) != c.selector.Matches(modified->meta.labels))
        return QueueingHint::kQueue;
    return QueueingHint::kQueueSkip;
  }
  if (modified != nullptr)
    return hint::QueueIf(LabelsMatchAny(*constraints, modified->meta.labels));
  if (original == nullptr) return QueueingHint::kError;
  return hint::QueueIf(LabelsMatchAny(*constraints, original->meta.labels));
}

QueueingHint SpreadAfterNodeChange(const HintConstraints& constraints, const Pod&,
                                   const EventObject& old_obj, const EventObject& new_obj) {
  const Node *original, *modified;
  if (!hint::As(old_obj, new_obj, &original, &modified)) return QueueingHint::kError;
  if (!constraints) return QueueingHint::kError;
  const bool original_matching =
      original != nullptr && NodeHasAllKeys(original->meta.labels, *constraints);
  const bool modified_matching =
      modified != nullptr && NodeHasAllKeys(modified->meta.labels, *constraints);
  if (original != nullptr && modified != nullptr) {
    if (original_matching != modified_matching) return QueueingHint::kQueue;
    return hint::QueueIf(
        modified_matching &&
        (TopologyValuesChanged(original->meta.labels, modified->meta.labels, *constraints) ||
         !SameTaints(original->taints, modified->taints)));
  }
  if (modified != nullptr) return hint::QueueIf(modified_matching);
  return hint::QueueIf(original_matching);
}

}  // namespace ksched::framework::plugins::podtopologyspread
