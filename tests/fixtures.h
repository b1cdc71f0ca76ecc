// Test fixtures: Kubernetes objects written as JSON in the test itself, so a
// test reads like the manifests it is about.
//
//   Node n = TestNode(R"({"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2"}}})");
//   ClusterState c = TestCluster(R"({"kind":"List","items":[ ...nodes and pods... ]})");
//
// Decoding errors fail the calling test (ADD_FAILURE) and return an empty object.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/decode.h"
#include "api/types.h"
#include "cache/cluster_state.h"

namespace ksched::testing {

Pod TestPod(std::string_view json);
Node TestNode(std::string_view json);
// Decodes a List (or any input DecodeObjects accepts) into a ClusterState.
ClusterState TestCluster(std::string_view json);
// The same, counting pods as `options` says (e.g. a release's framework
// cache, framework::FrameworkCacheOptions).
ClusterState TestCluster(std::string_view json, const CacheOptions& options);

// A parameterised test's name from a file name: "perf-basic-5000n.json" ->
// "perf_basic_5000n" (GoogleTest allows only letters, digits and '_').
// {"kind":"List","items":[...]} of the given JSON objects.
inline std::string ListOf(const std::vector<std::string>& items) {
  std::string s = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
  return s + "]}";
}

inline std::string ReadableTestName(std::string_view file_name) {
  std::string_view stem = file_name.substr(0, file_name.rfind(".json"));
  std::string out;
  for (char ch : stem) {
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    out += ok ? ch : '_';
  }
  return out.empty() ? "unnamed" : out;
}

}  // namespace ksched::testing
