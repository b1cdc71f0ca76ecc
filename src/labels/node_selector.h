// Node selector terms: required node affinity and PV node affinity.
//
// Mirrors pkg/apis/core/v1/helper: NodeSelectorRequirementsAsSelector,
// NodeSelectorRequirementsAsFieldSelector and MatchNodeSelectorTerms. Terms
// are compiled once per pod (or PV) so that checking a node is integer
// compares plus, for matchFields, one string compare against the node name.
//
// Note for the NodeAffinity priority: in v1.15 it does NOT use these terms'
// rules. It compiles only preference.matchExpressions with
// FromNodeSelectorRequirements (so matchFields are ignored, an empty list is
// Nothing(), and an invalid requirement is an error for the whole priority).
// Use FromNodeSelectorRequirements directly for that.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/types.h"
#include "labels/selector.h"
#include "util/result.h"

namespace ksched::labels {

// The only node field the v1.15 scheduler exposes to matchFields
// (algorithm.NodeFieldSelectorKeys).
inline constexpr std::string_view kNodeFieldName = "metadata.name";

// v1helper.NodeSelectorRequirementsAsSelector: empty list -> Nothing();
// operators In, NotIn, Exists, DoesNotExist, Gt, Lt; anything else, or an
// invalid requirement, is an error.
Result<Selector> FromNodeSelectorRequirements(const std::vector<SelectorRequirement>& reqs);

// A fields.Selector over a node's fields, i.e. {"metadata.name": node name}.
class FieldSelector {
 public:
  // Default: no terms, matches every node (fields.Everything()).
  FieldSelector() = default;
  static FieldSelector Nothing() {
    FieldSelector s;
    s.nothing_ = true;
    return s;
  }

  // Every term must hold. A term on any field other than metadata.name
  // compares against "", as upstream's fields.Set.Get does for absent keys.
  bool Matches(std::string_view node_name) const {
    if (nothing_) return false;
    for (const Term& t : terms_) {
      std::string_view actual = t.is_node_name ? node_name : std::string_view();
      if ((actual == t.value) != t.equal) return false;
    }
    return true;
  }

  bool MatchesNothing() const { return nothing_; }
  bool Empty() const { return !nothing_ && terms_.empty(); }
  // Upstream's String(): "f=v" / "f!=v" joined by ",", values escaped.
  std::string String() const;

 private:
  friend Result<FieldSelector> FromNodeSelectorFieldRequirements(
      const std::vector<SelectorRequirement>& reqs);

  struct Term {
    std::string field;
    std::string value;
    bool equal = true;          // In: field == value; NotIn: field != value
    bool is_node_name = false;  // field == "metadata.name"
  };
  std::vector<Term> terms_;
  bool nothing_ = false;
};

// v1helper.NodeSelectorRequirementsAsFieldSelector: empty list -> Nothing();
// In / NotIn with exactly one value each; anything else is an error. Field
// names are not validated (upstream does not either).
Result<FieldSelector> FromNodeSelectorFieldRequirements(
    const std::vector<SelectorRequirement>& reqs);

// A list of NodeSelectorTerms ORed together, with MatchNodeSelectorTerms'
// rules: an empty list matches no node; a term with neither matchExpressions
// nor matchFields matches no node; a term whose expressions or fields fail to
// compile matches no node (the other terms still count; it is not an error);
// otherwise a term matches when its expressions match the node's labels and
// its fields match the node's name (an absent part is not checked).
class CompiledNodeSelectorTerms {
 public:
  CompiledNodeSelectorTerms() = default;
  static CompiledNodeSelectorTerms Compile(const std::vector<NodeSelectorTerm>& terms);
  static CompiledNodeSelectorTerms Compile(const NodeSelector& selector) {
    return Compile(selector.terms);
  }

  // Allocation-free; safe to call from many threads at once.
  bool Matches(const Labels& node_labels, std::string_view node_name) const {
    for (size_t i = 0; i < terms_.size(); ++i) {
      if (TermMatches(i, node_labels, node_name)) return true;
    }
    return false;
  }

  size_t size() const { return terms_.size(); }

  // Whether term i alone matches, by the rules above.
  bool TermMatches(size_t i, const Labels& node_labels, std::string_view node_name) const {
    const Term& t = terms_[i];
    if (t.never) return false;
    if (t.has_labels && !t.labels.Matches(node_labels)) return false;
    if (t.has_fields && !t.fields.Matches(node_name)) return false;
    return true;
  }

  // Why term i can never match: "" when it compiled, else the compile error
  // (or a note that the term is empty). For diagnostics only.
  const std::string& TermError(size_t i) const { return terms_[i].error; }

 private:
  struct Term {
    bool never = false;
    bool has_labels = false;
    bool has_fields = false;
    Selector labels;
    FieldSelector fields;
    std::string error;
  };
  std::vector<Term> terms_;
};

}  // namespace ksched::labels
