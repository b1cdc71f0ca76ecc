#include "cel/types.h"

namespace ksched::cel {

std::string Type::String() const {
  switch (kind) {
    case TypeKind::kDyn:
      return "dyn";
    case TypeKind::kAny:
      return "any";
    case TypeKind::kError:
      return "!error!";
    case TypeKind::kNull:
      return "null";
    case TypeKind::kBool:
      return "bool";
    case TypeKind::kInt:
      return "int";
    case TypeKind::kUint:
      return "uint";
    case TypeKind::kDouble:
      return "double";
    case TypeKind::kString:
      return "string";
    case TypeKind::kBytes:
      return "bytes";
    case TypeKind::kDuration:
      return "duration";
    case TypeKind::kTimestamp:
      return "timestamp";
    case TypeKind::kTypeParam:
      return name;
    case TypeKind::kStruct:
      return name;
    default:
      break;
  }
  std::string base = kind == TypeKind::kList   ? "list"
                     : kind == TypeKind::kMap  ? "map"
                     : kind == TypeKind::kType ? "type"
                                               : name;
  if (params.empty()) return base;
  std::string out = base + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i > 0) out += ", ";
    out += params[i]->String();
  }
  return out + ")";
}

std::string Type::DeclaredString() const {
  if (kind == TypeKind::kAny) return "google.protobuf.Any";
  return String();
}

namespace {
TypePtr Simple(TypeKind k) {
  auto t = std::make_shared<Type>();
  t->kind = k;
  return t;
}
}  // namespace

TypePtr DynType() {
  static const TypePtr t = Simple(TypeKind::kDyn);
  return t;
}
TypePtr AnyType() {
  static const TypePtr t = Simple(TypeKind::kAny);
  return t;
}
TypePtr ErrorType() {
  static const TypePtr t = Simple(TypeKind::kError);
  return t;
}
TypePtr NullType() {
  static const TypePtr t = Simple(TypeKind::kNull);
  return t;
}
TypePtr BoolType() {
  static const TypePtr t = Simple(TypeKind::kBool);
  return t;
}
TypePtr IntType() {
  static const TypePtr t = Simple(TypeKind::kInt);
  return t;
}
TypePtr UintType() {
  static const TypePtr t = Simple(TypeKind::kUint);
  return t;
}
TypePtr DoubleType() {
  static const TypePtr t = Simple(TypeKind::kDouble);
  return t;
}
TypePtr StringType() {
  static const TypePtr t = Simple(TypeKind::kString);
  return t;
}
TypePtr BytesType() {
  static const TypePtr t = Simple(TypeKind::kBytes);
  return t;
}
TypePtr DurationType() {
  static const TypePtr t = Simple(TypeKind::kDuration);
  return t;
}
TypePtr TimestampType() {
  static const TypePtr t = Simple(TypeKind::kTimestamp);
  return t;
}

TypePtr ListType(TypePtr elem) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kList;
  t->params.push_back(std::move(elem));
  return t;
}
TypePtr MapType(TypePtr key, TypePtr value) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kMap;
  t->params.push_back(std::move(key));
  t->params.push_back(std::move(value));
  return t;
}
TypePtr TypeType(TypePtr param) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kType;
  if (param) t->params.push_back(std::move(param));
  return t;
}
TypePtr OptionalType(TypePtr param) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kOpaque;
  t->name = "optional_type";
  t->params.push_back(std::move(param));
  return t;
}
TypePtr StructType(const std::string& name) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kStruct;
  t->name = name;
  return t;
}
TypePtr TypeParam(const std::string& name) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kTypeParam;
  t->name = name;
  return t;
}
TypePtr QuantityType() {
  static const TypePtr t = StructType("kubernetes.Quantity");
  return t;
}
TypePtr SemverType() {
  static const TypePtr t = StructType("kubernetes.Semver");
  return t;
}

bool IsExactType(const Type& a, const Type& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind || a.name != b.name || a.params.size() != b.params.size()) return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (!IsExactType(*a.params[i], *b.params[i])) return false;
  return true;
}

}  // namespace ksched::cel
