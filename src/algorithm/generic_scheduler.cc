#include "algorithm/generic_scheduler.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include "algorithm/equivalence.h"
#include "algorithm/score_index.h"
#include "util/go_arith.h"

namespace ksched {
namespace {

constexpr size_t kMinFeasibleNodesToFind = 100;
constexpr int kMinFeasibleNodesPercentageToFind = 5;

// Upstream's podPassesBasicChecks: every claim the pod names must exist and
// not be terminating. Fails the cycle with a plain (non-fit) error.
Status PodPassesBasicChecks(const Pod& pod, const ClusterState& cluster) {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr)
      return MakeError(fmt::format("persistentvolumeclaim \"{}\" not found", v.id));
    if (pvc->meta.has_deletion_timestamp) {
      return MakeError(fmt::format("persistentvolumeclaim \"{}\" is being deleted", v.id));
    }
  }
  return Status::Ok();
}

// Runs body(begin, end) over [0, n) in chunks on oneTBB's workers when the
// range is large enough to pay for it, else inline. Every chunk writes only
// its own indices, so results do not depend on the thread count.
template <typename F>
void ParallelFor(size_t n, F&& body, bool parallel = true) {
  constexpr size_t kGrain = 256;
  if (!parallel || n < 2 * kGrain) {
    body(size_t{0}, n);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kGrain),
                    [&](const tbb::blocked_range<size_t>& r) { body(r.begin(), r.end()); });
}

}  // namespace

// Per-node results for one equivalence class (see equivalence.h).
//
// For a class, the predicates split into a cached prefix (every active
// predicate before the first non-node-local one) and a fresh suffix that runs
// every cycle. The prefix's verdict per node, and the raw map score of every
// node-local priority, stay valid until the node changes; ClusterState's
// change log names exactly the nodes changed since `generation`, so a cycle
// recomputes those nodes only. The cache is used only when the cycle walks
// every node from the start of a NodeTree round (percentageOfNodesToScore
// does not cut the walk short), so the visiting order is the fixed round.
struct GenericScheduler::ClassCache {
  std::string key;
  uint64_t cluster_id = 0;
  uint64_t generation = 0;
  std::vector<uint8_t> active;  // per predicate: 1 unless AlwaysPasses for the class
  size_t prefix_end = 0;        // predicates [0, prefix_end) are cached

  // Per node.
  std::vector<uint8_t> prefix_fits;
  std::vector<uint16_t> first_failed;
  std::vector<std::vector<ReasonId>> reasons;
  std::vector<uint8_t> maps_valid;
  // [priority][node]; only for priorities with NodeLocalMap().
  std::vector<std::vector<int64_t>> maps;

  // The class's feasible nodes by score, for decisions without a report;
  // synced with the change log up to `index_generation`.
  ScoreIndex index;
  bool index_ready = false;
  uint64_t index_generation = 0;
};

GenericScheduler::GenericScheduler(SchedulerConfig config, TieBreak tie_break)
    : config_(std::move(config)), tie_break_(tie_break) {}

GenericScheduler::~GenericScheduler() = default;

GenericScheduler::ClassCache* GenericScheduler::FindClassCache(const std::string& key) {
  constexpr size_t kMaxClasses = 32;
  for (size_t i = 0; i < caches_.size(); ++i) {
    if (caches_[i]->key != key) continue;
    std::rotate(caches_.begin(), caches_.begin() + i, caches_.begin() + i + 1);
    return caches_[0].get();
  }
  // Building an entry costs a full pass over the nodes plus memory, so a
  // class gets one only the second time it is seen: pods that are alone in
  // their class (unique labels, say) never pay for it.
  auto seen = std::find(recent_keys_.begin(), recent_keys_.end(), key);
  if (seen == recent_keys_.end()) {
    if (recent_keys_.size() == kMaxClasses) recent_keys_.pop_back();
    recent_keys_.insert(recent_keys_.begin(), key);
    return nullptr;
  }
  recent_keys_.erase(seen);
  if (caches_.size() == kMaxClasses) caches_.pop_back();
  auto c = std::make_unique<ClassCache>();
  c->key = key;
  caches_.insert(caches_.begin(), std::move(c));
  return caches_[0].get();
}

