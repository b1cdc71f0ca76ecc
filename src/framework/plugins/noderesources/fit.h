// NodeResourcesFit (upstream's noderesources/fit.go): Filter rejects nodes
// without room for the pod's requests; Score ranks nodes by the configured
// strategy (LeastAllocated, MostAllocated or RequestedToCapacityRatio).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/resource.h"
#include "config/types.h"
#include "framework/interface.h"
#include "framework/plugins/noderesources/fit_hints.h"
#include "framework/plugins/noderesources/requested_to_capacity_ratio.h"
#include "framework/plugins/noderesources/resource_allocation.h"

namespace ksched::framework::noderesources {

// The pod's request as Filter checks it, computed once in PreFilter: v1.26's
// computePodResourceRequest (the containers' sum, raised to any single init
// container's request, plus the overhead) or v1.35's (component-helpers'
// PodRequests: sidecars, pod-level requests, overhead; no status).
struct PodFitRequest final : StateData {
  // v1.35's fitsRequest: cpu, memory and ephemeral-storage are checked only
  // when the pod requests them, and a request larger than the node's
  // allocatable makes the rejection unresolvable.
  bool v135 = false;
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  // Upstream's request has a scalar entry for every scalar name any
  // container, init container or the overhead mentions, zeros included; a
  // pod with such an entry is checked even when it requests nothing else.
  bool has_scalars = false;
  struct Scalar {
    StrId name = kEmptyStr;
    int64_t quantity = 0;
    std::string reason;  // "Insufficient <name>"
  };
  // The non-zero scalar requests Filter checks (ignored extended resources
  // left out), sorted by name: upstream walks a Go map here, whose order is
  // random; sorting makes the reasons' order deterministic.
  std::vector<Scalar> scalars;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PodFitRequest>(*this);
  }
};

// v1.26's computePodResourceRequest.
Resource ComputePodResourceRequest(const Pod& pod);

// The request as upstream's noderesources.Fits checks it (no resource
// ignored), for the queue's admission check of a node added or changed.
std::unique_ptr<PodFitRequest> FitRequestIgnoringNothing(const Pod& pod);

class Fit final : public PreFilterPlugin,
                  public FilterPlugin,
                  public EnqueueExtensions,
                  public PreScorePlugin,
                  public ScorePlugin {
 public:
  // Args as defaulted and validated by the configuration; an error Status
  // (and nullptr) for an unsupported strategy or an empty shape.
  // `gates`: the release and gates the plugin follows (v1.26 by default).
  static std::unique_ptr<Fit> New(const config::NodeResourcesFitArgs& args, Status* error,
                                  const config::FeatureGates& gates = {});

  std::string_view Name() const override;

  // Reads the pod's requests and this node only.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return 0; }

  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> EventsToRegister() const override;
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;  // fit_hints.cc
  void SetHintOptions(const FitHintOptions& options) { hint_options_ = options; }

  // Not in upstream's Fit: computes the pod's per-resource requests once so
  // Score does not redo it per node (Score falls back when it did not run).
  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;

  // The state PreFilter writes for `pod` (exposed for tests and preemption).
  std::unique_ptr<PodFitRequest> MakeFitRequest(const Pod& pod) const;
  // fitsRequest: the reasons the node lacks room, in upstream's order
  // ("Too many pods", cpu, memory, ephemeral-storage, scalars). Empty: fits.
  // *unresolvable (when given) is set when a v1.35 request is larger than
  // the node's allocatable for one of the resources it lacks.
  static std::vector<std::string> InsufficientResources(const PodFitRequest& request,
                                                        const NodeInfo& node,
                                                        bool* unresolvable = nullptr);

 private:
  enum class Strategy : uint8_t { kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio };

  Fit(const config::NodeResourcesFitArgs& args, Strategy strategy,
      const config::FeatureGates& gates);
  bool Ignored(std::string_view extended_resource) const;

  // v1.35's request math for PreFilter (pod-level requests as the
  // PodLevelResources gate says, no status); nullopt: v1.26's.
  std::optional<PodRequestOptions> v135_filter_requests_;
  // SidecarContainers (v1.35; locked on there): off, a pod with a
  // restartable init container is refused at PreFilter.
  bool refuse_sidecars_ = false;
  std::vector<std::string> ignored_resources_;
  std::vector<std::string> ignored_resource_groups_;
  Strategy strategy_;
  ResourceAllocationScorer scorer_;
  std::optional<RequestedToCapacityRatio> ratio_;  // kRequestedToCapacityRatio only
  FitHintOptions hint_options_;
};

}  // namespace ksched::framework::noderesources
