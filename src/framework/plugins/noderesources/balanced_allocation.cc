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

namespace {

// v1.35 counts the incoming pod as the cache counts a placed one:
// pod-level requests (PodLevelResources) and resized containers' status
// (InPlacePodVerticalScaling), without non-zero defaults.
std::optional<PodRequestOptions> RequestOptions(const config::FeatureGates& gates) {
  if (!gates.AtLeast(config::SchedulerVersion::kV135)) return std::nullopt;
  PodRequestOptions options;
  options.use_status_resources = gates.in_place_pod_vertical_scaling;
  options.pod_level_resources = gates.pod_level_resources;
  return options;
}

}  // namespace

BalancedAllocation::BalancedAllocation(const config::NodeResourcesBalancedAllocationArgs& args,
                                       const config::FeatureGates& gates)
    : v135_(gates.AtLeast(config::SchedulerVersion::kV135)),
      scorer_(ResourcesToScore(args.resources.empty() ? DefaultResourceSpec() : args.resources),
              /*use_requested=*/true, RequestOptions(gates)) {}

std::string_view BalancedAllocation::Name() const {
  return names::kNodeResourcesBalancedAllocation;
}

Status BalancedAllocation::PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>&) {
  std::unique_ptr<PodScoringRequest> requests = scorer_.ComputePodRequests(pod);
  // v1.35 leaves best-effort pods unscored (v1.26 scored them from the
  // node's requests alone).
  if (v135_ && ResourceAllocationScorer::RequestsNothing(*requests)) return Status(Code::kSkip);
  state->Write(kPreScoreKey, std::move(requests));
  return Status::Success();
}

Status BalancedAllocation::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                                 int64_t* score) const {
  *score = 0;
  if (node.node == nullptr) return Status::Error("node not found");
  const auto* pre = state.ReadAs<PodScoringRequest>(kPreScoreKey);
  std::unique_ptr<PodScoringRequest> computed;
  if (pre == nullptr && v135_) {
    // Without PreScore's state, v1.35 scores a best-effort pod 0.
    computed = scorer_.ComputePodRequests(pod);
    if (ResourceAllocationScorer::RequestsNothing(*computed)) return Status::Success();
    pre = computed.get();
  }

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

std::unique_ptr<Plugin> NewNodeResourcesBalancedAllocation(const config::PluginArgs& args,
                                                           Handle* handle, Status* error) {
  const config::FeatureGates gates =
      handle != nullptr ? handle->feature_gates() : config::FeatureGates{};
  if (std::holds_alternative<std::monostate>(args)) {
    // No pluginConfig: upstream's defaults (cpu and memory).
    return std::make_unique<noderesources::BalancedAllocation>(
        config::NodeResourcesBalancedAllocationArgs{}, gates);
  }
  const auto* ba_args = std::get_if<config::NodeResourcesBalancedAllocationArgs>(&args);
  if (ba_args == nullptr) {
    *error = Status::Error("want args to be of type NodeResourcesBalancedAllocationArgs, got " +
                           noderesources::ArgsTypeName(args));
    return nullptr;
  }
  return std::make_unique<noderesources::BalancedAllocation>(*ba_args, gates);
}

}  // namespace ksched::framework::plugins
