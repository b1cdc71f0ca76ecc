#include "framework/plugins/nodeports/node_ports_hints.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace node_ports_hints_test {

std::shared_ptr<const Pod> PodWithPort(const std::string& node, int port) {
  return std::make_shared<const Pod>(::ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":")" + node +
      R"(","containers":[{"name":"c","ports":[{"containerPort":80,"hostPort":)" +
      std::to_string(port) + "}]}]}}"));
}

TEST(NodePortsHints, QueueWhenABoundPodHoldingAWantedPortGoes) {
  const std::shared_ptr<const Pod> pod_owner = PodWithPort("", 8080);
  const Pod& pod = *pod_owner;
  EXPECT_EQ(NodePortsAfterPodDeleted(pod, EventObject(PodWithPort("n", 8080)), {}),
            QueueingHint::kQueue);
  EXPECT_EQ(NodePortsAfterPodDeleted(pod, EventObject(PodWithPort("n", 9090)), {}),
            QueueingHint::kQueueSkip);
  EXPECT_EQ(NodePortsAfterPodDeleted(pod, EventObject(PodWithPort("", 8080)), {}),
            QueueingHint::kQueueSkip);  // never bound, held nothing
}

}  // namespace node_ports_hints_test
}  // namespace ksched::framework::plugins
