#include "cel/interpreter.h"

#include <fmt/format.h>

#include <algorithm>

namespace ksched::cel {
namespace {

constexpr uint64_t kListCreateBaseCost = 10;
constexpr uint64_t kMapCreateBaseCost = 30;

struct CostExceeded {};

class Interpreter {
 public:
  Interpreter(const CheckResult& checked, EvalContext& ctx) : checked_(checked), ctx_(ctx) {}

  Value Eval(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kConst:
        return Const(e);
      case ExprKind::kIdent:
        return Ident(e);
      case ExprKind::kSelect:
        return Select(e);
      case ExprKind::kCall:
        return Call(e);
      case ExprKind::kList:
        return List(e);
      case ExprKind::kMap:
        return Map(e);
      case ExprKind::kComprehension:
        return Fold(e);
    }
    return NoSuchOverload();
  }

 private:
  void AddCost(uint64_t c) {
    ctx_.cost += c;
    if (ctx_.cost > ctx_.cost_limit) {
      ctx_.cost_exceeded = true;
      throw CostExceeded{};
    }
  }
  const NodeInfo& Info(const Expr& e) const { return checked_.nodes[static_cast<size_t>(e.id)]; }

  static Value Const(const Expr& e) {
    switch (e.const_kind) {
      case ConstKind::kNull:
        return Value();
      case ConstKind::kBool:
        return Value::Bool(e.bool_value);
      case ConstKind::kInt:
        return Value::Int(e.int_value);
      case ConstKind::kUint:
        return Value::Uint(e.uint_value);
      case ConstKind::kDouble:
        return Value::Double(e.double_value);
      case ConstKind::kString:
        return Value::StringView(e.string_value);
      case ConstKind::kBytes:
        return Value::BytesView(e.string_value);
    }
    return Value();
  }

  Value Ident(const Expr& e) {
    AddCost(1);
    for (size_t i = ctx_.vars.size(); i-- > 0;)
      if (ctx_.vars[i].first == e.name) return ctx_.vars[i].second;
    if (const char* tn = Info(e).type_name) return Value::TypeName(tn);
    if (e.name == "device" || e.name == ".device") return Value::Special(ValueKind::kDevice);
    return Value::Error(fmt::format("no such attribute(s): {}", e.name));
  }

  Value SelectOn(const Value& v, const Expr& e, std::string_view field, bool test_only) {
    if (v.kind() == ValueKind::kOptional) {
      if (!v.optional_value()) return v;
      Value inner = SelectOn(*v.optional_value(), e, field, test_only);
      if (test_only || inner.is_error()) return inner;
      return Value::OptionalOf(inner);
    }
    Value key = Value::StringView(field);
    if (test_only) {
      switch (v.kind()) {
        case ValueKind::kAttrDomains:
        case ValueKind::kCapDomains:
          return Value::Bool(true);  // the default-returning Find
        default:
          if (IsMapLike(v)) return MapContains(ctx_, v, key);
          return Value::Bool(false);
      }
    }
    if (!IsMapLike(v)) return Value::Error(fmt::format("no such key: {}", field));
    bool found;
    return MapLookup(ctx_, v, key, found);
  }

  Value Select(const Expr& e) {
    Value operand = Eval(*e.target);
    if (operand.is_error()) return operand;
    if (!e.test_only) AddCost(1);
    return SelectOn(operand, e, e.name, e.test_only);
  }

  Value Logic(const Expr& e, bool is_and) {
    Value err;
    bool have_err = false;
    for (const ExprPtr& a : e.args) {
      Value v = Eval(*a);
      if (v.kind() == ValueKind::kBool) {
        if (v.bool_value() != is_and) return v;  // short-circuit
        continue;
      }
      if (!have_err) {
        err = v.is_error() ? v : NoSuchOverload();
        have_err = true;
      }
    }
    if (have_err) return err;
    return Value::Bool(is_and);
  }

