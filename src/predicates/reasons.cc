#include <string>

#include "predicates/predicate.h"

namespace ksched::reasons {

ReasonId NodeUnschedulable() {
  static const ReasonId id = Intern("node(s) were unschedulable");
  return id;
}
ReasonId NodeSelectorNotMatch() {
  static const ReasonId id = Intern("node(s) didn't match node selector");
  return id;
}
ReasonId PodNotMatchHostName() {
  static const ReasonId id = Intern("node(s) didn't match the requested hostname");
  return id;
}
ReasonId PodNotFitsHostPorts() {
  static const ReasonId id = Intern("node(s) didn't have free ports for the requested pod ports");
  return id;
}
ReasonId TaintsNotMatch() {
  static const ReasonId id = Intern("node(s) had taints that the pod didn't tolerate");
  return id;
}
ReasonId MaxVolumeCount() {
  static const ReasonId id = Intern("node(s) exceed max volume count");
  return id;
}
ReasonId Insufficient(StrId resource_name) {
  // Called at Prepare() time or on failure only; interning dedupes.
  std::string s = "Insufficient ";
  s += Str(resource_name);
  return Intern(s);
}

}  // namespace ksched::reasons
