#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace pod_fits_host_ports_test {

using ::testing::ElementsAre;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

// A pod whose single container lists `ports` (a JSON array), on `node` if set.
std::string PodJson(const std::string& name, const std::string& ports,
                    const std::string& node = "") {
  std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"("},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  return s + R"("containers":[{"name":"c","ports":)" + ports + "}]}}";
}

const std::string kNode = R"({"kind":"Node","metadata":{"name":"n1"}})";

bool Fits(const std::string& existing_ports, const std::string& wanted_ports) {
  ClusterState c = TestCluster(List({kNode, PodJson("old", existing_ports, "n1")}));
  auto p = NewPodFitsHostPorts();
  auto r = RunCheck(*p, TestPod(PodJson("new", wanted_ports)), c, "n1");
  if (!r.fits) {
    EXPECT_THAT(r.reasons,
                ElementsAre("node(s) didn't have free ports for the requested pod ports"));
  }
  return r.fits;
}

TEST(PodFitsHostPorts, NoPortsAlwaysFit) {
  EXPECT_TRUE(Fits(R"([{"containerPort":80,"hostPort":80}])", "[]"));
}

TEST(PodFitsHostPorts, SamePortSameProtocolConflicts) {
  EXPECT_FALSE(Fits(R"([{"containerPort":80,"hostPort":8080}])",
                    R"([{"containerPort":81,"hostPort":8080}])"));
  // The protocol defaults to TCP on both sides.
  EXPECT_FALSE(Fits(R"([{"containerPort":80,"hostPort":8080,"protocol":"TCP"}])",
                    R"([{"containerPort":81,"hostPort":8080}])"));
}

TEST(PodFitsHostPorts, DifferentProtocolOrPortDoesNotConflict) {
  EXPECT_TRUE(Fits(R"([{"containerPort":80,"hostPort":8080,"protocol":"UDP"}])",
                   R"([{"containerPort":80,"hostPort":8080}])"));
  EXPECT_TRUE(Fits(R"([{"containerPort":80,"hostPort":8080}])",
                   R"([{"containerPort":80,"hostPort":8081}])"));
  EXPECT_FALSE(Fits(R"([{"containerPort":80,"hostPort":53,"protocol":"UDP"}])",
                    R"([{"containerPort":80,"hostPort":53,"protocol":"UDP"}])"));
}

TEST(PodFitsHostPorts, ContainerPortWithoutHostPortNeverConflicts) {
  EXPECT_TRUE(Fits(R"([{"containerPort":80}])", R"([{"containerPort":80}])"));
}

TEST(PodFitsHostPorts, AllAddressesConflictWithAnySpecificAddress) {
  // 0.0.0.0 (or no hostIP) on either side conflicts with any address.
  EXPECT_FALSE(Fits(R"([{"containerPort":80,"hostPort":80,"hostIP":"10.0.0.1"}])",
                    R"([{"containerPort":80,"hostPort":80}])"));
  EXPECT_FALSE(Fits(R"([{"containerPort":80,"hostPort":80}])",
                    R"([{"containerPort":80,"hostPort":80,"hostIP":"10.0.0.1"}])"));
  EXPECT_FALSE(Fits(R"([{"containerPort":80,"hostPort":80,"hostIP":"0.0.0.0"}])",
                    R"([{"containerPort":80,"hostPort":80,"hostIP":"10.0.0.1"}])"));
}

TEST(PodFitsHostPorts, SpecificAddresses) {
  EXPECT_FALSE(Fits(R"([{"containerPort":80,"hostPort":80,"hostIP":"10.0.0.1"}])",
                    R"([{"containerPort":80,"hostPort":80,"hostIP":"10.0.0.1"}])"));
  EXPECT_TRUE(Fits(R"([{"containerPort":80,"hostPort":80,"hostIP":"10.0.0.1"}])",
                   R"([{"containerPort":80,"hostPort":80,"hostIP":"10.0.0.2"}])"));
}

TEST(PodFitsHostPorts, AnyOfSeveralPortsConflicting) {
  EXPECT_FALSE(
      Fits(R"([{"containerPort":80,"hostPort":9000}])",
           R"([{"containerPort":1,"hostPort":9001},{"containerPort":2,"hostPort":9000}])"));
}

}  // namespace pod_fits_host_ports_test
}  // namespace ksched
