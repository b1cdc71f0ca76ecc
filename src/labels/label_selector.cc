#include "labels/label_selector.h"

#include <map>
#include <string_view>

#include "labels/validation.h"

namespace ksched::labels {

Result<Selector> FromLabelSelector(const LabelSelector* ls) {
  if (ls == nullptr) return Selector::Nothing();
  if (ls->match_labels.empty() && ls->match_expressions.empty()) return Selector::Everything();

  std::vector<Requirement> reqs;
  reqs.reserve(ls->match_labels.size() + ls->match_expressions.size());

  // Upstream ranges over a Go map; a key order is as good as any, and it makes
  // the first reported error deterministic.
  std::map<std::string_view, std::string_view> match_labels;
  for (const auto& [k, v] : ls->match_labels) match_labels[k] = v;
  for (const auto& [k, v] : match_labels) {
    Result<Requirement> r = Requirement::Make(k, Op::kEquals, {std::string(v)});
    if (!r.ok()) return r.error();
    reqs.push_back(std::move(r).value());
  }

  for (const SelectorRequirement& expr : ls->match_expressions) {
    Op op;
    if (expr.op == "In") {
      op = Op::kIn;
    } else if (expr.op == "NotIn") {
      op = Op::kNotIn;
    } else if (expr.op == "Exists") {
      op = Op::kExists;
    } else if (expr.op == "DoesNotExist") {
      op = Op::kDoesNotExist;
    } else {
      return MakeError(GoQuote(expr.op) + " is not a valid pod selector operator");
    }
    Result<Requirement> r = Requirement::Make(expr.key, op, expr.values);
    if (!r.ok()) return r.error();
    reqs.push_back(std::move(r).value());
  }
  return Selector::FromRequirements(std::move(reqs));
}

}  // namespace ksched::labels
