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
    {"ContainerRestartRules", &FeatureGates::container_restart_rules},
    {"DRAAdminAccess", &FeatureGates::dra_admin_access},
    {"DRAConsumableCapacity", &FeatureGates::dra_consumable_capacity},
    {"DRADeviceBindingConditions", &FeatureGates::dra_device_binding_conditions},
    {"DRADeviceTaintRules", &FeatureGates::dra_device_taint_rules},
    {"DRADeviceTaints", &FeatureGates::dra_device_taints},
    {"DRAExtendedResource", &FeatureGates::dra_extended_resource},
    {"DRAPartitionableDevices", &FeatureGates::dra_partitionable_devices},
    {"DRAPrioritizedList", &FeatureGates::dra_prioritized_list},
    {"DRAResourceClaimDeviceStatus", &FeatureGates::dra_resource_claim_device_status},
    {"DRASchedulerFilterTimeout", &FeatureGates::dra_scheduler_filter_timeout},
    {"DynamicResourceAllocation", &FeatureGates::dynamic_resource_allocation},
    {"GangScheduling", &FeatureGates::gang_scheduling},
    {"GenericWorkload", &FeatureGates::generic_workload},
    {"InPlacePodVerticalScaling", &FeatureGates::in_place_pod_vertical_scaling},
    {"MatchLabelKeysInPodAffinity", &FeatureGates::match_label_keys_in_pod_affinity},
    {"MatchLabelKeysInPodTopologySpread", &FeatureGates::match_label_keys_in_pod_topology_spread},
    {"MatchLabelKeysInPodTopologySpreadSelectorMerge",
     &FeatureGates::match_label_keys_in_pod_topology_spread_selector_merge},
    {"MinDomainsInPodTopologySpread", &FeatureGates::min_domains_in_pod_topology_spread},
    {"NodeDeclaredFeatures", &FeatureGates::node_declared_features},
    {"NodeInclusionPolicyInPodTopologySpread",
     &FeatureGates::node_inclusion_policy_in_pod_topology_spread},
    {"NominatedNodeNameForExpectation", &FeatureGates::nominated_node_name_for_expectation},
    {"OpportunisticBatching", &FeatureGates::opportunistic_batching},
    {"PodDisruptionConditions", &FeatureGates::pod_disruption_conditions},
    {"PodLevelResources", &FeatureGates::pod_level_resources},
    {"PodSchedulingReadiness", &FeatureGates::pod_scheduling_readiness},
    {"ReadWriteOncePod", &FeatureGates::read_write_once_pod},
    {"SchedulerAsyncAPICalls", &FeatureGates::scheduler_async_api_calls},
    {"SchedulerAsyncPreemption", &FeatureGates::scheduler_async_preemption},
    {"SchedulerPopFromBackoffQ", &FeatureGates::scheduler_pop_from_backoff_q},
    {"SchedulerQueueingHints", &FeatureGates::scheduler_queueing_hints},
    {"SidecarContainers", &FeatureGates::sidecar_containers},
    {"StorageCapacityScoring", &FeatureGates::storage_capacity_scoring},
    {"TaintTolerationComparisonOperators", &FeatureGates::taint_toleration_comparison_operators},
    {"VolumeAttributesClass", &FeatureGates::volume_attributes_class},
    {"VolumeCapacityPriority", &FeatureGates::volume_capacity_priority},
    {"VolumeLimitScaling", &FeatureGates::volume_limit_scaling},
};

