#include "cel/checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

namespace ksched::cel {
namespace {

using Mapping = std::map<std::string, TypePtr>;

bool IsDyn(const Type& t) { return t.kind == TypeKind::kDyn || t.kind == TypeKind::kAny; }
bool IsDynOrError(const Type& t) { return IsDyn(t) || t.kind == TypeKind::kError; }

TypePtr Find(const Mapping& m, const Type& t) {
  if (t.kind != TypeKind::kTypeParam) return nullptr;
  auto it = m.find(t.name);
  return it == m.end() ? nullptr : it->second;
}

TypePtr WithParams(const Type& t, std::vector<TypePtr> params) {
  auto n = std::make_shared<Type>(t);
  n->params = std::move(params);
  return n;
}

TypePtr Substitute(const Mapping& m, const TypePtr& t, bool to_dyn, int depth = 0) {
  if (depth > 64) return DynType();
  if (TypePtr s = Find(m, *t)) return Substitute(m, s, to_dyn, depth + 1);
  if (to_dyn && t->kind == TypeKind::kTypeParam) return DynType();
  if (t->params.empty()) return t;
  std::vector<TypePtr> ps;
  for (const TypePtr& p : t->params) ps.push_back(Substitute(m, p, to_dyn, depth + 1));
  return WithParams(*t, std::move(ps));
}

bool IsEqualOrLessSpecific(const Type& a, const Type& b) {
  if (IsDyn(a) || a.kind == TypeKind::kTypeParam) return true;
  if (IsDyn(b) || b.kind == TypeKind::kTypeParam) return false;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case TypeKind::kOpaque:
      if (a.name != b.name || a.params.size() != b.params.size()) return false;
      for (size_t i = 0; i < a.params.size(); ++i)
        if (!IsEqualOrLessSpecific(*a.params[i], *b.params[i])) return false;
      return true;
    case TypeKind::kList:
      return IsEqualOrLessSpecific(*a.params[0], *b.params[0]);
    case TypeKind::kMap:
      return IsEqualOrLessSpecific(*a.params[0], *b.params[0]) &&
             IsEqualOrLessSpecific(*a.params[1], *b.params[1]);
    case TypeKind::kType:
      return true;
    default:
      return IsExactType(a, b);
  }
}
TypePtr MostGeneral(const TypePtr& a, const TypePtr& b) {
  return IsEqualOrLessSpecific(*a, *b) ? a : b;
}

bool NotReferencedIn(const Mapping& m, const Type& t, const Type& within, int depth = 0) {
  if (depth > 64) return false;
  if (IsExactType(t, within)) return false;
  switch (within.kind) {
    case TypeKind::kTypeParam: {
      TypePtr s = Find(m, within);
      if (!s) return true;
      return NotReferencedIn(m, t, *s, depth + 1);
    }
    case TypeKind::kOpaque:
    case TypeKind::kList:
    case TypeKind::kMap:
    case TypeKind::kType:
      for (const TypePtr& p : within.params)
        if (!NotReferencedIn(m, t, *p, depth + 1)) return false;
      return true;
    default:
      return true;
  }
}

bool InternalIsAssignable(Mapping& m, const TypePtr& t1, const TypePtr& t2, int depth = 0);

// Returns valid; has_sub reports whether t2 already had a substitution.
bool IsValidTypeSubstitution(Mapping& m, const TypePtr& t1, const TypePtr& t2, bool& has_sub,
                             int depth) {
  has_sub = false;
  if (t1->kind == t2->kind && IsExactType(*t1, *t2)) {
    has_sub = true;
    return true;
  }
  if (TypePtr sub = Find(m, *t2)) {
    has_sub = true;
    if (t1->kind == sub->kind && IsExactType(*t1, *sub)) return true;
    if (InternalIsAssignable(m, t1, sub, depth + 1)) {
      TypePtr n = MostGeneral(t1, sub);
      if (NotReferencedIn(m, *t2, *n)) m[t2->name] = n;
      return true;
    }
    return false;
  }
  if (NotReferencedIn(m, *t2, *t1)) {
    m[t2->name] = t1;
    return true;
  }
  return false;
}

bool InternalIsAssignable(Mapping& m, const TypePtr& t1, const TypePtr& t2, int depth) {
  if (depth > 64) return false;
  if (t2->kind == TypeKind::kTypeParam) {
    bool has_sub;
    if (IsValidTypeSubstitution(m, t1, t2, has_sub, depth)) return true;
    if (has_sub) return false;
  }
  if (t1->kind == TypeKind::kTypeParam) {
    bool has_sub;
    return IsValidTypeSubstitution(m, t2, t1, has_sub, depth);
  }
  if (IsDynOrError(*t1) || IsDynOrError(*t2)) return true;
  auto nullable = [](const Type& t) {
    switch (t.kind) {
      case TypeKind::kOpaque:
      case TypeKind::kStruct:
      case TypeKind::kAny:
      case TypeKind::kDuration:
      case TypeKind::kTimestamp:
      case TypeKind::kNull:
        return true;
      default:
        return false;
    }
  };
  if (t1->kind == TypeKind::kNull) return nullable(*t2);
  if (t2->kind == TypeKind::kNull) return nullable(*t1);
  switch (t1->kind) {
    case TypeKind::kBool:
    case TypeKind::kBytes:
    case TypeKind::kDouble:
    case TypeKind::kInt:
    case TypeKind::kString:
    case TypeKind::kUint:
    case TypeKind::kDuration:
    case TypeKind::kTimestamp:
    case TypeKind::kStruct:
      return t1->kind == t2->kind && t1->name == t2->name;
    case TypeKind::kType:
      return t2->kind == TypeKind::kType;
    case TypeKind::kOpaque:
    case TypeKind::kList:
    case TypeKind::kMap:
      if (t1->kind != t2->kind || t1->name != t2->name || t1->params.size() != t2->params.size())
        return false;
      for (size_t i = 0; i < t1->params.size(); ++i)
        if (!InternalIsAssignable(m, t1->params[i], t2->params[i], depth + 1)) return false;
      return true;
    default:
      return false;
  }
}

struct Scope {
  std::string name;
  TypePtr type;
};

class Checker {
 public:
  Checker(int64_t next_id, const CheckOptions& opts) {
    result_.nodes.resize(static_cast<size_t>(next_id) + 1);
    std::vector<std::pair<std::string, TypePtr>> fields = {
        {"driver", StringType()},
        {"attributes", MapType(StringType(), MapType(StringType(), AnyType()))},
        {"capacity", MapType(StringType(), MapType(StringType(), QuantityType()))},
    };
    if (opts.consumable_capacity) fields.emplace_back("allowMultipleAllocations", BoolType());
    device_fields_ = std::move(fields);
  }

