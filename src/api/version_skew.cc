#include "api/version_skew.h"

#include <fmt/format.h>

#include <algorithm>

namespace ksched {

const std::vector<SkewField>& SkewFields() {
  static const std::vector<SkewField> fields = {
      {"PodSpec", "topologySpreadConstraints", "topologySpreadConstraints", "1.16+",
       "which the v1.15 algorithm ignores", ""},
      {"PodSpec", "overhead", "pod overhead (spec.overhead)", "1.16+",
       "which v1.15 does not add to the pod's requests", ""},
      {"Container", "restartPolicy", "native sidecars (init containers with restartPolicy: Always)",
       "1.28+",
       "which v1.15 counts as ordinary init containers (their requests are not added to the "
       "containers')",
       "which v1.26 counts as ordinary init containers (their requests are not added to the "
       "containers')"},
      {"PodSpec", "schedulingGates", "schedulingGates", "1.26+",
       "which v1.15 ignores: the pods are scheduled as if ungated",
       "which v1.26 honours only with its alpha gate (--feature-gates "
       "PodSchedulingReadiness=true); without it the pods are scheduled as if ungated"},
      {"PodSpec", "resources", "pod-level resources (spec.resources)", "1.32+",
       "which v1.15 ignores: only containers' requests count",
       "which v1.26 ignores: only containers' requests count"},
      {"PodSpec", "resourceClaims", "resourceClaims (dynamic resource allocation)", "1.26+",
       "which the v1.15 algorithm ignores",
       "which v1.26 reads only with the alpha DynamicResources gate, a plugin ksched does not "
       "run: the claims are ignored"},
      {"PodAffinityTerm", "namespaceSelector", "pod affinity namespaceSelector", "1.21+",
       "which v1.15 ignores (it reads only namespaces)", ""},
      {"PodAffinityTerm", "matchLabelKeys", "pod affinity matchLabelKeys", "1.29+",
       "which the v1.15 algorithm ignores", "which v1.26 ignores"},
      {"PodAffinityTerm", "mismatchLabelKeys", "pod affinity mismatchLabelKeys", "1.29+",
       "which the v1.15 algorithm ignores", "which v1.26 ignores"},
  };
  return fields;
}

bool IsSkewField(std::string_view type, std::string_view field) {
  for (const SkewField& f : SkewFields())
    if (f.type == type && f.field == field) return true;
  return false;
}

int SkewIndex(const FoundField& f) {
  simdjson::dom::element value = f.value;
  if (f.what != FieldFinding::What::kNewer) return -1;
  const std::vector<SkewField>& table = SkewFields();
  for (size_t i = 0; i < table.size(); ++i) {
    if (table[i].type != f.parent_type || table[i].field != f.field) continue;
    if (value.is_null()) return -1;
    if (f.field == "restartPolicy") {
      // Only init containers can be sidecars, and only with Always.
      std::string_view v;
      if (f.parent.rfind("spec.initContainers[", 0) != 0) return -1;
      if (value.get(v) != simdjson::SUCCESS || v != "Always") return -1;
    } else if (simdjson::dom::array arr; value.get(arr) == simdjson::SUCCESS && arr.size() == 0) {
      return -1;  // an empty list asks for nothing
    } else if (simdjson::dom::object obj; value.get(obj) == simdjson::SUCCESS && obj.size() == 0 &&
                                          f.field != "namespaceSelector") {
      return -1;  // (an empty namespaceSelector selects every namespace)
    }
    return static_cast<int>(i);
  }
  return -1;
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