// Gates v1.35 no longer knows that v1.26 had, removed after graduating, with
// the value each was locked to: accepted at that value and ignored (a v1.26
// configuration or scenario still loads); other values are refused.
struct RemovedGate {
  std::string_view name;
  bool locked;
};
constexpr RemovedGate kRemovedInV135[] = {
    {"AdvancedAuditing", true},
    {"CPUManager", true},
    {"CSIInlineVolume", true},
    {"CSIMigration", true},
    {"CSIMigrationAWS", true},
    {"CSIMigrationAzureDisk", true},
    {"CSIMigrationAzureFile", true},
    {"CSIMigrationGCE", true},
    {"CSIMigrationvSphere", true},
    {"CSIStorageCapacity", true},
    {"ConsistentHTTPGetHandlers", true},
    {"ControllerManagerLeaderMigration", true},
    {"DaemonSetUpdateSurge", true},
    {"DelegateFSGroupToCSIDriver", true},
    {"DevicePlugins", true},
    {"DisableAcceleratorUsageMetrics", true},
    {"DownwardAPIHugePages", true},
    {"DryRun", true},
    {"EndpointSliceTerminatingCondition", true},
    {"EphemeralContainers", true},
    {"ExpandCSIVolumes", true},
    {"ExpandInUsePersistentVolumes", true},
    {"ExpandPersistentVolumes", true},
    {"IdentifyPodOS", true},
    {"JobTrackingWithFinalizers", true},
    {"KubeletCredentialProviders", true},
    {"LegacyServiceAccountTokenNoAutoGeneration", true},
    {"LocalStorageCapacityIsolation", true},
    {"MinDomainsInPodTopologySpread", true},
    {"MixedProtocolLBService", true},
    {"NetworkPolicyEndPort", true},
    {"PodDisruptionConditions", true},
    {"PodSecurity", true},
    {"ProbeTerminationGracePeriod", true},
    {"ReadWriteOncePod", true},
    {"RetroactiveDefaultStorageClass", true},
    {"ServerSideApply", true},
    {"ServiceIPStaticSubrange", true},
    {"ServiceInternalTrafficPolicy", true},
    {"StatefulSetAutoDeletePVC", true},
    {"StatefulSetMinReadySeconds", true},
    {"WindowsHostProcessContainers", true},
};

const RemovedGate* FindRemoved(std::string_view name, SchedulerVersion version) {
  if (version < SchedulerVersion::kV135) return nullptr;
  for (const RemovedGate& g : kRemovedInV135)
    if (g.name == name) return &g;
  return nullptr;
}

struct GateDependency {
  std::string_view gate;
  std::string_view depends_on;
};

const std::vector<FeatureSpec>& V126Gates() {
  static const std::vector<FeatureSpec> kGates = {
#define KSCHED_GATE(name, def, pre, lock) {name, def, PreRelease::pre, lock},
#include "config/feature_gates_v126.inc"
#undef KSCHED_GATE
  };
  return kGates;
}

// The gates component-base's logging registers (logsapi.AddFeatureGates,
// called by kube-scheduler's main package) at v1.35, which the generated
// table leaves out: its generator, like the reference harness, never links
// that package.
constexpr FeatureSpec kV135LoggingGates[] = {
    {"ContextualLogging", true, PreRelease::kBeta, false},
    {"LoggingAlphaOptions", false, PreRelease::kAlpha, false},
    {"LoggingBetaOptions", true, PreRelease::kBeta, false},
};

bool IsV135LoggingGate(std::string_view name) {
  return std::any_of(std::begin(kV135LoggingGates), std::end(kV135LoggingGates),
                     [&](const FeatureSpec& g) { return g.name == name; });
}

std::vector<FeatureSpec> SortedByName(std::vector<FeatureSpec> gates) {
  std::sort(gates.begin(), gates.end(),
            [](const FeatureSpec& a, const FeatureSpec& b) { return a.name < b.name; });
  return gates;
}

// kube-scheduler v1.35's gates: the generated table and the logging gates.
const std::vector<FeatureSpec>& V135Gates() {
  static const std::vector<FeatureSpec> kGates = SortedByName({
#define KSCHED_GATE(name, def, pre, lock) {name, def, PreRelease::pre, lock},
#include "config/feature_gates_v135.inc"
#undef KSCHED_GATE
      kV135LoggingGates[0],
      kV135LoggingGates[1],
      kV135LoggingGates[2],
  });
  return kGates;
}

