// Upstream's GeneralPredicates = noncriticalPredicates (PodFitsResources)
// followed by EssentialPredicates (PodFitsHost, PodFitsHostPorts,
// PodMatchNodeSelector). Unlike the scheduler's predicate loop, it does not
// stop at the first failure: every part runs and every reason is reported, in
// that order. The parts are the single predicates themselves.
#include "predicates/general_predicates.h"

#include <array>

#include "predicates/factories.h"
#include "predicates/pod_fits_host.h"
#include "predicates/pod_fits_host_ports.h"
#include "predicates/pod_fits_resources.h"
#include "predicates/pod_match_node_selector.h"

namespace ksched {
namespace {

constexpr size_t kParts = 4;

struct GeneralState : PredicateState {
  std::array<std::unique_ptr<PredicateState>, kParts> parts;
};

class GeneralPredicates : public Predicate {
 public:
  explicit GeneralPredicates(std::vector<std::string> ignored) : resources_(std::move(ignored)) {}

  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    auto state = std::make_unique<GeneralState>();
    const std::array<const Predicate*, kParts> parts = Parts();
    for (size_t i = 0; i < kParts; ++i) {
      auto part = parts[i]->Prepare(pod, cluster);
      if (!part.ok()) return part.error();
      state->parts[i] = std::move(part).value();
    }
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    const auto& s = static_cast<const GeneralState&>(*state);
    const std::array<const Predicate*, kParts> parts = Parts();
    bool fits = true;
    for (size_t i = 0; i < kParts; ++i) {
      if (!parts[i]->Check(pod, s.parts[i].get(), node, reasons)) fits = false;
    }
    return fits;
  }

 private:
  std::array<const Predicate*, kParts> Parts() const {
    return {&resources_, &host_, &ports_, &selector_};
  }

  PodFitsResourcesPredicate resources_;
  PodFitsHostPredicate host_;
  PodFitsHostPortsPredicate ports_;
  PodMatchNodeSelectorPredicate selector_;
};

}  // namespace

std::unique_ptr<Predicate> NewGeneralPredicatesIgnoring(std::vector<std::string> ignored) {
  return std::make_unique<GeneralPredicates>(std::move(ignored));
}

std::unique_ptr<Predicate> NewGeneralPredicates() { return NewGeneralPredicatesIgnoring({}); }

}  // namespace ksched
