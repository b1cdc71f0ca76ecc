// TaintTolerationPriority: fewer untolerated PreferNoSchedule taints is
// better. Map counts them; Reduce scales the counts onto 10..0 (reversed).
#include <optional>

#include "predicates/tolerations.h"
#include "priorities/factories.h"

namespace ksched {
namespace {

struct TolerationsState final : PriorityState {
  // The pod's tolerations that can apply to a PreferNoSchedule taint: those
  // with that effect or with no effect (which matches every effect).
  std::vector<Toleration> prefer_no_schedule;
  std::optional<TolerationIndex> index;  // for long lists only
};

class TaintTolerationPriority final : public Priority {
 public:
  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override {
    (void)cluster;
    auto state = std::make_unique<TolerationsState>();
    for (const Toleration& t : pod.pod().spec.tolerations) {
      if (t.effect == TaintEffect::kNone || t.effect == TaintEffect::kPreferNoSchedule) {
        state->prefer_no_schedule.push_back(t);
      }
    }
    if (state->prefer_no_schedule.size() >= TolerationIndex::kIndexFrom) {
      state->index.emplace(state->prefer_no_schedule);
    }
    return state;
  }

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    (void)pod;
    const auto& s = *static_cast<const TolerationsState*>(state);
    int64_t intolerable = 0;
    for (const Taint& taint : cluster.node(node).taints) {
      if (taint.effect != TaintEffect::kPreferNoSchedule) continue;
      bool tolerated = s.index ? s.index->Tolerates(taint)
                               : TolerationsTolerateTaint(s.prefer_no_schedule, taint);
      if (!tolerated) ++intolerable;
    }
    return intolerable;
  }

  void Reduce(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              std::span<const NodeId> nodes, std::span<int64_t> scores) const override {
    (void)pod;
    (void)state;
    (void)cluster;
    (void)nodes;
    NormalizeReduce(scores, /*reverse=*/true);
  }
  ReduceShape Shape() const override { return ReduceShape::kNormalizeReverse; }
};

}  // namespace

std::unique_ptr<Priority> NewTaintTolerationPriority() {
  return std::make_unique<TaintTolerationPriority>();
}

}  // namespace ksched