// Sorted by gate, then dependency, as upstream lists them.
const std::vector<GateDependency>& Dependencies(SchedulerVersion version) {
  static const std::vector<GateDependency> kNone;
  static const std::vector<GateDependency> kV135 = {
#define KSCHED_GATE_DEP(name, dep) {name, dep},
#include "config/feature_gates_v135.inc"
#undef KSCHED_GATE_DEP
  };
  return version >= SchedulerVersion::kV135 ? kV135 : kNone;
}

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
  for (const FeatureSpec& spec : KnownFeatureGates(gates->version)) {
    if (spec.pre_release != which) continue;
    bool named = std::any_of(values.begin(), values.end(),
                             [&](const auto& kv) { return kv.first == spec.name; });
    if (named) continue;
    if (auto field = FieldOf(spec.name)) gates->*field = value;
  }
}

// The value AllAlpha or AllBeta in `values` gives a gate of maturity `pre`
// that is not named itself, if any.
std::optional<bool> FromAllGate(PreRelease pre,
                                const std::vector<std::pair<std::string, bool>>& values) {
  std::string_view all = pre == PreRelease::kAlpha  ? std::string_view("AllAlpha")
                         : pre == PreRelease::kBeta ? std::string_view("AllBeta")
                                                    : std::string_view();
  if (all.empty()) return std::nullopt;
  for (const auto& [n, v] : values)
    if (n == all) return v;
  return std::nullopt;
}

}  // namespace

const std::vector<FeatureSpec>& KnownFeatureGates(SchedulerVersion version) {
  return version >= SchedulerVersion::kV135 ? V135Gates() : V126Gates();
}

const FeatureSpec* FindFeatureGate(std::string_view name, SchedulerVersion version) {
  const auto& gates = KnownFeatureGates(version);
  auto it = std::lower_bound(gates.begin(), gates.end(), name,
                             [](const FeatureSpec& s, std::string_view n) { return s.name < n; });
  if (it == gates.end() || it->name != name) return nullptr;
  return &*it;
}

FeatureGates DefaultFeatureGates(SchedulerVersion version) {
  FeatureGates gates;  // v1.26's defaults
  gates.version = version;
  if (version == SchedulerVersion::kV126) return gates;
  for (const GateField& g : kGateFields) {
    if (const FeatureSpec* spec = FindFeatureGate(g.name, version)) {
      gates.*g.field = spec->default_value;
    } else if (const RemovedGate* removed = FindRemoved(g.name, version)) {
      gates.*g.field = removed->locked;
    } else {
      gates.*g.field = false;  // an alpha that was dropped (VolumeCapacityPriority)
    }
  }
  return gates;
}

namespace {

// Upstream's featureEnabled over the values being set: the explicit value,
// else what AllAlpha / AllBeta set it to, else its value before (the
// default for a gate FeatureGates does not hold).
bool EnabledWith(std::string_view name, const FeatureGates& before,
                 const std::vector<std::pair<std::string, bool>>& values) {
  for (const auto& [n, v] : values)
    if (n == name) return v;
  const FeatureSpec* spec = FindFeatureGate(name, before.version);
  if (spec != nullptr)
    if (std::optional<bool> all = FromAllGate(spec->pre_release, values)) return *all;
  if (auto field = FieldOf(name)) return before.*field;
  return spec != nullptr && spec->default_value;
}

}  // namespace

