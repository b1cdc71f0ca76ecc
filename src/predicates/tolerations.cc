#include "predicates/tolerations.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace ksched {
namespace {

// content.IsDecimalInteger then strconv.ParseInt(s, 10, 64): "0", or an
// optional '-' and a non-zero digit followed by digits, within int64.
std::optional<int64_t> DecimalInteger(std::string_view s) {
  const bool negative = !s.empty() && s.front() == '-';
  std::string_view digits = negative ? s.substr(1) : s;
  if (digits.empty()) return std::nullopt;
  if (digits.front() == '0') {
    if (s == "0") return 0;
    return std::nullopt;  // leading zeros, and "-0"
  }
  // Accumulated negatively so that int64's minimum parses.
  int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    const int d = c - '0';
    if (v < (INT64_MIN + d) / 10) return std::nullopt;
    v = v * 10 - d;
  }
  if (!negative) {
    if (v == INT64_MIN) return std::nullopt;
    v = -v;
  }
  return v;
}

bool ComparesTo(const Toleration& toleration, const Taint& taint) {
  const std::optional<int64_t> want = DecimalInteger(Str(toleration.value));
  if (!want) return false;
  const std::optional<int64_t> have = DecimalInteger(Str(taint.value));
  if (!have) return false;
  return toleration.op == "Lt" ? *have < *want : *have > *want;
}

}  // namespace

bool ToleratesTaint(const Toleration& toleration, const Taint& taint, bool comparison_operators) {
  // Effects are compared as parsed enums. Two different unknown effect strings
  // both parse to kOther; no filter or priority ever looks at such taints, so
  // treating them as equal cannot change a decision.
  if (toleration.effect != TaintEffect::kNone && toleration.effect != taint.effect) return false;
  if (toleration.key != kEmptyStr && toleration.key != taint.key) return false;
  if (toleration.op.empty() || toleration.op == "Equal") return toleration.value == taint.value;
  if (toleration.op == "Exists") return true;
  if (toleration.op == "Lt" || toleration.op == "Gt")
    return comparison_operators && ComparesTo(toleration, taint);
  return false;
}

bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations, const Taint& taint,
                              bool comparison_operators) {
  for (const Toleration& t : tolerations) {
    if (ToleratesTaint(t, taint, comparison_operators)) return true;
  }
  return false;
}

TolerationIndex::TolerationIndex(std::span<const Toleration> tolerations) {
  entries_.reserve(tolerations.size());
  for (const Toleration& t : tolerations) {
    if (t.op == "Exists") {
      entries_.push_back(Entry{t.key, t.effect, true, kEmptyStr});
    } else if (t.op.empty() || t.op == "Equal") {
      entries_.push_back(Entry{t.key, t.effect, false, t.value});
    }  // an unknown operator tolerates nothing
  }
  std::sort(entries_.begin(), entries_.end());
  entries_.erase(std::unique(entries_.begin(), entries_.end()), entries_.end());
}

bool TolerationIndex::Tolerates(const Taint& taint) const {
  // A toleration matches when its key is the taint's or empty, its effect the
  // taint's or none, and it is Exists or Equal with the taint's value.
  for (StrId key : {taint.key, kEmptyStr}) {
    for (TaintEffect effect : {taint.effect, TaintEffect::kNone}) {
      if (std::binary_search(entries_.begin(), entries_.end(),
                             Entry{key, effect, true, kEmptyStr}) ||
          std::binary_search(entries_.begin(), entries_.end(),
                             Entry{key, effect, false, taint.value})) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace ksched
