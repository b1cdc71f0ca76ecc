#include "cli/input.h"

#include <fmt/format.h>

#include <iostream>
#include <iterator>
#include <set>
#include <unordered_set>

#include "api/defaults.h"
#include "api/validation.h"

namespace ksched {
namespace {

template <typename T>
void MoveAppend(std::vector<T>* from, std::vector<T>* to) {
  if (to->empty()) {
    *to = std::move(*from);
    return;
  }
  to->insert(to->end(), std::make_move_iterator(from->begin()),
             std::make_move_iterator(from->end()));
}

void AppendObjects(ObjectSet&& from, ObjectSet* to) {
  MoveAppend(&from.nodes, &to->nodes);
  MoveAppend(&from.pods, &to->pods);
  MoveAppend(&from.services, &to->services);
  MoveAppend(&from.replication_controllers, &to->replication_controllers);
  MoveAppend(&from.replica_sets, &to->replica_sets);
  MoveAppend(&from.stateful_sets, &to->stateful_sets);
  MoveAppend(&from.persistent_volumes, &to->persistent_volumes);
  MoveAppend(&from.persistent_volume_claims, &to->persistent_volume_claims);
  MoveAppend(&from.storage_classes, &to->storage_classes);
  MoveAppend(&from.pod_disruption_budgets, &to->pod_disruption_budgets);
  MoveAppend(&from.priority_classes, &to->priority_classes);
  MoveAppend(&from.namespaces, &to->namespaces);
  MoveAppend(&from.csi_nodes, &to->csi_nodes);
  MoveAppend(&from.csi_drivers, &to->csi_drivers);
  MoveAppend(&from.field_notes, &to->field_notes);
  to->skipped += from.skipped;
}

Error Lines(const std::vector<std::string>& lines) {
  std::string msg;
  for (const std::string& l : lines) msg += (msg.empty() ? "" : "\nksched: ") + l;
  return MakeError(msg);
}

std::string NoteObject(const FieldNote& n) { return n.kind + " " + n.object; }

// "Pod.spec.containers[3]" -> "Pod.spec.containers[*]": the same typo in
// every container or every pod of a workload is one warning.
std::string WithoutIndices(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    out.push_back(s[i]);
    if (s[i] != '[') continue;
    size_t j = i + 1;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j > i + 1 && j < s.size() && s[j] == ']') {
      out.push_back('*');
      i = j - 1;
    }
  }
  return out;
}

// Snapshot notes: unknown fields are grouped by message (array indices
// aside), at most kMaxUnknown lines; newer fields go to the skew report.
void WarnSnapshotNotes(const std::vector<FieldNote>& notes, Diagnostics* diag) {
  constexpr size_t kMaxUnknown = 10;
  std::map<std::string, std::vector<const FieldNote*>> unknown;
  std::vector<std::string> order;
  for (const FieldNote& n : notes) {
    if (n.skew >= 0) {
      if (n.kind == "Pod") diag->skew().Add(n.skew, n.object);
      continue;
    }
    std::string group = WithoutIndices(n.finding.Message(n.kind));
    auto& users = unknown[group];
    if (users.empty()) order.push_back(group);
    users.push_back(&n);
  }
  for (size_t i = 0; i < order.size() && i < kMaxUnknown; ++i) {
    const auto& users = unknown[order[i]];
    const FieldNote& first = *users[0];
    std::string msg = first.finding.Message(first.kind);
    if (users.size() == 1) {
      diag->Warn(fmt::format("{}: {}: {} (ignored)", first.file, NoteObject(first), msg));
    } else {
      diag->Warn(fmt::format("{}: {}: {} (ignored), and {} more like it", first.file,
                             NoteObject(first), msg, users.size() - 1));
    }
  }
  if (order.size() > kMaxUnknown) {
    diag->Warn(fmt::format("{}: ... and {} more unknown fields (ignored)", notes[0].file,
                           order.size() - kMaxUnknown));
  }
}

}  // namespace

void AddWarningsFlag(CLI::App* cmd, bool* warnings) {
  cmd->add_flag("--warnings", *warnings,
                "Print warnings about the input (unknown fields in the snapshot, fields newer "
                "than the engine's version that it ignores, missing controllers) on stderr and "
                "in -o json|yaml; --warnings=false silences them")
      ->capture_default_str();
}

void Diagnostics::NotePod(const std::string& pod, std::string line) {
  by_pod_[pod].push_back(std::move(line));
}

std::vector<std::string> Diagnostics::Lines() const {
  std::vector<std::string> out = general_;
  for (std::string& l : skew_.Lines()) out.push_back(std::move(l));
  return out;
}

std::vector<std::string> Diagnostics::LinesFor(const std::string& pod) const {
  std::vector<std::string> out;
  if (auto it = by_pod_.find(pod); it != by_pod_.end()) out = it->second;
  for (std::string& l : skew_.LinesFor(pod)) out.push_back(std::move(l));
  return out;
}

void Diagnostics::Print() const {
  for (const std::string& l : Lines()) std::cerr << "ksched: warning: " << l << "\n";
}

