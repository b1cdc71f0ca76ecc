#include "framework/schedule_one.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <map>
#include <type_traits>
#include <unordered_map>

#include "api/intern.h"
#include "framework/runtime/metrics_recorder.h"
#include "framework/runtime/parallelize.h"

namespace ksched::framework {
namespace {

// Upstream's minFeasibleNodesToFind and minFeasibleNodesPercentageToFind.
constexpr int32_t kMinFeasibleNodesToFind = 100;
constexpr int32_t kMinFeasibleNodesPercentageToFind = 5;
// framework.MaxNodeScore / extenderv1.MaxExtenderPriority.
constexpr int64_t kExtenderScale = kMaxNodeScore / 10;

// The snapshot's node list as upstream's nodeTree.list() builds it: zones
// (ClusterState::zone126_index, the "" key one of them) in the order their
// first node appeared, one node of each zone in turn.
std::vector<NodeId> NodeTreeList(const ClusterState& cluster) {
  std::vector<std::vector<NodeId>> zones;
  std::vector<int32_t> position(cluster.num_zones126() + 1, -1);
  for (NodeId id = 0; id < cluster.num_nodes(); ++id) {
    int32_t& at = position[cluster.zone126_index(id)];
    if (at < 0) {
      at = static_cast<int32_t>(zones.size());
      zones.emplace_back();
    }
    zones[static_cast<size_t>(at)].push_back(id);
  }
  std::vector<NodeId> out;
  out.reserve(cluster.num_nodes());
  for (size_t k = 0; out.size() < cluster.num_nodes(); ++k)
    for (const auto& zone : zones)
      if (k < zone.size()) out.push_back(zone[k]);
  return out;
}

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace

std::string FitErrorMessage(size_t num_all_nodes, const std::string& pre_filter_msg,
                            const NodeToStatusMap& failures,
                            const std::vector<std::pair<std::string, Status>>& unknown_failures,
                            const std::string& post_filter_msg, config::SchedulerVersion version,
                            const Status* absent) {
  const bool v135 = version >= config::SchedulerVersion::kV135;
  std::string msg = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!pre_filter_msg.empty()) msg += " " + pre_filter_msg + ".";
  // v1.35 gives every node a PreFilter rejection's status, and so leaves
  // out the histogram, which would repeat it.
  if (!v135 || pre_filter_msg.empty()) {
    std::map<std::string_view, int64_t> counts;
    for (const NodeStatus& f : failures)
      for (const std::string& reason : f.status.reasons()) ++counts[reason];
    for (const auto& [name, status] : unknown_failures)
      for (const std::string& reason : status.reasons()) ++counts[reason];
    const size_t explicit_nodes = failures.size() + unknown_failures.size();
    if (v135 && absent != nullptr && explicit_nodes < num_all_nodes) {
      for (const std::string& reason : absent->reasons())
        counts[reason] += static_cast<int64_t>(num_all_nodes - explicit_nodes);
    }
    std::vector<std::string> histogram;
    histogram.reserve(counts.size());
    for (const auto& [reason, count] : counts)
      histogram.push_back(std::to_string(count) + " " + std::string(reason));
    std::sort(histogram.begin(), histogram.end());
    if (!histogram.empty()) {
      msg += " ";
      for (size_t i = 0; i < histogram.size(); ++i) {
        if (i) msg += ", ";
        msg += histogram[i];
      }
      msg += ".";
    }
  }
  if (!post_filter_msg.empty()) msg += " " + post_filter_msg + (v135 ? "" : ".");
  return msg;
}

std::string CycleFitError(const CycleResult& r, const std::string& post_filter_msg) {
  const config::SchedulerVersion version = r.framework != nullptr
                                               ? r.framework->feature_gates().version
                                               : config::SchedulerVersion::kV126;
  return FitErrorMessage(r.num_all_nodes, r.pre_filter_msg, r.failures, r.unknown_failures,
                         post_filter_msg, version, &r.absent_status);
}

NodeToStatusMap PostFilterStatuses(const CycleResult& r, size_t num_nodes) {
  NodeToStatusMap out = r.failures;
  if (r.framework == nullptr ||
      !r.framework->feature_gates().AtLeast(config::SchedulerVersion::kV135))
    return out;
  std::vector<uint8_t> listed(num_nodes, 0);
  for (const NodeStatus& ns : r.failures)
    if (ns.node < num_nodes) listed[ns.node] = 1;
  for (NodeId n = 0; n < num_nodes; ++n)
    if (!listed[n]) out.push_back({n, r.absent_status});
  return out;
}

Result<std::unique_ptr<Scheduler>> Scheduler::New(
    const config::KubeSchedulerConfiguration& cfg, const FrameworkOptions& framework_options,
    SchedulerOptions options, std::vector<std::unique_ptr<SchedulerExtender>> extenders) {
  std::unique_ptr<Scheduler> s(new Scheduler());
  s->options_ = options;
  s->extenders_ = std::move(extenders);
  s->rng_.seed(options.seed);
  std::string queue_sort;
  FrameworkOptions fw_options = framework_options;
  fw_options.extenders = &s->extenders_;
  fw_options.reuse_between_cycles = options.reuse_node_results;
  for (const config::Profile& profile : cfg.profiles) {
    auto f = Framework::New(profile, fw_options);
    if (!f.ok()) {
      return MakeError("creating profile for scheduler name " + profile.scheduler_name + ": " +
                       f.error().message);
    }
    // profile.NewMap's checks.
    if (profile.scheduler_name.empty()) return MakeError("scheduler name is needed");
    if (s->by_name_.count(profile.scheduler_name)) {
      return MakeError("duplicate profile with scheduler name " + Quote(profile.scheduler_name));
    }
    std::string qs = (*f)->PluginNames(ExtensionPoint::kQueueSort).front();
    if (queue_sort.empty()) {
      queue_sort = qs;
    } else if (qs != queue_sort) {
      return MakeError("different queue sort plugins for profile " + Quote(profile.scheduler_name) +
                       ": " + Quote(qs) + ", first: " + Quote(queue_sort));
    }
    s->by_name_[profile.scheduler_name] = f->get();
    s->profiles_.push_back(std::move(f).value());
  }
  return s;
}

Framework* Scheduler::FrameworkForPod(const Pod& pod) const {
  // An undefaulted pod is the API's default-scheduler pod.
  static const std::string kDefault = "default-scheduler";
  const std::string& name = pod.spec.scheduler_name.empty() ? kDefault : pod.spec.scheduler_name;
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

ClusterEventMap Scheduler::ClusterEvents() const {
  ClusterEventMap map;
  for (const auto& fwk : profiles_) fwk->RegisterClusterEvents(&map);
  return map;
}

void Scheduler::SetAsyncPreemptions(const AsyncPreemptions* preemptions) {
  for (const auto& fwk : profiles_) fwk->SetAsyncPreemptions(preemptions);
}

QueueingHintMaps Scheduler::QueueingHints() const {
  QueueingHintMaps maps;
  for (const auto& fwk : profiles_)
    fwk->RegisterQueueingHints(&maps[fwk->profile_name()], !extenders_.empty());
  return maps;
}

void Scheduler::SetCluster(const ClusterState* cluster) {
  cluster_ = cluster;
  for (auto& f : profiles_) f->SetCluster(cluster);
}

void Scheduler::SetMetricsRecorder(MetricsRecorder* recorder) {
  for (auto& f : profiles_) f->SetMetricsRecorder(recorder);
}

void Scheduler::SetNominated(const NominatedPods* nominated) {
  for (auto& f : profiles_) f->SetNominated(nominated);
}

const std::vector<NodeId>& Scheduler::NodeOrder() {
  if (cluster_->id() != order_cluster_id_ || cluster_->num_nodes() != order_num_nodes_) {
    node_order_ = NodeTreeList(*cluster_);
    node_order_twice_ = node_order_;
    node_order_twice_.insert(node_order_twice_.end(), node_order_.begin(), node_order_.end());
    // Each node's position, when the order holds every node once.
    node_pos_.assign(cluster_->num_nodes(), UINT32_MAX);
    for (size_t i = 0; i < node_order_.size(); ++i)
      if (node_order_[i] < node_pos_.size()) node_pos_[node_order_[i]] = static_cast<uint32_t>(i);
    if (node_order_.size() != node_pos_.size() ||
        std::count(node_pos_.begin(), node_pos_.end(), UINT32_MAX) != 0)
      node_pos_.clear();
    order_cluster_id_ = cluster_->id();
    order_num_nodes_ = cluster_->num_nodes();
    for (const std::unique_ptr<Framework>& fwk : profiles_)
      fwk->SetWalkPositions(node_pos_.empty() ? nullptr : &node_pos_);
  }
  return node_order_;
}

int32_t Scheduler::NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage,
                                          int32_t num_all_nodes) const {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  int32_t percentage =
      profile_percentage ? *profile_percentage : options_.percentage_of_nodes_to_score.value_or(0);
  if (percentage == 0) {
    percentage = 50 - num_all_nodes / 125;
    if (percentage < kMinFeasibleNodesPercentageToFind)
      percentage = kMinFeasibleNodesPercentageToFind;
  }
  int32_t num = static_cast<int32_t>(int64_t{num_all_nodes} * percentage / 100);
  return num < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : num;
}

void Scheduler::RecordFailure(CycleResult* r, NodeId node, Status status) {
  // Sorted and made unique at the end of the cycle; a plugin seen already
  // (most failures share a few) is not added again.
  const std::string& plugin = status.failed_plugin();
  if (!plugin.empty() && std::find(r->unschedulable_plugins.begin(), r->unschedulable_plugins.end(),
                                   plugin) == r->unschedulable_plugins.end())
    r->unschedulable_plugins.push_back(plugin);
  int32_t& at = failure_index_[node];
  if (at >= 0) {
    r->failures[static_cast<size_t>(at)].status = std::move(status);
    return;
  }
  at = static_cast<int32_t>(r->failures.size());
  r->failures.push_back(NodeStatus{node, std::move(status)});
}

Scheduler::KeptWalk Scheduler::WalkKeptVerdicts(Framework* fwk, const Pod& pod,
                                                const Framework::KeptVerdicts& kv,
                                                const NodeId* ids, const uint32_t* positions,
                                                size_t count, size_t n, size_t to_find,
                                                CycleResult* r, std::vector<NodeId>* feasible) {
  const size_t found_before = feasible->size();
  size_t found = found_before;
  // Written through a pointer (push_back's growth check would be most of
  // the loop); at most to_find nodes are added.
  feasible->resize(found + std::min(count, to_find > found ? to_find - found : 0));
  NodeId* out = feasible->data();
  // The plugins that run this cycle answer a block of the walk at a time,
  // also for nodes an earlier plugin rejects: their batch forms only read.
  constexpr size_t kBlock = 128;
  Code now[Framework::kMaxRunNow][kBlock];
  // The walk, compiled apart for cycles where no plugin runs (most), whose
  // loop is then a read of the kept verdict per node, and for one plugin.
  // It stops at ids[k] (returned), the feasible node after the to_find-th
  // or an Error, or after the last (count).
  struct Stop {
    KeptWalk how;
    size_t at;
  };
  auto run = [&](auto fixed_count) -> Stop {
    constexpr int kFixed = decltype(fixed_count)::value;  // -1: any count
    const size_t num_run_now = kFixed >= 0 ? static_cast<size_t>(kFixed) : kv.num_run_now;
    for (size_t b = 0; b < count; b += kBlock) {
      const size_t m = std::min(kBlock, count - b);
      for (size_t j = 0; j < num_run_now; ++j) {
        if (!fwk->RunNowFilterCodes(j, r->state, pod, ids + b, m, now[j]))
          return {KeptWalk::kDeclined, b};
      }
      for (size_t k = 0; k < m; ++k) {
        const NodeId id = ids[b + k];
        Code code;
        const int16_t fail_at = kv.fail_at[id];
        if (fail_at != Framework::KeptVerdicts::kNotKept) {
          const int32_t fail = fail_at < 0 ? INT32_MAX : fail_at;
          code = fail == INT32_MAX ? Code::kSuccess : Code::kUnschedulable;
          // As RunFilterPlugins: the first plugin in order that does not pass.
          for (size_t j = 0; j < num_run_now && static_cast<int32_t>(kv.run_now[j]) < fail; ++j) {
            const Code c = now[j][k];
            if (c == Code::kSuccess) continue;
            code = c == Code::kUnschedulable || c == Code::kUnschedulableAndUnresolvable
                       ? c
                       : Code::kError;
            break;
          }
        } else {
          code = fwk->FilterCodeCached(r->state, pod, id);
        }
        if (code == Code::kError) return {KeptWalk::kError, b + k};
        if (code != Code::kSuccess) continue;
        if (found >= to_find) return {KeptWalk::kDone, b + k};  // the next feasible node seen
        out[found++] = id;
      }
    }
    return {KeptWalk::kDone, count};
  };
  const Stop stop = kv.num_run_now == 0   ? run(std::integral_constant<int, 0>{})
                    : kv.num_run_now == 1 ? run(std::integral_constant<int, 1>{})
                                          : run(std::integral_constant<int, -1>{});
  if (stop.how == KeptWalk::kDeclined) {
    feasible->resize(found_before);
    return stop.how;
  }
  // Every node walked before the stop that is not feasible failed (those
  // not listed included).
  const size_t walked =
      stop.at == count ? n : (positions != nullptr ? positions[stop.at] : stop.at);
  feasible->resize(found);
  lean_failed_nodes_ += walked - (found - found_before);
  return stop.how;
}

Scheduler::KeptWalk Scheduler::WalkKeptInOrder(Framework* fwk, const Pod& pod,
                                               const Framework::KeptVerdicts& kv, size_t start,
                                               size_t n, size_t to_find, CycleResult* r,
                                               std::vector<NodeId>* feasible) {
  const size_t found_before = feasible->size();
  size_t found = found_before;
  feasible->resize(found + std::min(n, to_find > found ? to_find - found : 0));
  NodeId* out = feasible->data();
  const NodeId* walk = node_order_twice_.data() + start;
  const int16_t* fail_at = kv.fail_at_by_pos;
  // The node at walk step k (position `pos`) passes or has no kept verdict:
  // false to stop there (`how`).
  KeptWalk how = KeptWalk::kDone;
  auto visit = [&](size_t pos, size_t k) {
    const NodeId id = walk[k];
    const Code code = fail_at[pos] == Framework::KeptVerdicts::kNotKept
                          ? fwk->FilterCodeCached(r->state, pod, id)
                          : Code::kSuccess;
    if (code == Code::kError) {
      how = KeptWalk::kError;
      return false;
    }
    if (code != Code::kSuccess) return true;
    if (found >= to_find) return false;  // the next feasible node seen
    out[found++] = id;
    return true;
  };
  // Positions start..n-1, then 0..start-1; most hold a kept failure (>= 0),
  // skipped eight at a time.
  size_t stop = n;  // walk steps before the stop
  for (size_t seg = 0; seg < 2 && stop == n; ++seg) {
    const size_t first = seg == 0 ? start : 0, end = seg == 0 ? n : start;
    const size_t step0 = seg == 0 ? 0 : n - start;  // walk step of position `first`
    size_t pos = first;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i passes = _mm_set1_epi16(-1);
    for (; pos + 8 <= end && stop == n; pos += 8) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(fail_at + pos));
      // Eight kept passes while more than eight nodes are still to find:
      // their ids as they stand.
      if (_mm_movemask_epi8(_mm_cmpeq_epi16(v, passes)) == 0xffff && found + 8 <= to_find) {
        std::copy_n(walk + (step0 + pos - first), 8, out + found);
        found += 8;
        continue;
      }
      // Two bits per negative entry; the even one of each pair kept.
      unsigned bits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmplt_epi16(v, zero))) & 0x5555u;
      for (; bits != 0; bits &= bits - 1) {
        const size_t p = pos + static_cast<size_t>(std::countr_zero(bits)) / 2;
        if (!visit(p, step0 + p - first)) {
          stop = step0 + p - first;
          break;
        }
      }
    }
