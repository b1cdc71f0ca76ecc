// DynamicResources (v1.35's default profile, before DefaultPreemption,
// Score weight 2): devices for the pod's ResourceClaims, allocated by the
// structured allocator (dra/allocator.h) as upstream's plugin does.
//
//   PreEnqueue  every claim exists, is not being deleted, and a template's
//               claim is named in status.resourceClaimStatuses and is the pod's;
//   PreFilter   the pod's claims as they stand (Skip without any), the node
//               selectors of allocated ones, the classes of the others, and an
//               allocator over the devices allocated so far;
//   Filter      an allocated claim's node selector, then an allocation of the
//               unallocated claims on the node (kept for Score and Reserve);
//   PostFilter  deallocates an allocated claim that was not available on some
//               node and that no other pod uses;
//   Score       firstAvailable alternatives: the earlier the better;
//   Reserve     the node's allocation becomes the claims' pending allocation;
//   PreBind     finalizer, allocation and reservedFor written (to the
//               ClusterState in the snapshot front ends, ClusterWritingPlugin).
//
// A pod without claims: PreFilter skips (so Filter never runs), every node
// scores 0 (the plugin is still listed), and PostFilter has no claim to
// deallocate, whose reason starts every FitError's PostFilter text before
// DefaultPreemption's.
#include "framework/plugins/dynamicresources/dynamic_resources.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cel/device_selector.h"
#include "dra/allocator.h"
#include "dra/pod_claims.h"
#include "dra/slice_index.h"
#include "framework/plugins/dynamicresources/dynamic_resources_hints.h"
#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace dynamicresources {

dra::Features AllocatorFeatures(const config::FeatureGates& gates) {
  dra::Features f;
  f.admin_access = gates.dra_admin_access;
  f.prioritized_list = gates.dra_prioritized_list;
  f.partitionable_devices = gates.dra_partitionable_devices;
  f.device_taints = gates.dra_device_taints;
  f.device_binding_and_status =
      gates.dra_device_binding_conditions && gates.dra_resource_claim_device_status;
  f.consumable_capacity = gates.dra_consumable_capacity;
  return f;
}

const StateKey& Key() {
  static const StateKey key = StateKey::Register();
  return key;
}

const CycleData* ReadCycle(const CycleState& state) {
  auto* s = state.ReadAs<State>(Key());
  return s == nullptr ? nullptr : s->inner.get();
}

}  // namespace dynamicresources

namespace {

using dynamicresources::ClaimInfo;
using dynamicresources::CycleData;
using dynamicresources::Key;
using dynamicresources::State;

Status ReadError() { return Status::Error("not found"); }

// statusUnschedulable: every DRA rejection is UnschedulableAndUnresolvable.
Status Unresolvable(std::string reason) { return Status::Unresolvable(std::move(reason)); }

class DynamicResources final : public PreEnqueuePlugin,
                               public PreFilterPlugin,
                               public FilterPlugin,
                               public PostFilterPlugin,
                               public ScorePlugin,
                               public ScoreExtensions,
                               public ReservePlugin,
                               public PreBindPlugin,
                               public ClusterWritingPlugin,
                               public EnqueueExtensions {
 public:
  explicit DynamicResources(Handle* handle)
      : handle_(handle),
        features_(dynamicresources::AllocatorFeatures(handle->feature_gates())),
        // Upstream keeps the last 10 compiled expressions.
        cel_cache_(10, cel::Features{features_.consumable_capacity}) {}

  std::string_view Name() const override { return names::kDynamicResources; }

  // Scores and filters nothing a node holds for a pod without claims; with
  // claims, the verdicts depend on every claim's allocation: every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.resource_claims.empty(); }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kNode, kAdd | kUpdateNodeLabel | kUpdateNodeAllocatable, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return DynamicResourcesEventsToRegister();
  }

  // ---------------------------------------------------------------- PreEnqueue

  Status PreEnqueue(const Pod& pod) override {
    if (pod.spec.resource_claims.empty() || !handle_->has_cluster()) return Status::Success();
    std::string err = ForeachPodClaim(pod, nullptr);
    if (!err.empty()) return Unresolvable(std::move(err));
    return Status::Success();
  }