  CheckResult Run(Expr& e) {
    CheckExpr(e);
    result_.output = Substitute(mapping_, TypeOf(e), true);
    for (NodeInfo& n : result_.nodes)
      if (n.type) n.type = Substitute(mapping_, n.type, true);
    return std::move(result_);
  }

 private:
  void Error(const Expr& e, std::string msg) {
    result_.issues.push_back({e.offset, std::move(msg)});
  }
  NodeInfo& Info(const Expr& e) { return result_.nodes[static_cast<size_t>(e.id)]; }
  TypePtr TypeOf(const Expr& e) {
    const TypePtr& t = result_.nodes[static_cast<size_t>(e.id)].type;
    return t ? t : ErrorType();
  }
  void SetType(const Expr& e, TypePtr t) { Info(e).type = std::move(t); }
  bool IsAssignable(const TypePtr& t1, const TypePtr& t2) {
    Mapping copy = mapping_;
    if (InternalIsAssignable(copy, t1, t2)) {
      mapping_ = std::move(copy);
      return true;
    }
    return false;
  }
  bool IsAssignableList(const std::vector<TypePtr>& l1, const std::vector<TypePtr>& l2) {
    if (l1.size() != l2.size()) return false;
    Mapping copy = mapping_;
    for (size_t i = 0; i < l1.size(); ++i)
      if (!InternalIsAssignable(copy, l1[i], l2[i])) return false;
    mapping_ = std::move(copy);
    return true;
  }
  TypePtr NewTypeVar() { return TypeParam(fmt::format("_var{}", next_var_++)); }

  void CheckExpr(Expr& e) {
    switch (e.kind) {
      case ExprKind::kConst:
        switch (e.const_kind) {
          case ConstKind::kNull:
            SetType(e, NullType());
            break;
          case ConstKind::kBool:
            SetType(e, BoolType());
            break;
          case ConstKind::kInt:
            SetType(e, IntType());
            break;
          case ConstKind::kUint:
            SetType(e, UintType());
            break;
          case ConstKind::kDouble:
            SetType(e, DoubleType());
            break;
          case ConstKind::kString:
            SetType(e, StringType());
            break;
          case ConstKind::kBytes:
            SetType(e, BytesType());
            break;
        }
        return;
      case ExprKind::kIdent:
        CheckIdent(e);
        return;
      case ExprKind::kSelect:
        CheckSelect(e);
        return;
      case ExprKind::kCall:
        CheckCall(e);
        return;
      case ExprKind::kList:
        CheckList(e);
        return;
      case ExprKind::kMap:
        CheckMap(e);
        return;
      case ExprKind::kComprehension:
        CheckComprehension(e);
        return;
    }
  }

