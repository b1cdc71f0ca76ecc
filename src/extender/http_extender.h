// Scheduler extenders over HTTP, called as upstream v1.15's HTTPExtender does.
#pragma once

#include <memory>
#include <vector>

#include "algorithm/policy.h"
#include "algorithm/scheduler_extender.h"
#include "util/result.h"

namespace ksched {

// Creates one HTTP extender per Policy entry.
Result<std::vector<std::unique_ptr<SchedulerExtender>>> MakeHttpExtenders(
    const std::vector<ExtenderConfig>& configs);

}  // namespace ksched
