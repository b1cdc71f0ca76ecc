// PodTopologySpread's shared pieces (upstream's podtopologyspread/common.go):
// the constraints of a pod as the plugin uses them, the pod's required node
// affinity, node inclusion policies, and the topology domains of a key.
//
// Topology values are interned; a key's domains (its distinct node values)
// are numbered once per ClusterState and every node carries its domain
// number, so counts per topology pair are flat arrays indexed by domain.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "cache/node_info.h"
#include "config/types.h"
#include "framework/plugins/helper/spread.h"
#include "labels/node_selector.h"
#include "util/result.h"

namespace ksched::framework::plugins::podtopologyspread {

inline constexpr std::string_view kErrReasonConstraintsNotMatch =
    "node(s) didn't match pod topology spread constraints";
inline constexpr std::string_view kErrReasonNodeLabelNotMatch =
    "node(s) didn't match pod topology spread constraints (missing required label)";

inline constexpr std::string_view kDoNotSchedule = "DoNotSchedule";
inline constexpr std::string_view kScheduleAnyway = "ScheduleAnyway";
inline constexpr std::string_view kLabelHostname = "kubernetes.io/hostname";
inline constexpr std::string_view kLabelTopologyZone = "topology.kubernetes.io/zone";

// The feature gates the plugin reads, taken once when it is built.
struct Features {
  bool min_domains = false;
  bool match_label_keys = false;
  bool node_inclusion_policy = false;
  // TaintTolerationComparisonOperators (v1.35, alpha): Lt / Gt tolerations
  // tolerate numerically in nodeTaintsPolicy Honor.
  bool taint_comparison_operators = false;
  // The v1.35 plugin: state per constraint rather than per topology key
  // (kubernetes#129067), minDomains read without an error path, an empty
  // selector counting no pods (kubernetes#116607), Skip at PreFilter and
  // PreScore. Each such difference is decided where this flag is read.
  bool v135 = false;
};

// One constraint with its selector compiled and its defaults applied
// (upstream's internal topologySpreadConstraint).
struct Constraint {
  int32_t max_skew = 0;
  StrId topology_key = kEmptyStr;
  helper::SpreadSelector selector;
  int32_t min_domains = 1;
  bool honor_node_affinity = true;  // NodeAffinityPolicy Honor (the default)
  bool honor_node_taints = false;   // NodeTaintsPolicy Ignore (the default)
  // The constraint's slot in Constraints::keys, which every per-cycle array
  // is indexed by. v1.26 keys its maps by (key, value), so constraints on one
  // topology key share a slot and mix their counts; v1.35 keeps a slot per
  // constraint (Constraints::AssignSlots).
  uint32_t key_slot = 0;
  bool is_hostname = false;  // topology_key is kubernetes.io/hostname
  // v1.35's countPodsMatchSelector counts nothing for an empty selector
  // (`labelSelector: {}`, Everything(); kubernetes#116607 meant Nothing()):
  // PreFilter, PreScore and the hostname scores see 0 pods. AddPod /
  // RemovePod and the pod's own match still read the selector itself.
  bool counts_nothing = false;

  // Whether a placed pod counts for this constraint (countPodsMatchSelector
  // without its namespace and deletion checks).
  bool Counts(const Labels& pod_labels) const {
    return !counts_nothing && selector.Matches(pod_labels);
  }
};

struct Constraints {
  std::vector<Constraint> items;
  // The topology key of each slot: v1.26 the distinct keys in order of
  // appearance, v1.35 one per constraint (keys may repeat).
  std::vector<StrId> keys;

