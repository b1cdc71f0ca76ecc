// PodToleratesNodeTaints and PodToleratesNodeNoExecuteTaints: every node taint
// with a filtered effect must be tolerated by one of the pod's tolerations.
// PodToleratesNodeTaints looks at NoSchedule and NoExecute taints (never at
// PreferNoSchedule, which only feeds TaintTolerationPriority);
// PodToleratesNodeNoExecuteTaints at NoExecute taints only.
#include "predicates/factories.h"
#include "predicates/tolerations.h"

namespace ksched {
namespace {

// Only for pods with many tolerations; others scan their spec directly.
struct TaintsState final : PredicateState {
  explicit TaintsState(const std::vector<Toleration>& t) : index(t) {}
  TolerationIndex index;
};

class TaintsPredicate : public Predicate {
 public:
  explicit TaintsPredicate(bool include_no_schedule) : include_no_schedule_(include_no_schedule) {}

  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    (void)cluster;
    const std::vector<Toleration>& tolerations = pod.pod().spec.tolerations;
    if (tolerations.size() < TolerationIndex::kIndexFrom) return std::unique_ptr<PredicateState>();
    return std::unique_ptr<PredicateState>(std::make_unique<TaintsState>(tolerations));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    const auto* index = state != nullptr ? &static_cast<const TaintsState*>(state)->index : nullptr;
    const std::vector<Toleration>& tolerations = pod.pod().spec.tolerations;
    for (const Taint& taint : node.node->taints) {
      bool applies = taint.effect == TaintEffect::kNoExecute ||
                     (include_no_schedule_ && taint.effect == TaintEffect::kNoSchedule);
      if (!applies) continue;
      bool tolerated =
          index != nullptr ? index->Tolerates(taint) : TolerationsTolerateTaint(tolerations, taint);
      if (!tolerated) {
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
