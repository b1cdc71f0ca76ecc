// CheckNodeDiskPressure: a node whose DiskPressure condition is True
// rejects every pod. Not in the default providers under TaintNodesByCondition.
#include "predicates/factories.h"
#include "predicates/pressure_conditions.h"

namespace ksched {
namespace {

class CheckNodeDiskPressure : public Predicate {
 public:
  CheckNodeDiskPressure() : reason_(Intern("node(s) had disk pressure")) {}

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    (void)state;
    if (!NodeConditionIsTrue(*node.node, "DiskPressure")) return true;
    reasons->Add(reason_);
    return false;
  }

 private:
  ReasonId reason_;
};

}  // namespace

std::unique_ptr<Predicate> NewCheckNodeDiskPressurePredicate() {
  return std::make_unique<CheckNodeDiskPressure>();
}

}  // namespace ksched
