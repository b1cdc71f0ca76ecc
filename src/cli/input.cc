#include "cli/input.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <iterator>
#include <set>
#include <unordered_set>

#include "api/decode.h"
#include "api/defaults.h"
#include "api/pod_strategy.h"
#include "api/validation.h"
#include "api/yaml_to_json.h"

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
  MoveAppend(&from.daemon_sets, &to->daemon_sets);
  MoveAppend(&from.persistent_volumes, &to->persistent_volumes);
  MoveAppend(&from.persistent_volume_claims, &to->persistent_volume_claims);
  MoveAppend(&from.storage_classes, &to->storage_classes);
  MoveAppend(&from.pod_disruption_budgets, &to->pod_disruption_budgets);
  MoveAppend(&from.priority_classes, &to->priority_classes);
  MoveAppend(&from.namespaces, &to->namespaces);
  MoveAppend(&from.csi_nodes, &to->csi_nodes);
  MoveAppend(&from.csi_drivers, &to->csi_drivers);
  MoveAppend(&from.csi_storage_capacities, &to->csi_storage_capacities);
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

// Workload kinds of a --pod file, and the other files a user may give in
// place of a snapshot, with what reads them.
std::string_view ReaderOfKind(std::string_view kind) {
  if (kind == "Deployment" || kind == "Job" || kind == "CronJob")
    return "a workload: `ksched capacity -f SNAPSHOT --pod FILE` places its pods";
  if (kind == "KubeSchedulerConfiguration")
    return "a scheduler configuration: give it with --config FILE";
  if (kind == "Policy") return "a v1.15 scheduler Policy: give it with --policy FILE";
  return {};
}

// The kinds of the objects in `file` (List items included), in order, each
// once. Only for messages about a file that holds nothing ksched reads, so
// the file is read again.
std::vector<std::string> KindsIn(const std::string& file) {
  std::vector<std::string> kinds;
  auto f = PaddedFile::Load(file);
  if (!f.ok()) return kinds;
  std::vector<std::string> docs;
  if (LooksLikeJson(f->view())) {
    docs.emplace_back(f->view());
  } else if (auto y = YamlDocumentsToJson(f->view(), file); y.ok()) {
    docs = std::move(y).value();
  }
  auto add = [&](std::string_view k) {
    if (!k.empty() && std::find(kinds.begin(), kinds.end(), k) == kinds.end())
      kinds.emplace_back(k);
  };
  std::function<void(simdjson::dom::element)> walk = [&](simdjson::dom::element e) {
    if (simdjson::dom::array a; e.get(a) == simdjson::SUCCESS) {
      for (simdjson::dom::element item : a) walk(item);
      return;
    }
    std::string_view kind;
    if (e["kind"].get(kind) != simdjson::SUCCESS) return;
    simdjson::dom::array items;
    if (kind.ends_with("List") && e["items"].get(items) == simdjson::SUCCESS) {
      for (simdjson::dom::element item : items) walk(item);
      return;
    }
    add(kind);
  };
  simdjson::dom::parser parser;
  for (const std::string& d : docs) {
    simdjson::dom::element root;
    if (parser.parse(d).get(root) == simdjson::SUCCESS) walk(root);
  }
  return kinds;
}

size_t ObjectCount(const ObjectSet& s) {
  return s.nodes.size() + s.pods.size() + s.services.size() + s.replication_controllers.size() +
         s.replica_sets.size() + s.stateful_sets.size() + s.daemon_sets.size() +
         s.persistent_volumes.size() + s.persistent_volume_claims.size() +
         s.storage_classes.size() + s.pod_disruption_budgets.size() + s.priority_classes.size() +
         s.namespaces.size() + s.csi_nodes.size() + s.csi_drivers.size() +
         s.csi_storage_capacities.size();
}

constexpr std::string_view kSnapshotHint =
    "a snapshot is `kubectl get nodes,pods,... -A -o yaml` output (see README)";

