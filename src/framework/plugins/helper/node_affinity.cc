#include "framework/plugins/helper/node_affinity.h"

#include <fmt/format.h>

namespace ksched::framework::helper {
namespace {

bool EmptyTerm(const NodeSelectorTerm& term) {
  return term.match_expressions.empty() && term.match_fields.empty();
}

// The parse error of one term, prefixed with its path as upstream's field
// errors are ("[0].matchExpressions: ..."); "" when it parses.
std::string TermParseError(const NodeSelectorTerm& term, size_t index) {
  if (!term.match_expressions.empty()) {
    auto sel = labels::FromNodeSelectorRequirements(term.match_expressions);
    if (!sel.ok()) return fmt::format("[{}].matchExpressions: {}", index, sel.error().message);
  }
  if (!term.match_fields.empty()) {
    auto sel = labels::FromNodeSelectorFieldRequirements(term.match_fields);
    if (!sel.ok()) return fmt::format("[{}].matchFields: {}", index, sel.error().message);
  }
  return "";
}

// errors.Flatten(NewAggregate(errs)).Error(): one message alone, several in
// brackets joined by ", ".
Error Aggregate(const std::vector<std::string>& errs) {
  if (errs.size() == 1) return MakeError(errs[0]);
  return MakeError("[" + fmt::format("{}", fmt::join(errs, ", ")) + "]");
}

}  // namespace

Result<labels::CompiledNodeSelectorTerms> NewNodeSelector(const NodeSelector& selector) {
  std::vector<std::string> errs;
  for (size_t i = 0; i < selector.terms.size(); ++i) {
    if (EmptyTerm(selector.terms[i])) continue;
    std::string err = TermParseError(selector.terms[i], i);
    if (!err.empty()) errs.push_back(fmt::format("nodeSelectorTerms{}", err));
  }
  if (!errs.empty()) return Aggregate(errs);
  return labels::CompiledNodeSelectorTerms::Compile(selector);
}

RequiredNodeAffinity RequiredNodeAffinity::ForPod(const Pod& pod) {
  RequiredNodeAffinity r;
  r.node_selector_ = pod.spec.node_selector;
  const auto& affinity = pod.spec.affinity;
  if (affinity && affinity->node_affinity && affinity->node_affinity->required) {
    r.affinity_ = labels::CompiledNodeSelectorTerms::Compile(*affinity->node_affinity->required);
  }
  return r;
}

Result<PreferredSchedulingTerms> PreferredSchedulingTerms::Compile(
    const std::vector<PreferredSchedulingTerm>& terms) {
  PreferredSchedulingTerms out;
  std::vector<NodeSelectorTerm> kept;
  std::vector<std::string> errs;
  for (size_t i = 0; i < terms.size(); ++i) {
    const PreferredSchedulingTerm& t = terms[i];
    if (t.weight == 0 || EmptyTerm(t.preference)) continue;
    std::string err = TermParseError(t.preference, i);
    if (!err.empty()) {
      errs.push_back(std::move(err));
      continue;
    }
    kept.push_back(t.preference);
    out.weights_.push_back(t.weight);
  }
  if (!errs.empty()) return Aggregate(errs);
  out.terms_ = labels::CompiledNodeSelectorTerms::Compile(kept);
  return out;
}

}  // namespace ksched::framework::helper
