#include "framework/plugins/selectorspread/selector_spread.h"

#include <algorithm>
#include <unordered_map>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewSelectorSpread(const config::PluginArgs&, Handle* handle,
                                          Status* error) {
  if (handle == nullptr) {
    *error = Status::Error("SnapshotSharedLister is nil");
    return nullptr;
  }
  return std::make_unique<selectorspread::SelectorSpread>(handle);
}

}  // namespace ksched::framework::plugins

namespace ksched::framework::plugins::selectorspread {

namespace selector_spread_internal {

const StateKey kPreScoreKey = StateKey::Register();

// Pods with their own constraints are PodTopologySpread's alone.
bool Skip(const Pod& pod) { return !pod.spec.topology_spread_constraints.empty(); }

}  // namespace selector_spread_internal

std::string_view SelectorSpread::Name() const { return names::kSelectorSpread; }

Status SelectorSpread::PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>&) {
  using namespace selector_spread_internal;
  if (Skip(pod)) return Status();
  const ClusterState& cluster = handle_->cluster();
  auto s = std::make_unique<PreScoreState>();
  s->selector =
      std::make_shared<const helper::SpreadSelector>(helper::DefaultSelector(pod, cluster));
  s->matcher = podtopologyspread::LabelSetMatcher(cluster, pod.meta.ns, s->selector.get());
  state->Write(kPreScoreKey, std::move(s));
  return Status();
}

Status SelectorSpread::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                             int64_t* score) const {
  using namespace selector_spread_internal;
  *score = 0;
  if (Skip(pod)) return Status();
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey);
  if (s == nullptr)
    return Status::Error("reading \"PreScoreSelectorSpread\" from cycleState: not found");
  // countMatchingPods: an empty selector counts nothing.
  if (node.pods.empty() || s->selector->Empty()) return Status();
  *score = s->matcher.CountOn(handle_->cluster(), node);
  return Status();
}

Status SelectorSpread::NormalizeScore(const CycleState&, const Pod& pod,
                                      NodeScoreList* scores) const {
  using namespace selector_spread_internal;
  if (Skip(pod)) return Status();
  // Zones by v1.26's zone key (0: none).
  const ClusterState& cluster = handle_->cluster();
  auto zone_of = [&](NodeId id) { return cluster.zone126_index(id); };
  // Per-zone sums over the scored nodes, in a flat array by zone number;
  // `seen` marks zones holding a scored node.
  std::vector<int64_t> counts_by_zone(cluster.num_zones126() + 1, 0);
  std::vector<uint8_t> seen(cluster.num_zones126() + 1, 0);
  int64_t max_by_node = 0;
  bool have_zones = false;
  for (const NodeScore& ns : *scores) {
    max_by_node = std::max(max_by_node, ns.score);
    uint32_t z = zone_of(ns.node);
    if (z == 0) continue;
    counts_by_zone[z] += ns.score;
    seen[z] = 1;
    have_zones = true;
  }
  int64_t max_by_zone = 0;
  for (size_t z = 1; z < counts_by_zone.size(); ++z)
    if (seen[z]) max_by_zone = std::max(max_by_zone, counts_by_zone[z]);

  // 2/3 of the weight goes to zone spreading when zones are known. Upstream's
  // float64 steps in its order (no fused multiply-add on the baseline target),
  // so that truncation comes out identical.
  constexpr double kZoneWeighting = 2.0 / 3.0;
  constexpr double kMax = static_cast<double>(kMaxNodeScore);
  for (NodeScore& ns : *scores) {
    double f = kMax;
    if (max_by_node > 0) {
      f = kMax * (static_cast<double>(max_by_node - ns.score) / static_cast<double>(max_by_node));
    }
    uint32_t z = zone_of(ns.node);
    if (have_zones && z != 0) {
      double zone_score = kMax;
      if (max_by_zone > 0) {
        zone_score = kMax * (static_cast<double>(max_by_zone - counts_by_zone[z]) /
                             static_cast<double>(max_by_zone));
      }
      f = (f * (1.0 - kZoneWeighting)) + (kZoneWeighting * zone_score);
    }
    ns.score = static_cast<int64_t>(f);
  }
  return Status();
}

}  // namespace ksched::framework::plugins::selectorspread
