#include "predicates/tolerations.h"

namespace ksched {

bool ToleratesTaint(const Toleration& toleration, const Taint& taint) {
  // Effects are compared as parsed enums. Two different unknown effect strings
  // both parse to kOther; no filter or priority ever looks at such taints, so
  // treating them as equal cannot change a decision.
  if (toleration.effect != TaintEffect::kNone && toleration.effect != taint.effect) return false;
  if (toleration.key != kEmptyStr && toleration.key != taint.key) return false;
  if (toleration.op.empty() || toleration.op == "Equal") return toleration.value == taint.value;
  if (toleration.op == "Exists") return true;
  return false;
}

bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const Toleration& t : tolerations) {
    if (ToleratesTaint(t, taint)) return true;
  }
  return false;
}

}  // namespace ksched
