// Toleration matching, shared by the taint predicates and TaintTolerationPriority.
//
// Follows core/v1 Toleration.ToleratesTaint: an empty toleration effect matches
// every effect, an empty key matches every key (meaningful with Exists), the
// operator "" means Equal, and an unknown operator never matches.
#pragma once

#include <vector>

#include "api/types.h"

namespace ksched {

// True when `toleration` tolerates `taint`.
bool ToleratesTaint(const Toleration& toleration, const Taint& taint);

// True when any of `tolerations` tolerates `taint`.
bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations, const Taint& taint);

}  // namespace ksched
