// Numbers the interned values of a label (a topology key's values on the
// nodes) 0, 1, 2... in order of first appearance, with lookups by StrId
// from a flat table instead of a hash map: building a hostname index
// numbers one value per node, thousands of them.
#pragma once

#include <cstdint>
#include <vector>

#include "api/intern.h"

namespace ksched::framework::helper {

class ValueNumbering {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  // The number of `v`, given the next one when `v` is new.
  uint32_t Number(StrId v) {
    if (v >= number_of_.size()) number_of_.resize(static_cast<size_t>(v) + 1, kNone);
    uint32_t& n = number_of_[v];
    if (n == kNone) {
      n = static_cast<uint32_t>(values_.size());
      values_.push_back(v);
    }
    return n;
  }
  // The number of `v`, kNone when it was never numbered.
  uint32_t Find(StrId v) const { return v < number_of_.size() ? number_of_[v] : kNone; }
  // The values by number.
  const std::vector<StrId>& values() const { return values_; }

 private:
  std::vector<uint32_t> number_of_;  // by StrId
  std::vector<StrId> values_;
};

}  // namespace ksched::framework::helper
