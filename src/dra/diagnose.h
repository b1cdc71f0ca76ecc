// Why the structured allocator found no devices for a pod's claims on a
// node, for people (--explain): the request, and the class or request
// selector that no device of the node satisfies, the devices already
// allocated (and to which claims), or the constraint no combination meets.
// Runs only in reports, after the decision, on the same state.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "api/types.h"
#include "dra/allocator.h"
#include "dra/slice_index.h"

namespace ksched::dra {

struct Finding {
  std::string claim;    // "namespace/name"
  std::string request;  // "gpu", or "gpu/a100" for a firstAvailable entry; "" for the node
  // noDevices, classSelector, requestSelector, allocated, count, constraint, error
  std::string kind;
  std::string selector;              // the CEL expression of a selector finding
  int needed = 0;                    // devices the request asks for
  int matching = 0;                  // devices of the node its class and selectors accept
  int free = 0;                      // of those, not allocated
  std::vector<std::string> holders;  // claims holding the matching devices
  std::string message;               // one line
};

// The findings for `claims` (the pod's unallocated ones) on `node`; for a
// firstAvailable request, those of each alternative. `allocator` gives the
// devices allocated when the cycle began and the features.
std::vector<Finding> DiagnoseNode(const SliceIndex& index, const Allocator& allocator,
                                  cel::SelectorCache* cache, const Node& node,
                                  std::span<const ResourceClaim* const> claims);

}  // namespace ksched::dra
