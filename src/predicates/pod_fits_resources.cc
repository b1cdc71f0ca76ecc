// PodFitsResources: the node's allocatable must cover what is already
// requested there plus the incoming pod's request, resource by resource.
//
// Upstream reports, in this order: the pod count, cpu, memory,
// ephemeral-storage, then every scalar resource (extended, hugepages, ...).
// Upstream walks scalars in Go map order; we use the resource name's string
// order, which is one of the orders upstream can produce.
#include "predicates/pod_fits_resources.h"

#include <algorithm>

#include "predicates/factories.h"
#include "util/go_arith.h"

namespace ksched {
namespace {

struct ScalarCheck {
  StrId name;
  int64_t amount;
  ReasonId reason;
};

struct FitsResourcesState : PredicateState {
  bool requests_nothing = false;
  ReasonId pods_reason, cpu_reason, memory_reason, ephemeral_reason;
  std::vector<ScalarCheck> scalars;  // sorted by resource name string
};

}  // namespace

PodFitsResourcesPredicate::PodFitsResourcesPredicate(std::vector<std::string> ignored) {
  for (const std::string& name : ignored) ignored_.push_back(Intern(name));
  std::sort(ignored_.begin(), ignored_.end());
  ignored_.erase(std::unique(ignored_.begin(), ignored_.end()), ignored_.end());
}

Result<std::unique_ptr<PredicateState>> PodFitsResourcesPredicate::Prepare(
    const PodToSchedule& pod, const ClusterState& cluster) const {
  (void)cluster;
  const ResourceNames& rn = ResourceNames::Get();
  const Resource& req = pod.request;
  auto state = std::make_unique<FitsResourcesState>();
  state->pods_reason = reasons::Insufficient(rn.pods);
  state->cpu_reason = reasons::Insufficient(rn.cpu);
  state->memory_reason = reasons::Insufficient(rn.memory);
  state->ephemeral_reason = reasons::Insufficient(rn.ephemeral_storage);
  // Upstream's early exit looks at whether any scalar entry exists at all
  // (even one requested as "0", even an ignored one), not at its amount.
  state->requests_nothing =
      req.milli_cpu == 0 && req.memory == 0 && req.ephemeral_storage == 0 && req.scalars.empty();
  for (const auto& [name, amount] : req.scalars) {
    if (std::binary_search(ignored_.begin(), ignored_.end(), name) &&
        IsExtendedResourceName(Str(name))) {
      continue;
    }
    state->scalars.push_back(ScalarCheck{name, amount, reasons::Insufficient(name)});
  }
  std::sort(state->scalars.begin(), state->scalars.end(),
            [](const ScalarCheck& a, const ScalarCheck& b) { return Str(a.name) < Str(b.name); });
  return std::unique_ptr<PredicateState>(std::move(state));
}

bool PodFitsResourcesPredicate::Check(const PodToSchedule& pod, const PredicateState* state,
                                      const NodeInfo& node, ReasonList* reasons) const {
  const auto& s = static_cast<const FitsResourcesState&>(*state);
  const Resource& req = pod.request;
  const Resource& alloc = node.allocatable;
  const Resource& used = node.requested;
  const size_t before = reasons->size();

  if (static_cast<int64_t>(node.pods.size()) + 1 > alloc.allowed_pod_number) {
    reasons->Add(s.pods_reason);
  }
  if (s.requests_nothing) return reasons->size() == before;

  if (alloc.milli_cpu < goarith::Add(req.milli_cpu, used.milli_cpu)) reasons->Add(s.cpu_reason);
  if (alloc.memory < goarith::Add(req.memory, used.memory)) reasons->Add(s.memory_reason);
  if (alloc.ephemeral_storage < goarith::Add(req.ephemeral_storage, used.ephemeral_storage)) {
    reasons->Add(s.ephemeral_reason);
  }
  for (const ScalarCheck& c : s.scalars) {
    // A resource the node does not list has 0 allocatable.
    if (alloc.Scalar(c.name) < goarith::Add(c.amount, used.Scalar(c.name))) reasons->Add(c.reason);
  }
  return reasons->size() == before;
}

std::unique_ptr<Predicate> NewPodFitsResourcesIgnoring(std::vector<std::string> ignored) {
  return std::make_unique<PodFitsResourcesPredicate>(std::move(ignored));
}

std::unique_ptr<Predicate> NewPodFitsResources() {
  return std::make_unique<PodFitsResourcesPredicate>();
}

}  // namespace ksched