// A file of the snapshot that holds no object ksched reads: what it is
// instead, and what reads it.
Error NotASnapshot(const std::string& file, std::string_view name, size_t skipped) {
  if (skipped == 0)
    return MakeError(fmt::format("{}: no objects in this file: {}", name, kSnapshotHint));
  std::vector<std::string> kinds = file == "-" ? std::vector<std::string>{} : KindsIn(file);
  for (const std::string& k : kinds) {
    if (std::string_view reader = ReaderOfKind(k); !reader.empty()) {
      return MakeError(
          fmt::format("{}: a {} is not a cluster snapshot; this file is {}", name, k, reader));
    }
  }
  return MakeError(fmt::format(
      "{}: no object of a kind the scheduler reads ({}): {}", name,
      kinds.empty() ? "Node, Pod, ..." : fmt::format("found {}", fmt::join(kinds, ", ")),
      kSnapshotHint));
}

}  // namespace

Result<ValidateMode> ParseValidateMode(std::string_view flag) {
  if (flag == "strict" || flag == "true") return ValidateMode::kStrict;
  if (flag == "warn") return ValidateMode::kWarn;
  if (flag == "ignore" || flag == "false") return ValidateMode::kIgnore;
  return MakeError(fmt::format(
      "--validate: must be one of strict (or true), warn, ignore (or false), got \"{}\"", flag));
}

Diagnostics::Diagnostics(std::string_view engine, ValidateMode validate)
    : engine_(engine), validate_(validate) {
  skew_.set_engine(engine);
  api_.release = engine == "v1.15"   ? ApiRelease::kV115
                 : engine == "v1.26" ? ApiRelease::kV126
                                     : ApiRelease::kV135;
}

Diagnostics::Diagnostics(const SchedulerFlags& flags) : Diagnostics(flags.EngineVersion()) {
  if (auto v = ParseValidateMode(flags.validate); v.ok()) validate_ = *v;
  // One set of gates for the cluster's API server and its scheduler, as a
  // cluster is run. (A bad --feature-gates is the engine's error, reported
  // before any input is read.)
  if (flags.framework()) {
    if (auto g = flags.FrameworkGates(); g.ok() && g->AtLeast(config::SchedulerVersion::kV135)) {
      api_.pod_level_resources = g->pod_level_resources;
      api_.match_label_keys_in_pod_topology_spread = g->match_label_keys_in_pod_topology_spread;
      api_.match_label_keys_selector_merge =
          g->match_label_keys_in_pod_topology_spread_selector_merge;
      api_.match_label_keys_in_pod_affinity = g->match_label_keys_in_pod_affinity;
      api_.container_restart_rules = g->container_restart_rules;
      api_.taint_toleration_comparison_operators = g->taint_toleration_comparison_operators;
    }
  }
}

