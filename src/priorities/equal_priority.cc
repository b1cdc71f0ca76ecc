// EqualPriority: every node scores 1 (upstream's EqualPriorityMap).
#include "priorities/factories.h"

namespace ksched {
namespace {

class EqualPriority final : public Priority {
 public:
  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    (void)pod;
    (void)state;
    (void)cluster;
    (void)node;
    return 1;
  }
};

}  // namespace

std::unique_ptr<Priority> NewEqualPriority() { return std::make_unique<EqualPriority>(); }

}  // namespace ksched
