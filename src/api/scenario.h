// Conformance / replay scenarios (format: shared/conformance/README.md).
//
// A scenario is one JSON (or YAML) object: the cluster as it stands, the pods
// to schedule in order, and how the scheduler is configured (provider or
// Policy). The Policy is kept as raw JSON text here and interpreted by the
// policy layer, which owns its schema.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/object_set.h"
#include "api/types.h"
#include "util/result.h"

namespace ksched {

struct Scenario {
  std::string name;
  // "DefaultProvider" when the file does not name one (the README's default).
  std::string provider = "DefaultProvider";
  bool has_provider = false;  // the file named a provider explicitly
  // The "policy" object, re-serialised as compact JSON; nullopt when absent or null.
  std::optional<std::string> policy_json;
  int hard_pod_affinity_symmetric_weight = 1;
  bool has_hard_weight = false;
  // 0 is kept as written: upstream reads it as "use the adaptive default".
  int percentage_of_nodes_to_score = 100;
  bool has_percentage = false;
  // The scheduler-loop mode of shared/preemption/README.md: queue order,
  // nominated pods and preemption around each cycle.
  bool preemption = false;
  ObjectSet cluster;
  std::vector<Pod> pending;
  std::vector<std::string> features;
  // "v1.26" for a framework scenario (shared/framework/README.md); "" for
  // the v1.15 scenarios, which have no such key.
  std::string scheduler_version;
  // A KubeSchedulerConfiguration only means something to the framework: a
  // scenario with a "config" but no schedulerVersion (three of
  // shared/perf's mperf-* files) is read as "v1.26", and this says so, so
  // that front ends can warn.
  bool scheduler_version_inferred = false;
  // The "config" object (a KubeSchedulerConfiguration), re-serialised as
  // compact JSON for the config layer; nullopt when absent or null.
  std::optional<std::string> config_json;
  // "featureGates", in file order (a repeated name keeps its last value).
  std::vector<std::pair<std::string, bool>> feature_gates;
  // Fields the format does not define ("pendng", "cluster.node"), in file
  // order. They are ignored, as Kubernetes decoders ignore unknown fields,
  // but a caller should say so: a misspelt field otherwise empties the run.
  std::vector<std::string> unknown_fields;
};

// Loads a scenario file. Pods (existing and pending) without metadata.uid get
// the uid "namespace/name". A framework scenario (one with a
// schedulerVersion, or a "config" and no schedulerVersion) is also defaulted as its format says
// (api/defaults.h, ApplyV126Defaults: a Namespace for every namespace a pod
// uses, requests from limits, ...) and its budgets read as policy/v1; a
// v1.15 scenario is kept exactly as written. Errors name the file and the position, e.g.
// "conf-001.json: Pod default/web-1: spec.containers[0]...: ..." or
// "conf-001.json: cluster.nodes[3] (Node): metadata.name: missing".
Result<Scenario> LoadScenario(const std::string& path);

// The same, from text already in memory (`filename` is for messages only).
Result<Scenario> ParseScenario(std::string_view text, std::string_view filename);

}  // namespace ksched
