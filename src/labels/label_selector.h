// metav1.LabelSelector -> compiled Selector (metav1.LabelSelectorAsSelector).
//
// Used for pod (anti-)affinity terms, PVC selectors and workload selectors.
// The distinction between a missing selector and an empty one matters:
// upstream treats nil as "select nothing" and {} as "select everything".
#pragma once

#include <optional>

#include "api/types.h"
#include "labels/selector.h"
#include "util/result.h"

namespace ksched::labels {

// nullptr -> Nothing(); no matchLabels and no matchExpressions ->
// Everything(); otherwise matchLabels become "=" requirements and
// matchExpressions In/NotIn/Exists/DoesNotExist requirements (any other
// operator, Gt/Lt included, is an error), all validated by Requirement::Make.
// matchLabels with a repeated key keep the last value, as JSON decoding of a
// map would.
Result<Selector> FromLabelSelector(const LabelSelector* ls);

inline Result<Selector> FromLabelSelector(const std::optional<LabelSelector>& ls) {
  return FromLabelSelector(ls ? &*ls : nullptr);
}

}  // namespace ksched::labels
