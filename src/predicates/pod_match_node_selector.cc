// Upstream's podMatchesNodeSelectorAndAffinityTerms, with the selector and the
// terms compiled once per pod:
//  - a non-empty nodeSelector must match the node's labels (an invalid key or
//    value turns it into "everything", labels::FromSet's upstream quirk);
//  - no nodeAffinity, or nodeAffinity without a required part, adds nothing;
//  - otherwise the required terms decide, with MatchNodeSelectorTerms' rules
//    (empty list, empty term or unparsable term match nothing; matchFields
//    compare metadata.name).
#include "predicates/pod_match_node_selector.h"

#include "labels/node_selector.h"
#include "labels/selector.h"
#include "predicates/factories.h"

namespace ksched {
namespace {

struct MatchNodeSelectorState : PredicateState {
  bool check_selector = false;
  labels::Selector selector;
  bool check_terms = false;
  labels::CompiledNodeSelectorTerms terms;
};

}  // namespace

Result<std::unique_ptr<PredicateState>> PodMatchNodeSelectorPredicate::Prepare(
    const PodToSchedule& pod, const ClusterState& cluster) const {
  (void)cluster;
  const PodSpec& spec = pod.pod().spec;
  auto state = std::make_unique<MatchNodeSelectorState>();
  if (!spec.node_selector.empty()) {
    state->check_selector = true;
    state->selector = labels::FromSet(spec.node_selector);
  }
  if (spec.affinity && spec.affinity->node_affinity && spec.affinity->node_affinity->required) {
    state->check_terms = true;
    state->terms =
        labels::CompiledNodeSelectorTerms::Compile(*spec.affinity->node_affinity->required);
  }
  return std::unique_ptr<PredicateState>(std::move(state));
}

bool PodMatchNodeSelectorPredicate::Check(const PodToSchedule& pod, const PredicateState* state,
                                          const NodeInfo& node, ReasonList* reasons) const {
  (void)pod;
  const auto& s = static_cast<const MatchNodeSelectorState&>(*state);
  bool ok = (!s.check_selector || s.selector.Matches(node.labels())) &&
            (!s.check_terms || s.terms.Matches(node.labels(), node.name()));
  if (!ok) reasons->Add(reasons::NodeSelectorNotMatch());
  return ok;
}

std::unique_ptr<Predicate> NewPodMatchNodeSelector() {
  return std::make_unique<PodMatchNodeSelectorPredicate>();
}

}  // namespace ksched