Status SetFeatureGatesFromMap(const std::vector<std::pair<std::string, bool>>& values,
                              FeatureGates* gates, GateRegistry registry) {
  const SchedulerVersion version = gates->version;
  // Checked first, applied after: upstream works on a copy and keeps it only
  // when every entry is valid.
  std::vector<std::pair<std::string, bool>> known;
  for (const auto& [name, value] : values) {
    if (name == kAllAlpha || name == kAllBeta) {
      known.emplace_back(name, value);
      continue;
    }
    const FeatureSpec* spec = FindFeatureGate(name, version);
    // The reference harness never registers the logging gates.
    if (registry == GateRegistry::kReferenceHarness && version >= SchedulerVersion::kV135 &&
        IsV135LoggingGate(name))
      spec = nullptr;
    if (spec == nullptr) {
      if (const RemovedGate* removed = FindRemoved(name, version)) {
        if (removed->locked != value)
          return MakeError(name + " was removed in " + std::string(SchedulerVersionName(version)) +
                           ", locked to " + GoBool(removed->locked));
        continue;  // accepted, and nothing to change
      }
      return MakeError("unrecognized feature gate: " + name);
    }
    if (spec->lock_to_default && spec->default_value != value)
      return MakeError("cannot set feature gate " + name + " to " + GoBool(value) +
                       ", feature is locked to " + GoBool(spec->default_value));
    known.emplace_back(name, value);
  }
  FeatureGates next = *gates;
  for (const auto& [name, value] : known) {
    if (name == kAllAlpha) SetUnset(PreRelease::kAlpha, value, known, &next);
    if (name == kAllBeta) SetUnset(PreRelease::kBeta, value, known, &next);
  }
  for (const auto& [name, value] : known)
    if (auto field = FieldOf(name)) next.*field = value;
  // Upstream checks the dependencies of every enabled gate once the values
  // are in: one error per gate, gates in name order here (upstream's map
  // order is random), joined as an aggregate error is.
  std::vector<std::string> errors;
  const auto& deps = Dependencies(version);
  for (size_t i = 0; i < deps.size();) {
    size_t j = i;
    std::string disabled;
    const bool on = EnabledWith(deps[i].gate, *gates, known);
    for (; j < deps.size() && deps[j].gate == deps[i].gate; ++j) {
      if (on && !EnabledWith(deps[j].depends_on, *gates, known)) {
        if (!disabled.empty()) disabled += " ";
        disabled += deps[j].depends_on;
      }
    }
    if (!disabled.empty())
      errors.push_back(std::string(deps[i].gate) +
                       " is enabled, but depends on features that are disabled: [" + disabled +
                       "]");
    i = j;
  }
  if (errors.size() == 1) return MakeError(errors[0]);
  if (!errors.empty()) {
    std::string joined = "[";
    for (size_t i = 0; i < errors.size(); ++i) joined += (i ? ", " : "") + errors[i];
    return MakeError(joined + "]");
  }
  *gates = next;
  return Status::Ok();
}

Status SetFeatureGates(std::string_view spec, FeatureGates* gates, GateRegistry registry) {
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
  return SetFeatureGatesFromMap(values, gates, registry);
}

Result<FeatureGates> ParseFeatureGates(std::string_view spec, SchedulerVersion version) {
  FeatureGates gates = DefaultFeatureGates(version);
  Status s = SetFeatureGates(spec, &gates);
  if (!s.ok()) return s.error();
  return gates;
}

std::optional<bool> FeatureGateEnabled(const FeatureGates& gates, std::string_view name) {
  if (auto field = FieldOf(name)) return gates.*field;
  if (const FeatureSpec* spec = FindFeatureGate(name, gates.version)) return spec->default_value;
  return std::nullopt;
}

std::vector<std::pair<std::string, bool>> NonDefaultFeatureGates(const FeatureGates& gates) {
  const FeatureGates defaults = DefaultFeatureGates(gates.version);
  std::vector<std::pair<std::string, bool>> out;
  for (const GateField& g : kGateFields) {
    if (FindFeatureGate(g.name, gates.version) == nullptr) continue;  // not in this release
    if (gates.*g.field != defaults.*g.field) out.emplace_back(std::string(g.name), gates.*g.field);
  }
  return out;
}

std::string KnownFeatureGateNames(SchedulerVersion version) {
  std::string out;
  for (const FeatureSpec& spec : KnownFeatureGates(version)) {
    if (!out.empty()) out += ", ";
    out += spec.name;
  }
  return out;
}

}  // namespace ksched::config
