// Toleration matching, shared by the taint predicates and TaintTolerationPriority.
//
// Follows core/v1 Toleration.ToleratesTaint: an empty toleration effect matches
// every effect, an empty key matches every key (meaningful with Exists), the
// operator "" means Equal, and an unknown operator never matches.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "api/types.h"

namespace ksched {

// True when `toleration` tolerates `taint`. `comparison_operators`
// (v1.35's TaintTolerationComparisonOperators, alpha): the operators Lt and
// Gt compare the taint's value with the toleration's as decimal integers
// (both must be ones: "0" or an optional '-' and a digit 1-9 then digits,
// within int64), Lt tolerating a smaller taint value, Gt a larger one.
// Without it they tolerate nothing.
bool ToleratesTaint(const Toleration& toleration, const Taint& taint,
                    bool comparison_operators = false);

// True when any of `tolerations` tolerates `taint`.
bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations, const Taint& taint,
                              bool comparison_operators = false);

// A long list of tolerations, indexed to be asked about many taints.
//
// TolerationsTolerateTaint scans the list for each taint, so thousands of
// tolerations against thousands of taints cost their product. The index keeps
// the tolerations sorted by (key, effect, operator, value): a taint then costs
// at most eight binary searches. Callers build one only for lists of
// kIndexFrom or more, where it pays for itself; it holds its own copy of
// what it needs.
class TolerationIndex {
 public:
  static constexpr size_t kIndexFrom = 16;

  explicit TolerationIndex(std::span<const Toleration> tolerations);

  // The same answer as TolerationsTolerateTaint on the list it was built from.
  bool Tolerates(const Taint& taint) const;

 private:
  struct Entry {
    StrId key;
    TaintEffect effect;
    bool exists;  // operator Exists; otherwise Equal (or ""), matched on value
    StrId value;  // kEmptyStr for Exists
    auto operator<=>(const Entry&) const = default;
  };

  std::vector<Entry> entries_;
};

}  // namespace ksched