void GenericScheduler::PreparePriorities(const PodToSchedule& target, const ClusterState& cluster) {
  if (pstates_target_ == &target) return;  // already prepared this cycle
  pstates_.resize(config_.priorities.size());
  for (size_t p = 0; p < pstates_.size(); ++p)
    pstates_[p] = config_.priorities[p].priority->Prepare(target, cluster);
  pstates_target_ = &target;
}

void GenericScheduler::EnsureMaps(ClassCache* cc, const PodToSchedule& target,
                                  const ClusterState& cluster, NodeId n) const {
  if (cc->maps_valid[n]) return;
  for (size_t p = 0; p < config_.priorities.size(); ++p) {
    const Priority& prio = *config_.priorities[p].priority;
    if (prio.NodeLocalMap()) cc->maps[p][n] = prio.Map(target, pstates_[p].get(), cluster, n);
  }
  cc->maps_valid[n] = 1;
}

bool GenericScheduler::IndexCanScore(ClassCache* cc, const PodToSchedule& target,
                                     const ClusterState& cluster,
                                     std::vector<ScoreIndex::Term>* terms, DomainWeights* domains) {
  // Every priority must be one the index sums (a known reduce over a
  // node-local map) or give all nodes one score this cycle.
  PreparePriorities(target, cluster);
  terms->clear();
  for (size_t p = 0; p < config_.priorities.size(); ++p) {
    const PriorityConfig& pc = config_.priorities[p];
    const Priority& prio = *pc.priority;
    if (prio.Shape() == ReduceShape::kOther) {
      if (!prio.UniformScore(pstates_[p].get())) return false;
      continue;
    }
    if (prio.Shape() == ReduceShape::kDomainMinMax) {
      terms->push_back(ScoreIndex::Term{prio.Shape(), pc.weight, nullptr});
      *domains = prio.Domains(pstates_[p].get());
      continue;
    }
    if (!prio.NodeLocalMap()) return false;
    terms->push_back(ScoreIndex::Term{prio.Shape(), pc.weight, &cc->maps[p]});
  }
  return ScoreIndex::Supports(*terms);
}

NodeId GenericScheduler::ChooseFromIndex(ClassCache* cc, const PodToSchedule& target,
                                         const ClusterState& cluster,
                                         std::vector<ScoreIndex::Term> terms, DomainWeights domains,
                                         const std::vector<uint8_t>* suffix_fits) {
  auto fits = [&](NodeId n) {
    return cc->prefix_fits[n] != 0 && (suffix_fits == nullptr || (*suffix_fits)[n] != 0);
  };
  const size_t num_nodes = cluster.num_nodes();
  if (!cc->index_ready) {
    cc->index.Reset(std::move(terms), cluster);
    cc->index.SetDomains(domains);
    ParallelFor(
        num_nodes,
        [&](size_t begin, size_t end) {
          for (size_t n = begin; n < end; ++n)
            if (fits(static_cast<NodeId>(n)))
              EnsureMaps(cc, target, cluster, static_cast<NodeId>(n));
        },
        parallel_);
    for (NodeId n = 0; n < num_nodes; ++n)
      if (fits(n)) cc->index.Update(n, true);
    cc->index_ready = true;
  } else {
    // Nodes changed since the index was last synced (a node listed twice is
    // simply updated twice).
    const std::vector<NodeId>& log = cluster.change_log();
    for (uint64_t g = cc->index_generation; g < cluster.generation(); ++g) {
      NodeId n = log[g];
      bool f = fits(n);
      if (f) EnsureMaps(cc, target, cluster, n);
      cc->index.Update(n, f);
    }
    // Non-node-local predicates can change their verdict on any node.
    // The verdicts are 0/1 bytes: eight nodes are compared at once, and
    // only a word with a moved verdict is looked at node by node.
    if (suffix_fits != nullptr) {
      const uint8_t* prefix = cc->prefix_fits.data();
      const uint8_t* suffix = suffix_fits->data();
      const uint8_t* member = cc->index.members().data();
      for (size_t base = 0; base < num_nodes; base += 8) {
        if (base + 8 <= num_nodes) {
          uint64_t p, s, m;
          std::memcpy(&p, prefix + base, 8);
          std::memcpy(&s, suffix + base, 8);
          std::memcpy(&m, member + base, 8);
          if ((p & s) == m) continue;
        }
        for (size_t i = base; i < std::min(base + 8, num_nodes); ++i) {
          const NodeId n = static_cast<NodeId>(i);
          bool f = fits(n);
          if (f == cc->index.Contains(n)) continue;
          if (f) EnsureMaps(cc, target, cluster, n);
          cc->index.Update(n, f);
        }
      }
    }
    cc->index.SetDomains(domains);
  }
  cc->index_generation = cluster.generation();
  return cc->index.Best();
}

