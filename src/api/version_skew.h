// Fields newer than v1.15 that change where a later scheduler puts a pod.
//
// A snapshot of a current cluster may carry topologySpreadConstraints, pod
// overhead, native sidecars and the like. The v1.15 engine never reads them,
// the v1.26 engine reads those that v1.26 has and the v1.35 engine every
// one of them, so an answer can differ from what the cluster's own (newer)
// scheduler does. These are not errors; they are said once per field,
// naming the pods:
//   37 pods use topologySpreadConstraints (Kubernetes 1.16+), which the v1.15
//   algorithm ignores; e.g. shop/web-1, shop/web-2, shop/web-3
// Fields added later that change nothing a scheduler reads (status.podIPs,
// spec.os, metadata.managedFields, ...) are not mentioned at all.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/unknown_fields.h"

namespace ksched {

struct SkewField {
  std::string_view type;   // API type holding the field, e.g. "PodSpec"
  std::string_view field;  // e.g. "topologySpreadConstraints"
  std::string_view name;   // how a message names it
  std::string_view since;  // "1.16+"
  // What each engine does instead; "" when it honours the field (then
  // nothing is said with that engine).
  std::string_view v115;  // the v1.15 algorithm
  std::string_view v126;  // the v1.26 framework
  std::string_view v135;  // the v1.35 framework
  // Set for an entry about a field inside each element of `field` (a
  // topology spread constraint's minDomains), which is said when some
  // element sets it.
  std::string_view sub_field = {};
};

// The table, in the order warnings are printed.
const std::vector<SkewField>& SkewFields();

// True when some entry of the table is `type`.`field` (a NewerFieldFilter).
bool IsSkewField(std::string_view type, std::string_view field);

// The entries the kNewer finding `f` stands for (its value decides for
// some), none when the field does not change scheduling. An init
// container's restartPolicy counts only when it is "Always" (a native
// sidecar); topologySpreadConstraints also stand for the fields of the
// constraints that later releases read differently (minDomains,
// matchLabelKeys), which are no finding of their own (their type is newer
// than v1.15 as a whole).
std::vector<int> SkewIndices(const FoundField& f);

// Collects who uses what and prints it summarised, for the engine that
// decides ("v1.15", the default, "v1.26" or "v1.35").
class SkewReport {
 public:
  void set_engine(std::string_view engine) { engine_ = engine; }
  // `object` names the pod ("shop/web-1").
  void Add(int skew_index, const std::string& object);
  bool empty() const { return users_.empty(); }
  // One line per field, "N pods use X (Kubernetes V+), which ...; e.g. a, b, c".
  std::vector<std::string> Lines() const;
  // The same said of one pod: "uses X (Kubernetes V+), which ...".
  std::vector<std::string> LinesFor(const std::string& object) const;

 private:
  // The text for the engine, "" when the engine honours the field.
  std::string_view Consequence(const SkewField& f) const {
    if (engine_ == "v1.26") return f.v126;
    if (engine_ == "v1.35") return f.v135;
    return f.v115;
  }

  std::string engine_ = "v1.15";
  std::map<int, std::vector<std::string>> users_;  // skew index -> pods, in input order
  std::unordered_map<std::string, std::vector<int>> by_object_;
};

}  // namespace ksched
