#include "framework/plugins/noderesources/fit.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <variant>

#include "framework/plugins/names/names.h"
#include "framework/plugins/noderesources/least_allocated.h"
#include "framework/plugins/noderesources/most_allocated.h"
#include "framework/plugins/registry_factories.h"
#include "util/go_arith.h"

namespace ksched::framework::noderesources {
namespace {

const StateKey kPreFilterKey = StateKey::Register();
const StateKey kPreScoreKey = StateKey::Register();

// Upstream's preFilterStateKey, named in its error message.
constexpr std::string_view kPreFilterStateKey = "PreFilterNodeResourcesFit";

// v1.26's Resource.SetMaxResource: unlike the v1.15 cache's, it writes a
// scalar entry even when the init container's request is 0.
void SetMaxResource(Resource* r, const ResourceList& list) {
  const ResourceNames& rn = ResourceNames::Get();
  for (const ResourceQuantity& q : list) {
    if (q.name == rn.cpu) {
      r->milli_cpu = std::max(r->milli_cpu, q.milli);
    } else if (q.name == rn.memory) {
      r->memory = std::max(r->memory, q.value);
    } else if (q.name == rn.ephemeral_storage) {
      r->ephemeral_storage = std::max(r->ephemeral_storage, q.value);
    } else if (IsScalarResourceName(q.name)) {
      r->SetScalar(q.name, std::max(r->Scalar(q.name), q.value));
    }
  }
}

}  // namespace

Resource ComputePodResourceRequest(const Pod& pod) {
  Resource r;
  for (const Container& c : pod.spec.containers) r.Add(c.requests);
  for (const Container& c : pod.spec.init_containers) SetMaxResource(&r, c.requests);
  r.Add(pod.spec.overhead);
  return r;
}

std::unique_ptr<Fit> Fit::New(const config::NodeResourcesFitArgs& args, Status* error,
                              const config::FeatureGates& gates) {
  const std::string& type = args.scoring_strategy.type;
  Strategy strategy;
  if (type == config::kLeastAllocated) {
    strategy = Strategy::kLeastAllocated;
  } else if (type == config::kMostAllocated) {
    strategy = Strategy::kMostAllocated;
  } else if (type == config::kRequestedToCapacityRatio) {
    strategy = Strategy::kRequestedToCapacityRatio;
    // Upstream's validation requires a point; without one its scorer would
    // index an empty shape.
    if (args.scoring_strategy.requested_to_capacity_ratio.shape.empty()) {
      *error = Status::Error(
          "scoringStrategy.shape: Required value: at least one point must be specified");
      return nullptr;
    }
  } else {
    *error = Status::Error("scoring strategy " + type + " is not supported");
    return nullptr;
  }
  return std::unique_ptr<Fit>(new Fit(args, strategy, gates));
}

namespace {

// The options of v1.35's PreFilter request (computePodResourceRequest):
// pod-level requests when the PodLevelResources gate is on, spec only.
std::optional<PodRequestOptions> FilterRequestOptions(const config::FeatureGates& gates) {
  if (!gates.AtLeast(config::SchedulerVersion::kV135)) return std::nullopt;
  PodRequestOptions options;
  options.use_status_resources = false;
  options.pod_level_resources = gates.pod_level_resources;
  return options;
}

// The options of v1.35's scoring request. Upstream's NewFit never copies
// the InPlacePodVerticalScaling and PodLevelResources gates into the Fit
// scorer, so it scores the incoming pod by its containers (non-zero
// defaults, sidecars, overhead) and ignores pod-level requests and status.
std::optional<PodRequestOptions> ScoreRequestOptions(const config::FeatureGates& gates) {
  if (!gates.AtLeast(config::SchedulerVersion::kV135)) return std::nullopt;
  PodRequestOptions options;
  options.use_status_resources = false;
  options.pod_level_resources = false;
  return options;
}

}  // namespace

Fit::Fit(const config::NodeResourcesFitArgs& args, Strategy strategy,
         const config::FeatureGates& gates)
    : v135_filter_requests_(FilterRequestOptions(gates)),
      refuse_sidecars_(gates.AtLeast(config::SchedulerVersion::kV135) && !gates.sidecar_containers),
      ignored_resources_(args.ignored_resources),
      ignored_resource_groups_(args.ignored_resource_groups),
      strategy_(strategy),
      scorer_(ResourcesToScore(args.scoring_strategy.resources.empty()
                                   ? DefaultResourceSpec()
                                   : args.scoring_strategy.resources),
              /*use_requested=*/false, ScoreRequestOptions(gates)) {
  if (strategy == Strategy::kRequestedToCapacityRatio)
    ratio_.emplace(args.scoring_strategy.requested_to_capacity_ratio.shape);
}

std::string_view Fit::Name() const { return names::kNodeResourcesFit; }

bool Fit::Ignored(std::string_view name) const {
  auto has = [](const std::vector<std::string>& set, std::string_view s) {
    return std::find(set.begin(), set.end(), s) != set.end();
  };
  if (has(ignored_resources_, name)) return true;
  // Extended resource names always have a group before their '/'.
  return !ignored_resource_groups_.empty() &&
         has(ignored_resource_groups_, name.substr(0, name.find('/')));
}

namespace {

// The request PreFilter writes, without the extended resources `ignored`
// names: v1.35's when `v135` has its options, else v1.26's.
template <typename IgnoredFn>
std::unique_ptr<PodFitRequest> BuildFitRequest(const Pod& pod,
                                               const std::optional<PodRequestOptions>& v135,
                                               IgnoredFn ignored) {
  // v1.35 (component-helpers' PodRequests, KEP-753 sidecars, pod-level
  // requests) or v1.26's computePodResourceRequest. Both keep a scalar
  // entry, zero or not, for every scalar name the pod mentions.
  Resource r = v135 ? PodRequestV135(pod, *v135) : ComputePodResourceRequest(pod);
  auto state = std::make_unique<PodFitRequest>();
  state->v135 = v135.has_value();
  state->milli_cpu = r.milli_cpu;
  state->memory = r.memory;
  state->ephemeral_storage = r.ephemeral_storage;
  state->has_scalars = !r.scalars.empty();
  for (const auto& [name, quantity] : r.scalars) {
    if (quantity == 0) continue;
    std::string_view s = Str(name);
    if (IsExtendedResourceName(s) && ignored(s)) continue;
    state->scalars.push_back({name, quantity, "Insufficient " + std::string(s)});
  }
  std::sort(state->scalars.begin(), state->scalars.end(),
            [](const PodFitRequest::Scalar& a, const PodFitRequest::Scalar& b) {
              return Str(a.name) < Str(b.name);
            });
  return state;
}

}  // namespace

std::unique_ptr<PodFitRequest> Fit::MakeFitRequest(const Pod& pod) const {
  return BuildFitRequest(pod, v135_filter_requests_,
                         [this](std::string_view s) { return Ignored(s); });
}

std::unique_ptr<PodFitRequest> FitRequestIgnoringNothing(const Pod& pod) {
  return BuildFitRequest(pod, std::nullopt, [](std::string_view) { return false; });
}

Status Fit::PreFilter(CycleState* state, const Pod& pod, PreFilterResult*) {
  if (refuse_sidecars_) {
    for (const Container& c : pod.spec.init_containers) {
      if (c.IsRestartableInit()) {
        return Status::Unresolvable(
            "Pod has a restartable init container and the SidecarContainers feature is disabled");
      }
    }
  }
  state->Write(kPreFilterKey, MakeFitRequest(pod));
  return Status::Success();
}

std::vector<std::string> Fit::InsufficientResources(const PodFitRequest& request,
                                                    const NodeInfo& node, bool* unresolvable) {
  std::vector<std::string> reasons;
  bool beyond_allocatable = false;
  const Resource& alloc = node.allocatable;
  const Resource& used = node.requested;
  if (static_cast<int64_t>(node.pods.size()) + 1 > alloc.allowed_pod_number)
    reasons.emplace_back("Too many pods");
  if (request.milli_cpu == 0 && request.memory == 0 && request.ephemeral_storage == 0 &&
      !request.has_scalars) {
    if (unresolvable != nullptr) *unresolvable = false;
    return reasons;
  }
  // v1.26 checks cpu, memory and ephemeral-storage whenever the pod asks for
  // anything, so a node over-committed on cpu fails a memory-only pod;
  // v1.35's fitsRequest checks only what the pod requests, and marks a
  // request the node's allocatable could never hold (such a node is no
  // preemption candidate either).
  auto check = [&](int64_t want, int64_t allocatable, int64_t requested, const char* reason) {
    if (request.v135 && want <= 0) return;
    if (want <= goarith::Sub(allocatable, requested)) return;
    reasons.emplace_back(reason);
    beyond_allocatable = beyond_allocatable || want > allocatable;
  };
  check(request.milli_cpu, alloc.milli_cpu, used.milli_cpu, "Insufficient cpu");
  check(request.memory, alloc.memory, used.memory, "Insufficient memory");
  check(request.ephemeral_storage, alloc.ephemeral_storage, used.ephemeral_storage,
        "Insufficient ephemeral-storage");
  for (const PodFitRequest::Scalar& s : request.scalars) {
    const int64_t allocatable = alloc.Scalar(s.name);
    if (s.quantity > goarith::Sub(allocatable, used.Scalar(s.name))) {
      reasons.push_back(s.reason);
      beyond_allocatable = beyond_allocatable || s.quantity > allocatable;
    }
  }
  if (unresolvable != nullptr) *unresolvable = request.v135 && beyond_allocatable;
  return reasons;
}

Status Fit::Filter(const CycleState& state, const Pod&, const NodeInfo& node) const {
  const auto* request = state.ReadAs<PodFitRequest>(kPreFilterKey);
  if (request == nullptr) {
    return Status::Error("error reading \"" + std::string(kPreFilterStateKey) +
                         "\" from cycleState: not found");
  }
  bool unresolvable = false;
  std::vector<std::string> reasons = InsufficientResources(*request, node, &unresolvable);
  if (reasons.empty()) return Status::Success();
  return Status(unresolvable ? Code::kUnschedulableAndUnresolvable : Code::kUnschedulable,
                std::move(reasons));
}

std::vector<ClusterEvent> Fit::EventsToRegister() const {
  return {
      {EventResource::kPod, kDelete, ""},
      {EventResource::kNode, kAdd | kUpdate, ""},
  };
}

Status Fit::PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>&) {
  state->Write(kPreScoreKey, scorer_.ComputePodRequests(pod));
  return Status::Success();
}