  Value Call(const Expr& e) {
    const std::string& fn = e.name;
    if (fn == "_&&_") return Logic(e, true);
    if (fn == "_||_") return Logic(e, false);
    if (fn == "_?_:_") {
      Value c = Eval(*e.args[0]);
      if (c.kind() != ValueKind::kBool) return c.is_error() ? c : NoSuchOverload();
      return Eval(*e.args[c.bool_value() ? 1 : 2]);
    }
    if (fn == "@not_strictly_false") {
      Value v = Eval(*e.args[0]);
      AddCost(1);
      if (v.kind() == ValueKind::kBool) return v;
      return Value::Bool(true);
    }
    if (fn == "_?._") {
      Value v = Eval(*e.args[0]);
      if (v.is_error()) return v;
      AddCost(1);
      std::string_view field = e.args[1]->string_value;
      if (v.kind() == ValueKind::kOptional) {
        if (!v.optional_value()) return v;
        v = *v.optional_value();
      }
      if (!IsMapLike(v)) return Value::OptionalNone();
      if (v.kind() == ValueKind::kAttrDomains || v.kind() == ValueKind::kCapDomains) {
        bool found;
        return Value::OptionalOf(MapLookup(ctx_, v, Value::StringView(field), found));
      }
      bool found;
      Value r = MapLookup(ctx_, v, Value::StringView(field), found);
      if (!found) return Value::OptionalNone();
      return Value::OptionalOf(r);
    }
    size_t n = e.args.size() + (e.target ? 1 : 0);
    Value small[4];
    std::vector<Value> big;
    Value* args = small;
    if (n > 4) {
      big.resize(n);
      args = big.data();
    }
    size_t k = 0;
    if (e.target) {
      args[k] = Eval(*e.target);
      if (args[k].is_error()) return args[k];
      ++k;
    }
    for (const ExprPtr& a : e.args) {
      args[k] = Eval(*a);
      if (args[k].is_error()) return args[k];
      ++k;
    }
    if (fn == "_[_]" || fn == "_[?_]") {
      AddCost(1);
      if (args[0].kind() == ValueKind::kOptional) {
        if (!args[0].optional_value()) return args[0];
        Value inner[2] = {*args[0].optional_value(), args[1]};
        Value r = Dispatch(e, fn == "_[_]" ? "_[?_]" : "_[?_]", inner, 2, false);
        return r;
      }
    }
    return Dispatch(e, fn, args, n, true);
  }

  Value Dispatch(const Expr& e, std::string_view fn, const Value* args, size_t n, bool use_info) {
    const std::vector<const OverloadDecl*>* cands = use_info ? &Info(e).overloads : nullptr;
    std::vector<const OverloadDecl*> local;
    if (!use_info) {
      if (const FunctionDecl* f = LookupFunction(fn)) {
        for (const OverloadDecl& o : f->overloads) local.push_back(&o);
      }
      cands = &local;
    }
    for (const OverloadDecl* o : *cands) {
      if (o->args.size() != n) continue;
      bool ok = true;
      for (size_t i = 0; i < n && ok; ++i) ok = ValueMatchesType(args[i], *o->args[i]);
      if (!ok) continue;
      Value r = o->impl(ctx_, args, n);
      if (e.name != "_[_]" && e.name != "_[?_]") AddCost(CallCost(*o, args, n));
      return r;
    }
    return NoSuchOverload();
  }

  Value List(const Expr& e) {
    ValueList items;
    items.reserve(e.args.size());
    for (size_t i = 0; i < e.args.size(); ++i) {
      Value v = Eval(*e.args[i]);
      if (v.is_error()) return v;
      bool opt = std::find(e.optional_indices.begin(), e.optional_indices.end(),
                           static_cast<int32_t>(i)) != e.optional_indices.end();
      if (opt) {
        if (v.kind() != ValueKind::kOptional)
          return Value::Error(
              fmt::format("cannot initialize optional list element from non-optional value {}",
                          FormatValue(v)));
        if (!v.optional_value()) continue;
        v = *v.optional_value();
      }
      items.push_back(std::move(v));
    }
    AddCost(kListCreateBaseCost);
    return Value::List(std::move(items));
  }

  Value Map(const Expr& e) {
    ValueMap entries;
    for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
      Value k = Eval(*e.args[i]);
      if (k.is_error()) return k;
      Value v = Eval(*e.args[i + 1]);
      if (v.is_error()) return v;
      bool opt = std::find(e.optional_indices.begin(), e.optional_indices.end(),
                           static_cast<int32_t>(i / 2)) != e.optional_indices.end();
      if (opt) {
        if (v.kind() != ValueKind::kOptional)
          return Value::Error(
              fmt::format("cannot initialize optional entry '{}' from non-optional value {}",
                          FormatValue(k), FormatValue(v)));
        if (!v.optional_value()) continue;
        v = *v.optional_value();
      }
      switch (k.kind()) {
        case ValueKind::kInt:
        case ValueKind::kUint:
        case ValueKind::kBool:
        case ValueKind::kString:
          break;
        default:
          return Value::Error(fmt::format("unsupported key type: {}", k.TypeName()));
      }
      for (const auto& [ek, ev] : entries) {
        Value eq = Equals(ctx_, ek, k);
        if (eq.kind() == ValueKind::kBool && eq.bool_value())
          return Value::Error(fmt::format("Failed with repeated key: {}", FormatValue(k)));
      }
      entries.emplace_back(std::move(k), std::move(v));
    }
    AddCost(kMapCreateBaseCost);
    return Value::Map(std::move(entries));
  }

