// Workloads for what-if planning: the objects `ksched capacity --pod` accepts
// (a bare Pod, or a Deployment, ReplicaSet, StatefulSet,
// ReplicationController or Job with its pod template), turned into the pods
// their controller would create.
//
// A copy gets what its controller gives a pod, so that SelectorSpread,
// NodePreferAvoidPods and the inter-pod terms see it as upstream would:
//   ReplicaSet / ReplicationController: the template's labels, a controller
//     owner reference to the set, name <set>-<5 characters>;
//   Deployment: the ReplicaSet the Deployment controller would create,
//     <deployment>-<hash>, whose template and selector carry
//     pod-template-hash=<hash>; its pods as a ReplicaSet's;
//   StatefulSet: <set>-<ordinal>, labels statefulset.kubernetes.io/pod-name
//     and controller-revision-hash;
//   Job: <job>-<5 characters>, labels controller-uid and job-name;
//   Pod: <name>-<n>, the pod's own metadata (as `capacity` always did).
// The hash is an FNV-32a of the template, spelt with upstream's safe
// alphabet: stable for one template, but not the value a real cluster
// computes (that hashes Go's printing of the struct). The controller objects
// (ReplicaSet, StatefulSet, ReplicationController) are added to the
// cluster, because spreading finds a pod's controllers by their selectors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/api_server.h"
#include "api/decode.h"
#include "api/types.h"
#include "util/result.h"

namespace ksched::planning {

enum class WorkloadKind {
  kPod,
  kDeployment,
  kReplicaSet,
  kStatefulSet,
  kReplicationController,
  kJob
};

std::string_view KindName(WorkloadKind kind);

// One `--pod` argument: FILE, FILE=N (N copies of each workload in FILE) or
// FILE=max (until one does not fit, whatever the workload's replicas say).
struct WorkloadArg {
  std::string file;
  std::optional<int64_t> count;  // set by =N
  bool fill = false;             // set by =max
};
// The text after the last '=' is read as a count only when it is a number
// or "max", so file names with '=' still work.
Result<WorkloadArg> ParseWorkloadArg(const std::string& arg);

struct Workload {
  WorkloadKind kind = WorkloadKind::kPod;
  std::string file;  // where it came from
  std::string name;  // metadata.name of the workload
  StrId ns = kEmptyStr;
  // How many copies are asked for: the =N of the argument, else the
  // workload's spec.replicas (spec.parallelism for a Job) when it sets one;
  // nullopt: place copies until one does not fit.
  std::optional<int64_t> count;
  // The pod every copy starts from: the template with the workload's
  // namespace, owner reference and controller labels, but no per-copy name.
  Pod pod;
  // Name prefix of the copies ("web-5d8f7c9b4-" for a Deployment's pods,
  // "db-" for a StatefulSet's).
  std::string prefix;
  // When set, each copy is changed as this API server changes a pod it
  // creates (api/pod_strategy.h: v1.35 merges matchLabelKeys into the
  // copy's selectors with the copy's own labels).
  std::optional<ApiServerOptions> create_as;
  // A Deployment's template digest (api/pod_template_digest.h), else 0.
  uint64_t template_digest = 0;
  // Set when a Deployment's copies joined the snapshot's ReplicaSet of the
  // same template (UseCurrentReplicaSets): that ReplicaSet's name.
  std::string current_replica_set;
  // Controller objects to add to the cluster.
  std::vector<ReplicaSet> replica_sets;
  std::vector<StatefulSet> stateful_sets;
  std::vector<ReplicationController> replication_controllers;

  // "Deployment shop/web" (or "Pod shop/web" for a bare template).
  std::string Label() const;
  // "shop/web": how reports name the workload.
  std::string Key() const;
  // The name copy number `n` (0-based) gets.
  std::string CopyName(int64_t n) const;
  // Copy number `n`, named `name` (from CopyName, or another when that
  // name was taken), with a uid unique to this run, as create_as stores it.
  Pod MakeCopy(int64_t n, const std::string& name) const;
};

// How a workload file is read beyond its text.
struct WorkloadFileOptions {
  // -n/--namespace, as kubectl's: the namespace of an object that names
  // none, and an object naming another one is an error. Empty: such objects
  // go to "default" and any namespace is taken as written.
  std::string ns;
  // When set, objects of other kinds (the ServiceAccount, Service,
  // ConfigMap, ... of a Helm render) are left out and each named here
  // ("ServiceAccount shop/web"); when null they are an error.
  std::vector<std::string>* skipped = nullptr;
};

// Decodes every workload of a file's text (a single object, a List, or a
// multi-document YAML stream; documents holding nothing, as a Helm render's
// comment-only ones, are passed over). Errors name the file, the object and
// the field; kinds other than the six above are an error naming them
// (unless options.skipped collects them), and so are a count (spec.replicas, a Job's
// spec.parallelism) that is not an integer and a selector that does not select the template's
// labels. When `notes` is given, the fields of each workload that no Kubernetes release has
// (api/unknown_fields.h; the template's included) and the template's fields newer than v1.15 that
// change scheduling are appended to it, as the snapshot decoder notes them; what to make of them is
// the caller's (cli/input.h).
Result<std::vector<Workload>> DecodeWorkloads(std::string_view text, std::string_view file,
                                              const WorkloadArg& arg,
                                              std::vector<FieldNote>* notes = nullptr,
                                              const WorkloadFileOptions& options = {});
// Reads arg.file ("-" for stdin) and decodes it.
Result<std::vector<Workload>> LoadWorkloads(const WorkloadArg& arg,
                                            std::vector<FieldNote>* notes = nullptr,
                                            const WorkloadFileOptions& options = {});

// A Deployment already in the cluster (`kubectl get deploy web -o yaml`)
// adds pods to its current ReplicaSet: when one of `existing` in the
// workload's namespace is controlled by a Deployment of the workload's name
// and has its template (the pod-template-hash label aside), the copies take
// that ReplicaSet's name, uid and pod-template-hash, so that spreading
// (matchLabelKeys: [pod-template-hash]) counts the revision's running pods,
// and no ReplicaSet is added. A changed template is a new revision: the
// workload is left as decoded.
void UseCurrentReplicaSets(const std::vector<ReplicaSet>& existing,
                           std::vector<Workload>* workloads);

// Adds the workloads' controller objects to a snapshot's objects.
void AddWorkloadObjects(const std::vector<Workload>& workloads, ObjectSet* objects);

// upstream's rand.SafeEncodeString of the decimal digits of `hash`.
std::string SafeEncodeHash(uint32_t hash);

}  // namespace ksched::planning