  bool empty() const { return items.empty(); }
  // Fills key_slot / keys / is_hostname after items are set; `per_constraint`
  // (v1.35) gives every constraint a slot of its own.
  void AssignSlots(bool per_constraint);
};

// filterTopologySpreadConstraints: the constraints with `action`, their
// selectors compiled (matchLabelKeys merged in behind the gate), minDomains
// and the inclusion policies behind theirs. An invalid selector is an error.
Result<Constraints> FilterConstraints(const std::vector<TopologySpreadConstraint>& constraints,
                                      const Labels& pod_labels, std::string_view action,
                                      const Features& features);

// Upstream's systemDefaultConstraints.
const std::vector<TopologySpreadConstraint>& SystemDefaultConstraints();

// nodeaffinity.GetRequiredNodeAffinity: spec.nodeSelector and required node
// affinity terms, matched against a node (parse errors never match).
class RequiredNodeAffinity {
 public:
  explicit RequiredNodeAffinity(const Pod& pod);
  bool Match(const Node& node) const {
    // SelectorFromSet (v1.26 validates nothing): every pair must be there.
    if (!node.meta.labels.ContainsAll(node_selector_)) return false;
    if (terms_) return terms_->Matches(node.meta.labels, node.meta.name);
    return true;
  }

 private:
  Labels node_selector_;
  std::optional<labels::CompiledNodeSelectorTerms> terms_;
};

// True when a NoSchedule or NoExecute taint of `node` is not tolerated
// (`comparison_operators`: TaintTolerationComparisonOperators).
bool HasUntoleratedDoNotScheduleTaint(const Node& node, const std::vector<Toleration>& tolerations,
                                      bool comparison_operators);

// nodeLabelsMatchSpreadConstraints: the node has every constraint's key.
bool NodeHasAllKeys(const Labels& node_labels, const Constraints& constraints);

// The domains of one topology key over the nodes of one ClusterState. A node
// without the label is in the domain of value "" (scoring pairs such nodes
// with ""; filtering checks has_label first).
struct TopologyDomains {
  StrId key = kEmptyStr;
  std::vector<uint32_t> node_domain;  // by NodeId
  std::vector<uint8_t> has_label;     // by NodeId
  std::vector<StrId> domain_value;    // by domain
  size_t num_labeled = 0;             // nodes with the label

  size_t num_domains() const { return domain_value.size(); }
  // Every node has the key: per-node label checks can be skipped.
  bool AllLabeled() const { return num_labeled == has_label.size(); }
  // The node's domain, also for a NodeInfo that is a copy of a cluster node.
  uint32_t DomainOf(const NodeInfo& node) const;
  bool HasLabel(const NodeInfo& node) const;
};

// Domains per key, built on first use and kept while the ClusterState (whose
// nodes never change) stays the same. Safe to call from several threads.
class DomainCache {
 public:
  std::shared_ptr<const TopologyDomains> Get(const ClusterState& cluster, StrId key);

 private:
  std::mutex mu_;
  uint64_t cluster_id_ = ~uint64_t{0};
  size_t num_nodes_ = 0;
  std::unordered_map<StrId, std::shared_ptr<const TopologyDomains>> by_key_;
};

// Whether a pod is in the incoming pod's namespace and selected by a
// constraint's selector, remembered per distinct (namespace, labels) set of
// the cluster (PodInfo::label_set): the selector runs once per label set,
// not once per pod. Built whole up front, so reading it from many threads at
// once is safe.
class LabelSetMatcher {
 public:
  LabelSetMatcher() = default;
  // `counts_nothing`: no pod matches (Constraint::counts_nothing).
  LabelSetMatcher(const ClusterState& cluster, StrId ns, const helper::SpreadSelector* selector,
                  bool counts_nothing = false);

  bool Matches(const PodInfo& p) const {
    if (p.label_set < memo_.size()) return memo_[p.label_set] != 0;
    return !counts_nothing_ && p.pod.meta.ns == ns_ && selector_->Matches(p.pod.meta.labels);
  }
  // countPodsMatchSelector: pods of the node not being deleted that match.
  int64_t CountOn(const ClusterState& cluster, const NodeInfo& node) const {
    int64_t n = 0;
    for (PodId id : node.pods) {
      const PodInfo& p = cluster.pod(id);
      if (!p.terminating && Matches(p)) ++n;
    }
    return n;
  }

 private:
  std::vector<uint8_t> memo_;
  StrId ns_ = kEmptyStr;
  const helper::SpreadSelector* selector_ = nullptr;
  bool counts_nothing_ = false;
};

// Go's math.Log as it runs on amd64 (its assembly routine, the FreeBSD
// algorithm), so that normalizing weights round as upstream's do.
double GoLog(double x);

}  // namespace ksched::framework::plugins::podtopologyspread
