// CheckNodePIDPressure: a node whose PIDPressure condition is True
// rejects every pod. Not in the default providers under TaintNodesByCondition.
#include "predicates/factories.h"
#include "predicates/pressure_conditions.h"

namespace ksched {
namespace {

class CheckNodePIDPressure : public Predicate {
 public:
  CheckNodePIDPressure() : reason_(Intern("node(s) had pid pressure")) {}

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    (void)state;
    if (!NodeConditionIsTrue(*node.node, "PIDPressure")) return true;
    reasons->Add(reason_);
    return false;
  }

 private:
  ReasonId reason_;
};

}  // namespace

std::unique_ptr<Predicate> NewCheckNodePIDPressurePredicate() {
  return std::make_unique<CheckNodePIDPressure>();
}

}  // namespace ksched
