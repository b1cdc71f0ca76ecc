#include "predicates/tolerations.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

namespace ksched {
namespace {

// content.IsDecimalInteger then strconv.ParseInt(s, 10, 64): an optional
// '-', no leading zeros (but "0"), digits only, within int64.
std::optional<int64_t> ParseDecimalInt64(std::string_view s) {
  size_t i = s.starts_with('-') ? 1 : 0;
  if (i >= s.size()) return std::nullopt;
  if (s[i] == '0' && s.size() != 1) return std::nullopt;  // "-0", "01"
  for (size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

bool ToleratesTaint(const Toleration& toleration, const Taint& taint) {
  // Effects are compared as parsed enums. Two different unknown effect strings
  // both parse to kOther; no filter or priority ever looks at such taints, so
  // treating them as equal cannot change a decision.
  if (toleration.effect != TaintEffect::kNone && toleration.effect != taint.effect) return false;
  if (toleration.key != kEmptyStr && toleration.key != taint.key) return false;
  if (toleration.op.empty() || toleration.op == "Equal") return toleration.value == taint.value;
  if (toleration.op == "Exists") return true;
  return false;
}

bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const Toleration& t : tolerations) {
    if (ToleratesTaint(t, taint)) return true;
  }
  return false;
}

bool ToleratesTaint(const Toleration& toleration, const Taint& taint, bool comparison_operators) {
  const bool lt = toleration.op == "Lt";
  if (!comparison_operators || (!lt && toleration.op != "Gt"))
    return ToleratesTaint(toleration, taint);
  if (toleration.effect != TaintEffect::kNone && toleration.effect != taint.effect) return false;
  if (toleration.key != kEmptyStr && toleration.key != taint.key) return false;
  const std::optional<int64_t> want = ParseDecimalInt64(Str(toleration.value));
  if (!want) return false;
  const std::optional<int64_t> have = ParseDecimalInt64(Str(taint.value));
  if (!have) return false;
  return lt ? *have < *want : *have > *want;
}

bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations, const Taint& taint,
                              bool comparison_operators) {
  if (!comparison_operators) return TolerationsTolerateTaint(tolerations, taint);
  for (const Toleration& t : tolerations) {
    if (ToleratesTaint(t, taint, true)) return true;
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
