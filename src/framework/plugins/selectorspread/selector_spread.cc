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

std::string GetZoneKey(const Labels& labels) {
  static const StrId kBetaZone = Intern("failure-domain.beta.kubernetes.io/zone");
  static const StrId kZone = Intern("topology.kubernetes.io/zone");
  static const StrId kBetaRegion = Intern("failure-domain.beta.kubernetes.io/region");
  static const StrId kRegion = Intern("topology.kubernetes.io/region");
  std::optional<StrId> zone = labels.Get(kBetaZone);
  if (!zone) zone = labels.Get(kZone);
  std::optional<StrId> region = labels.Get(kBetaRegion);
  if (!region) region = labels.Get(kRegion);
  std::string_view z = Str(zone.value_or(kEmptyStr));
  std::string_view r = Str(region.value_or(kEmptyStr));
  if (z.empty() && r.empty()) return "";
  std::string key(r);
  key += ":";
  key += '\0';
  key += ":";
  key += z;
  return key;
}

std::string_view SelectorSpread::Name() const { return names::kSelectorSpread; }

std::shared_ptr<const SelectorSpread::Zones> SelectorSpread::ZonesOf(
    const ClusterState& cluster) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (zones_ && zones_->cluster_id == cluster.id() && zones_->num_nodes == cluster.num_nodes())
    return zones_;
  auto zones = std::make_shared<Zones>();
  zones->cluster_id = cluster.id();
  zones->num_nodes = cluster.num_nodes();
  zones->of_node.resize(cluster.num_nodes());
  std::unordered_map<std::string, uint32_t> index;
  for (NodeId id = 0; id < cluster.num_nodes(); ++id) {
    std::string key = GetZoneKey(cluster.node(id).meta.labels);
    if (key.empty()) continue;
    auto [it, added] = index.emplace(std::move(key), zones->count + 1);
    if (added) ++zones->count;
    zones->of_node[id] = it->second;
  }
  zones_ = zones;
  return zones_;
}

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
  std::shared_ptr<const Zones> zones = ZonesOf(handle_->cluster());
  auto zone_of = [&](NodeId id) { return id < zones->of_node.size() ? zones->of_node[id] : 0; };
  // Per-zone sums over the scored nodes, in a flat array by zone number;
  // `seen` marks zones holding a scored node.
  std::vector<int64_t> counts_by_zone(zones->count + 1, 0);
  std::vector<uint8_t> seen(zones->count + 1, 0);
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