size_t GenericScheduler::NumFeasibleNodesToFind(size_t num_all_nodes, int percentage) {
  if (num_all_nodes < kMinFeasibleNodesToFind || percentage >= 100) return num_all_nodes;
  int64_t adaptive = percentage;
  if (adaptive <= 0) {
    adaptive = 50 - static_cast<int64_t>(num_all_nodes) / 125;
    if (adaptive < kMinFeasibleNodesPercentageToFind) adaptive = kMinFeasibleNodesPercentageToFind;
  }
  size_t num = num_all_nodes * static_cast<size_t>(adaptive) / 100;
  return std::max(num, kMinFeasibleNodesToFind);
}

std::string GenericScheduler::FitErrorMessage(
    size_t num_all_nodes, const std::vector<NodeFailure>& failures,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& unknown_node_failures) {
  std::map<std::string, int> histogram;
  for (const NodeFailure& f : failures)
    for (const std::string& r : f.reasons) ++histogram[r];
  for (const auto& [name, reasons] : unknown_node_failures)
    for (const std::string& r : reasons) ++histogram[r];
  std::vector<std::string> parts;
  parts.reserve(histogram.size());
  for (const auto& [reason, count] : histogram)
    parts.push_back(fmt::format("{} {}", count, reason));
  std::sort(parts.begin(), parts.end());
  return fmt::format("0/{} nodes are available: {}.", num_all_nodes, fmt::join(parts, ", "));
}

// ---------------------------------------------------------------- the cycle

// Failures are kept as reason ids while filtering; strings are made only for
// reports and for the FitError message.
struct GenericScheduler::Cycle {
  const Pod& pod;
  const ClusterState& cluster;
  PodInfo info;
  PodToSchedule target;
  std::optional<CyclePredicates> predicates;  // upstream's predicate metadata
  CycleNominations nominations;
  ClassCache* cc = nullptr;

  struct Failure {
    NodeId node;
    uint32_t begin, end;  // into failure_reasons
    uint16_t first;       // the first failing predicate
  };
  std::vector<Failure> failures;
  std::vector<ReasonId> failure_reasons;
  std::vector<NodeId>* feasible = nullptr;

  Cycle(const Pod& p, const ClusterState& c) : pod(p), cluster(c), info(MakePodInfo(p)) {
    target.info = &info;
    target.request = PodRequestToSchedule(p);
  }

  void AddFailure(NodeId node, uint16_t first, const std::vector<ReasonId>* a,
                  const std::vector<ReasonId>* b) {
    uint32_t begin = static_cast<uint32_t>(failure_reasons.size());
    if (a) failure_reasons.insert(failure_reasons.end(), a->begin(), a->end());
    if (b) failure_reasons.insert(failure_reasons.end(), b->begin(), b->end());
    failures.push_back(Failure{node, begin, static_cast<uint32_t>(failure_reasons.size()), first});
  }
};

ScheduleResult GenericScheduler::Schedule(const Pod& pod, const ClusterState& cluster,
                                          NodeTree* tree, bool record_details,
                                          const NominatedPods* nominated) {
  ScheduleResult result;
  if (Status s = PodPassesBasicChecks(pod, cluster); !s.ok()) {
    result.error = s.error().message;
    return result;
  }
  const size_t num_nodes = tree->num_nodes();
  if (num_nodes == 0) {
    result.error = "no nodes available to schedule pods";
    return result;
  }

  // ---- per-pod metadata
  Cycle cycle(pod, cluster);
  pstates_target_ = nullptr;
  auto predicates = CyclePredicates::Prepare(config_, cycle.target, cluster);
  if (!predicates.ok()) {
    result.error = predicates.error().message;
    return result;
  }
  cycle.predicates.emplace(std::move(predicates).value());
  cycle.nominations = CycleNominations(nominated, pod, cluster);
  if (!cycle.nominations.empty()) cycle.predicates->PrepareCopies();

  // ---- filter
  FindNodesThatFit(&cycle, tree, record_details, &result);
  if (result.chosen != kNoNode) return result;  // decided from a ScoreIndex

  // Reports need strings; a decision without a feasible node needs them for
  // the FitError message, and extenders may add to them.
  if (record_details || result.feasible.empty() || !config_.extenders.empty()) {
    result.failures.reserve(cycle.failures.size());
    for (const Cycle::Failure& f : cycle.failures) {
      NodeFailure nf;
      nf.node = f.node;
      nf.predicate = config_.predicates[f.first].name;
      nf.reasons.reserve(f.end - f.begin);
      for (uint32_t i = f.begin; i < f.end; ++i)
        nf.reasons.emplace_back(Str(cycle.failure_reasons[i]));
      result.failures.push_back(std::move(nf));
    }
  }
  if (!ExtendersFilter(pod, cluster, &result)) return result;

  if (result.feasible.empty()) {
    result.fit_error = true;
    result.error = FitErrorMessage(num_nodes, result.failures, result.unknown_node_failures);
    return result;
  }
  if (result.feasible.size() == 1) {
    result.chosen = result.feasible[0];
    return result;
  }

  // ---- score, then select host
  PrioritizeNodes(&cycle, record_details, &result);
  result.chosen = SelectHost(cluster, result.feasible, result.totals);
  return result;
}

