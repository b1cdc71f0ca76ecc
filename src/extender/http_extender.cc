#include "extender/http_extender.h"

namespace ksched {

Result<std::vector<std::unique_ptr<SchedulerExtender>>> MakeHttpExtenders(
    const std::vector<ExtenderConfig>& configs) {
  std::vector<std::unique_ptr<SchedulerExtender>> out;
  if (!configs.empty()) return MakeError("scheduler extenders are not implemented yet");
  return out;
}

}  // namespace ksched
