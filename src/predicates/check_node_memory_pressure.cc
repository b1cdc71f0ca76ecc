// CheckNodeMemoryPressure: a node whose MemoryPressure condition is True
// rejects BestEffort pods only. Not in the default providers under
// TaintNodesByCondition.
#include "predicates/factories.h"
#include "predicates/pressure_conditions.h"

namespace ksched {
namespace {

struct MemoryPressureState : PredicateState {
  bool best_effort = false;
};

class CheckNodeMemoryPressure : public Predicate {
 public:
  CheckNodeMemoryPressure() : reason_(Intern("node(s) had memory pressure")) {}

  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    (void)cluster;
    auto state = std::make_unique<MemoryPressureState>();
    state->best_effort = IsPodBestEffort(pod.pod());
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    if (!static_cast<const MemoryPressureState&>(*state).best_effort) return true;
    if (!NodeConditionIsTrue(*node.node, "MemoryPressure")) return true;
    reasons->Add(reason_);
    return false;
  }

 private:
  ReasonId reason_;
};

}  // namespace

std::unique_ptr<Predicate> NewCheckNodeMemoryPressurePredicate() {
  return std::make_unique<CheckNodeMemoryPressure>();
}

}  // namespace ksched
