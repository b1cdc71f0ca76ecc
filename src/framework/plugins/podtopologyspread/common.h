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
  // Index of topology_key in Constraints::keys: constraints sharing a key
  // share its topology pairs, as upstream's maps keyed by (key, value) do.
  uint32_t key_slot = 0;
  bool is_hostname = false;  // topology_key is kubernetes.io/hostname
};

struct Constraints {
  std::vector<Constraint> items;
  std::vector<StrId> keys;  // distinct topology keys, in order of appearance

  bool empty() const { return items.empty(); }
  // Fills key_slot / keys / is_hostname after items are set.
  void AssignSlots();
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

// True when a NoSchedule or NoExecute taint of `node` is not tolerated.
bool HasUntoleratedDoNotScheduleTaint(const Node& node, const std::vector<Toleration>& tolerations);

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
  LabelSetMatcher(const ClusterState& cluster, StrId ns, const helper::SpreadSelector* selector);

  bool Matches(const PodInfo& p) const {
    if (p.label_set < memo_.size()) return memo_[p.label_set] != 0;
    return p.pod.meta.ns == ns_ && selector_->Matches(p.pod.meta.labels);
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
};

// Go's math.Log as it runs on amd64 (its assembly routine, the FreeBSD
// algorithm), so that normalizing weights round as upstream's do.
double GoLog(double x);

}  // namespace ksched::framework::plugins::podtopologyspread