// ---------------------------------------------------------------- filter

void GenericScheduler::FindNodesThatFit(Cycle* cycle, NodeTree* tree, bool record_details,
                                        ScheduleResult* result) {
  const ClusterState& cluster = cycle->cluster;
  const size_t num_nodes = tree->num_nodes();
  const size_t to_find = NumFeasibleNodesToFind(num_nodes, config_.percentage_of_nodes_to_score);
  cycle->feasible = &result->feasible;
  if (use_cache_ && to_find >= num_nodes && tree->AtCycleStart()) {
    if (label_keys_for_ != cluster.id()) {  // workloads never change within a cluster
      label_keys_ = WorkloadSelectorKeys(cluster);
      label_keys_for_ = cluster.id();
    }
    cycle->cc = FindClassCache(EquivalenceKey(cycle->pod, &label_keys_));
  }
  if (cycle->cc != nullptr) {
    SyncClassCache(cycle);
    // Nominated pods change what fits without changing any node: the index,
    // which follows node changes, is not asked then.
    if (!record_details && cycle->nominations.empty()) {
      NodeId chosen = DecideFromIndex(cycle);
      if (chosen != kNoNode) {
        tree->Advance(num_nodes);  // a whole round from its start: no change
        ++index_decisions_;
        result->chosen = chosen;
        result->scored = true;
        return;
      }
    }
    FilterWithClassCache(cycle, tree);
  } else if (to_find >= num_nodes) {
    FilterAllNodes(cycle, tree);
  } else {
    FilterUntilEnough(cycle, tree, to_find, result);
  }
}

void GenericScheduler::SyncClassCache(Cycle* cycle) {
  ClassCache* cc = cycle->cc;
  const ClusterState& cluster = cycle->cluster;
  const CyclePredicates& preds = *cycle->predicates;
  const size_t num_nodes = cluster.num_nodes();
  const size_t prefix_end = preds.prefix_end();
  auto compute_prefix = [&](NodeId n, ReasonList* rl) {
    rl->Clear();
    uint16_t ff = 0;
    bool fits = preds.Run(0, prefix_end, cluster.node_info(n), rl, &ff,
                          config_.always_check_all_predicates);
    cc->prefix_fits[n] = fits ? 1 : 0;
    cc->first_failed[n] = ff;
    cc->reasons[n].assign(rl->reasons().begin(), rl->reasons().end());
    cc->maps_valid[n] = 0;
  };
  bool reusable = cc->cluster_id == cluster.id() && cc->active == preds.active_flags() &&
                  cc->prefix_end == prefix_end && cc->generation <= cluster.generation() &&
                  cc->prefix_fits.size() == num_nodes;
  if (reusable) {
    ++cache_hits_;
    const std::vector<NodeId>& log = cluster.change_log();
    for (uint64_t g = cc->generation; g < cluster.generation(); ++g) {
      compute_prefix(log[g], &reasons_);
    }
  } else {
    cc->cluster_id = cluster.id();
    cc->active = preds.active_flags();
    cc->prefix_end = prefix_end;
    cc->prefix_fits.assign(num_nodes, 0);
    cc->first_failed.assign(num_nodes, 0);
    cc->reasons.assign(num_nodes, {});
    cc->maps_valid.assign(num_nodes, 0);
    cc->index_ready = false;
    cc->maps.assign(config_.priorities.size(), {});
    for (size_t p = 0; p < config_.priorities.size(); ++p)
      if (config_.priorities[p].priority->NodeLocalMap()) cc->maps[p].assign(num_nodes, 0);
    ParallelFor(
        num_nodes,
        [&](size_t begin, size_t end) {
          ReasonList rl;
          for (size_t n = begin; n < end; ++n) compute_prefix(static_cast<NodeId>(n), &rl);
        },
        parallel_);
  }
  cc->generation = cluster.generation();
}

