// One field of an object that a Kubernetes v1.15 API server does not know
// (api/unknown_fields.h finds them): where it is and whether it is a typo or
// a later release's field. Kept apart from the finder so that ObjectSet
// (api/object_set.h), which every layer includes, does not pull in the JSON
// parser's header.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ksched {

struct FieldFinding {
  enum class What : uint8_t { kUnknown, kNewer };
  What what = What::kUnknown;
  // Path of the object holding the field, from the object's root, as kubectl
  // prints it: "spec", "spec.containers[0].resources" ("" for the root).
  std::string parent;
  // The API type of that object ("PodSpec", "Container"; static storage),
  // and the field.
  std::string_view parent_type;
  std::string field;

  // `unknown field "affinty" in Pod.spec` (`kind` names the root).
  std::string Message(std::string_view kind) const;
  // "spec.containers[0].restartPolicy"
  std::string Path() const;
};

}  // namespace ksched