#endif
    for (; pos < end && stop == n; ++pos) {
      if (fail_at[pos] >= 0) continue;
      if (!visit(pos, step0 + pos - first)) stop = step0 + pos - first;
    }
  }
  // Every node walked before the stop that is not feasible failed.
  feasible->resize(found);
  lean_failed_nodes_ += stop - (found - found_before);
  return how;
}

bool Scheduler::CandidateWalk(Framework* fwk, const CycleResult& r,
                              const Framework::KeptVerdicts& kv, size_t start, size_t n,
                              size_t to_find) {
  // Worth it when the plugin leaves few nodes: all of them are then likely
  // looked at anyway (fewer than to_find), or the list is far shorter than
  // the walk.
  candidates_.clear();
  if (kv.num_run_now != 1 || node_pos_.size() != n ||
      !fwk->RunNowCandidates(0, r.state, &candidates_))
    return false;
  if (candidates_.size() > to_find && candidates_.size() * 8 > n) return false;
  // The listed nodes and those without a kept verdict (any plugin may
  // answer for them, an Error included), by position in the walk: a bit
  // per position, read back in order.
  walk_marks_.assign((n + 63) / 64, 0);
  auto mark = [&](NodeId id) {
    size_t pos = node_pos_[id] >= start ? node_pos_[id] - start : node_pos_[id] + n - start;
    walk_marks_[pos / 64] |= uint64_t{1} << (pos % 64);
  };
  for (NodeId id : candidates_) mark(id);
  for (const uint8_t* p = kv.kept;
       (p = static_cast<const uint8_t*>(std::memchr(p, 0, static_cast<size_t>(kv.kept + n - p))));
       ++p)
    mark(static_cast<NodeId>(p - kv.kept));
  candidates_.clear();
  candidate_pos_.clear();
  const NodeId* walk = node_order_twice_.data() + start;
  for (size_t w = 0; w < walk_marks_.size(); ++w) {
    for (uint64_t bits = walk_marks_[w]; bits != 0; bits &= bits - 1) {
      const uint32_t pos =
          static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
      candidate_pos_.push_back(pos);
      candidates_.push_back(walk[pos]);
    }
  }
  return true;
}

