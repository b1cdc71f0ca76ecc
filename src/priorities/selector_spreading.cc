// SelectorSpreadPriority: prefer nodes, and zones, holding fewer pods of the
// same Services / ReplicationControllers / ReplicaSets / StatefulSets as the
// incoming pod.
//
// Map counts, on one node, the pods of the pod's namespace (not being deleted)
// that every gathered selector matches. Reduce turns counts into 0..10 with
// upstream's float64 formula: 10 * (max - count) / max per node and, when any
// scored node has a zone, the same per zone (counts summed over the scored
// nodes of the zone) blended in with weight 2/3. The float operations are
// written in upstream's order so that truncation (e.g. 6.999999999999999 -> 6)
// comes out identical.
#include "priorities/selector_spreading.h"

#include <algorithm>
#include <unordered_map>

#include "labels/label_selector.h"
#include "priorities/factories.h"

namespace ksched {
namespace spreading {
namespace {

// GetPodReplicaSets / GetPodStatefulSets: objects of the pod's namespace whose
// LabelSelector is neither missing nor empty and matches the pod. A single
// invalid selector in the namespace makes upstream's lister fail, and then no
// selector of that kind is used at all.
// (The selectors come compiled by ClusterState, parallel to `objects`.)
void AppendWorkloadSelectors(const Pod& pod, const std::vector<ReplicaSet>& objects,
                             const std::vector<std::optional<labels::Selector>>& compiled,
                             std::vector<labels::Selector>* out) {
  if (pod.meta.labels.empty()) return;
  const size_t before = out->size();
  for (size_t i = 0; i < objects.size(); ++i) {
    if (objects[i].meta.ns != pod.meta.ns) continue;
    if (!compiled[i]) {
      out->resize(before);
      return;
    }
    const labels::Selector& sel = *compiled[i];
    if (sel.Empty() || !sel.Matches(pod.meta.labels)) continue;
    out->push_back(sel);
  }
}

}  // namespace

std::vector<const Service*> PodServices(const Pod& pod, const ClusterState& cluster) {
  std::vector<const Service*> out;
  for (const Service& svc : cluster.services()) {
    if (svc.meta.ns != pod.meta.ns || !svc.has_selector) continue;
    if (pod.meta.labels.ContainsAll(svc.selector)) out.push_back(&svc);
  }
  return out;
}

std::vector<labels::Selector> PodSelectors(const Pod& pod, const ClusterState& cluster) {
  std::vector<labels::Selector> selectors;
  // Matching used the raw map; the selector used for counting goes through
  // SelectorFromSet, which turns an invalid map into "everything".
  for (const Service* svc : PodServices(pod, cluster))
    selectors.push_back(labels::FromSet(svc->selector));

  // GetPodControllers: a missing or empty RC selector matches nothing.
  if (!pod.meta.labels.empty()) {
    for (const ReplicationController& rc : cluster.replication_controllers()) {
      if (rc.meta.ns != pod.meta.ns || rc.selector.empty()) continue;
      if (pod.meta.labels.ContainsAll(rc.selector))
        selectors.push_back(labels::FromSet(rc.selector));
    }
  }

  AppendWorkloadSelectors(pod, cluster.replica_sets(), cluster.replica_set_selectors(), &selectors);
  AppendWorkloadSelectors(pod, cluster.stateful_sets(), cluster.stateful_set_selectors(),
                          &selectors);
  return selectors;
}

int64_t CountMatchingPods(StrId ns, std::span<const labels::Selector> selectors,
                          const ClusterState& cluster, const NodeInfo& node) {
  if (selectors.empty()) return 0;
  int64_t count = 0;
  for (PodId id : node.pods) {
    const PodInfo& p = cluster.pod(id);
    if (p.pod.meta.ns != ns || p.terminating) continue;
    bool all = true;
    for (const labels::Selector& s : selectors) {
      if (!s.Matches(p.pod.meta.labels)) {
        all = false;
        break;
      }
    }
    if (all) ++count;
  }
  return count;
}

int64_t SpreadScore(const SpreadTotals& totals, int64_t count, bool node_has_zone,
                    int64_t zone_count) {
  // 2/3 of the weight goes to zone spreading when zones are known.
  constexpr double kZoneWeighting = 2.0 / 3.0;
  constexpr double kMax = static_cast<double>(kMaxPriority);
  double f = kMax;
  if (totals.max_by_node > 0) {
    f = kMax *
        (static_cast<double>(totals.max_by_node - count) / static_cast<double>(totals.max_by_node));
  }
  if (totals.have_zones && node_has_zone) {
    double zone_score = kMax;
    if (totals.max_by_zone > 0) {
      zone_score = kMax * (static_cast<double>(totals.max_by_zone - zone_count) /
                           static_cast<double>(totals.max_by_zone));
    }
    // Two roundings, as Go on amd64 does: this must not become an FMA
    // (baseline x86-64, the project's target, has none).
    f = (f * (1.0 - kZoneWeighting)) + (kZoneWeighting * zone_score);
  }
  return static_cast<int64_t>(f);  // truncates toward zero, like Go's int()
}

}  // namespace spreading

namespace {

struct SelectorSpreadState : PriorityState {
  std::vector<labels::Selector> selectors;
};

class SelectorSpread : public Priority {
 public:
  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override {
    auto state = std::make_unique<SelectorSpreadState>();
    state->selectors = spreading::PodSelectors(pod.pod(), cluster);
    return state;
  }

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    const auto& s = static_cast<const SelectorSpreadState&>(*state);
    return spreading::CountMatchingPods(pod.pod().meta.ns, s.selectors, cluster,
                                        cluster.node_info(node));
  }

  ReduceShape Shape() const override { return ReduceShape::kZoneSpread; }

  void Reduce(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              std::span<const NodeId> nodes, std::span<int64_t> scores) const override {
    (void)pod;
    (void)state;
    // Per-zone sums in a flat array indexed by the dense zone number
    // (0 = no zone); `seen` marks zones that have a scored node.
    std::vector<int64_t> counts_by_zone(cluster.num_zones() + 1, 0);
    std::vector<uint8_t> seen(cluster.num_zones() + 1, 0);
    spreading::SpreadTotals totals;
    for (size_t i = 0; i < nodes.size(); ++i) {
      totals.max_by_node = std::max(totals.max_by_node, scores[i]);
      uint32_t zone = cluster.zone_index(nodes[i]);
      if (zone == 0) continue;
      counts_by_zone[zone] += scores[i];
      seen[zone] = 1;
      totals.have_zones = true;
    }
    for (size_t z = 1; z < counts_by_zone.size(); ++z)
      if (seen[z]) totals.max_by_zone = std::max(totals.max_by_zone, counts_by_zone[z]);
    for (size_t i = 0; i < nodes.size(); ++i) {
      uint32_t zone = cluster.zone_index(nodes[i]);
      scores[i] = spreading::SpreadScore(totals, scores[i], zone != 0, counts_by_zone[zone]);
    }
  }
};

}  // namespace

std::unique_ptr<Priority> NewSelectorSpreadPriority() { return std::make_unique<SelectorSpread>(); }

}  // namespace ksched
