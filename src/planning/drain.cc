#include "planning/drain.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "api/owner.h"
#include "api/priority_admission.h"
#include "cache/node_tree.h"
#include "labels/label_selector.h"
#include "loop/snapshot_loop.h"

namespace ksched::planning {
namespace {

std::string Plural(size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::vector<std::string> EmptyDirVolumes(const Pod& pod) {
  std::vector<std::string> names;
  for (const Volume& v : pod.spec.volumes)
    if (v.kind == VolumeKind::kOther && v.id == "emptyDir") names.push_back(v.name);
  return names;
}

// An IntOrString of a budget scaled against `total` pods, rounding up as the
// disruption controller does; nullopt when a string is not a percentage.
std::optional<int64_t> Scaled(const IntOrString& v, int64_t total) {
  if (!v.is_string) return v.int_value;
  const std::string& s = v.str_value;
  if (s.size() < 2 || s.back() != '%') return std::nullopt;
  int64_t pct = 0;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9' || pct > 1000000) return std::nullopt;
    pct = pct * 10 + (s[i] - '0');
  }
  return (pct * total + 99) / 100;
}

// A budget in the drain: the pods it selects in the snapshot and the drained
// ones among them.
struct Budget {
  PodDisruptionBudget pdb;  // a copy: the snapshot's objects move into the cluster
  labels::Selector selector;
  int64_t expected = 0;            // non-terminal pods it selects
  std::vector<std::string> pods;   // drained pods it covers, by name
  std::vector<std::string> never;  // of those, the ones that do not come back
  // Pods it selects that have no node yet: while they are not running (and
  // Ready), the budget counts them as disrupted.
  std::vector<std::string> pending;

  // Disruptions it allows with every expected pod healthy; nullopt when
  // its spec cannot be read (a malformed percentage).
  std::optional<int64_t> AllowedWhenHealthy() const {
    if (pdb.max_unavailable) return Scaled(*pdb.max_unavailable, expected);
    // Neither field: the API defaults minAvailable to 1.
    IntOrString one;
    one.int_value = 1;
    auto desired = Scaled(pdb.min_available ? *pdb.min_available : one, expected);
    if (!desired) return std::nullopt;
    return expected - *desired;
  }

