// Reading the inputs of `schedule`, `capacity` and `drain` as the API server
// of the engine's version would have stored them, and saying what in them
// the answer depends on.
//
// For every file: decode (api/decode.h), apply the API server's defaults
// and admission (api/defaults.h; for v1.26 also Namespaces and their name
// labels), validate (api/validation.h). Then:
//   - an object the API server would reject stops the run (exit 2), from
//     any file: `kubectl get` output always passes;
//   - an unknown field (api/unknown_fields.h) is an error in hand-written
//     pods (--pending, --pod) and a warning in a snapshot, whose objects
//     come from a server that accepted them;
//   - a field newer than the engine's version that changes scheduling
//     (api/version_skew.h) and a pending pod whose owning ReplicaSet,
//     StatefulSet or ReplicationController is not in the snapshot are
//     warnings.
// Warnings go to stderr ("ksched: warning: ...") and into JSON/YAML output;
// --warnings=false silences them.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "api/decode.h"
#include "api/version_skew.h"
#include "cache/cluster_state.h"
#include "util/result.h"

namespace ksched {

class Diagnostics {
 public:
  // The engine the warnings speak of: "v1.26" (default) or "v1.15".
  explicit Diagnostics(std::string_view engine = "v1.26") : engine_(engine) {
    skew_.set_engine(engine);
  }
  const std::string& engine() const { return engine_; }
  // A warning about the input as a whole (or about objects that are not
  // pending pods).
  void Warn(std::string line) { general_.push_back(std::move(line)); }
  // A warning about one pending pod ("shop/web-1") for its entry in JSON/YAML
  // output; what is printed is said once for all such pods, with Warn.
  void NotePod(const std::string& pod, std::string line);
  SkewReport& skew() { return skew_; }

  // Every warning line, summarised, in a stable order.
  std::vector<std::string> Lines() const;
  // The warnings about one pod.
  std::vector<std::string> LinesFor(const std::string& pod) const;
  // Prints Lines() to stderr, each as "ksched: warning: ...".
  void Print() const;

 private:
  std::string engine_;
  std::vector<std::string> general_;
  std::map<std::string, std::vector<std::string>> by_pod_;
  SkewReport skew_;
};

// Adds --warnings (default true; --warnings=false silences the warnings).
void AddWarningsFlag(CLI::App* cmd, bool* warnings);

// Decodes the snapshot files into one set, defaulted (for diag->engine()'s
// API server) and validated.
Result<ObjectSet> LoadSnapshot(const std::vector<std::string>& files, Diagnostics* diag);

// Decodes hand-written pods (`--pending`, `--pod`): unknown fields and
// invalid values are errors; defaults and DefaultTolerationSeconds applied.
Result<std::vector<Pod>> LoadPods(const std::string& file, Diagnostics* diag);

// Warns about each pod of `pods` whose controller (an ownerReference with
// controller: true to a ReplicaSet, StatefulSet or ReplicationController)
// is not in `cluster`: SelectorSpreadPriority then spreads it differently
// from the cluster's scheduler. Also warns once when the snapshot holds pods
// but no Service at all (services were likely left out of `kubectl get`).
void CheckOwners(const std::vector<Pod>& pods, const ClusterState& cluster, Diagnostics* diag);

}  // namespace ksched
