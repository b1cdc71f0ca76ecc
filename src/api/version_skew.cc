#include "api/version_skew.h"

#include <fmt/format.h>

#include <algorithm>

namespace ksched {

const std::vector<SkewField>& SkewFields() {
  static const std::vector<SkewField> fields = {
      {"PodSpec", "topologySpreadConstraints", "topologySpreadConstraints", "1.16+",
       "which the v1.15 algorithm ignores", "", ""},
      {"PodSpec", "overhead", "pod overhead (spec.overhead)", "1.16+",
       "which v1.15 does not add to the pod's requests", "", ""},
      {"Container", "restartPolicy", "native sidecars (init containers with restartPolicy: Always)",
       "1.28+",
       "which v1.15 counts as ordinary init containers (their requests are not added to the "
       "containers')",
       "which v1.26 counts as ordinary init containers (their requests are not added to the "
       "containers')",
       ""},
      {"PodSpec", "schedulingGates", "schedulingGates", "1.26+",
       "which v1.15 ignores: the pods are scheduled as if ungated",
       "which v1.26 honours only with its alpha gate (--feature-gates "
       "PodSchedulingReadiness=true); without it the pods are scheduled as if ungated",
       ""},
      {"PodSpec", "resources", "pod-level resources (spec.resources)", "1.32+",
       "which v1.15 ignores: only containers' requests count",
       "which v1.26 ignores: only containers' requests count", ""},
      {"PodSpec", "resourceClaims", "resourceClaims (dynamic resource allocation)", "1.26+",
       "which the v1.15 algorithm ignores",
       "which v1.26 reads only with the alpha DynamicResources gate, a plugin ksched does not "
       "run: the claims are ignored",
       ""},
      {"PodAffinityTerm", "namespaceSelector", "pod affinity namespaceSelector", "1.21+",
       "which v1.15 ignores (it reads only namespaces)", "", ""},
      // v1.35's API server merges them into the labelSelector (stored pods
      // carry the merge; ksched merges them into the pods it creates).
      {"PodAffinityTerm", "matchLabelKeys", "pod affinity matchLabelKeys", "1.29+",
       "which the v1.15 algorithm ignores", "which v1.26 ignores", ""},
      {"PodAffinityTerm", "mismatchLabelKeys", "pod affinity mismatchLabelKeys", "1.29+",
       "which the v1.15 algorithm ignores", "which v1.26 ignores", ""},
      // Within topologySpreadConstraints (v1.15 ignores them as a whole).
      {"PodSpec", "topologySpreadConstraints", "topology spread minDomains", "1.24+", "",
       "which v1.26 honours only with its beta gate on (--feature-gates "
       "MinDomainsInPodTopologySpread=true); without it minDomains is ignored",
       "", "minDomains"},
      {"PodSpec", "topologySpreadConstraints", "topology spread matchLabelKeys", "1.25+", "",
       "which v1.26 honours only with its alpha gate (--feature-gates "
       "MatchLabelKeysInPodTopologySpread=true); without it the pods spread against every "
       "revision's pods",
       "", "matchLabelKeys"},
  };
  return fields;
}

bool IsSkewField(std::string_view type, std::string_view field) {
  for (const SkewField& f : SkewFields())
    if (f.type == type && f.field == field) return true;
  return false;
}

namespace {

// Whether some constraint of the topologySpreadConstraints array `value`
// sets `field` to something (not null, not an empty list).
bool SomeConstraintSets(simdjson::dom::element value, std::string_view field) {
  simdjson::dom::array arr;
  if (value.get(arr) != simdjson::SUCCESS) return false;
  for (simdjson::dom::element c : arr) {
    simdjson::dom::element v;
    if (c[field].get(v) != simdjson::SUCCESS || v.is_null()) continue;
    if (simdjson::dom::array a; v.get(a) == simdjson::SUCCESS && a.size() == 0) continue;
    return true;
  }
  return false;
}

}  // namespace

std::vector<int> SkewIndices(const FoundField& f) {
  std::vector<int> out;
  simdjson::dom::element value = f.value;
  if (f.what != FieldFinding::What::kNewer || value.is_null()) return out;
  const std::vector<SkewField>& table = SkewFields();
  for (size_t i = 0; i < table.size(); ++i) {
    if (table[i].type != f.parent_type || table[i].field != f.field) continue;
    if (f.field == "restartPolicy") {
      // Only init containers can be sidecars, and only with Always.
      std::string_view v;
      if (f.parent.rfind("spec.initContainers[", 0) != 0) return out;
      if (value.get(v) != simdjson::SUCCESS || v != "Always") return out;
    } else if (simdjson::dom::array arr; value.get(arr) == simdjson::SUCCESS && arr.size() == 0) {
      return out;  // an empty list asks for nothing
    } else if (simdjson::dom::object obj; value.get(obj) == simdjson::SUCCESS && obj.size() == 0 &&
                                          f.field != "namespaceSelector") {
      return out;  // (an empty namespaceSelector selects every namespace)
    }
    if (!table[i].sub_field.empty() && !SomeConstraintSets(value, table[i].sub_field)) continue;
    out.push_back(static_cast<int>(i));
  }
  return out;
}

void SkewReport::Add(int skew_index, const std::string& object) {
  if (skew_index < 0) return;
  std::vector<std::string>& users = users_[skew_index];
  std::vector<int>& used = by_object_[object];
  if (std::find(used.begin(), used.end(), skew_index) != used.end()) return;
  used.push_back(skew_index);
  users.push_back(object);
}

std::vector<std::string> SkewReport::Lines() const {
  std::vector<std::string> out;
  for (const auto& [index, users] : users_) {
    const SkewField& f = SkewFields()[index];
    if (Consequence(f).empty()) continue;
    std::string what = fmt::format("{} (Kubernetes {}), {}", f.name, f.since, Consequence(f));
    if (users.size() == 1) {
      out.push_back(fmt::format("pod {} uses {}", users[0], what));
      continue;
    }
    constexpr size_t kShown = 3;
    std::string examples;
    for (size_t i = 0; i < std::min(users.size(), kShown); ++i)
      examples += (i ? ", " : "") + users[i];
    if (users.size() <= kShown) {
      out.push_back(fmt::format("pods {} use {}", examples, what));
    } else {
      out.push_back(fmt::format("{} pods use {}; e.g. {}", users.size(), what, examples));
    }
  }
  return out;
}

std::vector<std::string> SkewReport::LinesFor(const std::string& object) const {
  std::vector<std::string> out;
  auto it = by_object_.find(object);
  if (it == by_object_.end()) return out;
  std::vector<int> used = it->second;
  std::sort(used.begin(), used.end());
  for (int index : used) {
    const SkewField& f = SkewFields()[index];
    if (Consequence(f).empty()) continue;
    out.push_back(fmt::format("uses {} (Kubernetes {}), {}", f.name, f.since, Consequence(f)));
  }
  return out;
}

}  // namespace ksched
