// The API server ksched reads objects as: the release whose validation,
// defaulting and create-time changes apply (api/validation.h,
// api/defaults.h, api/pod_strategy.h), and the feature gates those read.
//
// A snapshot is read as the cluster's own API server stored it, and a pod
// ksched creates (a --pending pod, a capacity copy) is changed as that API
// server changes a pod it creates. The front ends take the release from the
// engine (--scheduler-version) and the gates from --feature-gates: a real
// cluster runs its API server and its scheduler with one set of gates.
//
// v1.15 and v1.26 keep the rules ksched has always applied (v1.15's API
// server plus v1.26's topologySpreadConstraints checks); the gates below are
// read only for v1.35.
#pragma once

#include <cstdint>

namespace ksched {

enum class ApiRelease : uint8_t { kV115 = 15, kV126 = 26, kV135 = 35 };

struct ApiServerOptions {
  ApiRelease release = ApiRelease::kV135;

  // v1.35's gates (its defaults), as kube-apiserver's
  // GetValidationOptionsFromPodSpecAndMeta and the pod strategy read them.
  bool pod_level_resources = true;                      // PodLevelResources (beta)
  bool match_label_keys_in_pod_topology_spread = true;  // MatchLabelKeysInPodTopologySpread
  // MatchLabelKeysInPodTopologySpreadSelectorMerge (beta, v1.34+): the
  // selector merge at create time and the validation that allows it.
  bool match_label_keys_selector_merge = true;
  bool match_label_keys_in_pod_affinity = true;  // MatchLabelKeysInPodAffinity (GA)
  bool container_restart_rules = true;           // ContainerRestartRules (beta)
  // TaintTolerationComparisonOperators (alpha): tolerations with Lt / Gt.
  bool taint_toleration_comparison_operators = false;

  bool AtLeast(ApiRelease r) const { return release >= r; }
  bool v135() const { return AtLeast(ApiRelease::kV135); }

  // The release's API server with its default gates.
  static ApiServerOptions For(ApiRelease r) {
    ApiServerOptions o;
    o.release = r;
    return o;
  }
};

}  // namespace ksched