  static const char* TypeIdent(std::string_view name) {
    static const char* kNames[] = {"int",  "uint", "double",    "bool", "string", "bytes",
                                   "list", "map",  "null_type", "type", "dyn",    "optional_type"};
    for (const char* n : kNames)
      if (name == n) return n;
    return nullptr;
  }
  TypePtr TypeIdentType(std::string_view name) {
    if (name == "int") return TypeType(IntType());
    if (name == "uint") return TypeType(UintType());
    if (name == "double") return TypeType(DoubleType());
    if (name == "bool") return TypeType(BoolType());
    if (name == "string") return TypeType(StringType());
    if (name == "bytes") return TypeType(BytesType());
    if (name == "list") return TypeType(ListType(DynType()));
    if (name == "map") return TypeType(MapType(DynType(), DynType()));
    if (name == "null_type") return TypeType(NullType());
    if (name == "dyn") return TypeType(DynType());
    if (name == "optional_type") return TypeType(OptionalType(DynType()));
    return TypeType(TypeType());
  }

  // A variable by name: comprehension scopes first, then the environment.
  bool LookupVar(std::string_view name, TypePtr& out) {
    for (size_t i = scopes_.size(); i-- > 0;) {
      if (scopes_[i].name == name) {
        out = scopes_[i].type;
        return true;
      }
    }
    std::string_view n = name.starts_with(".") ? name.substr(1) : name;
    if (n == "device") {
      out = StructType("kubernetes.DRADevice");
      return true;
    }
    return false;
  }

  void CheckIdent(Expr& e) {
    TypePtr t;
    if (LookupVar(e.name, t)) {
      SetType(e, t);
      return;
    }
    std::string_view n =
        std::string_view(e.name).starts_with(".") ? std::string_view(e.name).substr(1) : e.name;
    if (const char* tn = TypeIdent(n)) {
      Info(e).type_name = tn;
      SetType(e, TypeIdentType(tn));
      return;
    }
    SetType(e, ErrorType());
    Error(e, fmt::format("undeclared reference to '{}' (in container '')", e.name));
  }

  bool LookupField(const std::string& type_name, const std::string& field, TypePtr& out) {
    if (type_name != "kubernetes.DRADevice") return false;
    for (const auto& [n, t] : device_fields_) {
      if (n == field) {
        out = t;
        return true;
      }
    }
    return false;
  }

  TypePtr CheckSelectField(Expr& e, Expr& operand, const std::string& field, bool optional) {
    CheckExpr(operand);
    TypePtr ot = Substitute(mapping_, TypeOf(operand), false);
    bool is_opt = false;
    TypePtr target = ot;
    if (ot->kind == TypeKind::kOpaque && ot->name == "optional_type") {
      target = ot->params[0];
      is_opt = true;
    }
    TypePtr result = ErrorType();
    switch (target->kind) {
      case TypeKind::kMap:
        result = target->params[1];
        break;
      case TypeKind::kStruct: {
        TypePtr ft;
        if (LookupField(target->name, field, ft)) {
          result = ft;
        } else {
          Error(e, fmt::format("undefined field '{}'", field));
        }
        break;
      }
      case TypeKind::kTypeParam:
        IsAssignable(DynType(), target);
        result = DynType();
        break;
      default:
        if (!IsDynOrError(*target)) {
          Error(e, fmt::format("type '{}' does not support field selection", target->String()));
        }
        result = DynType();
        break;
    }
    if (is_opt || optional) return OptionalType(result);
    return result;
  }

  void CheckSelect(Expr& e) {
    TypePtr t = CheckSelectField(e, *e.target, e.name, false);
    if (e.test_only) t = BoolType();
    SetType(e, Substitute(mapping_, t, false));
  }

  // "a.b.c" for an ident/select chain, or false.
  static bool QualifiedName(const Expr& e, std::string& out) {
    if (e.kind == ExprKind::kIdent) {
      out = e.name;
      return true;
    }
    if (e.kind == ExprKind::kSelect && !e.test_only) {
      std::string prefix;
      if (!QualifiedName(*e.target, prefix)) return false;
      out = prefix + "." + e.name;
      return true;
    }
    return false;
  }

