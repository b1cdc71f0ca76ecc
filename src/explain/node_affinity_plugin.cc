// The v1.26 NodeAffinity plugin beyond the pod's own nodeSelector and
// required terms (node_selector.cc):
//  - scheduler-enforced node affinity: the profile's NodeAffinityArgs
//    addedAffinity, term by term, with the requirement the node fails;
//  - pod affinity terms conflict (PreFilter, the whole pod): the required
//    term whose metadata.name In lists have no name in common;
//  - nodes PreFilter left out: when every required term names nodes by
//    metadata.name, only those nodes are filtered; each other node gets the
//    requirement it fails, as Filter would have said.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <variant>

#include "explain/explain.h"
#include "framework/plugins/names/names.h"
#include "framework/schedule_one.h"
#include "labels/node_selector.h"

namespace ksched::explain {
namespace {

constexpr std::string_view kNodeAffinityReason =
    "node(s) didn't match Pod's node affinity/selector";

// The names one term's metadata.name In requirements allow (intersected),
// and those requirements as written; nullopt when the term has none.
std::optional<std::set<std::string>> TermNameIntersection(const NodeSelectorTerm& term,
                                                          std::vector<std::string>* written) {
  std::optional<std::set<std::string>> names;
  for (const SelectorRequirement& r : term.match_fields) {
    if (r.key != labels::kNodeFieldName || r.op != "In") continue;
    written->push_back(FormatRequirement(r));
    std::set<std::string> values(r.values.begin(), r.values.end());
    if (!names) {
      names = std::move(values);
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(names->begin(), names->end(), values.begin(), values.end(),
                          std::inserter(both, both.end()));
    *names = std::move(both);
  }
  return names;
}

}  // namespace

void ExplainAddedAffinity(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  if (c.cycle == nullptr || c.cycle->framework == nullptr) return;
  const framework::Framework& fwk = *c.cycle->framework;
  const config::PluginArgs* args = fwk.PluginArgsFor(framework::names::kNodeAffinity);
  const auto* node_args = args != nullptr ? std::get_if<config::NodeAffinityArgs>(args) : nullptr;
  if (node_args == nullptr || !node_args->added_affinity || !node_args->added_affinity->required)
    return;
  ExplainNodeSelectorTerms(
      c, reason, node_args->added_affinity->required->terms,
      fmt::format("profile {}'s addedAffinity (NodeAffinity args, applied to every pod)",
                  fwk.profile_name()),
      "addedAffinity", out);
}

void ExplainAffinityTermsConflict(const Pod& pod, std::string_view reason,
                                  std::vector<Cause>* out) {
  const auto& affinity = pod.spec.affinity;
  if (!affinity || !affinity->node_affinity || !affinity->node_affinity->required) return;
  const std::vector<NodeSelectorTerm>& terms = affinity->node_affinity->required->terms;
  for (size_t i = 0; i < terms.size(); ++i) {
    std::vector<std::string> written;
    std::optional<std::set<std::string>> names = TermNameIntersection(terms[i], &written);
    if (!names || !names->empty()) continue;
    Cause cause;
    cause.reason = reason;
    cause.kind = "nodeAffinity";
    cause.message = fmt::format(
        "required node affinity term {}: its matchFields {} have no node name in common, so the "
        "term names no node and the pod can never be placed",
        i + 1, fmt::join(written, " and "));
    cause.details["term"] = i + 1;
    cause.details["requirements"] = written;
    out->push_back(std::move(cause));
  }
}

std::vector<Cause> ExplainPreFilterNarrowing(const Pod& pod, const ClusterState& cluster,
                                             NodeId node) {
  std::vector<Cause> out;
  if (node == kNoNode || node >= cluster.num_nodes()) return out;
  NodeContext c{pod, cluster, node, nullptr, "", nullptr, nullptr};
  ExplainNodeSelector(c, kNodeAffinityReason, &out);
  if (out.empty()) {
    // The node matches every term (a name listed in one term's metadata.name
    // In but not in the PreFilter's union cannot happen); say what happened.
    Cause cause;
    cause.reason = kNodeAffinityReason;
    cause.kind = "nodeAffinity";
    cause.message =
        "NodeAffinity's PreFilter kept only the nodes the pod's required node affinity names by "
        "metadata.name, and not this one";
    out.push_back(std::move(cause));
  }
  return out;
}

}  // namespace ksched::explain
