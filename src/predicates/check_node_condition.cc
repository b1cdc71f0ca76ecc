// CheckNodeCondition (v1.15): one reason per Ready condition that is not
// "True" and per NetworkUnavailable condition that is not "False", in the
// order the node lists them, then one for spec.unschedulable. v1.15 no longer
// looks at OutOfDisk. Not in the default providers under TaintNodesByCondition.
#include "predicates/factories.h"

namespace ksched {
namespace {

class CheckNodeCondition : public Predicate {
 public:
  CheckNodeCondition()
      : not_ready_(Intern("node(s) were not ready")),
        network_unavailable_(Intern("node(s) had unavailable network")) {}

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    (void)state;
    const size_t before = reasons->size();
    for (const NodeCondition& c : node.node->conditions) {
      if (c.type == "Ready") {
        if (c.status != "True") reasons->Add(not_ready_);
      } else if (c.type == "NetworkUnavailable") {
        if (c.status != "False") reasons->Add(network_unavailable_);
      }
    }
    if (node.node->unschedulable) reasons->Add(reasons::NodeUnschedulable());
    return reasons->size() == before;
  }

 private:
  ReasonId not_ready_;
  ReasonId network_unavailable_;
};

}  // namespace

std::unique_ptr<Predicate> NewCheckNodeConditionPredicate() {
  return std::make_unique<CheckNodeCondition>();
}

}  // namespace ksched