  // ---------------------------------------------------------------- PreFilter

  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult*) override {
    auto s = std::make_unique<State>();
    CycleData& d = *s->inner;
    state->Write(Key(), std::move(s));
    if (pod.spec.resource_claims.empty()) return Status(Code::kSkip);

    const DraState& dra = handle_->cluster().dra();
    // The claims become the state's only once PreFilter succeeds: after a
    // rejection PostFilter finds none ("no new claims to deallocate").
    std::vector<ClaimInfo> claims;
    std::string err = ForeachPodClaim(pod, [&](uint32_t index) {
      ClaimInfo info;
      info.claim = dra.claim(index);
      info.index = index;
      claims.push_back(std::move(info));
    });
    if (!err.empty()) return Unresolvable(std::move(err));
    if (claims.empty()) return Status(Code::kSkip);

    size_t to_allocate = 0;
    for (ClaimInfo& info : claims) {
      const ResourceClaim& claim = info.claim;
      // CanBeReserved: v1.35 puts no limit on sharing.
      if (claim.allocation) {
        if (claim.allocation->node_selector) {
          info.available_on = dra::CompileNodeSelection(*claim.allocation->node_selector);
          if (!info.available_on->error.empty()) return Status::Error(info.available_on->error);
        }
        continue;
      }
      ++to_allocate;
      if (HasPendingAllocation(dra::ClaimUid(claim))) {
        return Unresolvable("resource claim " + dra::ClaimRef(claim) +
                            " is in the process of being allocated");
      }
      for (const DeviceRequest& request : claim.spec.requests) {
        if (request.exactly) {
          if (Status st = ValidateDeviceClass(request.exactly->device_class_name, request.name);
              !st.IsSuccess())
            return st;
        } else if (!request.first_available.empty()) {
          if (!features_.prioritized_list) {
            return Unresolvable("resource claim " + dra::ClaimRef(claim) + ", request " +
                                request.name +
                                ": has subrequests, but the DRAPrioritizedList feature is "
                                "disabled");
          }
          for (const DeviceSubRequest& sub : request.first_available) {
            if (Status st =
                    ValidateDeviceClass(sub.device_class_name, request.name + "/" + sub.name);
                !st.IsSuccess())
              return st;
          }
        } else {
          return Unresolvable("resource claim " + dra::ClaimRef(claim) + ", request " +
                              request.name + ": unknown request type");
        }
      }
    }

    if (to_allocate > 0) {
      if (features_.consumable_capacity || features_.device_binding_and_status) {
        return Status::Error(
            "ksched does not implement the experimental DRA allocator that "
            "DRAConsumableCapacity and DRADeviceBindingConditions select");
      }
      EnsureIndex();
      // Allocated (in the claims) or in flight: fixed for the cycle.
      std::unordered_set<DeviceId, DeviceIdHash> allocated;
      allocated.reserve(dra.allocated().size() + 8);
      for (const auto& [id, n] : dra.allocated()) allocated.insert(id);
      {
        std::lock_guard<std::mutex> lock(in_flight_mu_);
        for (const auto& [uid, claim] : in_flight_) {
          if (!claim.allocation) continue;
          for (const DeviceRequestAllocationResult& r : claim.allocation->results)
            if (!r.AdminAccess())
              allocated.insert(DeviceId{Intern(r.driver), Intern(r.pool), Intern(r.device)});
        }
      }
      d.allocator =
          std::make_unique<dra::Allocator>(features_, index_, std::move(allocated), &cel_cache_);
      d.claims = std::move(claims);
      for (size_t i = 0; i < d.claims.size(); ++i) {
        if (d.claims[i].claim.allocation) continue;
        d.to_allocate.push_back(&d.claims[i].claim);
        d.to_allocate_index.push_back(i);
      }
      d.by_node.resize(handle_->cluster().num_nodes());
    } else {
      d.claims = std::move(claims);
    }
    return Status::Success();
  }

  // ---------------------------------------------------------------- Filter

  Status Filter(const CycleState& cycle, const Pod&, const NodeInfo& node_info) const override {
    const CycleData* cd = dynamicresources::ReadCycle(cycle);
    if (cd == nullptr) return ReadError();
    auto& d = const_cast<CycleData&>(*cd);  // upstream's mutex-guarded writes
    if (d.claims.empty()) return Status::Success();
    if (node_info.node == nullptr) return Status::Error("node not found");
    const Node& node = *node_info.node;

    std::vector<size_t> unavailable;
    for (size_t i = 0; i < d.claims.size(); ++i) {
      const ClaimInfo& info = d.claims[i];
      if (info.available_on &&
          !info.available_on->terms.Matches(node.meta.labels, node.meta.name)) {
        unavailable.push_back(i);
        continue;
      }
    }

    std::vector<AllocationResult> allocations;
    if (d.allocator) {
      dra::AllocateOutcome out = d.allocator->Allocate(node, d.to_allocate);
      switch (out.kind) {
        case dra::AllocateOutcome::Kind::kFailedOnNode:
          return Unresolvable(std::move(out.message));
        case dra::AllocateOutcome::Kind::kError:
          return Status::Error(std::move(out.message));
        case dra::AllocateOutcome::Kind::kNoSolution:
          return Unresolvable("cannot allocate all claims");
        case dra::AllocateOutcome::Kind::kAllocated:
          break;
      }
      if (out.results.size() != d.to_allocate.size())
        return Unresolvable("cannot allocate all claims");
      allocations = std::move(out.results);
    }

    std::lock_guard<std::mutex> lock(d.mu);
    if (!unavailable.empty()) {
      d.unavailable.insert(unavailable.begin(), unavailable.end());
      return Unresolvable("resourceclaim not available on the node");
    }
    if (d.allocator && node_info.id < d.by_node.size())
      d.by_node[node_info.id] = std::move(allocations);
    return Status::Success();
  }

  bool PassesEveryNodeFor(const Pod& pod) const override {
    return pod.spec.resource_claims.empty();
  }
  bool PassesEveryNode(const CycleState& cycle) const override {
    const CycleData* d = dynamicresources::ReadCycle(cycle);
    return d != nullptr && d->claims.empty();
  }

  // ---------------------------------------------------------------- PostFilter

  Status PostFilter(CycleState* state, const Pod& pod, const NodeToStatusMap&,
                    PostFilterResult*) override {
    const CycleData* cd = dynamicresources::ReadCycle(*state);
    if (cd == nullptr) return ReadError();
    auto& d = const_cast<CycleData&>(*cd);
    if (d.claims.empty()) return Status::Unschedulable("no new claims to deallocate");
    // Upstream picks from a set in map order; refsched135 takes the first
    // qualifying claim of the pod.
    for (size_t index : d.unavailable) {
      const ResourceClaim& claim = d.claims[index].claim;
      const auto& reserved = claim.reserved_for;
      if (reserved.empty() || (reserved.size() == 1 && reserved[0].uid == pod.meta.uid)) {
        d.deallocate = index;
        return Status::Unschedulable("deallocation of ResourceClaim completed");
      }
    }
    return Status::Unschedulable("still not schedulable");
  }

  void ApplyPostFilterWrites(CycleState* state, const Pod&, ClusterState* cluster) override {
    const CycleData* cd = dynamicresources::ReadCycle(*state);
    if (cd == nullptr) return;
    auto& d = const_cast<CycleData&>(*cd);
    if (!d.deallocate) return;
    const ClaimInfo& info = d.claims[*d.deallocate];
    d.deallocate.reset();
    DraState* dra = cluster->mutable_dra();
    if (info.index >= dra->num_claims() || !dra->ClaimExists(info.index)) return;
    // UpdateStatus of the claim with its status cleared.
    ResourceClaim claim = dra->claim(info.index);
    claim.reserved_for.clear();
    claim.allocation.reset();
    claim.num_device_statuses = 0;
    dra->UpdateClaim(info.index, std::move(claim));
  }

  // ---------------------------------------------------------------- Score

  Status Score(const CycleState& cycle, const Pod&, const NodeInfo& node,
               int64_t* score) const override {
    *score = 0;
    const CycleData* d = dynamicresources::ReadCycle(cycle);
    if (d == nullptr) return ReadError();
    if (d->claims.empty() || !d->allocator) return Status::Success();
    if (node.id >= d->by_node.size() || !d->by_node[node.id]) return Status::Success();
    const std::vector<AllocationResult>& results = *d->by_node[node.id];
    // computeScore walks all claims but reads the allocations (one per
    // unallocated claim) by that index, as upstream does.
    for (size_t i = 0; i < d->claims.size(); ++i) {
      if (i >= results.size()) {
        return Status::Error("number of allocations " + std::to_string(results.size()) +
                             " is smaller than number of claims");
      }
      std::set<std::string> allocated_subs;
      for (const DeviceRequestAllocationResult& r : results[i].results)
        if (std::count(r.request.begin(), r.request.end(), '/') == 1)
          allocated_subs.insert(r.request);
      for (const DeviceRequest& req : d->claims[i].claim.spec.requests) {
        if (req.exactly) continue;
        for (size_t j = 0; j < req.first_available.size(); ++j) {
          if (allocated_subs.count(req.name + "/" + req.first_available[j].name))
            *score += dra::kFirstAvailableDeviceRequestMaxSize - static_cast<int64_t>(j);
        }
      }
    }
    return Status::Success();
  }
  bool ScoresZeroEverywhere(const CycleState& cycle) const override {
    const CycleData* d = dynamicresources::ReadCycle(cycle);
    return d != nullptr && (d->claims.empty() || !d->allocator);
  }
  std::optional<int64_t> ScoreOf(const CycleState& cycle, const Pod&, NodeId) const override {
    if (ScoresZeroEverywhere(cycle)) return 0;
    return std::nullopt;
  }
  const ScoreExtensions* ScoreExt() const override { return this; }

  // DefaultNormalizeScore(MaxNodeScore, false).
  Status NormalizeScore(const CycleState&, const Pod&, NodeScoreList* scores) const override {
    int64_t max = 0;
    for (const NodeScore& s : *scores) max = std::max(max, s.score);
    if (max == 0) return Status::Success();
    for (NodeScore& s : *scores) s.score = kMaxNodeScore * s.score / max;
    return Status::Success();
  }
  std::optional<int64_t> NormalizedZero(const CycleState&, const Pod&) const override { return 0; }

  // ---------------------------------------------------------------- Reserve

  Status Reserve(CycleState* state, const Pod&, NodeId node) override {
    const CycleData* cd = dynamicresources::ReadCycle(*state);
    if (cd == nullptr) return ReadError();
    auto& d = const_cast<CycleData&>(*cd);
    if (d.claims.empty() || d.to_allocate.empty()) return Status::Success();
    if (!d.allocator) return Status::Success();
    if (node >= d.by_node.size() || !d.by_node[node] || d.by_node[node]->empty())
      return Status::Error("claim allocation not found for node");
    const std::vector<AllocationResult>& results = *d.by_node[node];
    if (results.size() != d.to_allocate.size()) {
      return Status::Error("internal error, have " + std::to_string(results.size()) +
                           " allocations, " + std::to_string(d.to_allocate.size()) +
                           " claims to allocate, want " + std::to_string(d.to_allocate.size()) +
                           " claims");
    }
    std::lock_guard<std::mutex> lock(in_flight_mu_);
    for (size_t k = 0; k < d.to_allocate_index.size(); ++k) {
      ClaimInfo& info = d.claims[d.to_allocate_index[k]];
      info.allocation = results[k];
      ResourceClaim claim = info.claim;
      if (!claim.HasFinalizer(kResourceClaimFinalizer))
        claim.finalizers.emplace_back(kResourceClaimFinalizer);
      claim.allocation = results[k];
      in_flight_[dra::ClaimUid(claim)] = std::move(claim);
    }
    return Status::Success();
  }

  void Unreserve(CycleState* state, const Pod&, NodeId) override {
    const CycleData* d = dynamicresources::ReadCycle(*state);
    if (d == nullptr || d->claims.empty()) return;
    std::lock_guard<std::mutex> lock(in_flight_mu_);
    for (const ClaimInfo& info : d->claims) in_flight_.erase(dra::ClaimUid(info.claim));
  }

  // ---------------------------------------------------------------- PreBind

  // `ksched run` has no DRA writes yet: it must not bind a pod whose claims
  // it would leave unallocated.
  Status PreBind(CycleState* state, const Pod&, NodeId) override {
    const CycleData* d = dynamicresources::ReadCycle(*state);
    if (d == nullptr) return ReadError();
    if (d->claims.empty()) return Status::Success();
    return Status::Error("ksched run does not write ResourceClaims yet");
  }

  Status PreBindToCluster(CycleState* state, const Pod& pod, NodeId node,
                          ClusterState* cluster) override {
    const CycleData* cd = dynamicresources::ReadCycle(*state);
    if (cd == nullptr) return ReadError();
    auto& d = const_cast<CycleData&>(*cd);
    (void)node;
    DraState* dra = cluster->mutable_dra();
    for (ClaimInfo& info : d.claims) {
      if (dra::IsReservedForPod(pod, info.claim)) continue;
      const std::string uid = dra::ClaimUid(info.claim);
      struct Done {
        DynamicResources* self;
        const std::string& uid;
        bool pending;
        ~Done() {
          if (!pending) return;
          std::lock_guard<std::mutex> lock(self->in_flight_mu_);
          self->in_flight_.erase(uid);
        }
      } done{this, uid, info.allocation.has_value()};
      if (info.index >= dra->num_claims() || !dra->ClaimExists(info.index))
        return Status::Error("claim " + dra::ClaimRef(info.claim) + " got deleted in the meantime");
      ResourceClaim claim = dra->claim(info.index);
      if (claim.meta.has_deletion_timestamp)
        return Status::Error("claim " + dra::ClaimRef(claim) + " got deleted in the meantime");
      if (info.allocation) {
        if (claim.allocation) {
          return Status::Error("claim " + dra::ClaimRef(claim) +
                               " got allocated elsewhere in the meantime");
        }
        if (!claim.HasFinalizer(kResourceClaimFinalizer))
          claim.finalizers.emplace_back(kResourceClaimFinalizer);
        claim.allocation = *info.allocation;
      }
      claim.reserved_for.push_back(
          ResourceClaimConsumerReference{"", "pods", pod.meta.name, pod.meta.uid});
      dra->UpdateClaim(info.index, claim);
      info.claim = std::move(claim);
    }
    return Status::Success();
  }

 private:
  // foreachPodResourceClaim: "" when every claim of the pod is there (each
  // found one's index passed to `found`), else why not.
  template <typename F>
  std::string ForeachPodClaim(const Pod& pod, F found) const {
    const DraState& dra = handle_->cluster().dra();
    for (const PodResourceClaim& pc : pod.spec.resource_claims) {
      bool check_owner = false;
      auto name = dra::ClaimName(pod, pc, &check_owner);
      if (!name.ok()) return name.error().message;
      if (!name->has_value()) continue;
      std::optional<uint32_t> index = dra.FindClaim(pod.meta.ns, **name);
      if (!index) {
        return "could not find ResourceClaim \"" + std::string(Str(pod.meta.ns)) + "/" + **name +
               "\"";
      }
      const ResourceClaim& claim = dra.claim(*index);
      if (claim.meta.has_deletion_timestamp)
        return "resourceclaim \"" + claim.meta.name + "\" is being deleted";
      if (check_owner) {
        std::string err = dra::NotForPod(pod, claim);
        if (!err.empty()) return err;
      }
      if constexpr (!std::is_same_v<F, std::nullptr_t>) found(*index);
    }
    return {};
  }

  Status ValidateDeviceClass(const std::string& cls, const std::string& request) const {
    if (cls.empty()) return Status::Error("request " + request + ": unsupported request type");
    if (handle_->cluster().dra().FindClass(cls) == nullptr)
      return Unresolvable("request " + request + ": device class " + cls + " does not exist");
    return Status::Success();
  }

  bool HasPendingAllocation(const std::string& uid) {
    std::lock_guard<std::mutex> lock(in_flight_mu_);
    return in_flight_.count(uid) != 0;
  }

  // The slice index of the cluster this cycle reads.
  void EnsureIndex() {
    const ClusterState& cluster = handle_->cluster();
    if (index_ != nullptr && index_cluster_ == cluster.id() && &index_->state() == &cluster.dra())
      return;
    index_ = std::make_shared<dra::SliceIndex>(cluster.dra());
    index_cluster_ = cluster.id();
  }

  Handle* handle_;
  dra::Features features_;
  cel::SelectorCache cel_cache_;
  std::shared_ptr<const dra::SliceIndex> index_;
  uint64_t index_cluster_ = 0;
  // Claims whose allocation Reserve made and PreBind has not written yet
  // (upstream's inFlightAllocations), by uid.
  std::mutex in_flight_mu_;
  std::unordered_map<std::string, ResourceClaim> in_flight_;
};

}  // namespace

std::unique_ptr<Plugin> NewDynamicResources(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<DynamicResources>(handle);
}

}  // namespace ksched::framework::plugins