bool Scheduler::FindNodesThatPassFilters(Framework* fwk, const Pod& pod,
                                         const std::vector<NodeId>& nodes, CycleResult* r,
                                         std::vector<NodeId>* feasible, std::string* error) {
  const size_t n = nodes.size();
  size_t to_find = static_cast<size_t>(
      NumFeasibleNodesToFind(fwk->percentage_of_nodes_to_score(), static_cast<int32_t>(n)));
  // v1.35: with nothing to score the nodes with (no score plugin, no
  // prioritizing or filtering extender), the first feasible node will do.
  if (fwk->feature_gates().AtLeast(config::SchedulerVersion::kV135) && !fwk->HasScorePlugins()) {
    bool extender_needs_more = false;
    for (const auto& ext : extenders_)
      extender_needs_more = extender_needs_more || ext->HasFilter() || ext->HasPrioritize();
    if (!extender_needs_more) to_find = std::min<size_t>(to_find, 1);
  }
  const size_t start = next_start_node_index_;
  auto at = [&](size_t i) { return nodes[(start + i) % n]; };
  if (!fwk->HasFilterPlugins()) {
    for (size_t i = 0; i < to_find; ++i) feasible->push_back(at(i));
    return true;
  }
  // Nodes are filtered in parallel a chunk at a time and the verdicts read
  // in order, as one worker would: after the to_find-th feasible node the
  // walk goes on (failures still count) until the next feasible one, which
  // upstream's counter drops before it cancels the search.
  // Statuses are written only for nodes that fail; the scratch vectors
  // live from cycle to cycle.
  std::vector<Status>& statuses = filter_statuses_;
  std::vector<uint8_t>& passed = filter_passed_;
  size_t i = 0;
  if (lean_) {
    // Codes only: failing nodes are counted, not recorded (see SchedulePod).
    std::vector<Code>& codes = filter_codes_;
    // The nodes in walk order, so that a range of them is contiguous: the
    // snapshot's order is kept twice in a row, any other list is copied.
    const NodeId* walk = nullptr;
    if (&nodes == &node_order_ && node_order_twice_.size() == 2 * n) {
      walk = node_order_twice_.data() + start;
    } else {
      filter_walk_.resize(n);
      std::copy(nodes.begin() + static_cast<std::ptrdiff_t>(start), nodes.end(),
                filter_walk_.begin());
      std::copy(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(start),
                filter_walk_.begin() + static_cast<std::ptrdiff_t>(n - start));
      walk = filter_walk_.data();
    }
    feasible->reserve(std::min(n, to_find + 1));
    // Most cycles of a class decide every node from kept verdicts: one pass
    // over the walk, the few nodes without one (those the last cycles
    // changed) asked in place.
    if (const auto kv = fwk->KeptVerdictsForCycle(/*max_unkept=*/64)) {
      // A plugin that rejects all but a few nodes: those (with the nodes
      // lacking a kept verdict) are the walk; the others count as failures.
      const bool narrowed =
          &nodes == &node_order_ && CandidateWalk(fwk, *r, *kv, start, n, to_find);
      // Without a plugin beside the kept verdicts, they are read in walk
      // order (KeptVerdicts::fail_at_by_pos).
      const bool by_pos = !narrowed && kv->num_run_now == 0 && kv->fail_at_by_pos != nullptr &&
                          &nodes == &node_order_ && walk == node_order_twice_.data() + start;
      const KeptWalk done =
          narrowed ? WalkKeptVerdicts(fwk, pod, *kv, candidates_.data(), candidate_pos_.data(),
                                      candidates_.size(), n, to_find, r, feasible)
          : by_pos ? WalkKeptInOrder(fwk, pod, *kv, start, n, to_find, r, feasible)
                   : WalkKeptVerdicts(fwk, pod, *kv, walk, nullptr, n, n, to_find, r, feasible);
      switch (done) {
        case KeptWalk::kDone:
          return true;
        case KeptWalk::kError:
          lean_retry_ = true;  // the full run finds its message
          return false;
        case KeptWalk::kDeclined:
          break;  // a plugin asks node by node: the walk below
      }
    }
    while (i < n) {
      const size_t remaining = to_find > feasible->size() ? to_find - feasible->size() : 1;
      const size_t chunk = to_find >= n ? n - i : std::min(n - i, std::max<size_t>(remaining, 256));
      if (codes.size() < chunk) codes.resize(chunk);
      ParallelFor(chunk, [&](size_t b, size_t e) {
        fwk->FilterCodesCached(r->state, pod, walk + i + b, e - b, codes.data() + b);
      });
      // Counted in locals (the member and the vector's size are not kept
      // in registers across the loop's stores).
      // Feasible nodes are written through a pointer: at most to_find in all.
      size_t found = feasible->size(), failed = 0;
      feasible->resize(found + std::min(chunk, to_find > found ? to_find - found : 0));
      NodeId* out = feasible->data();
      const Code* code = codes.data();
      const NodeId* from = walk + i;
      for (size_t k = 0; k < chunk; ++k) {
        if (code[k] == Code::kSuccess) {
          if (found >= to_find) {
            feasible->resize(found);
            lean_failed_nodes_ += failed;
            return true;
          }
          out[found++] = from[k];
        } else if (code[k] == Code::kError) {
          feasible->resize(found);
          lean_failed_nodes_ += failed;
          lean_retry_ = true;  // the full run finds its message
          return false;
        } else {
          ++failed;
        }
      }
      feasible->resize(found);
      lean_failed_nodes_ += failed;
      i += chunk;
    }
    return true;
  }
  while (i < n) {
    const size_t remaining = to_find > feasible->size() ? to_find - feasible->size() : 1;
    const size_t chunk = to_find >= n ? n - i : std::min(n - i, std::max<size_t>(remaining, 256));
    if (statuses.size() < chunk) statuses.resize(chunk);
    if (passed.size() < chunk) passed.resize(chunk);
    ParallelFor(chunk, [&](size_t b, size_t e) {
      for (size_t k = b; k < e; ++k)
        passed[k] = fwk->RunFilterPluginsCached(r->state, pod, at(i + k), &statuses[k]);
    });
    for (size_t k = 0; k < chunk; ++k) {
      if (passed[k]) {
        if (feasible->size() >= to_find) return true;
        feasible->push_back(at(i + k));
        continue;
      }
      Status s = std::move(statuses[k]);
      statuses[k] = Status();
      if (s.IsError()) {
        *error = s.Message();
        return false;
      }
      RecordFailure(r, at(i + k), std::move(s));
    }
    i += chunk;
  }
  return true;
}

