#include "config/feature_gates.h"

#include <algorithm>

#include "util/go_quote.h"

namespace ksched::config {
namespace {

// The gates config::FeatureGates holds, by name.
struct GateField {
  std::string_view name;
  bool FeatureGates::*field;
};
constexpr GateField kGateFields[] = {
    {"CSIStorageCapacity", &FeatureGates::csi_storage_capacity},
    {"DynamicResourceAllocation", &FeatureGates::dynamic_resource_allocation},
    {"MatchLabelKeysInPodTopologySpread", &FeatureGates::match_label_keys_in_pod_topology_spread},
    {"MinDomainsInPodTopologySpread", &FeatureGates::min_domains_in_pod_topology_spread},
    {"NodeInclusionPolicyInPodTopologySpread",
     &FeatureGates::node_inclusion_policy_in_pod_topology_spread},
    {"PodDisruptionConditions", &FeatureGates::pod_disruption_conditions},
    {"PodSchedulingReadiness", &FeatureGates::pod_scheduling_readiness},
    {"ReadWriteOncePod", &FeatureGates::read_write_once_pod},
    {"VolumeCapacityPriority", &FeatureGates::volume_capacity_priority},
};

bool FeatureGates::*FieldOf(std::string_view name) {
  for (const GateField& g : kGateFields)
    if (g.name == name) return g.field;
  return nullptr;
}

constexpr std::string_view kAllAlpha = "AllAlpha";
constexpr std::string_view kAllBeta = "AllBeta";

std::string_view TrimSpace(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Go's strconv.ParseBool.
std::optional<bool> ParseGoBool(std::string_view v) {
  if (v == "1" || v == "t" || v == "T" || v == "TRUE" || v == "true" || v == "True") return true;
  if (v == "0" || v == "f" || v == "F" || v == "FALSE" || v == "false" || v == "False")
    return false;
  return std::nullopt;
}

std::string GoBool(bool b) { return b ? "true" : "false"; }

// Sets every alpha (beta) gate not in `explicit_names` to `value`: upstream's
// setUnsetAlphaGates / setUnsetBetaGates.
void SetUnset(PreRelease which, bool value, const std::vector<std::pair<std::string, bool>>& values,
              FeatureGates* gates) {
  for (const FeatureSpec& spec : KnownFeatureGates()) {
    if (spec.pre_release != which) continue;
    bool named = std::any_of(values.begin(), values.end(),
                             [&](const auto& kv) { return kv.first == spec.name; });
    if (named) continue;
    if (auto field = FieldOf(spec.name)) gates->*field = value;
  }
}

}  // namespace

const std::vector<FeatureSpec>& KnownFeatureGates() {
  static const std::vector<FeatureSpec> kGates = {
#include "config/feature_gates_table.inc"
  };
  return kGates;
}

const FeatureSpec* FindFeatureGate(std::string_view name) {
  const auto& gates = KnownFeatureGates();
  auto it = std::lower_bound(gates.begin(), gates.end(), name,
                             [](const FeatureSpec& s, std::string_view n) { return s.name < n; });
  if (it == gates.end() || it->name != name) return nullptr;
  return &*it;
}

Status SetFeatureGatesFromMap(const std::vector<std::pair<std::string, bool>>& values,
                              FeatureGates* gates) {
  // Checked first, applied after: upstream works on a copy and keeps it only
  // when every entry is valid.
  for (const auto& [name, value] : values) {
    if (name == kAllAlpha || name == kAllBeta) continue;
    const FeatureSpec* spec = FindFeatureGate(name);
    if (spec == nullptr) return MakeError("unrecognized feature gate: " + name);
    if (spec->lock_to_default && spec->default_value != value)
      return MakeError("cannot set feature gate " + name + " to " + GoBool(value) +
                       ", feature is locked to " + GoBool(spec->default_value));
  }
  FeatureGates next = *gates;
  for (const auto& [name, value] : values) {
    if (name == kAllAlpha) SetUnset(PreRelease::kAlpha, value, values, &next);
    if (name == kAllBeta) SetUnset(PreRelease::kBeta, value, values, &next);
  }
  for (const auto& [name, value] : values)
    if (auto field = FieldOf(name)) next.*field = value;
  *gates = next;
  return Status::Ok();
}

Status SetFeatureGates(std::string_view spec, FeatureGates* gates) {
  std::vector<std::pair<std::string, bool>> values;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    std::string_view item = spec.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string key(TrimSpace(item.substr(0, eq)));
    if (eq == std::string_view::npos) return MakeError("missing bool value for " + key);
    std::string_view v = TrimSpace(item.substr(eq + 1));
    std::optional<bool> b = ParseGoBool(v);
    if (!b)
      return MakeError("invalid value of " + key + "=" + std::string(v) +
                       ", err: strconv.ParseBool: parsing " + GoQuote(v) + ": invalid syntax");
    // A later item for the same gate replaces an earlier one (upstream's map).
    auto it =
        std::find_if(values.begin(), values.end(), [&](const auto& kv) { return kv.first == key; });
    if (it != values.end())
      it->second = *b;
    else
      values.emplace_back(std::move(key), *b);
  }
  return SetFeatureGatesFromMap(values, gates);
}

Result<FeatureGates> ParseFeatureGates(std::string_view spec) {
  FeatureGates gates;
  Status s = SetFeatureGates(spec, &gates);
  if (!s.ok()) return s.error();
  return gates;
}

std::optional<bool> FeatureGateEnabled(const FeatureGates& gates, std::string_view name) {
  if (auto field = FieldOf(name)) return gates.*field;
  if (const FeatureSpec* spec = FindFeatureGate(name)) return spec->default_value;
  return std::nullopt;
}

}  // namespace ksched::config
