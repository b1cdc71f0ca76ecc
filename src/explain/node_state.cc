// Reasons about the node itself: the field or condition behind each.
#include <fmt/format.h>

#include "explain/explain.h"

namespace ksched::explain {
namespace {

std::string ConditionStatus(const Node& node, std::string_view type) {
  for (const NodeCondition& c : node.conditions)
    if (c.type == type) return c.status;
  return "";
}

}  // namespace

void ExplainNodeState(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const Node& node = c.node_object();
  Cause cause;
  cause.reason = reason;
  cause.kind = "node";
  std::string condition;
  if (reason == "node(s) were unschedulable") {
    cause.message =
        "the node is cordoned (spec.unschedulable: true) and the pod does not "
        "tolerate node.kubernetes.io/unschedulable:NoSchedule";
    cause.details["field"] = "spec.unschedulable";
  } else if (reason == "node(s) were not ready") {
    condition = "Ready";
  } else if (reason == "node(s) had unavailable network") {
    condition = "NetworkUnavailable";
  } else if (reason == "node(s) had memory pressure") {
    condition = "MemoryPressure";
  } else if (reason == "node(s) had disk pressure") {
    condition = "DiskPressure";
  } else if (reason == "node(s) had pid pressure") {
    condition = "PIDPressure";
  } else {
    return;  // a reason no explainer knows (extenders, Policy predicates)
  }
  if (!condition.empty()) {
    std::string status = ConditionStatus(node, condition);
    cause.message =
        fmt::format("node condition {} is {}", condition, status.empty() ? "missing" : status);
    if (condition == "MemoryPressure")
      cause.message += " (BestEffort pods, without requests, are not placed there)";
    cause.details["condition"] = condition;
    cause.details["status"] = status;
  }
  out->push_back(std::move(cause));
}

}  // namespace ksched::explain