Status ReportFieldNotes(const std::vector<FieldNote>& notes, std::string_view file,
                        Diagnostics* diag) {
  // Unknown fields, one entry per object (kind and name), in input order.
  struct Object {
    const FieldNote* first;
    std::vector<std::string> paths;
  };
  std::vector<Object> objects;
  for (const FieldNote& n : notes) {
    if (n.skew >= 0) {
      if (n.kind == "Pod") diag->skew().Add(n.skew, n.object);
      continue;
    }
    if (diag->validate() == ValidateMode::kIgnore) continue;
    if (objects.empty() || objects.back().first->kind != n.kind ||
        objects.back().first->object != n.object) {
      objects.push_back(Object{&n, {}});
    }
    objects.back().paths.push_back(n.finding.Path());
  }
  if (objects.empty()) return Status::Ok();
  auto fields = [](const Object& o) {
    std::string s;
    for (const std::string& p : o.paths)
      s += fmt::format("{}unknown field \"{}\"", s.empty() ? "" : ", ", p);
    return s;
  };
  if (diag->validate() == ValidateMode::kStrict) {
    // As many lines as objects, up to ten: a snapshot of a thousand pods
    // with one typo in their template says so in ten lines.
    constexpr size_t kMaxLines = 10;
    std::vector<std::string> lines;
    for (size_t i = 0; i < objects.size() && i < kMaxLines; ++i) {
      lines.push_back(fmt::format("{}: {}: strict decoding error: {}", file,
                                  NoteObject(*objects[i].first), fields(objects[i])));
    }
    if (objects.size() > kMaxLines) {
      lines.push_back(fmt::format("{}: ... and {} more objects with unknown fields", file,
                                  objects.size() - kMaxLines));
    }
    lines.push_back(
        "no Kubernetes release up to v1.35 has such a field: a typo, or a later release's "
        "field? (--validate=warn reads the file without it, as kubectl's flag does)");
    return Lines(lines);
  }
  // Warnings, grouped by field (array indices aside): the same typo in every
  // pod of a workload is one line.
  constexpr size_t kMaxUnknown = 10;
  std::map<std::string, std::vector<const FieldNote*>> unknown;
  std::vector<std::string> order;
  for (const FieldNote& n : notes) {
    if (n.skew >= 0) continue;
    std::string group = n.kind + " " + WithoutIndices(n.finding.Path());
    auto& users = unknown[group];
    if (users.empty()) order.push_back(group);
    users.push_back(&n);
  }
  for (size_t i = 0; i < order.size() && i < kMaxUnknown; ++i) {
    const auto& users = unknown[order[i]];
    const FieldNote& first = *users[0];
    std::string more =
        users.size() == 1 ? "" : fmt::format(", and {} more like it", users.size() - 1);
    diag->Warn(fmt::format("{}: {}: unknown field \"{}\" (ignored){}", file, NoteObject(first),
                           first.finding.Path(), more));
  }
  if (order.size() > kMaxUnknown) {
    diag->Warn(fmt::format("{}: ... and {} more unknown fields (ignored)", file,
                           order.size() - kMaxUnknown));
  }
  return Status::Ok();
}

Result<std::vector<std::string>> ExpandFileArgs(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& arg : args) {
    size_t start = 0;
    while (start <= arg.size()) {
      size_t comma = arg == "-" ? std::string::npos : arg.find(',', start);
      if (comma == std::string::npos) comma = arg.size();
      std::string one = arg.substr(start, comma - start);
      start = comma + 1;
      if (one.empty()) {
        if (arg.size() > 0 && comma < arg.size()) continue;  // "a.yaml," as kubectl
        return MakeError("-f: empty file name");
      }
      std::error_code ec;
      if (one != "-" && std::filesystem::is_directory(one, ec)) {
        std::vector<std::string> found;
        for (const auto& entry : std::filesystem::directory_iterator(one, ec)) {
          const std::string ext = entry.path().extension().string();
          if ((ext == ".yaml" || ext == ".yml" || ext == ".json") && !entry.is_directory())
            found.push_back(entry.path().string());
        }
        if (ec) return MakeError(fmt::format("{}: cannot list: {}", one, ec.message()));
        if (found.empty()) {
          return MakeError(fmt::format("{}: a directory without .yaml, .yml or .json files", one));
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
        continue;
      }
      out.push_back(std::move(one));
    }
  }
  return out;
}

void AddWarningsFlag(CLI::App* cmd, bool* warnings) {
  cmd->add_flag("--warnings", *warnings,
                "Print warnings about the input (unknown fields with --validate=warn, fields newer "
                "than the engine's version that it ignores, missing controllers) on stderr, in "
                "-o json|yaml and on the -o html page; --warnings=false silences them")
      ->capture_default_str();
}

void Diagnostics::NotePod(const std::string& pod, std::string line) {
  by_pod_[pod].push_back(std::move(line));
}

std::vector<std::string> Diagnostics::Lines() const {
  if (!shown_) return {};
  std::vector<std::string> out = general_;
  for (std::string& l : skew_.Lines()) out.push_back(std::move(l));
  return out;
}

std::vector<std::string> Diagnostics::LinesFor(const std::string& pod) const {
  std::vector<std::string> out;
  if (!shown_) return out;
  if (auto it = by_pod_.find(pod); it != by_pod_.end()) out = it->second;
  for (std::string& l : skew_.LinesFor(pod)) out.push_back(std::move(l));
  return out;
}

void Diagnostics::Print() const {
  for (const std::string& l : Lines()) std::cerr << "ksched: warning: " << l << "\n";
}

