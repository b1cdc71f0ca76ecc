// Test helper for predicate unit tests: runs one predicate for one pending pod
// against one node of a cluster built from JSON, the way the scheduler does
// (MakePodInfo, PodRequestToSchedule, Prepare once, then Check).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "cache/cluster_state.h"
#include "predicates/predicate.h"

namespace ksched::testing {

struct CheckOutcome {
  bool fits = false;
  std::vector<std::string> reasons;
  std::string error;  // Prepare() error, if any
};

// A pending pod prepared for a predicate: keeps the PodInfo alive.
struct PreparedPod {
  PodInfo info;
  PodToSchedule target;
  explicit PreparedPod(const Pod& pod) : info(MakePodInfo(pod)) {
    target.info = &info;
    target.request = PodRequestToSchedule(pod);
  }
  PreparedPod(const PreparedPod&) = delete;
};

// {"kind":"List","items":[...]} of the given JSON objects.
inline std::string List(const std::vector<std::string>& items) {
  std::string s = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += ",";
    s += items[i];
  }
  return s + "]}";
}

inline CheckOutcome RunCheck(const Predicate& predicate, const Pod& pod,
                             const ClusterState& cluster, std::string_view node_name) {
  CheckOutcome out;
  PreparedPod prepared(pod);
  auto state = predicate.Prepare(prepared.target, cluster);
  if (!state.ok()) {
    out.error = state.error().message;
    return out;
  }
  NodeId id = cluster.FindNode(node_name);
  if (id == kNoNode) {
    ADD_FAILURE() << "no node " << node_name;
    return out;
  }
  ReasonList reasons;
  out.fits = predicate.Check(prepared.target, state->get(), cluster.node_info(id), &reasons);
  for (ReasonId r : reasons.reasons()) out.reasons.emplace_back(Str(r));
  EXPECT_EQ(out.fits, out.reasons.empty()) << "fits must agree with the reasons";
  return out;
}

}  // namespace ksched::testing
