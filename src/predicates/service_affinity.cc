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

#include "labels/selector.h"
#include "predicates/factories.h"

namespace ksched {
namespace {

struct ServiceAffinityState : PredicateState {
  labels::Selector selector;
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
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    if (static_cast<const ServiceAffinityState&>(*state).selector.Matches(node.labels())) {
      return true;
    }
    reasons->Add(reason_);
    return false;
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
      if (other.pod.meta.ns != pod.meta.ns || !selector.Matches(other.pod.meta.labels)) continue;
      if (other.node != kNoNode) return &cluster.node(other.node);
      if (unknown == nullptr) unknown = &other;
    }
    if (unknown != nullptr) {
      return MakeError(fmt::format("node \"{}\" not found", unknown->pod.spec.node_name));
    }
    return static_cast<const Node*>(nullptr);
  }

  std::vector<StrId> keys_;
  ReasonId reason_;
};

}  // namespace

std::unique_ptr<Predicate> NewServiceAffinityPredicate(std::vector<std::string> labels) {
  return std::make_unique<ServiceAffinity>(std::move(labels));
}

}  // namespace ksched
