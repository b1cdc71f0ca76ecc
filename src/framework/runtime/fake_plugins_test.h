// Tiny configurable plugins for the runtime's and the cycle's tests. Each of
// the registry's names "F0".."F7" builds a FakePlugin from the spec of the
// same index, so a test describes its plugins as data.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cache/cluster_state.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::framework::testing {

// Which interfaces the plugin implements.
enum class FakeKind {
  kQueueSort,   // QueueSort (Less by priority)
  kBinder,      // Bind
  kAll,         // PreFilter (with AddPod/RemovePod), Filter, Score (+Normalize), Reserve
  kFilter,      // Filter only
  kScore,       // Score only (NormalizeScore when `normalize`)
  kPostFilter,  // PostFilter only (post_filter_status, post_filter_node)
};

struct FakeSpec {
  std::string name;
  FakeKind kind = FakeKind::kAll;
  bool normalize = false;  // NormalizeScore: scale to 0..100 by the top score
  // PreFilter's outcome and node restriction.
  Status pre_filter_status;
  std::optional<std::vector<std::string>> pre_filter_nodes;
  // Filter: the node's status (by name), success when absent.
  std::function<Status(const Pod&, const NodeInfo&)> filter_fn;
  // Score: by node name.
  std::function<int64_t(const NodeInfo&)> score_fn;
  Status reserve_status;
  // PostFilter's outcome; a set node nominates it ("" clears).
  Status post_filter_status;
  std::optional<std::string> post_filter_node;
  // Counters (how often each point ran).
  std::shared_ptr<std::atomic<int>> filter_calls = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<std::atomic<int>> add_pod_calls = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<std::atomic<int>> unreserve_calls = std::make_shared<std::atomic<int>>(0);
};

// The specs the factories read (set by a test before building a framework).
std::vector<FakeSpec>& FakeSpecs();
// A registry of the fake plugins, named after their specs.
std::vector<RegistryEntry> FakeRegistry();

}  // namespace ksched::framework::testing