  std::string Spec() const {
    auto show = [](const IntOrString& v) {
      return v.is_string ? v.str_value : std::to_string(v.int_value);
    };
    if (pdb.max_unavailable) return "maxUnavailable " + show(*pdb.max_unavailable);
    if (pdb.min_available) return "minAvailable " + show(*pdb.min_available);
    return "minAvailable 1 (the default)";
  }
};

}  // namespace

Result<DrainReport> PlanDrain(ObjectSet objects, const std::vector<std::string>& nodes,
                              const SchedulerFactory& make_scheduler, const DrainOptions& options) {
  if (Status s = ApplyPriorityClasses(objects.priority_classes, &objects.pods, ""); !s.ok())
    return s.error();
  std::set<std::string> drained(nodes.begin(), nodes.end());
  for (const std::string& name : drained) {
    bool found = std::any_of(objects.nodes.begin(), objects.nodes.end(),
                             [&](const Node& n) { return n.meta.name == name; });
    if (!found) return MakeError(fmt::format("drain: node \"{}\" is not in the snapshot", name));
  }
  DrainReport rep;
  rep.nodes = nodes;

  // Budgets, and the pods each expects.
  std::vector<Budget> budgets;
  for (const PodDisruptionBudget& pdb : objects.pod_disruption_budgets) {
    if (!pdb.selector) continue;
    auto sel = labels::FromLabelSelector(pdb.selector);
    if (!sel.ok() || sel->Empty()) continue;
    budgets.push_back({pdb, std::move(sel).value(), 0, {}, {}, {}});
  }
  for (Budget& b : budgets) {
    for (const Pod& p : objects.pods) {
      if (p.phase == "Succeeded" || p.phase == "Failed" || p.meta.ns != b.pdb.meta.ns ||
          p.meta.labels.empty() || !b.selector.Matches(p.meta.labels))
        continue;
      ++b.expected;
      if (p.spec.node_name.empty() && !p.meta.has_deletion_timestamp) b.pending.push_back(p.Key());
    }
  }

  // The snapshot's pending pods take no part; the report says so.
  rep.pending_left_out =
      static_cast<size_t>(std::count_if(objects.pods.begin(), objects.pods.end(), [](const Pod& p) {
        return p.spec.node_name.empty() && p.phase != "Succeeded" && p.phase != "Failed" &&
               !p.meta.has_deletion_timestamp;
      }));
  std::erase_if(objects.pods, [](const Pod& p) { return p.spec.node_name.empty(); });
  std::optional<ObjectSet> before;
  if (options.record_details) before = objects;

  std::vector<Pod> kept, replacements;
  std::vector<Pod> disrupted_pods;
  for (Pod& p : objects.pods) {
    if (!drained.count(p.spec.node_name) || p.phase == "Succeeded" || p.phase == "Failed") {
      kept.push_back(std::move(p));
      continue;
    }
    // kubectl's filters, in its order: DaemonSet, mirror, local storage,
    // unreplicated.
    const OwnerReference* controller = ControllerOf(p);
    if (controller != nullptr && controller->kind == "DaemonSet") {
      rep.staying.push_back({p.Key(), p.spec.node_name, "DaemonSet " + controller->name});
      kept.push_back(std::move(p));
      continue;
    }
    if (p.meta.Annotation("kubernetes.io/config.mirror") != nullptr) {
      rep.staying.push_back({p.Key(), p.spec.node_name, "mirror pod"});
      kept.push_back(std::move(p));
      continue;
    }
    if (std::vector<std::string> dirs = EmptyDirVolumes(p); !dirs.empty())
      rep.local_data.push_back({p.Key(), p.spec.node_name, std::move(dirs)});
    if (controller == nullptr) {
      rep.deleted.push_back({p.Key(), p.spec.node_name});
      disrupted_pods.push_back(std::move(p));
    } else {
      disrupted_pods.push_back(p);
      Pod r = std::move(p);
      EvictedPod e;
      e.from = r.spec.node_name;
      e.priority = PodPriority(r);
      rep.evicted.push_back(std::move(e));
      r.spec.node_name.clear();
      r.nominated_node_name.clear();
      r.start_time.reset();
      // A new pod has no containers running yet: the evicted one's
      // (possibly resized) allocation is not the replacement's.
      r.container_statuses.clear();
      r.init_container_statuses.clear();
      if (r.meta.uid.empty()) r.meta.uid = r.Key();
      replacements.push_back(std::move(r));
    }
  }
  rep.local_data_blocks = !rep.local_data.empty() && !options.delete_emptydir_data;
  objects.pods = std::move(kept);
  for (Node& n : objects.nodes)
    if (drained.count(n.meta.name)) n.unschedulable = true;

  // Which budgets cover the drained pods; a pod under two cannot be evicted.
  {
    std::vector<const Pod*> order;
    for (const Pod& p : disrupted_pods) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const Pod* a, const Pod* b) { return a->Key() < b->Key(); });
    for (const Pod* p : order) {
      std::vector<Budget*> matching;
      for (Budget& b : budgets) {
        if (b.pdb.meta.ns == p->meta.ns && !p->meta.labels.empty() &&
            b.selector.Matches(p->meta.labels))
          matching.push_back(&b);
      }
      if (matching.size() > 1) {
        BlockingBudget bb;
        for (const Budget* b : matching)
          bb.pdb += (bb.pdb.empty() ? "" : ", ") +
                    fmt::format("{}/{}", Str(b->pdb.meta.ns), b->pdb.meta.name);
        bb.pods.push_back(p->Key());
        bb.why =
            "the pod has more than one PodDisruptionBudget, which the eviction API does "
            "not support";
        rep.blocking.push_back(std::move(bb));
      } else if (matching.size() == 1) {
        matching[0]->pods.push_back(p->Key());
      }
    }
  }

  auto scheduler = make_scheduler();
  if (!scheduler.ok()) return scheduler.error();
  const CacheOptions cache_options = (*scheduler)->cache_options();
  if (before) {
    auto c = ClusterState::Build(std::move(*before), nullptr, cache_options);
    if (!c.ok()) return c.error();
    rep.before = TakeUsage(*c);
  }
  auto cluster = ClusterState::Build(std::move(objects), nullptr, cache_options);
  if (!cluster.ok()) return cluster.error();
  rep.priorities = PriorityNames(**scheduler);
  NodeTree tree(*cluster);
  LoopOptions lo;
  lo.preemption = options.preemption;
  lo.record_details = options.record_details;
  SnapshotLoop loop(scheduler->get(), &*cluster, &tree, lo);

  // Arrival order namespace/name; the loop then orders by priority.
  std::vector<size_t> idx(replacements.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(),
            [&](size_t a, size_t b) { return replacements[a].Key() < replacements[b].Key(); });
  std::vector<Pod> arrival;
  std::vector<EvictedPod> evicted;
  for (size_t i : idx) {
    arrival.push_back(std::move(replacements[i]));
    evicted.push_back(std::move(rep.evicted[i]));
  }
  std::vector<PodRecord> records(arrival.size());
  std::vector<size_t> attempt_order;
  const size_t top_n = options.record_details ? options.top_n : 0;
  loop.Run(std::move(arrival), [&](const Attempt& a) {
    if (a.number == 1) attempt_order.push_back(a.index);
    records[a.index] = RecordAttempt(a, *cluster, top_n);
    records[a.index].group = "evicted from " + evicted[a.index].from;
    rep.preempted += records[a.index].victims.size();
  });
  rep.evicted.clear();
  for (size_t i : attempt_order) {
    evicted[i].record = std::move(records[i]);
    if (evicted[i].record.node.empty()) ++rep.unschedulable;
    rep.evicted.push_back(std::move(evicted[i]));
  }
  if (options.record_details) rep.after = TakeUsage(*cluster);

  // Budgets that allow fewer disruptions now than the drain needs: for good,
  // or until the replacements evicted first are Ready.
  std::set<std::string> never_back;
  for (const DeletedPod& d : rep.deleted) never_back.insert(d.pod);
  for (const EvictedPod& e : rep.evicted)
    if (e.record.node.empty()) never_back.insert(e.record.pod);
  for (Budget& b : budgets) {
    const int64_t needed = static_cast<int64_t>(b.pods.size());
    if (needed == 0 || needed <= b.pdb.disruptions_allowed) continue;
    BlockingBudget bb;
    bb.pdb = fmt::format("{}/{}", Str(b.pdb.meta.ns), b.pdb.meta.name);
    bb.disruptions_allowed = b.pdb.disruptions_allowed;
    bb.pods = b.pods;
    const std::string now =
        fmt::format("allows {} now (status.disruptionsAllowed), the drain needs {}",
                    Plural(static_cast<size_t>(std::max(0, b.pdb.disruptions_allowed)),
                           "disruption", "disruptions"),
                    needed);
    for (const std::string& p : b.pods)
      if (never_back.count(p)) b.never.push_back(p);
    const std::optional<int64_t> healthy = b.AllowedWhenHealthy();
    const std::string spec =
        fmt::format("{} of {}", b.Spec(), Plural(static_cast<size_t>(b.expected), "pod", "pods"));
    if (!healthy) {
      bb.why = fmt::format("{}; its {} cannot be read, so no retry is counted on", now, b.Spec());
    } else if (*healthy <= 0) {
      bb.why = fmt::format("{}, and with {} it allows none even when all are healthy", now, spec);
    } else if (*healthy <= static_cast<int64_t>(b.never.size())) {
      bb.why = fmt::format(
          "{}; with {} it allows {} when all are healthy, but {} never come{} back "
          "(no replacement, or it fits nowhere)",
          now, spec, *healthy, fmt::join(b.never, ", "), b.never.size() == 1 ? "s" : "");
    } else if (b.pdb.disruptions_allowed < *healthy && !b.pending.empty()) {
      // Fewer than its spec allows with every pod healthy: its own pods
      // that are not running yet hold the difference.
      bb.permanent = false;
      bb.waits_for = b.pending;
      bb.why = fmt::format(
          "{}; it waits for its pending {} {} to run and be Ready, then kubectl drain's "
          "retries get through, each eviction once the replacements evicted before it are "
          "Ready (with {}, {} at a time)",
          now, b.pending.size() == 1 ? "pod" : "pods", fmt::join(b.pending, ", "), spec, *healthy);
    } else {
      bb.permanent = false;
      bb.why = fmt::format(
          "{}; kubectl drain retries, and with {} each eviction goes through once the "
          "replacements evicted before it are Ready ({} at a time)",
          now, spec, *healthy);
    }
    rep.blocking.push_back(std::move(bb));
  }

  const bool budgets_block = std::any_of(rep.blocking.begin(), rep.blocking.end(),
                                         [](const BlockingBudget& b) { return b.permanent; });
  rep.safe = rep.unschedulable == 0 && !budgets_block && !rep.local_data_blocks;
  std::vector<std::string> local;
  for (const LocalDataPod& l : rep.local_data) local.push_back(l.pod);
  std::vector<std::string> parts;
  if (rep.local_data_blocks) {
    parts.push_back(fmt::format(
        "kubectl drain refuses {} with local data (emptyDir): {}; --delete-emptydir-data "
        "deletes that data and lets the drain go on (the rest of this report assumes it)",
        Plural(local.size(), "pod", "pods"), fmt::join(local, ", ")));
  }
  if (rep.unschedulable > 0) {
    parts.push_back(fmt::format("{} of {} evicted pods fit nowhere else", rep.unschedulable,
                                rep.evicted.size()));
  }
  for (const BlockingBudget& b : rep.blocking) {
    if (b.permanent) parts.push_back(fmt::format("PodDisruptionBudget {} {}", b.pdb, b.why));
  }
  std::string verdict;
  if (rep.safe) {
    verdict = fmt::format("safe to drain: {} evicted, all rescheduled",
                          Plural(rep.evicted.size(), "pod", "pods"));
  } else {
    verdict = "not safe to drain: ";
    for (size_t i = 0; i < parts.size(); ++i) verdict += (i ? "; " : "") + parts[i];
  }
  for (const BlockingBudget& b : rep.blocking) {
    if (!b.permanent)
      verdict += fmt::format("; PodDisruptionBudget {} slows the drain: it {}", b.pdb, b.why);
  }
  if (!rep.local_data.empty() && !rep.local_data_blocks) {
    verdict += fmt::format("; {} lose{} emptyDir data (--delete-emptydir-data): {}",
                           Plural(local.size(), "pod", "pods"), local.size() == 1 ? "s" : "",
                           fmt::join(local, ", "));
  }
  if (rep.preempted > 0) {
    verdict += fmt::format("; {} preempted to make room",
                           Plural(rep.preempted, "running pod", "running pods"));
  }
  if (!rep.deleted.empty()) {
    verdict += fmt::format("; {} without a controller deleted for good (kubectl drain --force)",
                           Plural(rep.deleted.size(), "pod", "pods"));
  }
  if (!rep.staying.empty()) {
    verdict += fmt::format("; {} (DaemonSet or mirror)",
                           Plural(rep.staying.size(), "pod stays", "pods stay"));
  }
  if (rep.pending_left_out > 0) {
    verdict += fmt::format(
        "; the snapshot's {} left out ({} would compete with the replacements for room)",
        Plural(rep.pending_left_out, "pending pod is", "pending pods are"),
        rep.pending_left_out == 1 ? "it" : "they");
  }
  rep.verdict = verdict;
  return rep;
}

}  // namespace ksched::planning
