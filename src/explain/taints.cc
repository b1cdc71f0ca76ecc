// node(s) had taints that the pod didn't tolerate: every taint the pod does
// not tolerate. Upstream stops at the first; all of them are listed so one
// change fixes the node. PodToleratesNodeTaints looks at NoSchedule and
// NoExecute taints, PodToleratesNodeNoExecuteTaints at NoExecute only.
#include <fmt/format.h>

#include "explain/explain.h"
#include "predicates/tolerations.h"

namespace ksched::explain {

void ExplainTaints(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const bool no_execute_only = c.predicate == "PodToleratesNodeNoExecuteTaints";
  for (const Taint& taint : c.node_object().taints) {
    const bool applies = taint.effect == TaintEffect::kNoExecute ||
                         (!no_execute_only && taint.effect == TaintEffect::kNoSchedule);
    if (!applies || TolerationsTolerateTaint(c.pod.spec.tolerations, taint)) continue;
    Cause cause;
    cause.reason = reason;
    cause.kind = "taint";
    cause.message = fmt::format("taint {} is not tolerated", FormatTaint(taint));
    cause.details["taint"] = FormatTaint(taint);
    cause.details["key"] = Str(taint.key);
    cause.details["value"] = Str(taint.value);
    cause.details["effect"] = taint.effect_str;
    out->push_back(std::move(cause));
  }
}

}  // namespace ksched::explain
