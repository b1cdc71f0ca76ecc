#include "planning/drain.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "api/priority_admission.h"
#include "cache/node_tree.h"
#include "labels/label_selector.h"
#include "loop/snapshot_loop.h"

namespace ksched::planning {
namespace {

const OwnerReference* ControllerOf(const Pod& pod) {
  for (const OwnerReference& o : pod.meta.owner_references)
    if (o.controller) return &o;
  return nullptr;
}

std::string Plural(size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

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

  // The snapshot's pending pods take no part.
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
    const OwnerReference* controller = ControllerOf(p);
    if (p.meta.Annotation("kubernetes.io/config.mirror") != nullptr) {
      rep.staying.push_back({p.Key(), p.spec.node_name, "mirror pod"});
      kept.push_back(std::move(p));
    } else if (controller != nullptr && controller->kind == "DaemonSet") {
      rep.staying.push_back({p.Key(), p.spec.node_name, "DaemonSet " + controller->name});
      kept.push_back(std::move(p));
    } else if (controller == nullptr) {
      rep.deleted.push_back(p.Key());
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
      if (r.meta.uid.empty()) r.meta.uid = r.Key();
      replacements.push_back(std::move(r));
    }
  }
  objects.pods = std::move(kept);
  for (Node& n : objects.nodes)
    if (drained.count(n.meta.name)) n.unschedulable = true;

  // Budgets: how many of the drained pods each would have to let go.
  {
    struct Budget {
      const PodDisruptionBudget* pdb;
      labels::Selector selector;
      std::vector<std::string> pods;
    };
    std::vector<Budget> budgets;
    for (const PodDisruptionBudget& pdb : objects.pod_disruption_budgets) {
      if (!pdb.selector) continue;
      auto sel = labels::FromLabelSelector(pdb.selector);
      if (!sel.ok() || sel->Empty()) continue;
      budgets.push_back({&pdb, std::move(sel).value(), {}});
    }
    std::vector<const Pod*> order;
    for (const Pod& p : disrupted_pods) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const Pod* a, const Pod* b) { return a->Key() < b->Key(); });
    for (const Pod* p : order) {
      std::vector<Budget*> matching;
      for (Budget& b : budgets) {
        if (b.pdb->meta.ns == p->meta.ns && !p->meta.labels.empty() &&
            b.selector.Matches(p->meta.labels))
          matching.push_back(&b);
      }
      if (matching.size() > 1) {
        BlockingBudget bb;
        for (const Budget* b : matching)
          bb.pdb += (bb.pdb.empty() ? "" : ", ") +
                    fmt::format("{}/{}", Str(b->pdb->meta.ns), b->pdb->meta.name);
        bb.pods.push_back(p->Key());
        bb.why =
            "the pod has more than one PodDisruptionBudget, which the eviction API does "
            "not support";
        rep.blocking.push_back(std::move(bb));
      } else if (matching.size() == 1) {
        matching[0]->pods.push_back(p->Key());
      }
    }
    for (Budget& b : budgets) {
      const int64_t needed = static_cast<int64_t>(b.pods.size());
      if (needed == 0 || needed <= b.pdb->disruptions_allowed) continue;
      BlockingBudget bb;
      bb.pdb = fmt::format("{}/{}", Str(b.pdb->meta.ns), b.pdb->meta.name);
      bb.disruptions_allowed = b.pdb->disruptions_allowed;
      bb.pods = std::move(b.pods);
      bb.why = fmt::format("allows {} now (status.disruptionsAllowed), the drain needs {}",
                           Plural(static_cast<size_t>(std::max(0, b.pdb->disruptions_allowed)),
                                  "disruption", "disruptions"),
                           needed);
      rep.blocking.push_back(std::move(bb));
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

  rep.safe = rep.unschedulable == 0 && rep.blocking.empty();
  std::vector<std::string> parts;
  if (rep.unschedulable > 0) {
    parts.push_back(fmt::format("{} of {} evicted pods fit nowhere else", rep.unschedulable,
                                rep.evicted.size()));
  }
  for (const BlockingBudget& b : rep.blocking) {
    parts.push_back(fmt::format("PodDisruptionBudget {} {}", b.pdb, b.why));
  }
  std::string verdict;
  if (rep.safe) {
    verdict = fmt::format("safe to drain: {} evicted, all rescheduled",
                          Plural(rep.evicted.size(), "pod", "pods"));
  } else {
    verdict = "not safe to drain: ";
    for (size_t i = 0; i < parts.size(); ++i) verdict += (i ? "; " : "") + parts[i];
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
    verdict +=
        fmt::format("; {} stay (DaemonSet or mirror)", Plural(rep.staying.size(), "pod", "pods"));
  }
  rep.verdict = verdict;
  return rep;
}

}  // namespace ksched::planning
