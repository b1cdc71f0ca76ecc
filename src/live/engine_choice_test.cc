#include "live/engine_choice.h"

#include <gtest/gtest.h>

namespace ksched::live {
namespace engine_choice_test {

client::ServerApis Server(const std::string& version, bool resource_v1) {
  client::ServerApis apis;
  apis.git_version = version;
  apis.groups["storage.k8s.io"] = {"v1"};
  if (resource_v1) apis.groups["resource.k8s.io"] = {"v1", "v1beta2"};
  return apis;
}

TEST(EngineChoice, NewestEngineWhoseApisTheServerServes) {
  EXPECT_EQ(ChooseEngineForServer(Server("v1.35.4", true)).version, "v1.35");
  EXPECT_EQ(ChooseEngineForServer(Server("v1.34.1", true)).version, "v1.35");
  EXPECT_EQ(ChooseEngineForServer(Server("v1.33.0", false)).version, "v1.26");
  EXPECT_EQ(ChooseEngineForServer(Server("v1.26.0", false)).version, "v1.26");
  EXPECT_EQ(ChooseEngineForServer(Server("v1.18.0", false)).version, "v1.26");
  EXPECT_EQ(ChooseEngineForServer(Server("v1.17.3", false)).version, "v1.15");
  EXPECT_EQ(ChooseEngineForServer(Server("v1.15.5", false)).version, "v1.15");
  // No version, but DRA's v1 API: v1.35; neither: v1.26.
  EXPECT_EQ(ChooseEngineForServer(Server("", true)).version, "v1.35");
  EXPECT_EQ(ChooseEngineForServer(Server("", false)).version, "v1.26");
  // A beta-only resource.k8s.io is not enough.
  client::ServerApis beta = Server("v1.33.2", false);
  beta.groups["resource.k8s.io"] = {"v1beta2"};
  EXPECT_EQ(ChooseEngineForServer(beta).version, "v1.26");
}

TEST(EngineChoice, ReasonNamesWhatTheServerServes) {
  EXPECT_EQ(ChooseEngineForServer(Server("v1.35.4", true)).reason,
            "the API server (v1.35.4) serves resource.k8s.io/v1");
  EXPECT_NE(ChooseEngineForServer(Server("v1.15.5", false)).reason.find("predates"),
            std::string::npos);
}

TEST(EngineChoice, WarnsWhenTheServerIsNewerThanTheEngine) {
  EXPECT_EQ(NewerServerWarning(Server("v1.35.4", true), "v1.35"), "");
  EXPECT_EQ(NewerServerWarning(Server("v1.26.0", false), "v1.35"), "");
  EXPECT_EQ(NewerServerWarning(Server("", false), "v1.26"), "");
  EXPECT_EQ(NewerServerWarning(Server("v1.36.0", true), "v1.35"),
            "the API server (v1.36.0) is newer than the v1.35 engine: scheduling as "
            "kube-scheduler v1.35 would, which may not know what the newer release adds");
  EXPECT_NE(NewerServerWarning(Server("v1.30.2", false), "v1.26"), "");
  EXPECT_NE(NewerServerWarning(Server("v1.26.0", false), "v1.15"), "");
}

}  // namespace engine_choice_test
}  // namespace ksched::live
