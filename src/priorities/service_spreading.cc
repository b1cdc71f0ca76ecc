// ServiceSpreadingPriority: the v1.0 name kept for Policy files.
//
// Upstream registers it as SelectorSpread built with empty RC/RS/StatefulSet
// listers, which suggests "services only". But those listers are consulted
// only when no priority metadata is passed, and the scheduler always passes
// metadata whose selectors were gathered with the real listers (services,
// RCs, ReplicaSets and StatefulSets). So in v1.15 it scores exactly like
// SelectorSpreadPriority; the conformance vectors agree (a services-only
// variant disagrees with 24 of the 196 scored steps that use it).
#include "priorities/factories.h"

namespace ksched {

std::unique_ptr<Priority> NewServiceSpreadingPriority() { return NewSelectorSpreadPriority(); }

}  // namespace ksched
