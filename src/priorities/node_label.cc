// NodeLabelPriority (Policy argument `labelPreference`): 10 on nodes where the
// label's presence (any value) is as configured, else 0. No reduce step.
#include "priorities/factories.h"

namespace ksched {
namespace {

class NodeLabelPriority final : public Priority {
 public:
  NodeLabelPriority(std::string_view label, bool presence)
      : label_(Intern(label)), presence_(presence) {}

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    (void)pod;
    (void)state;
    const bool exists = cluster.node_info(node).labels().Has(label_);
    return exists == presence_ ? kMaxPriority : 0;
  }

 private:
  StrId label_;
  bool presence_;
};

}  // namespace

std::unique_ptr<Priority> NewNodeLabelPriority(std::string label, bool presence) {
  return std::make_unique<NodeLabelPriority>(label, presence);
}

}  // namespace ksched