Status Fit::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                  int64_t* score) const {
  *score = 0;
  if (node.node == nullptr) return Status::Error("node not found");
  const auto* pre = state.ReadAs<PodScoringRequest>(kPreScoreKey);
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  scorer_.ForEachResource(node, pod, pre, [&](const ScoredResource& r, int64_t alloc, int64_t req) {
    int64_t resource_score = 0;
    switch (strategy_) {
      case Strategy::kLeastAllocated:
        resource_score = LeastRequestedScore(req, alloc);
        break;
      case Strategy::kMostAllocated:
        resource_score = MostRequestedScore(req, alloc);
        break;
      case Strategy::kRequestedToCapacityRatio:
        resource_score = ratio_->ResourceScore(req, alloc);
        // The ratio strategy leaves resources that score 0 out of the mean.
        if (resource_score <= 0) return;
        break;
    }
    node_score = goarith::Add(node_score, goarith::Mul(resource_score, r.weight));
    weight_sum = goarith::Add(weight_sum, r.weight);
  });
  if (weight_sum == 0) return Status::Success();
  if (strategy_ == Strategy::kRequestedToCapacityRatio) {
    *score = goarith::FloatToInt64(
        std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  } else {
    *score = goarith::Div(node_score, weight_sum);
  }
  return Status::Success();
}

}  // namespace ksched::framework::noderesources

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewNodeResourcesFit(const config::PluginArgs& args, Handle* handle,
                                            Status* error) {
  const config::FeatureGates gates =
      handle != nullptr ? handle->feature_gates() : config::FeatureGates{};
  // No pluginConfig: upstream's defaults (LeastAllocated over cpu and memory).
  const auto* fit_args = std::holds_alternative<std::monostate>(args)
                             ? nullptr
                             : std::get_if<config::NodeResourcesFitArgs>(&args);
  if (!std::holds_alternative<std::monostate>(args) && fit_args == nullptr) {
    *error = Status::Error("want args to be of type NodeResourcesFitArgs, got " +
                           noderesources::ArgsTypeName(args));
    return nullptr;
  }
  auto fit =
      noderesources::Fit::New(fit_args ? *fit_args : config::NodeResourcesFitArgs{}, error, gates);
  // v1.35's queueing hints read the gates (fit_hints.h).
  if (fit != nullptr && handle != nullptr)
    fit->SetHintOptions(noderesources::FitHintOptions::From(handle->feature_gates()));
  return fit;
}

}  // namespace ksched::framework::plugins
