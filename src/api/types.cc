#include "api/types.h"

namespace ksched {

std::string ResourceQuantity::String() const {
  if (milli == INT64_MAX) return Quantity::FromScaled(value, 0, format).String();
  return Quantity::FromScaled(milli, -3, format).String();
}

Labels::Labels(std::vector<Pair> pairs) {
  // Stable sort keeps input order among equal keys; the last one wins.
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Pair& a, const Pair& b) { return a.first < b.first; });
  pairs_.reserve(pairs.size());
  for (const Pair& p : pairs) {
    if (!pairs_.empty() && pairs_.back().first == p.first) {
      pairs_.back().second = p.second;
    } else {
      pairs_.push_back(p);
    }
  }
}

void Labels::Set(StrId key, StrId value) {
  auto it = std::lower_bound(pairs_.begin(), pairs_.end(), key,
                             [](const Pair& p, StrId k) { return p.first < k; });
  if (it != pairs_.end() && it->first == key) {
    it->second = value;
  } else {
    pairs_.insert(it, Pair{key, value});
  }
}

bool Labels::ContainsAll(const Labels& subset) const {
  // Both sides are sorted by key: one merge pass.
  auto it = pairs_.begin();
  for (const Pair& p : subset.pairs_) {
    while (it != pairs_.end() && it->first < p.first) ++it;
    if (it == pairs_.end() || it->first != p.first || it->second != p.second) return false;
  }
  return true;
}

std::string Pod::Key() const {
  std::string key(Str(meta.ns));
  key += '/';
  key += meta.name;
  return key;
}

}  // namespace ksched