Result<ObjectSet> LoadSnapshot(const std::vector<std::string>& files, Diagnostics* diag) {
  ObjectSet all;
  for (const std::string& f : files) {
    ObjectSet one;
    if (Status s = DecodeFile(f, &one); !s.ok()) return s.error();
    std::string_view name = f == "-" ? std::string_view("<stdin>") : std::string_view(f);
    ApplyApiServerDefaults(&one);
    if (std::vector<std::string> errs = ValidateObjects(one, name); !errs.empty())
      return Lines(errs);
    WarnSnapshotNotes(one.field_notes, diag);
    one.field_notes.clear();
    AppendObjects(std::move(one), &all);
  }
  // Once for all files: a Namespace may be listed in another file than its
  // pods.
  if (diag->engine() == "v1.26") ApplyV126ServerDefaults(&all);
  return all;
}

Result<std::vector<Pod>> LoadPods(const std::string& file, Diagnostics* diag) {
  ObjectSet set;
  if (Status s = DecodeFile(file, &set); !s.ok()) return s.error();
  std::string_view name = file == "-" ? std::string_view("<stdin>") : std::string_view(file);
  std::vector<std::string> errs;
  for (const FieldNote& n : set.field_notes) {
    if (n.skew >= 0) {
      if (n.kind == "Pod") diag->skew().Add(n.skew, n.object);
      continue;
    }
    errs.push_back(fmt::format("{}: {}: {}", name, NoteObject(n), n.finding.Message(n.kind)));
  }
  if (!errs.empty()) return Lines(errs);
  ApplyPodDefaults(&set.pods);
  if (std::vector<std::string> v = ValidatePods(set.pods, name); !v.empty()) return Lines(v);
  if (set.pods.empty()) {
    size_t others = set.nodes.size() + set.services.size() + set.replica_sets.size() +
                    set.stateful_sets.size() + set.replication_controllers.size() + set.skipped;
    if (others > 0) {
      return MakeError(fmt::format(
          "{}: no Pod in this file ({} object(s) of other kinds): it expects Pods, e.g. `kubectl "
          "get pod NAME -o yaml` or a Pod manifest (a Deployment's pod template is not a Pod)",
          name, others));
    }
  }
  return std::move(set.pods);
}

void CheckOwners(const std::vector<Pod>& pods, const ClusterState& cluster, Diagnostics* diag) {
  using Key = std::pair<StrId, std::string_view>;
  std::set<Key> rs, ss, rc;
  for (const ReplicaSet& r : cluster.replica_sets()) rs.insert({r.meta.ns, r.meta.name});
  for (const StatefulSet& s : cluster.stateful_sets()) ss.insert({s.meta.ns, s.meta.name});
  for (const ReplicationController& r : cluster.replication_controllers())
    rc.insert({r.meta.ns, r.meta.name});
  // Missing controller ("ReplicaSet shop/web-abc") -> its pending pods, in order.
  std::map<std::string, std::vector<std::string>> missing;
  std::vector<std::string> order;
  std::set<std::string> resources;  // for the kubectl hint
  bool has_controller = false;
  // What spreads a pod against its siblings: v1.15's SelectorSpreadPriority,
  // v1.26's PodTopologySpread with its system default constraints.
  const bool v126 = diag->engine() == "v1.26";
  const std::string_view spreader =
      v126 ? "PodTopologySpread's default constraints do" : "SelectorSpreadPriority does";
  for (const Pod& p : pods) {
    for (const OwnerReference& o : p.meta.owner_references) {
      if (!o.controller) continue;
      const std::set<Key>* known = nullptr;
      std::string_view resource;
      if (o.kind == "ReplicaSet") known = &rs, resource = "replicasets";
      if (o.kind == "StatefulSet") known = &ss, resource = "statefulsets";
      if (o.kind == "ReplicationController") known = &rc, resource = "replicationcontrollers";
      if (known == nullptr) continue;
      has_controller = true;
      if (known->count({p.meta.ns, o.name}) != 0) continue;
      std::string owner = fmt::format("{} {}/{}", o.kind, Str(p.meta.ns), o.name);
      diag->NotePod(p.Key(), fmt::format("its {} is not in the snapshot, so {} not spread it "
                                         "against its siblings as the cluster would",
                                         owner, spreader));
      std::vector<std::string>& users = missing[owner];
      if (users.empty()) order.push_back(owner);
      users.push_back(p.Key());
      resources.insert(std::string(resource));
    }
  }
  constexpr size_t kShown = 5;
  for (size_t i = 0; i < order.size() && i < kShown; ++i) {
    const std::vector<std::string>& users = missing[order[i]];
    std::string who = users.size() == 1
                          ? "pending pod " + users[0]
                          : fmt::format("{} pending pods (e.g. {})", users.size(), users[0]);
    diag->Warn(
        fmt::format("{} is not in the snapshot: {} not spread its {} against their siblings "
                    "as the cluster would",
                    order[i], spreader, who));
  }
  if (order.size() > kShown) {
    diag->Warn(fmt::format("... and {} more controllers of pending pods are not in the snapshot",
                           order.size() - kShown));
  }
  if (!order.empty()) {
    std::string list;
    for (const std::string& r : resources) list += (list.empty() ? "" : ",") + r;
    diag->Warn("add " + list + " to the kubectl get command that makes the snapshot");
  }
  if (has_controller && cluster.services().empty()) {
    diag->Warn(fmt::format(
        "the snapshot holds no Service: {} see none (add services to the kubectl get command "
        "if the cluster has any)",
        v126 ? "PodTopologySpread's default constraints"
             : "SelectorSpreadPriority and ServiceSpreadingPriority"));
  }
}

}  // namespace ksched
