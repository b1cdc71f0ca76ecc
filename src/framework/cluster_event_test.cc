#include "framework/cluster_event.h"

#include <gtest/gtest.h>

namespace ksched::framework {
namespace cluster_event_test {

ClusterEventMap DefaultLikeMap() {
  ClusterEventMap m;
  m.Register("NodeResourcesFit",
             {{EventResource::kPod, kDelete, ""}, {EventResource::kNode, kAdd | kUpdate, ""}});
  m.Register("TaintToleration", {{EventResource::kNode, kAdd | kUpdate, ""}});
  m.Register("VolumeBinding", {{EventResource::kPersistentVolumeClaim, kAdd | kUpdate, ""}});
  m.Register("NoEvents", {});
  return m;
}

TEST(ClusterEventMap, MovesOnlyForTheRejectingPluginsEvents) {
  const ClusterEventMap m = DefaultLikeMap();
  const ClusterEvent pod_delete{EventResource::kPod, kDelete, "AssignedPodDelete"};
  const ClusterEvent pod_add{EventResource::kPod, kAdd, "AssignedPodAdd"};
  const ClusterEvent label_change{EventResource::kNode, kUpdateNodeLabel, "NodeLabelChange"};
  const ClusterEvent pvc_add{EventResource::kPersistentVolumeClaim, kAdd, "PvcAdd"};
  EXPECT_TRUE(m.Matches({"NodeResourcesFit"}, pod_delete));
  EXPECT_FALSE(m.Matches({"NodeResourcesFit"}, pod_add));
  EXPECT_FALSE(m.Matches({"NodeResourcesFit"}, pvc_add));
  // An update of any kind matches a registration for kUpdate.
  EXPECT_TRUE(m.Matches({"TaintToleration"}, label_change));
  EXPECT_FALSE(m.Matches({"TaintToleration"}, pod_delete));
  // Any one of the rejecting plugins is enough.
  EXPECT_TRUE(m.Matches({"TaintToleration", "VolumeBinding"}, pvc_add));
  // A plugin that registered nothing is moved by no event but a wildcard.
  EXPECT_FALSE(m.Matches({"NoEvents"}, pod_delete));
  EXPECT_TRUE(m.Matches({"NoEvents"}, ClusterEvent{EventResource::kWildCard, kAll, "x"}));
}

TEST(ClusterEventMap, PluginsWithoutEnqueueExtensionsGetAllClusterEvents) {
  ClusterEventMap m;
  m.Register("Legacy", AllClusterEvents());
  EXPECT_TRUE(m.Matches({"Legacy"}, {EventResource::kStorageClass, kUpdate, ""}));
  EXPECT_TRUE(m.Matches({"Legacy"}, {EventResource::kPod, kAdd, ""}));
  // CSIDriver is not among them.
  EXPECT_FALSE(m.Matches({"Legacy"}, {EventResource::kCSIDriver, kAdd, ""}));
}

TEST(ClusterEventMap, FiresOnlyWhereAHandlerIsRegistered) {
  const ClusterEventMap m = DefaultLikeMap();
  EXPECT_TRUE(m.Fires(EventResource::kPersistentVolumeClaim, kAdd));
  EXPECT_FALSE(m.Fires(EventResource::kPersistentVolumeClaim, kDelete));
  EXPECT_FALSE(m.Fires(EventResource::kService, kAdd));
  EXPECT_FALSE(m.Fires(EventResource::kCSIDriver, kUpdate));
}

}  // namespace cluster_event_test
}  // namespace ksched::framework
