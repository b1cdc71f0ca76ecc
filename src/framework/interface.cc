#include "framework/interface.h"

namespace ksched::framework {

const std::vector<std::unique_ptr<SchedulerExtender>>& Handle::extenders() const {
  static const std::vector<std::unique_ptr<SchedulerExtender>> kNone;
  return kNone;
}

}  // namespace ksched::framework
