// CheckServiceAffinity (Policy argument serviceAffinity): pods of one service
// should land on nodes that agree on the listed labels.
//
// Upstream builds, per pod, a map label -> required value:
//  1. values the pod's own nodeSelector gives for the listed labels (whether or
//     not the pod belongs to a service);
//  2. if some listed label is still unset and a service in the pod's namespace
//     selects the pod, the remaining values come from the node of the "first"
//     pod in that namespace whose labels include all of the incoming pod's
//     labels (any pod if it has none) -- labels that node lacks stay unset.
// A node passes when its labels match that map (an empty map matches all).
//
// Everything here depends on the pod and the cluster but not on the node
// being checked (upstream's FilterOutPods removes nothing from a consistent
// cache), so the selector is built once in Prepare. It depends on pods on
// other nodes, hence NodeLocal() is false. Upstream's "first" pod follows Go
// map order; we take the first in cache order, preferring pods on known nodes.
#include <fmt/format.h>

#include <algorithm>

#include "labels/selector.h"
#include "predicates/factories.h"

namespace ksched {
namespace {

struct ServiceAffinityState : PredicateState {
  labels::Selector selector;

  // Copies (CopyState) that hear of pods added and removed keep upstream's
  // list of matching pods instead, and build the selector per node.
  bool copy = false;
  const ClusterState* cluster = nullptr;
  Labels node_selector_values;  // the listed labels the pod's nodeSelector gives
  bool look_up = false;         // some listed label is unset and a service selects the pod
  std::vector<PodId> matching;  // pods in the pod's namespace matching its labels, in order
};

// GetPodServices of the informer lister: services of the pod's namespace with
// a non-nil selector that the pod's labels satisfy (compared as given, without
// validation; an empty selector selects every pod).
bool PodBelongsToAService(const Pod& pod, const ClusterState& cluster) {
  for (const Service& svc : cluster.services()) {
    // A non-empty selector is present whatever has_selector says.
    bool has_selector = svc.has_selector || !svc.selector.empty();
    if (svc.meta.ns != pod.meta.ns || !has_selector) continue;
    if (pod.meta.labels.ContainsAll(svc.selector)) return true;
  }
  return false;
}

class ServiceAffinity : public Predicate {
 public:
  explicit ServiceAffinity(std::vector<std::string> labels)
      : reason_(Intern("node(s) didn't match service affinity")) {
    for (const std::string& l : labels) keys_.push_back(Intern(l));
  }

  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    const Pod& p = pod.pod();
    Labels affinity;
    for (StrId key : keys_) {
      if (auto v = p.spec.node_selector.Get(key)) affinity.Set(key, *v);
    }
    // Upstream compares the length of the label list (duplicates included)
    // with the size of the map.
    if (keys_.size() > affinity.size() && PodBelongsToAService(p, cluster)) {
      Result<const Node*> first = FirstMatchingPodNode(p, cluster);
      if (!first.ok()) return first.error();
      if (const Node* node = *first) {
        for (StrId key : keys_) {
          if (affinity.Has(key)) continue;
          if (auto v = node->meta.labels.Get(key)) affinity.Set(key, *v);
        }
      }
    }
    auto state = std::make_unique<ServiceAffinityState>();
    state->selector = labels::FromSet(affinity);
    state->cluster = &cluster;
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const ServiceAffinityState&>(*state);
    if (s.copy ? CopySelector(s, node).Matches(node.labels()) : s.selector.Matches(node.labels())) {
      return true;
    }
    reasons->Add(reason_);
    return false;
  }

