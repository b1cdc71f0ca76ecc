#include "planning/add_node.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <set>
#include <string_view>

#include "api/decode.h"
#include "api/defaults.h"
#include "api/owner.h"
#include "api/priority_admission.h"
#include "cache/node_tree.h"
#include "labels/validation.h"

namespace ksched::planning {
namespace {

// The predicates (v1.15) and plugins (v1.26) that decide on the node alone:
// a fresh node that fails one of them fails it for every copy.
bool NodeDecides(std::string_view name) {
  static const std::set<std::string_view> kNames = {
      // v1.26 plugins
      "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodeResourcesFit",
      "NodePorts",
      // v1.15 predicates
      "CheckNodeUnschedulable", "CheckNodeCondition", "CheckNodeMemoryPressure",
      "CheckNodeDiskPressure", "CheckNodePIDPressure", "HostName", "MatchNodeSelector",
      "PodToleratesNodeTaints", "PodToleratesNodeNoExecuteTaints", "PodFitsResources",
      "PodFitsHostPorts", "GeneralPredicates"};
  return kNames.count(name) > 0;
}

}  // namespace

Result<NodeTemplate> LoadNodeTemplate(const std::string& arg) {
  NodeTemplate t;
  t.file = arg;
  if (size_t eq = arg.rfind('='); eq != std::string::npos && eq > 0) {
    std::string tail = arg.substr(eq + 1);
    if (!tail.empty() && tail.find_first_not_of("0123456789") == std::string::npos) {
      std::optional<int64_t> n = labels::ParseInt64(tail);
      if (!n || *n > 1000000) {
        return MakeError(fmt::format(
            "--add-node {}: MAX after '=' must be a whole number from 0 to 1000000", arg));
      }
      t.file = arg.substr(0, eq);
      t.max = *n;
    }
  }
  ObjectSet set;
  if (Status s = DecodeFile(t.file, &set); !s.ok()) return s.error().Prepend("--add-node: ");
  if (set.nodes.size() != 1) {
    return MakeError(fmt::format("--add-node {}: expected exactly one Node, found {}", t.file,
                                 set.nodes.size()));
  }
  t.node = std::move(set.nodes[0]);
  // As the API server stores a Node: allocatable defaults to capacity.
  SetNodeDefaults(&t.node);
  return t;
}

std::vector<Node> NodeCopies(const NodeTemplate& t, int64_t k) {
  std::vector<Node> out;
  out.reserve(static_cast<size_t>(k));
  const StrId hostname = Intern("kubernetes.io/hostname");
  for (int64_t i = 1; i <= k; ++i) {
    Node n = t.node;
    n.meta.name = fmt::format("{}-{}", t.node.meta.name, i);
    n.meta.uid.clear();
    n.meta.labels.Set(hostname, Intern(n.meta.name));
    out.push_back(std::move(n));
  }
  return out;
}

Pod DaemonSetPod(const DaemonSet& ds) {
  Pod t;
  t.meta.ns = ds.meta.ns;
  t.meta.name = ds.meta.name;  // DaemonPodsOn names each pod after its node
  t.meta.labels = ds.template_labels;
  t.meta.annotations = ds.template_annotations;
  OwnerReference owner;
  owner.api_version = "apps/v1";
  owner.kind = "DaemonSet";
  owner.name = ds.meta.name;
  owner.uid =
      ds.meta.uid.empty() ? fmt::format("{}/{}", Str(ds.meta.ns), ds.meta.name) : ds.meta.uid;
  owner.controller = true;
  t.meta.owner_references.push_back(std::move(owner));
  t.spec = ds.template_spec;
  t.phase = "Pending";
  // The controller's tolerations, added to every pod it makes (unless the
  // template has them already): node conditions and cordoning do not keep
  // a DaemonSet pod away.
  auto tolerate = [&t](std::string_view key, TaintEffect effect, std::string_view effect_str) {
    const StrId id = Intern(key);
    for (const Toleration& have : t.spec.tolerations)
      if (have.key == id && have.effect == effect) return;
    Toleration tol;
    tol.key = id;
    tol.op = "Exists";
    tol.effect = effect;
    tol.effect_str = std::string(effect_str);
    t.spec.tolerations.push_back(std::move(tol));
  };
  tolerate("node.kubernetes.io/not-ready", TaintEffect::kNoExecute, "NoExecute");
  tolerate("node.kubernetes.io/unreachable", TaintEffect::kNoExecute, "NoExecute");
  tolerate("node.kubernetes.io/disk-pressure", TaintEffect::kNoSchedule, "NoSchedule");
  tolerate("node.kubernetes.io/memory-pressure", TaintEffect::kNoSchedule, "NoSchedule");
  tolerate("node.kubernetes.io/pid-pressure", TaintEffect::kNoSchedule, "NoSchedule");
  tolerate("node.kubernetes.io/unschedulable", TaintEffect::kNoSchedule, "NoSchedule");
  if (t.spec.host_network)
    tolerate("node.kubernetes.io/network-unavailable", TaintEffect::kNoSchedule, "NoSchedule");
  return t;
}

std::vector<Pod> DaemonSetTemplates(const ObjectSet& objects) {
  std::vector<Pod> out;
  std::set<std::string> seen;
  // DaemonSet objects first: their templates, own node affinity included.
  for (const DaemonSet& ds : objects.daemon_sets) {
    if (ds.meta.has_deletion_timestamp) continue;
    if (!seen.insert(fmt::format("{}/{}", Str(ds.meta.ns), ds.meta.name)).second) continue;
    std::vector<Pod> one{DaemonSetPod(ds)};
    // As the Priority admission plugin would (a class the snapshot lacks
    // leaves the priority unset).
    (void)ApplyPriorityClasses(objects.priority_classes, &one, "");
    out.push_back(std::move(one[0]));
  }
  // Then the DaemonSets seen only through their running pods.
  for (const Pod& p : objects.pods) {
    if (p.spec.node_name.empty() || p.phase == "Succeeded" || p.phase == "Failed" ||
        p.meta.has_deletion_timestamp)
      continue;
    const OwnerReference* c = ControllerOf(p);
    if (c == nullptr || c->kind != "DaemonSet") continue;
    const std::string key = fmt::format("{}/{}", Str(p.meta.ns), c->name);
    if (!seen.insert(key).second) continue;
    Pod t = p;
    t.meta.name = c->name;  // DaemonPodsOn names each pod after its node
    t.meta.uid.clear();
    t.spec.node_name.clear();
    t.nominated_node_name.clear();
    t.start_time.reset();
    t.phase = "Pending";
    // The controller pinned the pod to its node with a required
    // `metadata.name` field term; a new node is not that one.
    if (t.spec.affinity && t.spec.affinity->node_affinity &&
        t.spec.affinity->node_affinity->required) {
      auto& terms = t.spec.affinity->node_affinity->required->terms;
      for (NodeSelectorTerm& term : terms) {
        std::erase_if(term.match_fields,
                      [](const SelectorRequirement& r) { return r.key == "metadata.name"; });
      }
      std::erase_if(terms, [](const NodeSelectorTerm& term) {
        return term.match_expressions.empty() && term.match_fields.empty();
      });
      if (terms.empty()) t.spec.affinity->node_affinity->required.reset();
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<Pod> DaemonPodsOn(const std::vector<Pod>& daemons, const std::vector<Node>& copies) {
  std::vector<Pod> out;
  out.reserve(daemons.size() * copies.size());
  for (const Node& n : copies) {
    for (const Pod& d : daemons) {
      Pod p = d;
      p.meta.name = fmt::format("{}-{}", d.meta.name, n.meta.name);
      p.meta.uid = p.Key();
      p.spec.node_name = n.meta.name;
      p.phase = "Running";
      out.push_back(std::move(p));
    }
  }
  return out;
}

Result<TemplateFit> FitTemplate(const NodeTemplate& t, const std::vector<Pod>& daemon_templates,
                                const SchedulerFactory& make_scheduler) {
  const std::vector<Node> fresh = NodeCopies(t, 1);
  // A cluster of the fresh node and the DaemonSet pods kept so far.
  struct OneNode {
    std::unique_ptr<Engine> engine;
    std::optional<ClusterState> cluster;
    std::optional<NodeTree> tree;
  };
  auto build = [&](const std::vector<Pod>& daemons) -> Result<std::shared_ptr<OneNode>> {
    auto one = std::make_shared<OneNode>();
    auto engine = make_scheduler();
    if (!engine.ok()) return engine.error();
    one->engine = std::move(engine).value();
    ObjectSet objects;
    objects.nodes = fresh;
    objects.pods = DaemonPodsOn(daemons, fresh);
    auto cluster = ClusterState::Build(std::move(objects), nullptr, one->engine->cache_options());
    if (!cluster.ok()) return cluster.error().Prepend(fmt::format("--add-node {}: ", t.file));
    one->cluster.emplace(std::move(cluster).value());
    one->tree.emplace(*one->cluster);
    return one;
  };
  TemplateFit fit;
  for (const Pod& d : daemon_templates) {
    auto one = build(fit.daemons);
    if (!one.ok()) return one.error();
    OneNode& o = **one;
    Pod p = DaemonPodsOn({d}, fresh)[0];
    p.spec.node_name.clear();
    if (o.engine->Schedule(p, *o.cluster, &*o.tree, false, nullptr).chosen == kNoNode) continue;
    fit.daemons.push_back(d);
    fit.daemon_names.push_back(fmt::format("{}/{}", Str(d.meta.ns), d.meta.name));
  }
  auto one = build(fit.daemons);
  if (!one.ok()) return one.error();
  const size_t num_daemons = fit.daemons.size();
  fit.never = [one = std::move(one).value(), num_daemons](const Pod& pod) -> Result<std::string> {
    const ScheduleResult r = one->engine->Schedule(pod, *one->cluster, &*one->tree, true, nullptr);
    if (r.chosen != kNoNode || r.failures.empty()) return std::string();
    const NodeFailure& f = r.failures[0];
    if (!NodeDecides(f.predicate)) return std::string();
    std::string why = f.predicate + ": ";
    bool room = false;
    for (size_t i = 0; i < f.reasons.size(); ++i) {
      why += (i ? "; " : "") + f.reasons[i];
      room = room || f.reasons[i].rfind("Insufficient ", 0) == 0 ||
             f.reasons[i] == "Too many pods" ||
             f.reasons[i].find("free ports") != std::string::npos;
    }
    if (room && num_daemons > 0)
      why +=
          fmt::format(" (beside its {} DaemonSet pod{})", num_daemons, num_daemons == 1 ? "" : "s");
    return why;
  };
  return fit;
}

Result<AddNodeAnswer> SearchNodesToAdd(int64_t max, SearchMode mode, const TrialFn& trial,
                                       const NeverFn& never) {
  AddNodeAnswer answer;
  answer.max = max;
  auto run = [&](int64_t k) -> Result<bool> {
    auto t = trial(k);
    if (!t.ok()) return t.error();
    t->k = k;
    answer.trials.push_back(*t);
    return t->ok;
  };
  auto none = [&]() {
    // The last trial run was at max: report a pod it could not place.
    const Trial& last = answer.trials.back();
    answer.failed_pod = last.failed_pod;
    answer.error = last.error;
  };
  auto ok0 = run(0);
  if (!ok0.ok()) return ok0.error();
  if (*ok0) {
    answer.nodes = 0;
    return answer;
  }
  int64_t lo = 0, hi = -1;  // lo failed; hi succeeded
  if (never && max > 0) {
    auto pod = never(answer.trials.back());
    if (!pod.ok()) return pod.error();
    if (*pod) {
      // No new node takes it: only a run at max can still show it placed
      // (on an old node others left).
      auto ok = run(max);
      if (!ok.ok()) return ok.error();
      if (!*ok) {
        answer.never_pod = (*pod)->first;
        answer.never = (*pod)->second;
        none();
        return answer;
      }
      hi = max;
    }
  }
  if (mode == SearchMode::kLinear) {
    for (int64_t k = 1; k <= max; ++k) {
      if (k == hi) {
        answer.nodes = k;  // already run
        return answer;
      }
      auto ok = run(k);
      if (!ok.ok()) return ok.error();
      if (*ok) {
        answer.nodes = k;
        return answer;
      }
    }
    none();
    return answer;
  }
  // Exponential, below a success at max when one is known.
  const int64_t top = hi < 0 ? max : hi - 1;
  for (int64_t k = 1; lo < top; k = std::min(top, k * 2)) {
    auto ok = run(k);
    if (!ok.ok()) return ok.error();
    if (*ok) {
      hi = k;
      break;
    }
    lo = k;
  }
  if (hi < 0) {
    none();
    return answer;
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    auto ok = run(mid);
    if (!ok.ok()) return ok.error();
    (*ok ? hi : lo) = mid;
  }
  answer.nodes = hi;
  return answer;
}

TrialFn CapacityTrial(const Snapshot& snapshot, const std::vector<Workload>& workloads,
                      const NodeTemplate& t, const std::vector<Pod>& daemons,
                      const SchedulerFactory& make_scheduler, CapacityOptions options) {
  options.preemption = false;
  options.pending_preemption = false;
  options.record_details = false;
  options.max = 0;
  options.progress = nullptr;
  options.stop_at_first_failure = true;
  return [&snapshot, &workloads, &t, &daemons, make_scheduler,
          options](int64_t k) -> Result<Trial> {
    ObjectSet objects = snapshot.objects;
    std::vector<Node> copies = NodeCopies(t, k);
    std::vector<Pod> daemon_pods = DaemonPodsOn(daemons, copies);
    objects.pods.insert(objects.pods.end(), std::make_move_iterator(daemon_pods.begin()),
                        std::make_move_iterator(daemon_pods.end()));
    objects.nodes.insert(objects.nodes.end(), std::make_move_iterator(copies.begin()),
                         std::make_move_iterator(copies.end()));
    auto r = PlanCapacity(std::move(objects), snapshot.pending, workloads, make_scheduler, options);
    if (!r.ok()) return r.error().Prepend(fmt::format("--add-node {} (k={}): ", t.file, k));
    Trial trial;
    trial.k = k;
    trial.ok = r->everything_fits();
    for (const PodRecord& p : r->pending) {
      if (p.node.empty()) {
        trial.failed_pod = p.pod;
        trial.error = p.error;
        return trial;
      }
    }
    for (const WorkloadOutcome& w : r->workloads) {
      if (!w.failed_pod.empty()) {
        trial.failed_pod = w.failed_pod;
        trial.failed_workload = w.label;
        trial.error = w.stop_reason;
        return trial;
      }
    }
    if (trial.ok) {
      for (const PodRecord& p : r->pending) trial.placements.emplace_back(p.pod, p.node);
      trial.workloads = std::move(r->workloads);
    }
    return trial;
  };
}

Result<AddNodeAnswer> FindNodesToAdd(const Snapshot& snapshot,
                                     const std::vector<Workload>& workloads, const NodeTemplate& t,
                                     const SchedulerFactory& make_scheduler,
                                     const CapacityOptions& options, SearchMode mode) {
  for (const Workload& w : workloads) {
    if (!w.count) {
      return MakeError(fmt::format(
          "--add-node needs a count for every workload: {} ({}) has none (give --pod {}=N, or "
          "spec.replicas)",
          w.Label(), w.file, w.file));
    }
  }
  const std::vector<Pod> daemon_templates = DaemonSetTemplates(snapshot.objects);
  auto fit = FitTemplate(t, daemon_templates, make_scheduler);
  if (!fit.ok()) return fit.error();
  // Whether a new node can ever take the pod that did not fit at 0.
  NeverFn never =
      [&](const Trial& t) -> Result<std::optional<std::pair<std::string, std::string>>> {
    std::optional<Pod> pod;
    for (const Pod& p : snapshot.pending)
      if (t.failed_workload.empty() && p.Key() == t.failed_pod) pod = p;
    for (const Workload& w : workloads)
      if (!t.failed_workload.empty() && w.Label() == t.failed_workload)
        pod = w.MakeCopy(0, w.CopyName(0));
    if (!pod) return std::optional<std::pair<std::string, std::string>>();
    auto why = fit->never(*pod);
    if (!why.ok()) return why.error();
    if (why->empty()) return std::optional<std::pair<std::string, std::string>>();
    return std::make_optional(std::make_pair(t.failed_pod, *why));
  };
  auto answer = SearchNodesToAdd(
      t.max, mode, CapacityTrial(snapshot, workloads, t, fit->daemons, make_scheduler, options),
      never);
  if (!answer.ok()) return answer.error();
  answer->daemon_sets = fit->daemon_names;
  answer->daemons = fit->daemons;
  answer->template_name = t.node.meta.name;
  answer->file = t.file;
  return answer;
}

}  // namespace ksched::planning
