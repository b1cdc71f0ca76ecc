// The order in which preemption considers victims: upstream's
// util.MoreImportantPod (higher priority first, then the earlier start), with
// the reference harness's rules where upstream leaves the order to chance.
#pragma once

#include "api/types.h"

namespace ksched {

// True when `a` is more important than `b`: higher spec.priority; then the
// earlier status.startTime (a pod without one counts as starting after every
// pod that has one; two without compare equal); then namespace, then name,
// byte-wise (upstream's sort is not stable, so its order there is arbitrary).
bool MoreImportantPod(const Pod& a, const Pod& b);

}  // namespace ksched
