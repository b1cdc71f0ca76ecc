// Upstream's validation of a defaulted KubeSchedulerConfiguration
// (pkg/scheduler/apis/config/validation: validation.go and
// validation_pluginargs.go) with its field paths and messages, formatted as
// apimachinery's field.Error and utilerrors aggregate print them:
//   profiles[0].schedulerName: Required value
//   [parallelism: Invalid value: 0: should be an integer value greater than
//    zero, percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]]
//
// Known differences: a duplicate schedulerName names the first profile's
// path as a quoted string (upstream prints a Go pointer there); composite bad
// values are printed in Go's %#v style as far as ksched's types allow.
//
// Upstream checks NodeResourcesFit's args only when the framework builds the
// plugin (its validation table misspells the name), and every plugin
// validates its own args again in its factory with an empty path;
// ValidateFramework reproduces that step.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/types.h"
#include "util/result.h"

namespace ksched::config {

struct FieldError {  // field.Error
  enum class Type { kNotFound, kRequired, kDuplicate, kInvalid, kNotSupported, kForbidden };
  Type type = Type::kInvalid;
  std::string field;  // "profiles[0].plugins.score.enabled[0].weight"
  std::string value;  // the bad value as upstream prints it ("" for Required/Forbidden)
  std::string detail;

  std::string Error() const;
};
using ErrorList = std::vector<FieldError>;

// utilerrors.NewAggregate(list).Error(): one error as is, several (distinct
// ones) in brackets joined by ", "; "" for none.
std::string AggregateError(const ErrorList& errs);

// validation.ValidateKubeSchedulerConfiguration. VolumeBinding's shape is
// allowed when gates.volume_capacity_priority is on.
ErrorList ValidateKubeSchedulerConfiguration(const KubeSchedulerConfiguration& cfg,
                                             const FeatureGates& gates);

// The args validators; `path` is the args' field path ("" as in a plugin's
// factory, which passes a nil path).
ErrorList ValidateDefaultPreemptionArgs(const std::string& path, const DefaultPreemptionArgs& a);
ErrorList ValidateInterPodAffinityArgs(const std::string& path, const InterPodAffinityArgs& a);
ErrorList ValidatePodTopologySpreadArgs(const std::string& path, const PodTopologySpreadArgs& a);
ErrorList ValidateNodeResourcesBalancedAllocationArgs(const std::string& path,
                                                      const NodeResourcesBalancedAllocationArgs& a);
ErrorList ValidateNodeAffinityArgs(const std::string& path, const NodeAffinityArgs& a);
// `allow_shape`: whether `shape_gate` (v1.26's VolumeCapacityPriority,
// v1.35's StorageCapacityScoring) is on.
ErrorList ValidateVolumeBindingArgs(const std::string& path, const VolumeBindingArgs& a,
                                    bool allow_shape, std::string_view shape_gate);
ErrorList ValidateNodeResourcesFitArgs(const std::string& path, const NodeResourcesFitArgs& a);
// Dispatches on the args' type (empty list for monostate).
ErrorList ValidatePluginArgs(const std::string& path, const PluginArgs& args,
                             const FeatureGates& gates);

// What building each profile's framework (upstream's NewFramework) rejects
// before any plugin runs, in kube-scheduler's words: `initializing profiles:
// creating profile for scheduler name S: ` followed by `initializing plugin
// "P": <aggregate>` (the args of a plugin enabled at some extension point) or
// `FilterPlugin "X" does not exist` (a name upstream's registry lacks).
// Whether a plugin implements the extension point it is listed at is the
// framework runtime's check.
Status ValidateFramework(const KubeSchedulerConfiguration& cfg, const FeatureGates& gates);

}  // namespace ksched::config
