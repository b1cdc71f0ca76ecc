#include "labels/node_selector.h"

#include "labels/validation.h"

namespace ksched::labels {

Result<Selector> FromNodeSelectorRequirements(const std::vector<SelectorRequirement>& reqs) {
  if (reqs.empty()) return Selector::Nothing();
  std::vector<Requirement> compiled;
  compiled.reserve(reqs.size());
  for (const SelectorRequirement& expr : reqs) {
    Op op;
    if (expr.op == "In") {
      op = Op::kIn;
    } else if (expr.op == "NotIn") {
      op = Op::kNotIn;
    } else if (expr.op == "Exists") {
      op = Op::kExists;
    } else if (expr.op == "DoesNotExist") {
      op = Op::kDoesNotExist;
    } else if (expr.op == "Gt") {
      op = Op::kGt;
    } else if (expr.op == "Lt") {
      op = Op::kLt;
    } else {
      return MakeError(GoQuote(expr.op) + " is not a valid node selector operator");
    }
    Result<Requirement> r = Requirement::Make(expr.key, op, expr.values);
    if (!r.ok()) return r.error();
    compiled.push_back(std::move(r).value());
  }
  return Selector::FromRequirements(std::move(compiled));
}

Result<FieldSelector> FromNodeSelectorFieldRequirements(
    const std::vector<SelectorRequirement>& reqs) {
  if (reqs.empty()) return FieldSelector::Nothing();
  FieldSelector sel;
  for (const SelectorRequirement& expr : reqs) {
    bool equal;
    if (expr.op == "In") {
      equal = true;
    } else if (expr.op == "NotIn") {
      equal = false;
    } else {
      return MakeError(GoQuote(expr.op) + " is not a valid node field selector operator");
    }
    if (expr.values.size() != 1) {
      return MakeError("unexpected number of value (" + std::to_string(expr.values.size()) +
                       ") for node field selector operator " + GoQuote(expr.op));
    }
    sel.terms_.push_back(
        FieldSelector::Term{expr.key, expr.values[0], equal, expr.key == kNodeFieldName});
  }
  return sel;
}

namespace {

// fields.EscapeValue: backslash-escape '\', ',' and '='.
std::string EscapeFieldValue(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string FieldSelector::String() const {
  std::string out;
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (i > 0) out += ',';
    out += terms_[i].field;
    out += terms_[i].equal ? "=" : "!=";
    out += EscapeFieldValue(terms_[i].value);
  }
  return out;
}

CompiledNodeSelectorTerms CompiledNodeSelectorTerms::Compile(
    const std::vector<NodeSelectorTerm>& terms) {
  CompiledNodeSelectorTerms out;
  out.terms_.reserve(terms.size());
  for (const NodeSelectorTerm& term : terms) {
    Term t;
    if (term.match_expressions.empty() && term.match_fields.empty()) {
      t.never = true;
      t.error = "empty node selector term";
    }
    if (!t.never && !term.match_expressions.empty()) {
      Result<Selector> sel = FromNodeSelectorRequirements(term.match_expressions);
      if (sel.ok()) {
        t.has_labels = true;
        t.labels = std::move(sel).value();
      } else {
        t.never = true;
        t.error = sel.error().message;
      }
    }
    if (!t.never && !term.match_fields.empty()) {
      Result<FieldSelector> sel = FromNodeSelectorFieldRequirements(term.match_fields);
      if (sel.ok()) {
        t.has_fields = true;
        t.fields = std::move(sel).value();
      } else {
        t.never = true;
        t.error = sel.error().message;
      }
    }
    out.terms_.push_back(std::move(t));
  }
  return out;
}

}  // namespace ksched::labels
