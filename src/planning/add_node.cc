#include "planning/add_node.h"

#include <fmt/format.h>

#include "labels/validation.h"

namespace ksched::planning {

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

Result<AddNodeAnswer> SearchNodesToAdd(int64_t max, SearchMode mode, const TrialFn& trial) {
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
  if (mode == SearchMode::kLinear) {
    for (int64_t k = 0; k <= max; ++k) {
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
  auto ok0 = run(0);
  if (!ok0.ok()) return ok0.error();
  if (*ok0) {
    answer.nodes = 0;
    return answer;
  }
  int64_t lo = 0, hi = -1;  // lo failed; hi succeeded
  for (int64_t k = 1; lo < max; k = std::min(max, k * 2)) {
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
                      const NodeTemplate& t, const SchedulerFactory& make_scheduler,
                      CapacityOptions options) {
  options.preemption = false;
  options.pending_preemption = false;
  options.record_details = false;
  options.max = 0;
  options.progress = nullptr;
  options.stop_at_first_failure = true;
  return [&snapshot, &workloads, &t, make_scheduler, options](int64_t k) -> Result<Trial> {
    ObjectSet objects = snapshot.objects;
    std::vector<Node> copies = NodeCopies(t, k);
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
        trial.error = w.stop_reason;
        return trial;
      }
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
  auto answer =
      SearchNodesToAdd(t.max, mode, CapacityTrial(snapshot, workloads, t, make_scheduler, options));
  if (!answer.ok()) return answer.error();
  answer->template_name = t.node.meta.name;
  answer->file = t.file;
  return answer;
}

}  // namespace ksched::planning
