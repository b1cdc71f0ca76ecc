// framework.FitError's message: why a pod fits no node, in kube-scheduler
// v1.26's words. Shared by the scheduling cycle (the error of a failed
// attempt) and preemption (its PostFilter message is itself a FitError).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "framework/interface.h"

namespace ksched::framework {


// "0/<num_all_nodes> nodes are available: " followed by the PreFilter
// message when there is one, else the histogram "<count> <reason>" of every
// reason in `statuses`, sorted as strings and joined by ", "; then ".", and
// the PostFilter message (" <msg>.") when there is one.
std::string FitErrorMessage(size_t num_all_nodes, std::string_view prefilter_msg,
                            const NodeToStatusMap& statuses, std::string_view postfilter_msg);

}  // namespace ksched::framework