bool Scheduler::FindNodesThatPassFiltersTimed(Framework* fwk, const Pod& pod,
                                              const std::vector<NodeId>& nodes, CycleResult* r,
                                              std::vector<NodeId>* feasible, std::string* error) {
  // Upstream times the whole filtering of a node list (nominated pods
  // included), when there are filter plugins: Error or Success.
  MetricsRecorder* m = fwk->HasFilterPlugins() ? fwk->metrics_recorder() : nullptr;
  if (m == nullptr) return FindNodesThatPassFilters(fwk, pod, nodes, r, feasible, error);
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = FindNodesThatPassFilters(fwk, pod, nodes, r, feasible, error);
  m->ExtensionPoint(extension_points::kFilter, ok ? Code::kSuccess : Code::kError,
                    fwk->profile_name(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return ok;
}

bool Scheduler::FindNodesThatPassExtenders(const Pod& pod, std::vector<NodeId>* feasible,
                                           CycleResult* r, std::string* error) {
  for (auto& ext : extenders_) {
    if (feasible->empty()) break;
    if (!ext->IsInterested(pod)) continue;
    auto res = ext->Filter(pod, *feasible, *cluster_);
    if (!res.ok()) {
      if (ext->IsIgnorable()) continue;
      *error = res.error().message;
      return false;
    }
    // v1.26 adds an extender's reason to the node's status; v1.35 sets the
    // node's status to it (NodeToStatus.Set).
    const bool replace = r->framework != nullptr &&
                         r->framework->feature_gates().AtLeast(config::SchedulerVersion::kV135);
    for (const auto& [node, reason] : res->failed) {
      if (failure_index_[node] >= 0 && !replace) {
        r->failures[static_cast<size_t>(failure_index_[node])].status.AppendReason(reason);
      } else {
        RecordFailure(r, node, Status::Unschedulable(reason));
      }
    }
    for (const auto& [unknown_name, reason] : res->failed_unknown) {
      // clang 14 cannot capture a structured binding in a lambda.
      const std::string& name = unknown_name;
      auto it = std::find_if(r->unknown_failures.begin(), r->unknown_failures.end(),
                             [&](const auto& u) { return u.first == name; });
      if (it != r->unknown_failures.end() && replace) {
        it->second = Status::Unschedulable(reason);
      } else if (it != r->unknown_failures.end()) {
        it->second.AppendReason(reason);
      } else {
        r->unknown_failures.emplace_back(name, Status::Unschedulable(reason));
      }
    }
    // v1.35 counts "Extender" among the plugins that rejected the pod.
    if (replace && res->nodes.size() != feasible->size())
      r->unschedulable_plugins.push_back("Extender");
    *feasible = std::move(res->nodes);
  }
  return true;
}

void Scheduler::FindNodesThatFitPod(Framework* fwk, const Pod& pod, CycleResult* r,
                                    std::string* error) {
  // Only the detailed path records failures (the lean one counts them).
  if (!lean_) failure_index_.assign(cluster_->num_nodes(), -1);
  PreFilterResult pre;
  const bool v135 = fwk->feature_gates().AtLeast(config::SchedulerVersion::kV135);
  std::vector<std::string> with_nodes;
  Status s = fwk->RunPreFilterPlugins(&r->state, pod, &pre, &with_nodes);
  // v1.35: the plugins whose PreFilterResult narrowed the nodes count as
  // rejecting the pod (Diagnosis.UnschedulablePlugins).
  if (v135)
    r->unschedulable_plugins.insert(r->unschedulable_plugins.end(), with_nodes.begin(),
                                    with_nodes.end());
  if (!s.IsSuccess()) {
    if (!s.IsUnschedulable()) {
      *error = s.Message();
      return;
    }
    r->pre_filter_msg = s.Message();
    // v1.35: every node has the PreFilter's status (preemption reads it).
    if (v135) r->absent_status = Status(s.code(), s.reasons());
    if (!s.failed_plugin().empty()) r->unschedulable_plugins.push_back(s.failed_plugin());
    return;
  }
  r->pre_filter_node_names = pre.node_names;
  fwk->PlanCachedFilters(r->state);

  // A node nominated by an earlier preemption is likely the only one that
  // fits: it is tried first, alone.
  if (!pod.nominated_node_name.empty()) {
    NodeId nominated = cluster_->FindNode(pod.nominated_node_name);
    if (nominated != kNoNode) {
      std::vector<NodeId> feasible;
      std::string ignored;  // upstream logs an evaluation error and goes on
      size_t saved = next_start_node_index_;
      next_start_node_index_ = 0;
      bool ok = FindNodesThatPassFiltersTimed(fwk, pod, {nominated}, r, &feasible, &ignored);
      next_start_node_index_ = saved;
      if (ok && FindNodesThatPassExtenders(pod, &feasible, r, &ignored) && !feasible.empty()) {
        r->feasible = std::move(feasible);
        return;
      }
    }
  }

  // Every node: the snapshot's order itself, not a copy.
  std::vector<NodeId> listed;
  if (!pre.AllNodes()) {
    for (const std::string& name : *pre.node_names) {
      NodeId id = cluster_->FindNode(name);
      if (id == kNoNode) {
        if (v135) continue;  // v1.35 drops names the snapshot does not have
        *error = "nodeinfo not found for node name " + Quote(name);
        return;
      }
      listed.push_back(id);
    }
    if (v135) {
      // Go's %v of the sorted plugin names: [A B].
      std::string names;
      for (const std::string& n : with_nodes) names += (names.empty() ? "" : " ") + n;
      r->absent_status = Status::Unresolvable("node(s) didn't satisfy plugin(s) [" + names + "]");
    }
  }
  const std::vector<NodeId>& nodes = pre.AllNodes() ? NodeOrder() : listed;
  std::vector<NodeId> feasible;
  bool ok = nodes.empty() || FindNodesThatPassFiltersTimed(fwk, pod, nodes, r, &feasible, error);
  if (lean_retry_) return;
  // v1.35 advances over the whole snapshot (v1.26: over the nodes filtered).
  const size_t all = v135 ? cluster_->num_nodes() : nodes.size();
  if (all != 0) {
    size_t processed = feasible.size() + NumFailedNodes(*r);
    next_start_node_index_ = (next_start_node_index_ + processed) % all;
  }
  if (!ok) return;
  if (!FindNodesThatPassExtenders(pod, &feasible, r, error)) return;
  r->feasible = std::move(feasible);
}

bool Scheduler::PrioritizeNodes(Framework* fwk, const Pod& pod, CycleResult* r,
                                std::string* error) {
  const std::vector<NodeId>& nodes = r->feasible;
  const size_t n = nodes.size();
  r->scored = true;
  if (extenders_.empty() && !fwk->HasScorePlugins()) {
    r->totals.assign(n, 1);
  } else {
    Status s = fwk->RunPreScorePlugins(&r->state, pod, nodes);
    if (!s.IsSuccess()) {
      *error = s.Message();
      return false;
    }
    s = fwk->RunScorePlugins(r->state, pod, nodes, &r->plugin_scores, options_.reuse_node_results,
                             /*want_weighted=*/options_.record_details);
    if (!s.IsSuccess()) {
      *error = s.Message();
      return false;
    }
    if (options_.record_details) {
      r->totals = r->plugin_scores.total;
    } else {
      r->totals.swap(r->plugin_scores.total);  // only the totals are read
    }
    if (!extenders_.empty()) {
      std::unordered_map<NodeId, int64_t> combined;
      for (auto& ext : extenders_) {
        if (!ext->IsInterested(pod) || !ext->HasPrioritize()) continue;
        auto scores = ext->Prioritize(pod, nodes, *cluster_);
        if (!scores.ok()) continue;  // upstream ignores a failed Prioritize
        for (const auto& [node, score] : *scores) combined[node] += score * ext->Weight();
      }
      r->extender_scores.assign(n, 0);
      for (size_t i = 0; i < n; ++i) {
        auto it = combined.find(nodes[i]);
        int64_t add = it == combined.end() ? 0 : it->second * kExtenderScale;
        r->extender_scores[i] = add;
        r->totals[i] += add;
      }
    }
  }
  const auto& rank = cluster_->name_rank();
  if (!options_.record_details) {
    // Only the first in name order (the decision) is needed: the maximum,
    // then the smallest name among the nodes that reach it (nodes alike
    // score alike, so a one-pass search compared names on most nodes).
    if (n == 0) {
      r->max_nodes.push_back(kNoNode);
      return true;
    }
    // One pass without branches: many nodes tie at the maximum, in no
    // order a branch predictor follows.
    const int64_t* totals = r->totals.data();
    const NodeId* ids = nodes.data();
    const uint32_t* ranks = rank.data();
    int64_t max = totals[0];
    uint32_t best_rank = ranks[ids[0]];
    NodeId best = ids[0];
    for (size_t i = 1; i < n; ++i) {
      const int64_t t = totals[i];
      const uint32_t k = ranks[ids[i]];
      const bool better = (t > max) | ((t == max) & (k < best_rank));
      max = better ? t : max;
      best_rank = better ? k : best_rank;
      best = better ? ids[i] : best;
    }
    r->max_nodes.push_back(best);
    return true;
  }
  int64_t max = 0;
  for (size_t i = 0; i < n; ++i)
    if (i == 0 || r->totals[i] > max) max = r->totals[i];
  for (size_t i = 0; i < n; ++i)
    if (r->totals[i] == max) r->max_nodes.push_back(nodes[i]);
  SortByName(&r->max_nodes);
  return true;
}

void Scheduler::SortByName(std::vector<NodeId>* nodes) {
  const auto& rank = cluster_->name_rank();
  if (nodes->size() < 64) {
    std::sort(nodes->begin(), nodes->end(), [&](NodeId a, NodeId b) { return rank[a] < rank[b]; });
    return;
  }
  // Many ties (nodes alike score alike): ranks are 0..N-1, so mark them
  // and read them back in order.
  if (by_rank_.size() != rank.size() || by_rank_cluster_ != cluster_->id()) {
    by_rank_cluster_ = cluster_->id();
    by_rank_.assign(rank.size(), kNoNode);
    for (NodeId id = 0; id < rank.size(); ++id) by_rank_[rank[id]] = id;
  }
  rank_marks_.assign(rank.size(), 0);
  for (NodeId id : *nodes) rank_marks_[rank[id]] = 1;
  nodes->clear();
  for (size_t k = 0; k < rank_marks_.size(); ++k)
    if (rank_marks_[k]) nodes->push_back(by_rank_[k]);
}

NodeId Scheduler::SelectHost(const CycleResult& r) {
  if (options_.host_selection == HostSelection::kSmallestName) return r.max_nodes.front();
  if (r.framework != nullptr &&
      r.framework->feature_gates().AtLeast(config::SchedulerVersion::kV135))
    return HeapTop(r);
  // Upstream's reservoir sampling over the list in evaluation order.
  NodeId selected = r.feasible[0];
  int64_t max = r.totals[0];
  uint64_t count = 1;
  for (size_t i = 1; i < r.feasible.size(); ++i) {
    if (r.totals[i] > max) {
      max = r.totals[i];
      selected = r.feasible[i];
      count = 1;
    } else if (r.totals[i] == max) {
      ++count;
      if (std::uniform_int_distribution<uint64_t>(0, count - 1)(rng_) == 0)
        selected = r.feasible[i];
    }
  }
  return selected;
}

NodeId Scheduler::HeapTop(const CycleResult& r) {
  // v1.35 pops the top of a container/heap built over the feasible list:
  // higher total first, then the larger Randomizer, which is 0 unless an
  // extender scored the node (then a random number). The top is the root
  // after heap.Init's sift-downs.
  const size_t n = r.feasible.size();
  std::vector<size_t> h(n);
  std::vector<uint64_t> randomizer(n, 0);
  for (size_t i = 0; i < n; ++i) h[i] = i;
  if (!r.extender_scores.empty()) {
    for (size_t i = 0; i < n; ++i)
      if (r.extender_scores[i] != 0) randomizer[i] = rng_() >> 1;
  }
  auto less = [&](size_t a, size_t b) {
    return r.totals[a] > r.totals[b] ||
           (r.totals[a] == r.totals[b] && randomizer[a] > randomizer[b]);
  };
  auto down = [&](size_t i) {
    for (;;) {
      size_t j = 2 * i + 1;
      if (j >= n) break;
      if (j + 1 < n && less(h[j + 1], h[j])) ++j;
      if (!less(h[j], h[i])) break;
      std::swap(h[i], h[j]);
      i = j;
    }
  };
  for (size_t i = n / 2; i-- > 0;) down(i);
  return r.feasible[h[0]];
}

size_t Scheduler::NumFailedNodes(const CycleResult& r) const {
  return lean_ ? lean_failed_nodes_ : r.failures.size();
}

void Scheduler::SchedulePod(Framework* fwk, const Pod& pod, CycleResult* r) {
  // Without details (and without extenders, which add reasons to failing
  // nodes, or a nominated node, tried on its own first) a cycle needs only
  // the failing nodes' count; if it ends in a FitError or an Error, whose
  // message and Diagnosis need every status, it runs again in full from
  // the same start: the plugins decide alike, so only time is lost.
  const bool lean =
      !options_.record_details && extenders_.empty() && pod.nominated_node_name.empty();
  const size_t start = next_start_node_index_;
  // With a recorder (`ksched run`), upstream's sampling of plugin timings;
  // the extension points of a lean run that runs again are dropped.
  MetricsRecorder* m = fwk->metrics_recorder();
  if (m != nullptr) {
    fwk->SetSamplePlugins(m->SampleCycle());
    m->BeginCycle();
  }
  SchedulePodOnce(fwk, pod, r, lean);
  if (lean_retry_) {
    if (m != nullptr) m->DiscardCycle();
    next_start_node_index_ = start;
    *r = CycleResult();
    SchedulePodOnce(fwk, pod, r, false);
  }
  if (m != nullptr) m->EndCycle();
}

void Scheduler::SchedulePodOnce(Framework* fwk, const Pod& pod, CycleResult* r, bool lean) {
  lean_ = lean;
  lean_retry_ = false;
  lean_failed_nodes_ = 0;
  r->framework = fwk;
  r->num_all_nodes = cluster_->num_nodes();
  if (cluster_->num_nodes() == 0) {
    r->error = "no nodes available to schedule pods";
    return;
  }
  std::string error;
  if (options_.reuse_node_results) fwk->BeginCycle(pod);
  struct EndCycle {
    Framework* fwk;
    ~EndCycle() { fwk->EndCycle(); }
  } end_cycle{fwk};
  FindNodesThatFitPod(fwk, pod, r, &error);
  std::sort(r->unschedulable_plugins.begin(), r->unschedulable_plugins.end());
  r->unschedulable_plugins.erase(
      std::unique(r->unschedulable_plugins.begin(), r->unschedulable_plugins.end()),
      r->unschedulable_plugins.end());
  if (!error.empty()) {
    r->error = std::move(error);
    r->feasible.clear();
    // v1.35: an Error cancels the parallel filtering, and the statuses found
    // by then (a matter of timing upstream) are not reported.
    if (fwk->feature_gates().AtLeast(config::SchedulerVersion::kV135)) {
      r->failures.clear();
      r->unknown_failures.clear();
    }
    return;
  }
  if (r->feasible.empty()) {
    if (lean_) {
      lean_retry_ = true;
      return;
    }
    r->fit_error = true;
    r->error = CycleFitError(*r);
    return;
  }
  if (r->feasible.size() == 1) {
    r->evaluated_nodes = 1 + static_cast<int>(NumFailedNodes(*r));
    r->chosen = r->feasible[0];
    return;
  }
  if (!PrioritizeNodes(fwk, pod, r, &error)) {
    r->error = std::move(error);
    return;
  }
  r->evaluated_nodes = static_cast<int>(r->feasible.size() + NumFailedNodes(*r));
  r->chosen = SelectHost(*r);
}

CycleResult Scheduler::ScheduleOne(const Pod& pod, ClusterState* cluster) {
  return ScheduleOneImpl(pod, nullptr, cluster);
}

CycleResult Scheduler::ScheduleOne(Pod&& pod, ClusterState* cluster) {
  return ScheduleOneImpl(pod, &pod, cluster);
}

CycleResult Scheduler::ScheduleOneImpl(const Pod& pod, Pod* movable, ClusterState* cluster) {
  CycleResult r;
  Framework* fwk = FrameworkForPod(pod);
  if (fwk == nullptr) {
    const std::string& name = pod.spec.scheduler_name;
    r.error = "profile not found for scheduler name " + Quote(name);
    return r;
  }
  SetCluster(cluster);
  SchedulePod(fwk, pod, &r);
  if (r.chosen == kNoNode) return r;
  const NodeId host = r.chosen;
  // From here on only the cluster's copy is read: `pod` may be moved from.
  std::string node_name_before;
  if (movable != nullptr) node_name_before = movable->spec.node_name;
  PodId id =
      movable != nullptr ? cluster->Assume(std::move(*movable), host) : cluster->Assume(pod, host);
  const Pod& assumed = cluster->pod(id).pod;
  Status s = fwk->RunReservePluginsReserve(&r.state, assumed, host);
  // refsched135 runs the binding cycle's writes that later cycles read
  // (DynamicResources' PreBind) right after Reserve and Permit.
  if (s.IsSuccess()) s = fwk->RunClusterPreBind(&r.state, assumed, host, cluster);
  if (!s.IsSuccess()) {
    fwk->RunReservePluginsUnreserve(&r.state, assumed, host);
    if (movable != nullptr) {  // the caller's pod back as it was
      *movable = assumed;
      movable->spec.node_name = std::move(node_name_before);
    }
    cluster->RemovePod(id);
    r.chosen = kNoNode;
    r.error = s.Message();
    return r;
  }
  r.assumed = id;
  return r;
}

}  // namespace ksched::framework