Result<ObjectSet> LoadSnapshot(const std::vector<std::string>& args, Diagnostics* diag) {
  auto files = ExpandFileArgs(args);
  if (!files.ok()) return files.error();
  ObjectSet all;
  for (const std::string& f : *files) {
    ObjectSet one;
    if (Status s = DecodeFile(f, &one); !s.ok()) return s.error();
    std::string_view name = f == "-" ? std::string_view("<stdin>") : std::string_view(f);
    if (ObjectCount(one) == 0) return NotASnapshot(f, name, one.skipped);
    if (Status s = ReportFieldNotes(one.field_notes, name, diag); !s.ok()) return s.error();
    one.field_notes.clear();
    ApplyApiServerDefaults(&one, diag->api_server());
    if (std::vector<std::string> errs = ValidateObjects(one, name, diag->api_server());
        !errs.empty())
      return Lines(errs);
    AppendObjects(std::move(one), &all);
  }
  if (all.nodes.empty()) {
    std::string names;
    for (const std::string& f : *files)
      names += (names.empty() ? "" : ", ") + (f == "-" ? std::string("<stdin>") : f);
    return MakeError(fmt::format(
        "{}: no Node in the snapshot: the scheduler places pods on nodes, so {} (add nodes to "
        "the kubectl get command)",
        names, kSnapshotHint));
  }
  // Once for all files: a Namespace may be listed in another file than its
  // pods.
  if (diag->engine() != "v1.15") ApplyV126ServerDefaults(&all);
  return all;
}

Result<std::vector<Pod>> LoadPods(const std::string& file, Diagnostics* diag) {
  ObjectSet set;
  if (Status s = DecodeFile(file, &set); !s.ok()) return s.error();
  std::string_view name = file == "-" ? std::string_view("<stdin>") : std::string_view(file);
  if (Status s = ReportFieldNotes(set.field_notes, name, diag); !s.ok()) return s.error();
  // Decoded and defaulted, changed as the API server's pod strategy changes
  // a pod it creates, then validated: the order of a create.
  ApplyPodDefaults(&set.pods, diag->api_server());
  for (Pod& p : set.pods) PreparePodForCreate(&p, diag->api_server());
  if (std::vector<std::string> v = ValidatePods(set.pods, name, diag->api_server()); !v.empty())
    return Lines(v);
  if (set.pods.empty() && ObjectCount(set) == 0 && set.skipped == 0)
    return MakeError(fmt::format("{}: no objects in this file: --pending reads Pods", name));
  if (set.pods.empty()) {
    size_t others = set.nodes.size() + set.services.size() + set.replica_sets.size() +
                    set.stateful_sets.size() + set.daemon_sets.size() +
                    set.replication_controllers.size() + set.skipped;
    if (others > 0) {
      return MakeError(fmt::format(
          "{}: no Pod in this file ({} object(s) of other kinds): it expects Pods, e.g. `kubectl "
          "get pod NAME -o yaml` or a Pod manifest (a Deployment's pod template is not a Pod)",
          name, others));
    }
  }
  const size_t others = ObjectCount(set) - set.pods.size() + set.skipped;
  if (others > 0) {
    diag->Warn(
        fmt::format("{}: {} object(s) that are not Pods left out (--pending schedules "
                    "Pods; `ksched capacity --pod` places a Deployment's or another "
                    "workload's copies)",
                    name, others));
  }
  return std::move(set.pods);
}

void NotePendingLeftOut(const std::vector<Pod>& snapshot_pending, const std::string& pending_file,
                        bool kept, Diagnostics* diag) {
  if (kept || snapshot_pending.empty()) return;
  constexpr size_t kShown = 5;
  std::string list;
  for (size_t i = 0; i < snapshot_pending.size() && i < kShown; ++i)
    list += (i ? ", " : "") + snapshot_pending[i].Key();
  if (snapshot_pending.size() > kShown)
    list += fmt::format(" and {} more", snapshot_pending.size() - kShown);
  diag->Warn(fmt::format(
      "--pending {} replaces the snapshot's {} pending pod(s), which are left out: {} "
      "(--keep-pending schedules them too, competing with the file's pods in queue order)",
      pending_file == "-" ? "<stdin>" : pending_file, snapshot_pending.size(), list));
}

