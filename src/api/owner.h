// Owner references of the objects ksched reads.
#pragma once

#include "api/types.h"

namespace ksched {

// metav1.GetControllerOf: the first owner reference marked as controller, or
// nullptr (planning and PodTopologySpread's default constraints read it).
inline const OwnerReference* ControllerOf(const Pod& pod) {
  for (const OwnerReference& ref : pod.meta.owner_references)
    if (ref.controller) return &ref;
  return nullptr;
}

}  // namespace ksched
