// PodToleratesNodeTaints and PodToleratesNodeNoExecuteTaints: every node taint
// with a filtered effect must be tolerated by one of the pod's tolerations.
// PodToleratesNodeTaints looks at NoSchedule and NoExecute taints (never at
// PreferNoSchedule, which only feeds TaintTolerationPriority);
// PodToleratesNodeNoExecuteTaints at NoExecute taints only.
#include "predicates/factories.h"
#include "predicates/tolerations.h"

namespace ksched {
namespace {

class TaintsPredicate : public Predicate {
 public:
  explicit TaintsPredicate(bool include_no_schedule) : include_no_schedule_(include_no_schedule) {}

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)state;
    const std::vector<Toleration>& tolerations = pod.pod().spec.tolerations;
    for (const Taint& taint : node.node->taints) {
      bool applies = taint.effect == TaintEffect::kNoExecute ||
                     (include_no_schedule_ && taint.effect == TaintEffect::kNoSchedule);
      if (applies && !TolerationsTolerateTaint(tolerations, taint)) {
        reasons->Add(reasons::TaintsNotMatch());
        return false;
      }
    }
    return true;
  }

 private:
  bool include_no_schedule_;
};

}  // namespace

std::unique_ptr<Predicate> NewPodToleratesNodeTaints() {
  return std::make_unique<TaintsPredicate>(/*include_no_schedule=*/true);
}

std::unique_ptr<Predicate> NewPodToleratesNodeNoExecuteTaints() {
  return std::make_unique<TaintsPredicate>(/*include_no_schedule=*/false);
}

}  // namespace ksched