  std::unique_ptr<PredicateState> CopyState(const PodToSchedule& pod,
                                            const PredicateState* state) const override {
    const auto& s = static_cast<const ServiceAffinityState&>(*state);
    auto c = std::make_unique<ServiceAffinityState>(s);
    if (s.copy) return c;
    const Pod& p = pod.pod();
    c->copy = true;
    for (StrId key : keys_) {
      if (auto v = p.spec.node_selector.Get(key)) c->node_selector_values.Set(key, *v);
    }
    c->look_up =
        keys_.size() > c->node_selector_values.size() && PodBelongsToAService(p, *c->cluster);
    if (c->look_up) {
      labels::Selector selector = labels::FromSet(p.meta.labels);
      for (PodId id = 0; id < c->cluster->num_pods(); ++id) {
        const PodInfo& other = c->cluster->pod(id);
        if (other.live && other.pod.meta.ns == p.meta.ns &&
            selector.Matches(other.pod.meta.labels)) {
          c->matching.push_back(id);
        }
      }
    }
    return c;
  }

  void AddPod(const PodToSchedule& pod, PredicateState* state, PodId added,
              const NodeInfo& node) const override {
    (void)node;
    auto& s = static_cast<ServiceAffinityState&>(*state);
    const Pod& other = s.cluster->pod(added).pod;
    if (s.look_up && other.meta.ns == pod.pod().meta.ns &&
        labels::FromSet(pod.pod().meta.labels).Matches(other.meta.labels)) {
      s.matching.push_back(added);
    }
  }

  void RemovePod(const PodToSchedule& pod, PredicateState* state, PodId removed) const override {
    (void)pod;
    auto& s = static_cast<ServiceAffinityState&>(*state);
    auto it = std::find(s.matching.begin(), s.matching.end(), removed);
    if (it != s.matching.end()) s.matching.erase(it);
  }

  bool NodeLocal() const override { return false; }

 private:
  // The node of the first pod in `pod`'s namespace whose labels include all of
  // `pod`'s labels; nullptr when there is no such pod. Upstream looks the node
  // up by name and fails the cycle when it does not exist; that can only
  // happen here when every such pod names an unknown node.
  static Result<const Node*> FirstMatchingPodNode(const Pod& pod, const ClusterState& cluster) {
    // labels.SelectorFromSet, with its quirk: invalid labels select everything.
    labels::Selector selector = labels::FromSet(pod.meta.labels);
    const PodInfo* unknown = nullptr;
    for (PodId id = 0; id < cluster.num_pods(); ++id) {
      const PodInfo& other = cluster.pod(id);
      if (!other.live) continue;
      if (other.pod.meta.ns != pod.meta.ns || !selector.Matches(other.pod.meta.labels)) continue;
      if (other.node != kNoNode) return &cluster.node(other.node);
      if (unknown == nullptr) unknown = &other;
    }
    if (unknown != nullptr) {
      return MakeError(fmt::format("node \"{}\" not found", unknown->pod.spec.node_name));
    }
    return static_cast<const Node*>(nullptr);
  }

  // A copy's selector for `node`: the first matching pod that still runs
  // (upstream's FilterOutPods drops pods taken off this node) and whose node
  // is known lends the labels the pod's nodeSelector leaves unset. A pod not
  // bound anywhere yet (a nominated one) is passed over: upstream would fail
  // the cycle looking its node up.
  labels::Selector CopySelector(const ServiceAffinityState& s, const NodeInfo& node) const {
    Labels affinity = s.node_selector_values;
    if (s.look_up) {
      for (PodId id : s.matching) {
        const PodInfo& other = s.cluster->pod(id);
        if (other.node == node.id &&
            std::find(node.pods.begin(), node.pods.end(), id) == node.pods.end()) {
          continue;
        }
        if (other.node >= s.cluster->num_nodes()) continue;
        const Labels& labels = s.cluster->node(other.node).meta.labels;
        for (StrId key : keys_) {
          if (affinity.Has(key)) continue;
          if (auto v = labels.Get(key)) affinity.Set(key, *v);
        }
        break;
      }
    }
    return labels::FromSet(affinity);
  }

  std::vector<StrId> keys_;
  ReasonId reason_;
};

}  // namespace

std::unique_ptr<Predicate> NewServiceAffinityPredicate(std::vector<std::string> labels) {
  return std::make_unique<ServiceAffinity>(std::move(labels));
}

}  // namespace ksched
