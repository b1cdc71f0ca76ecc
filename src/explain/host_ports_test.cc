#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/explain_test_util.h"

namespace ksched::explain {
namespace host_ports_test {

using ::testing::ElementsAre;
using testing::List;
using testing::ScheduleAndExplain;

TEST(ExplainHostPorts, PortAndThePodHoldingIt) {
  const char* node =
      R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}})";
  const char* holder = R"({"kind":"Pod","metadata":{"name":"proxy","namespace":"edge"},
      "spec":{"nodeName":"n1","containers":[{"name":"c","ports":[
        {"containerPort":80,"hostPort":8080},{"containerPort":53,"hostPort":53,"protocol":"UDP"}]}]}})";
  const char* pod = R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c",
      "ports":[{"containerPort":80,"hostPort":8080},{"containerPort":53,"hostPort":53}]}]}})";
  auto e = ScheduleAndExplain(List({node, holder}), pod);
  EXPECT_THAT(e.reasons["n1"],
              ElementsAre("node(s) didn't have free ports for the requested pod ports"));
  // 53/TCP does not conflict with 53/UDP.
  EXPECT_THAT(e.Messages("n1"), ElementsAre("host port 8080/TCP is held by edge/proxy"));
  EXPECT_EQ(e.causes["n1"][0].details["port"], 8080);
  EXPECT_EQ(e.causes["n1"][0].details["pods"][0], "edge/proxy");
}

}  // namespace host_ports_test
}  // namespace ksched::explain