  void CheckCall(Expr& e) {
    if (e.name == "_?._") {
      if (e.args.size() != 2 || e.target) {
        Error(e, "unsupported optional field selection");
        SetType(e, ErrorType());
        return;
      }
      Expr& field = *e.args[1];
      if (field.kind != ExprKind::kConst || field.const_kind != ConstKind::kString) {
        Error(field, "unsupported optional field selection");
        SetType(e, ErrorType());
        return;
      }
      TypePtr t = CheckSelectField(e, *e.args[0], field.string_value, true);
      SetType(e, Substitute(mapping_, t, false));
      return;
    }
    for (ExprPtr& a : e.args) CheckExpr(*a);
    if (!e.target) {
      const FunctionDecl* fn = LookupFunction(e.name);
      if (!fn) {
        Error(e, fmt::format("undeclared reference to '{}' (in container '')", e.name));
        SetType(e, ErrorType());
        return;
      }
      Resolve(e, *fn, nullptr);
      return;
    }
    std::string qualified;
    if (QualifiedName(*e.target, qualified)) {
      // A namespaced function (strings.quote, lists.range, sets.contains, ...)
      // unless the prefix is a variable in scope.
      std::string root = qualified.substr(0, qualified.find('.'));
      TypePtr ignored;
      if (!LookupVar(root, ignored) || root == "device") {
        if (const FunctionDecl* fn = LookupFunction(qualified + "." + e.name)) {
          e.name = qualified + "." + e.name;
          e.target.reset();
          Resolve(e, *fn, nullptr);
          return;
        }
      }
    }
    CheckExpr(*e.target);
    const FunctionDecl* fn = LookupFunction(e.name);
    if (!fn) {
      SetType(e, ErrorType());
      Error(e, fmt::format("undeclared reference to '{}' (in container '')", e.name));
      return;
    }
    Resolve(e, *fn, e.target.get());
  }

  TypePtr Instantiate(const TypePtr& t, const Mapping& fresh) {
    return Substitute(fresh, t, false);
  }

  void Resolve(Expr& e, const FunctionDecl& fn, Expr* target) {
    std::vector<TypePtr> arg_types;
    if (target) arg_types.push_back(TypeOf(*target));
    for (ExprPtr& a : e.args) arg_types.push_back(TypeOf(*a));
    if (fn.name == "_&&_" || fn.name == "_||_") {
      bool bad = false;
      for (size_t i = 0; i < arg_types.size(); ++i) {
        if (!IsAssignable(arg_types[i], BoolType())) {
          Error(*e.args[i],
                fmt::format("expected type 'bool' but found '{}'", arg_types[i]->String()));
          bad = true;
        }
      }
      if (!bad) Info(e).overloads.push_back(&fn.overloads[0]);
      SetType(e, bad ? ErrorType() : BoolType());
      return;
    }
    TypePtr result;
    for (const OverloadDecl& o : fn.overloads) {
      if ((target == nullptr) == o.member) continue;
      Mapping fresh;
      for (const std::string& p : o.type_params) fresh[p] = NewTypeVar();
      std::vector<TypePtr> cand;
      for (const TypePtr& a : o.args) cand.push_back(fresh.empty() ? a : Instantiate(a, fresh));
      TypePtr res = fresh.empty() ? o.result : Instantiate(o.result, fresh);
      if (!IsAssignableList(arg_types, cand)) continue;
      Info(e).overloads.push_back(&o);
      TypePtr rt = Substitute(mapping_, res, false);
      if (!result) {
        result = rt;
      } else if (!IsDyn(*result) && !IsExactType(*rt, *result)) {
        result = DynType();
      }
    }
    if (!result) {
      std::string sig;
      size_t start = 0;
      if (target) {
        sig = Substitute(mapping_, arg_types[0], true)->String() + ".";
        start = 1;
      }
      sig += "(";
      for (size_t i = start; i < arg_types.size(); ++i) {
        if (i > start) sig += ", ";
        sig += Substitute(mapping_, arg_types[i], true)->String();
      }
      sig += ")";
      Error(e, fmt::format("found no matching overload for '{}' applied to '{}'", fn.name, sig));
      SetType(e, ErrorType());
      return;
    }
    SetType(e, result);
  }

  TypePtr JoinTypes(const Expr& e, const TypePtr& prev, const TypePtr& cur) {
    if (!prev) return cur;
    if (IsAssignable(prev, cur)) return MostGeneral(prev, cur);
    Error(e, fmt::format("expected type '{}' but found '{}'", prev->String(), cur->String()));
    return ErrorType();
  }

