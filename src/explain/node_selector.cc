// node(s) didn't match node selector: each spec.nodeSelector entry the node
// does not carry, and for required node affinity each term (terms are ORed,
// so every one failed) with the first requirement that fails and the node's
// value for its label. node(s) didn't match the requested hostname:
// spec.nodeName against the node.
#include "labels/node_selector.h"

#include <fmt/format.h>

#include "explain/explain.h"

namespace ksched::explain {
namespace {

// Why one requirement of a term rejects the node: "" when it accepts it.
std::string RequirementFails(const SelectorRequirement& r, const Node& node, bool field) {
  if (field) {
    Result<labels::FieldSelector> s = labels::FromNodeSelectorFieldRequirements({r});
    if (!s.ok()) return "invalid: " + s.error().message;
    if (s->Matches(node.meta.name)) return "";
    return fmt::format("node's {} is {}", r.key, node.meta.name);
  }
  Result<labels::Selector> s = labels::FromNodeSelectorRequirements({r});
  if (!s.ok()) return "invalid: " + s.error().message;
  if (s->Matches(node.meta.labels)) return "";
  return "node has " + NodeLabelValue(node.meta.labels, r.key);
}

}  // namespace

void ExplainNodeSelector(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const Node& node = c.node_object();
  const PodSpec& spec = c.pod.spec;
  for (const auto& [k, v] : spec.node_selector) {
    std::optional<StrId> have = node.meta.labels.Get(k);
    if (have && *have == v) continue;
    Cause cause;
    cause.reason = reason;
    cause.kind = "nodeSelector";
    cause.message = fmt::format("nodeSelector {}={}: node has {}", Str(k), Str(v),
                                NodeLabelValue(node.meta.labels, Str(k)));
    cause.details["selector"] = fmt::format("{}={}", Str(k), Str(v));
    cause.details["label"] = Str(k);
    if (have) {
      cause.details["nodeValue"] = Str(*have);
    } else {
      cause.details["nodeValue"] = nullptr;
    }
    out->push_back(std::move(cause));
  }
  if (!spec.affinity || !spec.affinity->node_affinity || !spec.affinity->node_affinity->required)
    return;
  ExplainNodeSelectorTerms(c, reason, spec.affinity->node_affinity->required->terms,
                           "required node affinity", "", out);
}

void ExplainNodeSelectorTerms(const NodeContext& c, std::string_view reason,
                              const std::vector<NodeSelectorTerm>& terms, std::string_view what,
                              std::string_view source, std::vector<Cause>* out) {
  const Node& node = c.node_object();
  labels::CompiledNodeSelectorTerms compiled = labels::CompiledNodeSelectorTerms::Compile(terms);
  if (compiled.Matches(node.meta.labels, node.meta.name)) return;
  if (terms.empty()) {
    Cause cause;
    cause.reason = reason;
    cause.kind = "nodeAffinity";
    if (!source.empty()) cause.details["source"] = source;
    cause.message = fmt::format("{} has no nodeSelectorTerms, which matches no node", what);
    out->push_back(std::move(cause));
    return;
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    const NodeSelectorTerm& term = terms[i];
    std::string requirement, why;
    for (const SelectorRequirement& r : term.match_expressions) {
      why = RequirementFails(r, node, false);
      if (!why.empty()) {
        requirement = FormatRequirement(r);
        break;
      }
    }
    for (size_t j = 0; why.empty() && j < term.match_fields.size(); ++j) {
      why = RequirementFails(term.match_fields[j], node, true);
      if (!why.empty()) requirement = FormatRequirement(term.match_fields[j]);
    }
    if (why.empty()) {
      // Each requirement alone passes: the term itself never matches.
      why = compiled.TermError(i).empty() ? "the term matches no node" : compiled.TermError(i);
    }
    Cause cause;
    cause.reason = reason;
    cause.kind = "nodeAffinity";
    if (!source.empty()) cause.details["source"] = source;
    cause.message = fmt::format("{} term {}{}: {}", what, i + 1,
                                requirement.empty() ? "" : " " + requirement, why);
    cause.details["term"] = i + 1;
    if (!requirement.empty()) cause.details["requirement"] = requirement;
    cause.details["why"] = why;
    out->push_back(std::move(cause));
  }
}

void ExplainHostName(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  Cause cause;
  cause.reason = reason;
  cause.kind = "hostName";
  cause.message = fmt::format("the pod's spec.nodeName is {}, not this node", c.pod.spec.node_name);
  cause.details["nodeName"] = c.pod.spec.node_name;
  out->push_back(std::move(cause));
}

}  // namespace ksched::explain
