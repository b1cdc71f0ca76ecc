// NodeAffinityPriority: sums the weights of the pod's preferred node-affinity
// terms that a node matches, then scales the sums so the best node gets 10.
//
// v1.15 looks only at each preference's matchExpressions (matchFields are
// ignored), compiled with NodeSelectorRequirementsAsSelector: an empty list
// matches nothing, and an invalid requirement is an error for the whole
// priority. Terms of weight 0 are skipped before compiling.
#include <optional>

#include "labels/node_selector.h"
#include "priorities/factories.h"
#include "util/go_arith.h"

namespace ksched {
namespace {

struct PreferredTerm {
  int32_t weight = 0;
  labels::Selector selector;
};

struct NodeAffinityState final : PriorityState {
  std::vector<PreferredTerm> terms;
  // Set when a term failed to compile. Upstream's map function then fails on
  // every node and the scheduling cycle fails with this message; Map() scores
  // 0 here, since the Priority interface cannot carry the error.
  std::optional<Error> error;
};

class NodeAffinityPriority final : public Priority {
 public:
  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override {
    (void)cluster;
    auto state = std::make_unique<NodeAffinityState>();
    const auto& affinity = pod.pod().spec.affinity;
    if (!affinity || !affinity->node_affinity) return state;
    for (const PreferredSchedulingTerm& term : affinity->node_affinity->preferred) {
      if (term.weight == 0) continue;
      Result<labels::Selector> selector =
          labels::FromNodeSelectorRequirements(term.preference.match_expressions);
      if (!selector.ok()) {
        state->terms.clear();
        state->error = selector.error();
        return state;
      }
      state->terms.push_back(PreferredTerm{term.weight, std::move(selector).value()});
    }
    return state;
  }

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    (void)pod;
    const Labels& node_labels = cluster.node_info(node).labels();
    int32_t count = 0;  // upstream sums in int32
    for (const PreferredTerm& t : static_cast<const NodeAffinityState*>(state)->terms) {
      if (t.selector.Matches(node_labels)) count = goarith::Add32(count, t.weight);
    }
    return count;
  }

  void Reduce(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              std::span<const NodeId> nodes, std::span<int64_t> scores) const override {
    (void)pod;
    (void)state;
    (void)cluster;
    (void)nodes;
    NormalizeReduce(scores, /*reverse=*/false);
  }
  ReduceShape Shape() const override { return ReduceShape::kNormalize; }
};

}  // namespace

std::unique_ptr<Priority> NewNodeAffinityPriority() {
  return std::make_unique<NodeAffinityPriority>();
}

}  // namespace ksched