  // accu + [x] (map, filter, transformList): appended in place instead of
  // copying the accumulated list on every iteration.
  const Expr* AppendOperand(const Expr& step, const std::string& accu) const {
    if (step.kind == ExprKind::kCall && step.name == "_+_" && !step.target &&
        step.args.size() == 2 && step.args[0]->kind == ExprKind::kIdent &&
        step.args[0]->name == accu && step.args[1]->kind == ExprKind::kList &&
        step.args[1]->args.size() == 1 && step.args[1]->optional_indices.empty())
      return step.args[1]->args[0].get();
    return nullptr;
  }

  Value Fold(const Expr& e) {
    Value range = Eval(*e.iter_range);
    if (range.is_error()) return range;
    bool two = !e.iter_var2.empty();
    std::vector<Value> keys;
    const ValueList* items = nullptr;
    if (range.kind() == ValueKind::kList) {
      items = &range.list();
    } else if (IsMapLike(range)) {
      keys = MapKeys(ctx_, range);
      items = &keys;
    } else {
      return Value::Error(
          fmt::format("unsupported comprehension range type: {}", range.TypeName()));
    }
    Value accu = Eval(*e.accu_init);
    size_t base = ctx_.vars.size();
    // Fast path for list building steps.
    const Expr* filter = nullptr;
    const Expr* elem = AppendOperand(*e.loop_step, e.accu_var);
    bool ternary = false;
    if (!elem && e.loop_step->kind == ExprKind::kCall && e.loop_step->name == "_?_:_" &&
        e.loop_step->args[2]->kind == ExprKind::kIdent &&
        e.loop_step->args[2]->name == e.accu_var) {
      elem = AppendOperand(*e.loop_step->args[1], e.accu_var);
      if (elem) {
        filter = e.loop_step->args[0].get();
        ternary = true;
      }
    }
    bool fast = elem && accu.kind() == ValueKind::kList && accu.list().empty() &&
                e.loop_condition->kind == ExprKind::kConst;
    ValueList built;
    Value failed;
    bool has_failed = false;
    ctx_.vars.emplace_back(e.accu_var, accu);
    for (size_t i = 0; i < items->size(); ++i) {
      ctx_.vars.resize(base + 1);
      if (two) {
        if (range.kind() == ValueKind::kList) {
          ctx_.vars.emplace_back(e.iter_var, Value::Int(static_cast<int64_t>(i)));
          ctx_.vars.emplace_back(e.iter_var2, (*items)[i]);
        } else {
          bool found;
          ctx_.vars.emplace_back(e.iter_var, (*items)[i]);
          ctx_.vars.emplace_back(e.iter_var2, MapLookup(ctx_, range, (*items)[i], found));
        }
      } else {
        ctx_.vars.emplace_back(e.iter_var, (*items)[i]);
      }
      if (fast) {
        if (has_failed) break;
        if (ternary) {
          Value c = Eval(*filter);
          if (c.kind() != ValueKind::kBool) {
            failed = c.is_error() ? c : NoSuchOverload();
            has_failed = true;
            continue;
          }
          if (!c.bool_value()) {
            AddCost(1);  // the accumulator read
            continue;
          }
        }
        Value v = Eval(*elem);
        AddCost(1 + kListCreateBaseCost + 1);
        if (v.is_error()) {
          failed = v;
          has_failed = true;
          continue;
        }
        built.push_back(std::move(v));
        continue;
      }
      Value cond = Eval(*e.loop_condition);
      if (cond.kind() == ValueKind::kBool && !cond.bool_value()) break;
      Value next = Eval(*e.loop_step);
      ctx_.vars[base].second = std::move(next);
    }
    ctx_.vars.resize(base + 1);
    if (fast) ctx_.vars[base].second = has_failed ? failed : Value::List(std::move(built));
    Value r = Eval(*e.result);
    ctx_.vars.resize(base);
    return r;
  }

  const CheckResult& checked_;
  EvalContext& ctx_;
};

}  // namespace

Value Evaluate(const Expr& e, const CheckResult& checked, EvalContext& ctx) {
  Interpreter in(checked, ctx);
  try {
    return in.Eval(e);
  } catch (const CostExceeded&) {
    ctx.vars.clear();
    return Value::ErrorView("operation cancelled: actual cost limit exceeded");
  }
}

}  // namespace ksched::cel
