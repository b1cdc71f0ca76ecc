// VolumeBinding: the pod's PersistentVolumeClaims, bound or to be bound,
// must be usable on the node.
//
// PreFilter sorts the pod's claims (a missing, lost or deleted claim makes
// the pod unresolvable; an unbound claim that is not WaitForFirstConsumer
// does too). Filter runs the binder for the node and keeps its decision per
// node. Reserve assumes the chosen node's bindings in the binder so that the
// next cycles see those PVs taken; Unreserve reverts them.
//
// v1.26: Score is 0 unless the VolumeCapacityPriority gate is on (then the
// static bindings' use of their PVs is scored by the shape).
//
// v1.35: PreFilter returns Skip for a pod without claims or ephemeral
// volumes. PreScore returns Skip unless StorageCapacityScoring (alpha) is on,
// so the plugin is not listed among the scores; with the gate a node is
// scored by its static bindings if it has any, else by the dynamic
// provisions against the CSIStorageCapacity that holds each of them.
//
// PreBind writes the bindings to the API server and waits for the PV
// controller; only `ksched run` does that: PlanPreBind (framework/prebind.h)
// copies the chosen node's assumed bindings into a VolumeBindingJob, which a
// binding worker runs before posting the pod's Binding. The snapshot front
// ends never bind volumes: their PreBind is never run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "framework/plugins/names/names.h"
#include "framework/plugins/nodevolumelimits/csi_translation.h"
#include "framework/plugins/nodevolumelimits/utils.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/volumebinding/binder.h"
#include "framework/plugins/volumebinding/prebind.h"
#include "framework/plugins/volumebinding/volume_binding_hints.h"
#include "framework/prebind.h"
#include "predicates/volume_util.h"

