#include "tests/fixtures.h"

#include <gtest/gtest.h>

#include "api/decode.h"

namespace ksched::testing {
namespace {

ObjectSet Decode(std::string_view json) {
  ObjectSet set;
  Status s = DecodeObjects(json, "test-input", &set);
  if (!s.ok()) ADD_FAILURE() << "decode failed: " << s.error().message;
  return set;
}

}  // namespace

Pod TestPod(std::string_view json) {
  ObjectSet set = Decode(json);
  if (set.pods.size() != 1) {
    ADD_FAILURE() << "expected exactly one pod in fixture";
    return Pod{};
  }
  return std::move(set.pods[0]);
}

Node TestNode(std::string_view json) {
  ObjectSet set = Decode(json);
  if (set.nodes.size() != 1) {
    ADD_FAILURE() << "expected exactly one node in fixture";
    return Node{};
  }
  return std::move(set.nodes[0]);
}

ClusterState TestCluster(std::string_view json) { return TestCluster(json, CacheOptions{}); }

ClusterState TestCluster(std::string_view json, const CacheOptions& options) {
  auto state = ClusterState::Build(Decode(json), nullptr, options);
  if (!state.ok()) {
    ADD_FAILURE() << "cluster build failed: " << state.error().message;
    return std::move(ClusterState::Build(ObjectSet{}).value());
  }
  return std::move(state).value();
}

}  // namespace ksched::testing
