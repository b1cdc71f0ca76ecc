// The concrete cause behind an upstream failure reason, for people.
//
// Upstream's reasons ("Insufficient cpu", "node(s) didn't satisfy existing
// pods anti-affinity rules") say which rule failed, not what to change. A
// Cause names the culprit: the resource and how much is free, the taint, the
// label the node lacks, the pod holding a port or forbidding the placement.
//
// Causes are computed only on the detailed path (schedule's reports), after
// the scheduler has decided, from the same cluster state the decision saw;
// nothing here runs in the decision path or the benchmark.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "api/types.h"

namespace ksched::explain {

struct Cause {
  std::string reason;   // the upstream reason string this cause details
  std::string kind;     // resource, taint, nodeSelector, nodeAffinity, hostName, hostPort,
                        // podAffinity, podAntiAffinity, existingPodAntiAffinity, volume, node
  std::string message;  // one line, self-contained
  // Structured fields for -o json|yaml (an object; may be empty).
  nlohmann::ordered_json details = nlohmann::ordered_json::object();
};

// ---- formatting shared by the explainers (format.cc)

// A resource amount as kubectl would write it: cpu in cores or "m", bytes
// with a binary suffix when exact, anything else as a plain number.
std::string FormatAmount(std::string_view resource, int64_t amount);
// Amounts printed side by side in one line, each as FormatAmount would but
// all in one unit: for bytes the largest binary suffix in which every one of
// them is exact ("6586008Ki free, allocatable 8511488Ki", not "6586008Ki
// free, allocatable 8312Mi"); cpu and other resources as FormatAmount.
std::vector<std::string> FormatAmountsAlike(std::string_view resource,
                                            const std::vector<int64_t>& amounts);
// Upstream's Taint.ToString(): "key=value:effect", "key:effect" without a
// value.
std::string FormatTaint(const Taint& taint);
// One node selector or label selector requirement as written in the spec,
// e.g. "zone In (a,b)", "gpu Exists".
std::string FormatRequirement(const SelectorRequirement& r);
// A metav1.LabelSelector: "app=web,tier In (a,b)"; "<none>" when absent
// (matches nothing), "<all>" when empty.
std::string FormatLabelSelector(const std::optional<LabelSelector>& s);
// What a node has for a label: "zone=a" or "no label zone".
std::string NodeLabelValue(const Labels& labels, std::string_view key);
// The first `limit` names joined by ", ", with "and N more" after them.
std::string JoinLimited(const std::vector<std::string>& names, size_t limit = 5);

}  // namespace ksched::explain