NodeId GenericScheduler::DecideFromIndex(Cycle* cycle) {
  ClassCache* cc = cycle->cc;
  const ClusterState& cluster = cycle->cluster;
  const CyclePredicates& preds = *cycle->predicates;
  std::vector<ScoreIndex::Term> terms;
  DomainWeights domains;
  if (tie_break_ != TieBreak::kName || !config_.extenders.empty() ||
      !IndexCanScore(cc, cycle->target, cluster, &terms, &domains)) {
    return kNoNode;
  }
  // Predicates that are not node-local run on every node that passed the
  // cached ones; the index then hears of each node whose verdict moved.
  const size_t num_nodes = cluster.num_nodes();
  const size_t prefix_end = preds.prefix_end();
  const size_t np = preds.size();
  const bool has_suffix = prefix_end < np;
  if (has_suffix) {
    // Predicates that can decide every node at once do; otherwise each node
    // that passed the cached ones runs them.
    suffix_fits_.assign(cc->prefix_fits.begin(), cc->prefix_fits.end());
    bool all_at_once = true;
    for (size_t p = prefix_end; p < np && all_at_once; ++p) {
      if (!preds.active(p)) continue;
      all_at_once = config_.predicates[p].predicate->CheckAll(cycle->target, preds.state(p),
                                                              cluster, suffix_fits_);
    }
    if (!all_at_once) {
      suffix_fits_.assign(num_nodes, 0);
      ParallelFor(
          num_nodes,
          [&](size_t begin, size_t end) {
            ReasonList rl;
            for (size_t n = begin; n < end; ++n) {
              if (!cc->prefix_fits[n]) continue;
              rl.Clear();
              uint16_t ff = 0;
              suffix_fits_[n] = preds.Run(prefix_end, np, cluster.node_info(static_cast<NodeId>(n)),
                                          &rl, &ff, config_.always_check_all_predicates)
                                    ? 1
                                    : 0;
            }
          },
          parallel_);
    }
  }
  return ChooseFromIndex(cc, cycle->target, cluster, std::move(terms), domains,
                         has_suffix ? &suffix_fits_ : nullptr);
}

void GenericScheduler::FilterWithClassCache(Cycle* cycle, NodeTree* tree) {
  ClassCache* cc = cycle->cc;
  const ClusterState& cluster = cycle->cluster;
  const CyclePredicates& preds = *cycle->predicates;
  const size_t np = preds.size();
  const size_t prefix_end = preds.prefix_end();
  const bool has_suffix = prefix_end < np;
  const bool check_all = config_.always_check_all_predicates;
  for (NodeId id : tree->CycleOrder()) {
    if (!cycle->nominations.empty() && cycle->nominations.ForNode(id) != nullptr) {
      // Nominated pods make this node's answer differ from the cached one.
      reasons_.Clear();
      uint16_t ff = 0;
      if (PodFitsOnNode(preds, cluster.node_info(id), cycle->nominations, &reasons_, &ff,
                        check_all)) {
        cycle->feasible->push_back(id);
      } else {
        cycle->AddFailure(id, ff, &reasons_.reasons(), nullptr);
      }
      continue;
    }
    bool prefix_ok = cc->prefix_fits[id] != 0;
    bool suffix_ok = true;
    uint16_t ff = 0;
    bool ran_suffix = false;
    if (has_suffix && (prefix_ok || check_all)) {
      reasons_.Clear();
      suffix_ok = preds.Run(prefix_end, np, cluster.node_info(id), &reasons_, &ff, check_all);
      ran_suffix = true;
    }
    if (prefix_ok && suffix_ok) {
      cycle->feasible->push_back(id);
    } else {
      cycle->AddFailure(id, prefix_ok ? ff : cc->first_failed[id],
                        prefix_ok ? nullptr : &cc->reasons[id],
                        ran_suffix && !suffix_ok ? &reasons_.reasons() : nullptr);
    }
  }
  tree->Advance(tree->num_nodes());  // a whole round from its start: no change
}

