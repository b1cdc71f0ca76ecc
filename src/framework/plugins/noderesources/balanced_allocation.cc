#include "framework/plugins/noderesources/balanced_allocation.h"

#include <cmath>
#include <variant>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"
#include "util/go_arith.h"

namespace ksched::framework::noderesources {
namespace {

const StateKey kPreScoreKey = StateKey::Register();

// The node's requested share of a resource, capped at 1.
double Fraction(int64_t allocatable, int64_t requested) {
  double fraction = static_cast<double>(requested) / static_cast<double>(allocatable);
  return fraction > 1 ? 1 : fraction;
}

}  // namespace

BalancedAllocation::BalancedAllocation(const config::NodeResourcesBalancedAllocationArgs& args)
    : scorer_(ResourcesToScore(args.resources.empty() ? DefaultResourceSpec() : args.resources),
              /*use_requested=*/true) {}

std::string_view BalancedAllocation::Name() const {
  return names::kNodeResourcesBalancedAllocation;
}

Status BalancedAllocation::PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>&) {
  state->Write(kPreScoreKey, scorer_.ComputePodRequests(pod));
  return Status::Success();
}

Status BalancedAllocation::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                                 int64_t* score) const {
  *score = 0;
  if (node.node == nullptr) return Status::Error("node not found");
  const auto* pre = state.ReadAs<PodScoringRequest>(kPreScoreKey);

  // First pass: the count, the sum and the first two fractions, in the
  // resources' order (upstream's order is its map's, which only the >2 case's
  // float sums could tell apart, and then by an ulp at most).
  size_t count = 0;
  double total = 0;
  double first = 0;
  double second = 0;
  scorer_.ForEachResource(node, pod, pre, [&](const ScoredResource&, int64_t alloc, int64_t req) {
    const double fraction = Fraction(alloc, req);
    total += fraction;
    if (count == 0) first = fraction;
    if (count == 1) second = fraction;
    ++count;
  });

  double std_dev = 0;
  if (count == 2) {
    // Two resources: the deviation is half their difference.
    std_dev = std::abs((first - second) / 2);
  } else if (count > 2) {
    // Second pass over the same fractions (recomputed, so nothing is stored
    // per node): the population standard deviation.
    const double mean = total / static_cast<double>(count);
    double sum = 0;
    scorer_.ForEachResource(node, pod, pre, [&](const ScoredResource&, int64_t alloc, int64_t req) {
      const double d = Fraction(alloc, req) - mean;
      sum = sum + d * d;
    });
    std_dev = std::sqrt(sum / static_cast<double>(count));
  }
  *score = goarith::FloatToInt64((1 - std_dev) * static_cast<double>(kMaxNodeScore));
  return Status::Success();
}

}  // namespace ksched::framework::noderesources

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewNodeResourcesBalancedAllocation(const config::PluginArgs& args, Handle*,
                                                           Status* error) {
  if (std::holds_alternative<std::monostate>(args)) {
    // No pluginConfig: upstream's defaults (cpu and memory).
    return std::make_unique<noderesources::BalancedAllocation>(
        config::NodeResourcesBalancedAllocationArgs{});
  }
  const auto* ba_args = std::get_if<config::NodeResourcesBalancedAllocationArgs>(&args);
  if (ba_args == nullptr) {
    *error = Status::Error("want args to be of type NodeResourcesBalancedAllocationArgs, got " +
                           noderesources::ArgsTypeName(args));
    return nullptr;
  }
  return std::make_unique<noderesources::BalancedAllocation>(*ba_args);
}

}  // namespace ksched::framework::plugins
