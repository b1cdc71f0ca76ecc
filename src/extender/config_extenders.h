// HTTP extenders from a KubeSchedulerConfiguration's `extenders` list: the
// same HttpExtender the v1.15 Policy's extenders use, with the v1 config's
// fields carried over one for one (the two APIs name them alike).
#pragma once

#include <memory>
#include <vector>

#include "algorithm/scheduler_extender.h"
#include "config/types.h"
#include "util/result.h"

namespace ksched {

// One extender per entry, in order; errors (TLS files, bad URLs) name the
// entry as HttpExtender::Create does.
Result<std::vector<std::unique_ptr<SchedulerExtender>>> MakeConfigExtenders(
    const std::vector<config::Extender>& extenders);

}  // namespace ksched
