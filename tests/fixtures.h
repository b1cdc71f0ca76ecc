// Test fixtures: Kubernetes objects written as JSON in the test itself, so a
// test reads like the manifests it is about.
//
//   Node n = TestNode(R"({"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2"}}})");
//   ClusterState c = TestCluster(R"({"kind":"List","items":[ ...nodes and pods... ]})");
//
// Decoding errors fail the calling test (ADD_FAILURE) and return an empty object.
#pragma once

#include <string_view>

#include "api/types.h"
#include "cache/cluster_state.h"

namespace ksched::testing {

Pod TestPod(std::string_view json);
Node TestNode(std::string_view json);
// Decodes a List (or any input DecodeObjects accepts) into a ClusterState.
ClusterState TestCluster(std::string_view json);

}  // namespace ksched::testing
