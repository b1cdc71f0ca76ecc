// Reading the inputs of `schedule`, `capacity` and `drain` as the API server
// of the engine's version would have stored them, and saying what in them
// the answer depends on.
//
// For every file: decode (api/decode.h), apply the API server's defaults
// and admission (api/defaults.h; for v1.26 and v1.35 also Namespaces and
// their name labels), validate (api/validation.h), each as the engine's
// release does it (api/api_server.h). Pods ksched creates (--pending pods,
// --pod copies) are changed as that API server changes a pod it creates
// (api/pod_strategy.h: v1.35 merges matchLabelKeys into the selectors).
// Then:
//   - an object the API server would reject stops the run (exit 2), from
//     any file: `kubectl get` output always passes;
//   - a field that no Kubernetes release has (api/unknown_fields.h) is a
//     typo, and an error in every file (snapshot, --pending, --pod), as
//     kubectl's --validate=strict makes it: `FILE: Pod default/p: strict
//     decoding error: unknown field "spec.affinty"`; --validate=warn makes
//     it a warning, --validate=ignore says nothing;
//   - a file that holds nothing the command reads (empty, no Node in the
//     snapshot, a Deployment given as a snapshot) is an error naming the
//     file and what reads such a file;
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

#include "api/api_server.h"
#include "api/decode.h"
#include "api/version_skew.h"
#include "cache/cluster_state.h"
#include "cli/scheduler_flags.h"
#include "planning/workloads.h"
#include "util/result.h"

namespace ksched {

// What an unknown field is (--validate, as kubectl's flag): an error, a
// warning, or nothing.
enum class ValidateMode { kStrict, kWarn, kIgnore };

// "strict" or "true", "warn", "ignore" or "false".
Result<ValidateMode> ParseValidateMode(std::string_view flag);

class Diagnostics {
 public:
  // The engine the warnings speak of: "v1.35" (default), "v1.26" or "v1.15".
  explicit Diagnostics(std::string_view engine = "v1.35",
                       ValidateMode validate = ValidateMode::kStrict);
  // The engine, --feature-gates and --validate of a command's flags
  // (SchedulerFlags::validate was checked by its flag parser).
  explicit Diagnostics(const SchedulerFlags& flags);
  const std::string& engine() const { return engine_; }
  // The API server the input is read as (api/api_server.h): the engine's
  // release, with the gates of --feature-gates.
  const ApiServerOptions& api_server() const { return api_; }
  ValidateMode validate() const { return validate_; }
  // A warning about the input as a whole (or about objects that are not
  // pending pods).
  void Warn(std::string line) { general_.push_back(std::move(line)); }
  // A warning about one pending pod ("shop/web-1") for its entry in JSON/YAML
  // output; what is printed is said once for all such pods, with Warn.
  void NotePod(const std::string& pod, std::string line);
  SkewReport& skew() { return skew_; }
  // --warnings: false silences every warning, in every output (Lines and
  // LinesFor are then empty and Print prints nothing). Every command and
  // output takes its warnings from here.
  void set_shown(bool shown) { shown_ = shown; }

  // Every warning line, summarised, in a stable order: what stderr, the
  // `warnings` of JSON/YAML documents and the HTML pages show.
  std::vector<std::string> Lines() const;
  // The warnings about one pod.
  std::vector<std::string> LinesFor(const std::string& pod) const;
  // Prints Lines() to stderr, each as "ksched: warning: ...".
  void Print() const;

 private:
  std::string engine_;
  ApiServerOptions api_;
  ValidateMode validate_ = ValidateMode::kStrict;
  bool shown_ = true;
  std::vector<std::string> general_;
  std::map<std::string, std::vector<std::string>> by_pod_;
  SkewReport skew_;
};

// Adds --warnings (default true; --warnings=false silences the warnings).
void AddWarningsFlag(CLI::App* cmd, bool* warnings);

// The files of `-f` arguments as kubectl reads them: "a.yaml,b.yaml" is two
// files, a directory stands for its *.yaml, *.yml and *.json files (not
// recursive, in name order), "-" is standard input.
Result<std::vector<std::string>> ExpandFileArgs(const std::vector<std::string>& args);

// Decodes the snapshot files (after ExpandFileArgs) into one set, defaulted
// (for diag->engine()'s API server) and validated. A file without any object
// ksched reads, and a snapshot without a Node, are errors that say what the
// file looks like instead and which command or flag reads that.
Result<ObjectSet> LoadSnapshot(const std::vector<std::string>& files, Diagnostics* diag);

// Decodes hand-written pods (`--pending`): unknown fields (by
// diag->validate()) and invalid values are errors; defaults,
// DefaultTolerationSeconds and the create-time changes applied.
Result<std::vector<Pod>> LoadPods(const std::string& file, Diagnostics* diag);

// `--pending FILE` replaces the snapshot's pending pods: one warning names
// those it leaves out (the first few and how many), unless `kept`
// (--keep-pending), when nothing is said.
void NotePendingLeftOut(const std::vector<Pod>& snapshot_pending, const std::string& pending_file,
                        bool kept, Diagnostics* diag);

// Reads one `--pod` argument (FILE[=N|=max]) as planning::LoadWorkloads
// does, with unknown fields of the workloads and their templates reported
// by diag->validate(), and each template defaulted and validated as the API
// server would the pods its controller creates (each copy then gets the
// create-time changes: Workload::create_as). `ns` is -n/--namespace ("" when
// not given); objects that are not workloads (a Helm render's Service,
// ConfigMap, ...) are skipped and named in one warning.
Result<std::vector<planning::Workload>> LoadWorkloadArg(const std::string& arg,
                                                        const std::string& ns, Diagnostics* diag);

// The unknown and newer fields of one file's objects (ObjectSet::field_notes):
// fields newer than the engine that change scheduling go to diag->skew();
// unknown fields are an error (one line per object, every field of it, as
// the API server's strict decoding lists them), a warning or nothing, by
// diag->validate(). `file` names the file in messages.
Status ReportFieldNotes(const std::vector<FieldNote>& notes, std::string_view file,
                        Diagnostics* diag);

// Warns about each pod of `pods` whose controller (an ownerReference with
// controller: true to a ReplicaSet, StatefulSet or ReplicationController)
// is not in `cluster`: SelectorSpreadPriority then spreads it differently
// from the cluster's scheduler. Also warns once when the snapshot holds pods
// but no Service at all (services were likely left out of `kubectl get`).
void CheckOwners(const std::vector<Pod>& pods, const ClusterState& cluster, Diagnostics* diag);
// The same over decoded objects (the what-if commands, before a cluster is
// built).
void CheckOwners(const std::vector<Pod>& pods, const ObjectSet& objects, Diagnostics* diag);

}  // namespace ksched
