// serviceAntiAffinity (Policy argument {label}): spread the pods of a service
// across the values of one node label.
//
// Only the pod's first service counts (upstream takes element 0 of the lister
// result, whose order is the informer's; we take cluster order, which the
// conformance vectors agree with). Map counts that service's pods on a node,
// as SelectorSpread does. Reduce sums the counts per label value over the
// scored nodes and gives 10 * (total - count(value)) / total in float64;
// nodes without the label get 0, and every labelled node gets 10 when the
// service has no pods on the scored nodes.
#include <unordered_map>

#include "priorities/factories.h"
#include "priorities/selector_spreading.h"

namespace ksched {
namespace {

struct ServiceAntiAffinityState : PriorityState {
  bool has_service = false;
  labels::Selector selector;  // the first service's, via SelectorFromSet
};

class ServiceAntiAffinity : public Priority {
 public:
  explicit ServiceAntiAffinity(std::string label) : label_(Intern(label)) {}

  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override {
    auto state = std::make_unique<ServiceAntiAffinityState>();
    std::vector<const Service*> services = spreading::PodServices(pod.pod(), cluster);
    if (!services.empty()) {
      state->has_service = true;
      state->selector = labels::FromSet(services.front()->selector);
    }
    return state;
  }

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    const auto& s = static_cast<const ServiceAntiAffinityState&>(*state);
    if (!s.has_service) return 0;
    return spreading::CountMatchingPods(pod.pod().meta.ns, std::span(&s.selector, 1), cluster,
                                        cluster.node_info(node));
  }

  ReduceShape Shape() const override { return ReduceShape::kOther; }

  void Reduce(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              std::span<const NodeId> nodes, std::span<int64_t> scores) const override {
    (void)pod;
    (void)state;
    constexpr double kMax = static_cast<double>(kMaxPriority);
    int64_t total = 0;
    std::unordered_map<StrId, int64_t> count_by_value;
    for (size_t i = 0; i < nodes.size(); ++i) {
      total += scores[i];
      if (auto v = cluster.node(nodes[i]).meta.labels.Get(label_)) count_by_value[*v] += scores[i];
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
      std::optional<StrId> v = cluster.node(nodes[i]).meta.labels.Get(label_);
      if (!v) {
        scores[i] = 0;
        continue;
      }
      double f = kMax;
      if (total > 0) {
        f = kMax * (static_cast<double>(total - count_by_value[*v]) / static_cast<double>(total));
      }
      scores[i] = static_cast<int64_t>(f);  // truncates toward zero, like Go's int()
    }
  }

 private:
  StrId label_;
};

}  // namespace

std::unique_ptr<Priority> NewServiceAntiAffinityPriority(std::string label) {
  return std::make_unique<ServiceAntiAffinity>(std::move(label));
}

}  // namespace ksched
