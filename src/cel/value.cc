#include "cel/value.h"

namespace ksched::cel {

std::string_view Value::TypeName() const {
  switch (kind_) {
    case ValueKind::kNull:
      return "null_type";
    case ValueKind::kBool:
      return "bool";
    case ValueKind::kInt:
      return "int";
    case ValueKind::kUint:
      return "uint";
    case ValueKind::kDouble:
      return "double";
    case ValueKind::kString:
      return "string";
    case ValueKind::kBytes:
      return "bytes";
    case ValueKind::kList:
      return "list";
    case ValueKind::kType:
      return "type";
    case ValueKind::kError:
      return "error";
    case ValueKind::kOptional:
      return "optional_type";
    case ValueKind::kQuantity:
      return "kubernetes.Quantity";
    case ValueKind::kSemver:
      return "kubernetes.Semver";
    default:
      return "map";
  }
}

}  // namespace ksched::cel