Result<std::vector<planning::Workload>> LoadWorkloadArg(const std::string& text,
                                                        const std::string& ns, Diagnostics* diag) {
  auto arg = planning::ParseWorkloadArg(text);
  if (!arg.ok()) return arg.error();
  std::vector<FieldNote> notes;
  std::vector<std::string> skipped;
  planning::WorkloadFileOptions options;
  options.ns = ns;
  options.skipped = &skipped;
  auto ws = planning::LoadWorkloads(*arg, &notes, options);
  if (!ws.ok()) return ws.error();
  std::string_view name = arg->file == "-" ? std::string_view("<stdin>") : arg->file;
  if (!skipped.empty()) {
    constexpr size_t kShown = 6;
    std::string list;
    for (size_t i = 0; i < skipped.size() && i < kShown; ++i) list += (i ? ", " : "") + skipped[i];
    if (skipped.size() > kShown) list += fmt::format(" and {} more", skipped.size() - kShown);
    diag->Warn(fmt::format("{}: skipped {} object(s) that are not workloads: {}", name,
                           skipped.size(), list));
  }
  if (Status s = ReportFieldNotes(notes, name, diag); !s.ok()) return s.error();
  for (planning::Workload& w : *ws) {
    // The pod template as the API server would default and validate the
    // pods its controller creates (requests from limits, and so on); each
    // copy gets the create-time changes (merged selectors), so the first
    // copy is what is validated.
    SetPodDefaults(&w.pod, diag->api_server());
    AdmitDefaultTolerationSeconds(&w.pod);
    w.create_as = diag->api_server();
    Pod first = w.MakeCopy(0, w.CopyName(0));
    first.meta.name = w.pod.meta.name;  // messages name the workload
    if (std::vector<std::string> errs = ValidatePods({first}, w.file, diag->api_server());
        !errs.empty())
      return Lines(errs);
  }
  return ws;
}

namespace {

// CheckOwners over the controllers and Services of a cluster or of decoded
// objects.
template <typename RsList, typename SsList, typename RcList>
void CheckOwnersAgainst(const std::vector<Pod>& pods, const RsList& replica_sets,
                        const SsList& stateful_sets, const RcList& controllers, bool no_services,
                        Diagnostics* diag) {
  using Key = std::pair<StrId, std::string_view>;
  std::set<Key> rs, ss, rc;
  for (const ReplicaSet& r : replica_sets) rs.insert({r.meta.ns, r.meta.name});
  for (const StatefulSet& s : stateful_sets) ss.insert({s.meta.ns, s.meta.name});
  for (const ReplicationController& r : controllers) rc.insert({r.meta.ns, r.meta.name});
  // Missing controller ("ReplicaSet shop/web-abc") -> its pending pods, in order.
  std::map<std::string, std::vector<std::string>> missing;
  std::vector<std::string> order;
  std::set<std::string> resources;  // for the kubectl hint
  bool has_controller = false;
  // What spreads a pod against its siblings: v1.15's SelectorSpreadPriority,
  // v1.26's PodTopologySpread with its system default constraints.
  const bool v126 = diag->engine() != "v1.15";
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
  if (has_controller && no_services) {
    diag->Warn(fmt::format(
        "the snapshot holds no Service: {} see none (add services to the kubectl get command "
        "if the cluster has any)",
        v126 ? "PodTopologySpread's default constraints"
             : "SelectorSpreadPriority and ServiceSpreadingPriority"));
  }
}

}  // namespace

void CheckOwners(const std::vector<Pod>& pods, const ClusterState& cluster, Diagnostics* diag) {
  CheckOwnersAgainst(pods, cluster.replica_sets(), cluster.stateful_sets(),
                     cluster.replication_controllers(), cluster.services().empty(), diag);
}

void CheckOwners(const std::vector<Pod>& pods, const ObjectSet& objects, Diagnostics* diag) {
  CheckOwnersAgainst(pods, objects.replica_sets, objects.stateful_sets,
                     objects.replication_controllers, objects.services.empty(), diag);
}

}  // namespace ksched
