// CheckNodeUnschedulable: a node with spec.unschedulable accepts only pods
// that tolerate the taint node.kubernetes.io/unschedulable:NoSchedule (with an
// empty value). Whether the pod tolerates it is decided once per pod.
#include "predicates/factories.h"
#include "predicates/tolerations.h"

namespace ksched {
namespace {

struct UnschedulableState : PredicateState {
  bool tolerates = false;
};

class CheckNodeUnschedulable : public Predicate {
 public:
  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    (void)cluster;
    static const StrId kKey = Intern("node.kubernetes.io/unschedulable");
    Taint taint;
    taint.key = kKey;
    taint.effect = TaintEffect::kNoSchedule;
    taint.effect_str = "NoSchedule";
    auto state = std::make_unique<UnschedulableState>();
    state->tolerates = TolerationsTolerateTaint(pod.pod().spec.tolerations, taint);
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const UnschedulableState&>(*state);
    if (node.node->unschedulable && !s.tolerates) {
      reasons->Add(reasons::NodeUnschedulable());
      return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Predicate> NewCheckNodeUnschedulablePredicate() {
  return std::make_unique<CheckNodeUnschedulable>();
}

}  // namespace ksched