void GenericScheduler::FilterAllNodes(Cycle* cycle, NodeTree* tree) {
  // The walk visits every node: evaluate them in parallel, then collect in
  // walk order.
  const ClusterState& cluster = cycle->cluster;
  const CyclePredicates& preds = *cycle->predicates;
  const size_t num_nodes = tree->num_nodes();
  std::vector<NodeId>& order = walk_;
  tree->Peek(num_nodes, &order);
  tree->Advance(num_nodes);
  node_fits_.resize(num_nodes);
  node_first_failed_.resize(num_nodes);
  if (node_reasons_.size() < num_nodes) node_reasons_.resize(num_nodes);
  ParallelFor(
      num_nodes,
      [&](size_t begin, size_t end) {
        ReasonList rl;
        for (size_t i = begin; i < end; ++i) {
          rl.Clear();
          uint16_t ff = 0;
          node_fits_[i] = PodFitsOnNode(preds, cluster.node_info(order[i]), cycle->nominations, &rl,
                                        &ff, config_.always_check_all_predicates)
                              ? 1
                              : 0;
          node_first_failed_[i] = ff;
          node_reasons_[i].assign(rl.reasons().begin(), rl.reasons().end());
        }
      },
      parallel_);
  for (size_t i = 0; i < num_nodes; ++i) {
    if (node_fits_[i]) {
      cycle->feasible->push_back(order[i]);
    } else {
      cycle->AddFailure(order[i], node_first_failed_[i], &node_reasons_[i], nullptr);
    }
  }
}

void GenericScheduler::FilterUntilEnough(Cycle* cycle, NodeTree* tree, size_t to_find,
                                         ScheduleResult* result) {
  const ClusterState& cluster = cycle->cluster;
  const size_t num_nodes = tree->num_nodes();
  for (size_t i = 0; i < num_nodes; ++i) {
    NodeId id = tree->Next();
    reasons_.Clear();
    uint16_t ff = 0;
    if (PodFitsOnNode(*cycle->predicates, cluster.node_info(id), cycle->nominations, &reasons_, &ff,
                      config_.always_check_all_predicates)) {
      // Upstream counts the node that would exceed the quota, then discards
      // it and stops: that node is walked but not kept.
      if (result->feasible.size() + 1 > to_find) break;
      result->feasible.push_back(id);
    } else {
      cycle->AddFailure(id, ff, &reasons_.reasons(), nullptr);
    }
  }
}

bool GenericScheduler::ExtendersFilter(const Pod& pod, const ClusterState& cluster,
                                       ScheduleResult* result) {
  if (result->feasible.empty()) return true;
  for (auto& ext : config_.extenders) {
    if (!ext->HasFilter() || !ext->IsInterested(pod)) continue;
    auto filtered = ext->Filter(pod, result->feasible, cluster);
    if (!filtered.ok()) {
      if (ext->IsIgnorable()) continue;
      result->feasible.clear();
      result->failures.clear();
      result->unknown_node_failures.clear();
      result->error = filtered.error().message;
      return false;
    }
    if (!filtered->failed.empty() || !filtered->failed_unknown.empty()) {
      // Where each failed node already is in result->failures; a map, so
      // that thousands of extender failures cost no quadratic search.
      std::unordered_map<NodeId, size_t> position;
      position.reserve(result->failures.size() + filtered->failed.size());
      for (size_t i = 0; i < result->failures.size(); ++i) position[result->failures[i].node] = i;
      for (auto& [node, reason] : filtered->failed) {
        auto [it, added] = position.try_emplace(node, result->failures.size());
        if (added) {
          result->failures.push_back(NodeFailure{node, {std::move(reason)}, ext->Name()});
        } else {
          result->failures[it->second].reasons.push_back(std::move(reason));
        }
      }
      auto& unknown = result->unknown_node_failures;
      std::unordered_map<std::string, size_t> unknown_position;
      for (size_t i = 0; i < unknown.size(); ++i) unknown_position[unknown[i].first] = i;
      for (auto& [name, reason] : filtered->failed_unknown) {
        auto [it, added] = unknown_position.try_emplace(name, unknown.size());
        if (added) {
          unknown.emplace_back(std::move(name), std::vector<std::string>{std::move(reason)});
        } else {
          unknown[it->second].second.push_back(std::move(reason));
        }
      }
    }
    result->feasible = std::move(filtered->nodes);
    if (result->feasible.empty()) break;
  }
  return true;
}