  TypePtr UnwrapOptional(const Expr& e, bool optional, TypePtr t) {
    if (!optional) return t;
    if (t->kind == TypeKind::kOpaque && t->name == "optional_type") return t->params[0];
    if (!IsDyn(*t))
      Error(e, fmt::format("expected type '{}' but found '{}'", OptionalType(t)->String(),
                           t->String()));
    return t;
  }

  void CheckList(Expr& e) {
    TypePtr elem;
    for (size_t i = 0; i < e.args.size(); ++i) {
      CheckExpr(*e.args[i]);
      bool opt = std::find(e.optional_indices.begin(), e.optional_indices.end(),
                           static_cast<int32_t>(i)) != e.optional_indices.end();
      TypePtr t = UnwrapOptional(*e.args[i], opt, TypeOf(*e.args[i]));
      elem = JoinTypes(*e.args[i], elem, t);
    }
    if (!elem) elem = NewTypeVar();
    SetType(e, ListType(elem));
  }

  void CheckMap(Expr& e) {
    if (e.test_only) {  // a message construction: no message types are declared
      for (size_t i = 1; i < e.args.size(); i += 2) CheckExpr(*e.args[i]);
      Error(e, fmt::format("undeclared reference to '{}' (in container '')", e.name));
      SetType(e, ErrorType());
      return;
    }
    TypePtr kt, vt;
    for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
      CheckExpr(*e.args[i]);
      kt = JoinTypes(*e.args[i], kt, TypeOf(*e.args[i]));
      CheckExpr(*e.args[i + 1]);
      bool opt = std::find(e.optional_indices.begin(), e.optional_indices.end(),
                           static_cast<int32_t>(i / 2)) != e.optional_indices.end();
      TypePtr t = UnwrapOptional(*e.args[i + 1], opt, TypeOf(*e.args[i + 1]));
      vt = JoinTypes(*e.args[i + 1], vt, t);
    }
    if (!kt) {
      kt = NewTypeVar();
      vt = NewTypeVar();
    }
    SetType(e, MapType(kt, vt));
  }

  void AssertType(const Expr& e, const TypePtr& t) {
    TypePtr actual = TypeOf(e);
    if (!IsAssignable(t, actual))
      Error(e, fmt::format("expected type '{}' but found '{}'", t->String(), actual->String()));
  }

  void CheckComprehension(Expr& e) {
    CheckExpr(*e.iter_range);
    CheckExpr(*e.accu_init);
    TypePtr accu_type = TypeOf(*e.accu_init);
    TypePtr range = Substitute(mapping_, TypeOf(*e.iter_range), false);
    TypePtr var1, var2;
    bool two = !e.iter_var2.empty();
    switch (range->kind) {
      case TypeKind::kList:
        if (two) {
          var1 = IntType();
          var2 = range->params[0];
        } else {
          var1 = range->params[0];
        }
        break;
      case TypeKind::kMap:
        var1 = range->params[0];
        var2 = range->params[1];
        break;
      case TypeKind::kDyn:
      case TypeKind::kAny:
      case TypeKind::kError:
      case TypeKind::kTypeParam:
        IsAssignable(DynType(), range);
        var1 = DynType();
        var2 = DynType();
        break;
      default:
        Error(*e.iter_range, fmt::format("expression of type '{}' cannot be range of a "
                                         "comprehension (must be list, map, or dynamic)",
                                         range->String()));
        var1 = ErrorType();
        var2 = ErrorType();
        break;
    }
    scopes_.push_back({e.accu_var, accu_type});
    size_t mark = scopes_.size();
    scopes_.push_back({e.iter_var, var1});
    if (two) scopes_.push_back({e.iter_var2, var2});
    CheckExpr(*e.loop_condition);
    AssertType(*e.loop_condition, BoolType());
    CheckExpr(*e.loop_step);
    AssertType(*e.loop_step, accu_type);
    scopes_.resize(mark);
    CheckExpr(*e.result);
    scopes_.pop_back();
    SetType(e, Substitute(mapping_, TypeOf(*e.result), false));
  }

  CheckResult result_;
  Mapping mapping_;
  int next_var_ = 0;
  std::vector<Scope> scopes_;
  std::vector<std::pair<std::string, TypePtr>> device_fields_;
};

}  // namespace

CheckResult Check(Expr& expr, int64_t next_id, const CheckOptions& options) {
  Checker c(next_id, options);
  return c.Run(expr);
}

}  // namespace ksched::cel
