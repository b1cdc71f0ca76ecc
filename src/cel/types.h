// CEL types as the checker sees them (cel-go common/types.Type), with
// cel-go's printed names: "int", "list(string)", "map(string, dyn)",
// "optional_type(int)", "kubernetes.Quantity".
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ksched::cel {

enum class TypeKind : uint8_t {
  kDyn,
  kAny,  // google.protobuf.Any: what Kubernetes declares its untyped values as
  kError,
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kDuration,
  kTimestamp,
  kList,       // params[0]: element
  kMap,        // params[0]: key, params[1]: value
  kType,       // params[0] (optional): the type's type
  kOpaque,     // name with params, e.g. optional_type(T)
  kStruct,     // a named object type: kubernetes.DRADevice, kubernetes.Quantity, ...
  kTypeParam,  // a type variable, named
};

struct Type;
using TypePtr = std::shared_ptr<const Type>;

struct Type {
  TypeKind kind = TypeKind::kDyn;
  std::string name;  // kOpaque, kStruct, kTypeParam
  std::vector<TypePtr> params;

  // cel-go's FormatCELType.
  std::string String() const;
  // cel-go's Type.String() ("google.protobuf.Any" for any).
  std::string DeclaredString() const;
};

TypePtr DynType();
TypePtr AnyType();
TypePtr ErrorType();
TypePtr NullType();
TypePtr BoolType();
TypePtr IntType();
TypePtr UintType();
TypePtr DoubleType();
TypePtr StringType();
TypePtr BytesType();
TypePtr DurationType();
TypePtr TimestampType();
TypePtr ListType(TypePtr elem);
TypePtr MapType(TypePtr key, TypePtr value);
TypePtr TypeType(TypePtr param = nullptr);
TypePtr OptionalType(TypePtr param);
TypePtr StructType(const std::string& name);
TypePtr TypeParam(const std::string& name);

// The Kubernetes object types of the DRA environment.
TypePtr QuantityType();  // kubernetes.Quantity
TypePtr SemverType();    // kubernetes.Semver

// Same kind, name and parameters.
bool IsExactType(const Type& a, const Type& b);

}  // namespace ksched::cel