// ---------------------------------------------------------------- score

void GenericScheduler::PrioritizeNodes(Cycle* cycle, bool record_details, ScheduleResult* result) {
  const ClusterState& cluster = cycle->cluster;
  const PodToSchedule& target = cycle->target;
  ClassCache* cc = cycle->cc;
  const std::vector<NodeId>& nodes = result->feasible;
  const size_t npr = config_.priorities.size();
  result->scored = true;
  result->totals.assign(nodes.size(), 0);
  if (npr == 0 && config_.extenders.empty()) {
    // Upstream's EqualPriorityMap: every node scores 1.
    std::fill(result->totals.begin(), result->totals.end(), 1);
  }
  PreparePriorities(target, cluster);
  const std::vector<std::unique_ptr<PriorityState>>& pstates = pstates_;
  if (cc != nullptr) {
    // Raw map scores of node-local priorities, for nodes changed since they
    // were last computed for this class.
    ParallelFor(
        nodes.size(),
        [&](size_t begin, size_t end) {
          for (size_t i = begin; i < end; ++i) EnsureMaps(cc, target, cluster, nodes[i]);
        },
        parallel_);
  }
  result->priority_scores.resize(npr);
  for (size_t p = 0; p < npr; ++p) {
    const PriorityConfig& pc = config_.priorities[p];
    const Priority& prio = *pc.priority;
    std::vector<int64_t>& scores = result->priority_scores[p];
    scores.resize(nodes.size());
    if (cc != nullptr && prio.NodeLocalMap()) {
      const std::vector<int64_t>& cached = cc->maps[p];
      for (size_t i = 0; i < nodes.size(); ++i) scores[i] = cached[nodes[i]];
    } else {
      ParallelFor(
          nodes.size(),
          [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i)
              scores[i] = prio.Map(target, pstates[p].get(), cluster, nodes[i]);
          },
          parallel_);
    }
    prio.Reduce(target, pstates[p].get(), cluster, nodes, scores);
    const int64_t w = pc.weight;
    int64_t* totals = result->totals.data();
    const int64_t* sc = scores.data();
    // Go's int arithmetic wraps; these sums do too (a priority fed wrapped
    // resource sums can score far outside 0-10), and C++ must not overflow.
    for (size_t i = 0; i < nodes.size(); ++i)
      totals[i] = goarith::Add(totals[i], goarith::Mul(sc[i], w));
  }
  if (!record_details) result->priority_scores.clear();
  std::vector<int32_t> position;  // index in `nodes` by NodeId, built on first use
  for (auto& ext : config_.extenders) {
    if (!ext->HasPrioritize() || !ext->IsInterested(cycle->pod)) continue;
    auto scores = ext->Prioritize(cycle->pod, nodes, cluster);
    if (!scores.ok()) continue;  // upstream ignores prioritize errors
    // An extender's scores and weight are whatever its reply and the Policy
    // say: the sum wraps as upstream's does.
    if (position.empty()) {
      position.assign(cluster.num_nodes(), -1);
      for (size_t i = 0; i < nodes.size(); ++i) position[nodes[i]] = static_cast<int32_t>(i);
    }
    for (const auto& [node, score] : *scores) {
      if (node >= position.size() || position[node] < 0) continue;
      int64_t& total = result->totals[static_cast<size_t>(position[node])];
      total = goarith::Add(total, goarith::Mul(score, ext->Weight()));
    }
  }
}

NodeId GenericScheduler::SelectHost(const ClusterState& cluster, const std::vector<NodeId>& nodes,
                                    const std::vector<int64_t>& totals) {
  int64_t best = *std::max_element(totals.begin(), totals.end());
  if (tie_break_ == TieBreak::kRoundRobin) {
    size_t count = 0;
    for (int64_t t : totals) count += t == best ? 1 : 0;
    size_t ix = last_node_index_ % count;
    ++last_node_index_;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (totals[i] != best) continue;
      if (ix-- == 0) return nodes[i];
    }
    return kNoNode;  // not reached
  }
  const std::vector<uint32_t>& rank = cluster.name_rank();
  NodeId chosen = kNoNode;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (totals[i] != best) continue;
    if (chosen == kNoNode || rank[nodes[i]] < rank[chosen]) chosen = nodes[i];
  }
  return chosen;
}

}  // namespace ksched