namespace ksched::framework::plugins {
namespace {

using volumebinding::Binder;
using volumebinding::PodVolumes;

// Upstream's stateData. Clone shares it, as upstream's Clone returns the
// same pointer: preemption's copies see (and add to) the same per-node
// decisions.
struct StateInner {
  bool skip = false;
  std::vector<PersistentVolumeClaim> bound_claims;
  std::vector<PersistentVolumeClaim> claims_to_bind;
  bool all_bound = false;
  // Filter's decision per NodeId; each node's slot is written only by the
  // Filter call for that node.
  std::vector<std::optional<PodVolumes>> by_node;
  // What Reserve assumed, by name: Unreserve reverts these even after the
  // binder dropped the objects by_node points to (a new ClusterState).
  std::vector<std::string> assumed_pvs;
  std::vector<std::string> assumed_claims;
};

struct State final : StateData {
  std::shared_ptr<StateInner> inner = std::make_shared<StateInner>();
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<State>(*this); }
};

const StateKey& Key() {
  static const StateKey key = StateKey::Register();
  return key;
}

Status ReadError() {
  return Status::Error("error reading \"PreFilterVolumeBinding\" from cycleState");
}

class VolumeBinding final : public PreFilterPlugin,
                            public FilterPlugin,
                            public PreScorePlugin,
                            public ScorePlugin,
                            public ReservePlugin,
                            public PlannedPreBindPlugin,
                            public EnqueueExtensions {
 public:
  VolumeBinding(Handle* handle, config::VolumeBindingArgs args, bool capacity_priority, bool v135,
                bool storage_capacity_scoring)
      : handle_(handle),
        binder_(handle),
        capacity_priority_(capacity_priority),
        v135_(v135),
        storage_capacity_scoring_(storage_capacity_scoring),
        bind_timeout_(std::chrono::seconds(args.bind_timeout_seconds)) {
    for (const auto& p : args.shape) {
      // Scores are 0..10 in the args, 0..100 inside (MaxNodeScore / MaxCustomPriorityScore).
      shape_.push_back({p.utilization, int64_t{p.score} * (kMaxNodeScore / 10)});
    }
  }

  std::string_view Name() const override { return names::kVolumeBinding; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult*) override {
    binder_.Sync();
    auto s = std::make_unique<State>();
    bool has_pvc = false;
    if (Status st = PodHasPVCs(pod, &has_pvc); !st.IsSuccess()) return st;
    if (!has_pvc) {
      s->inner->skip = true;
      state->Write(Key(), std::move(s));
      return v135_ ? Status(Code::kSkip) : Status();
    }
    std::vector<PersistentVolumeClaim> immediate;
    if (Status st = binder_.GetPodVolumes(pod, &s->inner->bound_claims, &s->inner->claims_to_bind,
                                          &immediate);
        !st.IsSuccess())
      return st;
    if (!immediate.empty()) {
      return Status::Unresolvable("pod has unbound immediate PersistentVolumeClaims");
    }
    s->inner->by_node.resize(handle_->cluster().num_nodes());
    state->Write(Key(), std::move(s));
    return Status();
  }

  Status Filter(const CycleState& cycle, const Pod& pod, const NodeInfo& node) const override {
    if (node.node == nullptr) return Status::Error("node not found");
    auto* s = cycle.ReadAs<State>(Key());
    if (s == nullptr) return ReadError();
    StateInner& st = *s->inner;
    if (st.skip) return Status();
    PodVolumes volumes;
    std::vector<std::string> reasons;
    if (Status err = binder_.FindPodVolumes(pod, st.bound_claims, st.claims_to_bind, node, &volumes,
                                            &reasons);
        !err.IsSuccess())
      return err;
    if (!reasons.empty()) return Status(Code::kUnschedulableAndUnresolvable, std::move(reasons));
    // Nodes never change within a cycle, so every node has its slot.
    if (node.id < st.by_node.size()) st.by_node[node.id] = std::move(volumes);
    return Status();
  }

  // v1.35 only (v1.26's VolumeBinding has no PreScore): without
  // StorageCapacityScoring there is no scorer, and with it PreScore never
  // skips.
  bool ExtendsPreScore() const override { return v135_; }
  Status PreScore(CycleState*, const Pod&, const std::vector<NodeId>&) override {
    if (v135_ && !storage_capacity_scoring_) return Status(Code::kSkip);
    return Status();
  }

  Status Score(const CycleState& cycle, const Pod&, const NodeInfo& node,
               int64_t* score) const override {
    *score = 0;
    if (!(v135_ ? storage_capacity_scoring_ : capacity_priority_)) return Status();
    auto* s = cycle.ReadAs<State>(Key());
    if (s == nullptr) return ReadError();
    const StateInner& st = *s->inner;
    if (node.id >= st.by_node.size() || !st.by_node[node.id]) return Status();
    const PodVolumes& volumes = *st.by_node[node.id];
    // Requested and capacity per storage class.
    std::vector<std::pair<std::string_view, std::pair<int64_t, int64_t>>> classes;
    auto class_entry = [&](std::string_view cls) -> std::pair<int64_t, int64_t>& {
      auto it = std::find_if(classes.begin(), classes.end(),
                             [&](const auto& c) { return c.first == cls; });
      if (it != classes.end()) return it->second;
      classes.push_back({cls, {0, 0}});
      return classes.back().second;
    };
    if (!v135_ || !volumes.static_bindings.empty()) {
      // The static bindings: the claims' requests against their PVs.
      for (const auto& b : volumes.static_bindings) {
        auto& rc = class_entry(b.pv->storage_class_name);
        rc.first += b.pvc->request.value_or(Quantity()).Value();
        rc.second += b.pv->capacity.value_or(Quantity()).Value();
      }
    } else {
      // v1.35's dynamic provisions: the claims' requests against the
      // capacity that holds them (the last one of a class counts).
      for (size_t i = 0; i < volumes.dynamic_provisions.size(); ++i) {
        const CSIStorageCapacity* c =
            i < volumes.provision_capacities.size() ? volumes.provision_capacities[i] : nullptr;
        if (c == nullptr) continue;
        const PersistentVolumeClaim& claim = *volumes.dynamic_provisions[i];
        auto& rc = class_entry(volume::ClaimClass(claim));
        rc.second = c->capacity.value_or(Quantity()).Value();
        rc.first += claim.request.value_or(Quantity()).Value();
      }
    }
    if (classes.empty()) return Status();
    int64_t total = 0;
    for (const auto& [cls, rc] : classes) {
      const auto [requested, capacity] = rc;
      total += Shape(capacity == 0 || requested > capacity ? 100 : requested * 100 / capacity);
    }
    *score = static_cast<int64_t>(
        std::round(static_cast<double>(total) / static_cast<double>(classes.size())));
    return Status();
  }

  Status Reserve(CycleState* cycle, const Pod& pod, NodeId node) override {
    binder_.Sync();
    auto* s = cycle->ReadAs<State>(Key());
    if (s == nullptr) return ReadError();
    StateInner& st = *s->inner;
    if (node < st.by_node.size() && st.by_node[node]) {
      bool all_bound = false;
      const std::string_view node_name = handle_->cluster().node(node).meta.name;
      if (Status err = binder_.AssumePodVolumes(pod, node_name, &*st.by_node[node], &all_bound);
          !err.IsSuccess())
        return err;
      st.all_bound = all_bound;
      st.assumed_pvs.clear();
      st.assumed_claims.clear();
      for (const auto& b : st.by_node[node]->static_bindings)
        st.assumed_pvs.push_back(b.pv->meta.name);
      for (const PersistentVolumeClaim* c : st.by_node[node]->dynamic_provisions)
        st.assumed_claims.push_back(std::string(Str(c->meta.ns)) + "/" + c->meta.name);
    } else {
      st.all_bound = true;
    }
    return Status();
  }

  void Unreserve(CycleState* cycle, const Pod&, NodeId) override {
    auto* s = cycle->ReadAs<State>(Key());
    if (s == nullptr) return;
    binder_.RevertAssumed(s->inner->assumed_pvs, s->inner->assumed_claims);
  }

  // Only `ksched run` binds volumes, through PlanPreBind's job; in-process
  // there is no API server to write to.
  Status PreBind(CycleState* cycle, const Pod& pod, NodeId node) override {
    std::unique_ptr<PreBindJob> job;
    if (Status s = PlanPreBind(cycle, pod, node, &job); !s.IsSuccess() || job == nullptr) return s;
    return Status::Error("binding volumes needs an API server (ksched run)");
  }

  Status PlanPreBind(CycleState* cycle, const Pod& pod, NodeId node,
                     std::unique_ptr<PreBindJob>* job) override {
    job->reset();
    auto* s = cycle->ReadAs<State>(Key());
    if (s == nullptr) return ReadError();
    const StateInner& st = *s->inner;
    if (st.skip || st.all_bound) return Status();
    const ClusterState& cluster = handle_->cluster();
    if (node >= st.by_node.size() || !st.by_node[node]) {
      const std::string name = node < cluster.num_nodes() ? cluster.node(node).meta.name : "";
      return Status::Error(
          (v135_ ? "no pod volume found for node " : "no pod volumes found for node ") +
          volume::GoQuote(name));
    }
    *job = MakeJob(pod, node, *st.by_node[node]);
    return Status();
  }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kStorageClass, kAdd | kUpdate, "StorageClassAddOrUpdate"},
            {EventResource::kPersistentVolumeClaim, kAdd | kUpdate, "PvcAddOrUpdate"},
            {EventResource::kPersistentVolume, kAdd | kUpdate, "PvAddOrUpdate"},
            {EventResource::kNode, kAdd | kUpdateNodeLabel, "NodeAddOrUpdateLabel"},
            {EventResource::kCSINode, kAdd | kUpdate, "CSINodeAddOrUpdate"},
            {EventResource::kCSIDriver, kAdd | kUpdate, "CSIDriverAddOrUpdate"},
            {EventResource::kCSIStorageCapacity, kAdd | kUpdate, "CSIStorageCapacityAddOrUpdate"}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return VolumeBindingEventsToRegister();
  }

 private:
  // podHasPVCs, reading the API's claims (not the assumed ones).
  Status PodHasPVCs(const Pod& pod, bool* has_pvc) const {
    const ClusterState& cluster = handle_->cluster();
    for (const Volume& v : pod.spec.volumes) {
      const bool ephemeral = v.kind == VolumeKind::kEphemeral;
      if (v.kind != VolumeKind::kPersistentVolumeClaim && !ephemeral) continue;
      *has_pvc = true;
      const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
      if (pvc == nullptr) {
        if (ephemeral) {
          return Status::Unresolvable(
              "waiting for ephemeral volume controller to create the persistentvolumeclaim " +
              volume::GoQuote(v.id));
        }
        return Status::Unresolvable("persistentvolumeclaim " + volume::GoQuote(v.id) +
                                    " not found");
      }
      if (pvc->phase == "Lost") {
        return Status::Unresolvable("persistentvolumeclaim " + volume::GoQuote(pvc->meta.name) +
                                    " bound to non-existent persistentvolume " +
                                    volume::GoQuote(pvc->volume_name));
      }
      if (pvc->meta.has_deletion_timestamp) {
        return Status::Unresolvable("persistentvolumeclaim " + volume::GoQuote(pvc->meta.name) +
                                    " is being deleted");
      }
      if (ephemeral) {
        if (Status s = nodevolumelimits::EphemeralVolumeIsForPod(pod, *pvc); !s.IsSuccess())
          return Status::Unresolvable(s.Message());
      }
    }
    return Status();
  }

  // The API writes of the assumed bindings (`volumes` points to the
  // binder's assumed objects) and what the checks need, copied.
  std::unique_ptr<volumebinding::VolumeBindingJob> MakeJob(const Pod& pod, NodeId node,
                                                           const PodVolumes& volumes) const {
    const ClusterState& cluster = handle_->cluster();
    auto job = std::make_unique<volumebinding::VolumeBindingJob>();
    job->pod_ns = std::string(Str(pod.meta.ns));
    job->pod_name = pod.meta.name;
    const NodeInfo& info = cluster.node_info(node);
    job->node_name = info.name();
    job->node_labels = info.labels();
    if (const CSINode* csi_node = csi::CSINodeOf(cluster, info)) job->csi_node = *csi_node;
    job->timeout = bind_timeout_;
    for (const volumebinding::BindingInfo& b : volumes.static_bindings) {
      job->bindings.push_back(StaticBinding(*b.pv, *b.pvc, cluster.FindPv(b.pv->meta.name)));
    }
    for (const PersistentVolumeClaim* c : volumes.dynamic_provisions) {
      job->provisionings.push_back(
          {std::string(Str(c->meta.ns)), c->meta.name, c->meta.resource_version});
    }
    return job;
  }

  // The write that turns the API's PV (`api`, may be null) into the assumed
  // one: the claimRef when it changed, the annotation when it was added.
  static volumebinding::VolumeBindingJob::StaticBinding StaticBinding(
      const PersistentVolume& assumed, const PersistentVolumeClaim& claim,
      const PersistentVolume* api) {
    volumebinding::VolumeBindingJob::StaticBinding out;
    out.pv_name = assumed.meta.name;
    out.pv_resource_version = assumed.meta.resource_version;
    out.claim_ns = std::string(Str(claim.meta.ns));
    out.claim_name = claim.meta.name;
    const bool ref_changed = api == nullptr || api->claim_ref != assumed.claim_ref ||
                             api->claim_ref_uid != assumed.claim_ref_uid;
    if (ref_changed) {
      out.claim_ref = ClaimReference{out.claim_ns, claim.meta.name, claim.meta.uid,
                                     claim.meta.resource_version};
    }
    constexpr std::string_view kBoundByController = "pv.kubernetes.io/bound-by-controller";
    out.bound_by_controller =
        assumed.meta.Annotation(kBoundByController) != nullptr &&
        (api == nullptr || api->meta.Annotation(kBoundByController) == nullptr);
    return out;
  }

  // helper.BuildBrokenLinearFunction over the configured shape.
  int64_t Shape(int64_t p) const {
    if (shape_.empty()) return 0;
    for (size_t i = 0; i < shape_.size(); ++i) {
      if (p <= shape_[i].first) {
        if (i == 0) return shape_[0].second;
        return shape_[i - 1].second + (shape_[i].second - shape_[i - 1].second) *
                                          (p - shape_[i - 1].first) /
                                          (shape_[i].first - shape_[i - 1].first);
      }
    }
    return shape_.back().second;
  }

  Handle* handle_;
  Binder binder_;
  bool capacity_priority_;  // v1.26's VolumeCapacityPriority
  bool v135_;
  bool storage_capacity_scoring_;                   // v1.35's StorageCapacityScoring
  std::vector<std::pair<int64_t, int64_t>> shape_;  // (utilization, score 0..100)
  std::chrono::milliseconds bind_timeout_;          // 0: no limit
};

}  // namespace

std::unique_ptr<Plugin> NewVolumeBinding(const config::PluginArgs& args, Handle* handle, Status*) {
  config::VolumeBindingArgs a;
  if (const auto* given = std::get_if<config::VolumeBindingArgs>(&args)) a = *given;
  const config::FeatureGates& gates = handle->feature_gates();
  return std::make_unique<VolumeBinding>(handle, std::move(a), gates.volume_capacity_priority,
                                         gates.AtLeast(config::SchedulerVersion::kV135),
                                         gates.storage_capacity_scoring);
}

}  // namespace ksched::framework::plugins
