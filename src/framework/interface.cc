#include "framework/interface.h"

namespace ksched::framework {

const std::vector<std::unique_ptr<SchedulerExtender>>& Handle::extenders() const {
  static const std::vector<std::unique_ptr<SchedulerExtender>> kNone;
  return kNone;
}

std::vector<ClusterEventWithHint> EnqueueExtensions::EventsToRegisterWithHints() const {
  std::vector<ClusterEventWithHint> out;
  for (ClusterEvent& e : EventsToRegister()) out.push_back({std::move(e), {}});
  return out;
}

}  // namespace ksched::framework
