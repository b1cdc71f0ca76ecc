#include "client/cluster_client.h"

#include <gtest/gtest.h>

namespace ksched::client {
namespace cluster_client_test {

ServerApis V115() {
  ServerApis a;
  a.git_version = "v1.15.5";
  a.groups[""] = {"v1"};
  a.groups["apps"] = {"v1"};
  a.groups["policy"] = {"v1beta1"};
  a.groups["events.k8s.io"] = {"v1beta1"};
  a.groups["coordination.k8s.io"] = {"v1", "v1beta1"};
  a.groups["storage.k8s.io"] = {"v1", "v1beta1"};
  a.groups["scheduling.k8s.io"] = {"v1", "v1beta1"};
  return a;
}

ServerApis V126() {
  ServerApis a = V115();
  a.git_version = "v1.26.0";
  a.groups["policy"] = {"v1"};
  a.groups["events.k8s.io"] = {"v1"};
  a.groups["coordination.k8s.io"] = {"v1"};
  return a;
}

TEST(ChooseApis, V115ServerKeepsV1beta1BudgetsAndCoreEvents) {
  ApiChoice c = ChooseApis(V115());
  EXPECT_EQ(c.pdb_version, "v1beta1");
  EXPECT_FALSE(c.events_v1);
  EXPECT_TRUE(c.leases);
  EXPECT_TRUE(c.missing.empty());
}

TEST(ChooseApis, V126ServerUsesPolicyV1AndEventsV1) {
  ApiChoice c = ChooseApis(V126());
  EXPECT_EQ(c.pdb_version, "v1");
  EXPECT_TRUE(c.events_v1);
  EXPECT_TRUE(c.leases);
  EXPECT_TRUE(c.missing.empty());
  ServerApis both = V126();
  both.groups["policy"] = {"v1", "v1beta1"};
  EXPECT_EQ(ChooseApis(both).pdb_version, "v1");
}

TEST(ChooseApis, CSIStorageCapacityVersionFollowsTheServerRelease) {
  ServerApis a = V126();
  a.git_version = "v1.26.0";
  EXPECT_EQ(ChooseApis(a).csi_storage_capacity_version, "v1");
  EXPECT_TRUE(ChooseApis(a).csi_storage_capacities);
  a.git_version = "v1.22.3";
  a.groups["storage.k8s.io"] = {"v1", "v1beta1"};
  EXPECT_EQ(ChooseApis(a).csi_storage_capacity_version, "v1beta1");
  a.git_version = "v1.19.0";
  EXPECT_FALSE(ChooseApis(a).csi_storage_capacities);  // not watched: no capacity known
  EXPECT_EQ(ServerMinorVersion("v1.15.5"), 15);
  EXPECT_EQ(ServerMinorVersion("v1.26.0-rc.1+abc"), 26);
  EXPECT_EQ(ServerMinorVersion(""), -1);
}

TEST(ChooseApis, UnservedResourcesAreNamed) {
  ServerApis a = V126();
  a.groups.erase("policy");
  a.groups.erase("coordination.k8s.io");
  a.groups["apps"] = {"v1beta2"};
  ApiChoice c = ChooseApis(a);
  EXPECT_FALSE(c.leases);
  std::vector<std::string> messages;
  for (const auto& [r, m] : c.missing) messages.push_back(m);
  ASSERT_EQ(messages.size(), 3u);  // replicasets, statefulsets, PDBs
  EXPECT_EQ(messages[0],
            "poddisruptionbudgets.policy: the API server serves neither policy/v1 nor "
            "policy/v1beta1 (it serves: none)");
  EXPECT_EQ(messages[1],
            "replicasets.apps: the API server does not serve apps/v1 (it serves: apps/v1beta2)");
  EXPECT_EQ(c.missing[2].first, Resource::kStatefulSet);
}

}  // namespace cluster_client_test
}  // namespace ksched::client
