#include "predicates/pressure_conditions.h"

namespace ksched {
namespace {

bool HasPositiveCpuOrMemory(const ResourceList& list) {
  static const StrId kCpu = Intern("cpu");
  static const StrId kMemory = Intern("memory");
  for (const ResourceQuantity& q : list) {
    // MilliValue rounds up, so it is positive exactly when the quantity is.
    if ((q.name == kCpu || q.name == kMemory) && q.milli > 0) return true;
  }
  return false;
}

}  // namespace

bool NodeConditionIsTrue(const Node& node, std::string_view type) {
  std::string_view status;
  for (const NodeCondition& c : node.conditions) {
    if (c.type == type) status = c.status;
  }
  return status == "True";
}

bool IsPodBestEffort(const Pod& pod) {
  for (const Container& c : pod.spec.containers) {
    if (HasPositiveCpuOrMemory(c.requests) || HasPositiveCpuOrMemory(c.limits)) return false;
  }
  return true;
}

}  // namespace ksched
