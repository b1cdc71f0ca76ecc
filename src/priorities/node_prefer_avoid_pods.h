// Decoding of the node annotation scheduler.alpha.kubernetes.io/preferAvoidPods,
// exposed for tests.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ksched {

inline constexpr std::string_view kPreferAvoidPodsAnnotation =
    "scheduler.alpha.kubernetes.io/preferAvoidPods";

// One preferAvoidPods entry's podSignature.podController.
struct AvoidedController {
  std::string kind;
  std::string uid;
};

// Decodes the annotation value as upstream's json.Unmarshal into v1.AvoidPods
// does, and returns the entries' controllers in order (entries without a
// podController are left out). nullopt when upstream's decoding fails: bad
// JSON, a value of the wrong type for a known field (fields are matched
// case-insensitively, as Go does), or an evictionTime that is not RFC 3339.
std::optional<std::vector<AvoidedController>> ParsePreferAvoidPods(std::string_view value);

}  // namespace ksched
