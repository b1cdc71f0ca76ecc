// A Handle for plugin unit tests: a ClusterState, feature gates and a binder
// that records what it was asked to bind. Everything else is absent.
//
//   ClusterState cluster = ksched::testing::TestCluster(R"({...})");
//   framework::testing::FakeHandle handle(&cluster);
//   Status err;
//   auto plugin = plugins::NewNodeName(config::PluginArgs{}, &handle, &err);
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cache/cluster_state.h"
#include "config/types.h"
#include "framework/interface.h"

namespace ksched::framework::testing {

// Records every Bind; returns `result` (Success unless a test sets it).
class RecordingBinder : public Binder {
 public:
  Status Bind(const Pod& pod, std::string_view node_name) override {
    bound.emplace_back(pod.Key(), std::string(node_name));
    return result;
  }
  std::vector<std::pair<std::string, std::string>> bound;  // (pod key, node)
  Status result;
};

class FakeHandle : public Handle {
 public:
  explicit FakeHandle(const ClusterState* cluster, config::FeatureGates gates = {})
      : cluster_(cluster), gates_(gates) {}

  const ClusterState& cluster() const override { return *cluster_; }
  const NominatedPods* nominated() const override { return nullptr; }
  const config::FeatureGates& feature_gates() const override { return gates_; }
  int parallelism() const override { return 1; }
  Status RunFilterPluginsWithNominatedPods(const CycleState&, const Pod&,
                                           const NodeInfo&) const override {
    return Status::Error("FakeHandle runs no filter plugins");
  }
  Status RunPreFilterExtensionAddPod(CycleState*, const Pod&, const PodInfo&,
                                     const NodeInfo&) const override {
    return Status::Success();
  }
  Status RunPreFilterExtensionRemovePod(CycleState*, const Pod&, const PodInfo&,
                                        const NodeInfo&) const override {
    return Status::Success();
  }
  Binder* binder() const override { return binder_; }
  PreemptionActions* preemption() const override { return nullptr; }
  const std::vector<std::unique_ptr<SchedulerExtender>>& extenders() const override {
    return extenders_ != nullptr ? *extenders_ : Handle::extenders();
  }

  void set_extenders(const std::vector<std::unique_ptr<SchedulerExtender>>* e) { extenders_ = e; }
  void set_cluster(const ClusterState* cluster) { cluster_ = cluster; }
  void set_binder(Binder* binder) { binder_ = binder; }
  config::FeatureGates& mutable_feature_gates() { return gates_; }

 private:
  const ClusterState* cluster_;
  config::FeatureGates gates_;
  Binder* binder_ = nullptr;
  const std::vector<std::unique_ptr<SchedulerExtender>>* extenders_ = nullptr;
};

// The node of `cluster` named `name` (the test fails when there is none).
inline const NodeInfo& NodeNamed(const ClusterState& cluster, std::string_view name) {
  NodeId id = cluster.FindNode(name);
  if (id == kNoNode) {
    ADD_FAILURE() << "no node " << name;
    std::abort();  // a test bug: nothing sensible to return
  }
  return cluster.node_info(id);
}

// Builds a plugin through its factory; the test fails when the factory does.
inline std::unique_ptr<Plugin> MustNew(PluginFactory factory, Handle* handle,
                                       const config::PluginArgs& args = {}) {
  Status error;
  std::unique_ptr<Plugin> plugin = factory(args, handle, &error);
  EXPECT_TRUE(error.IsSuccess()) << error.Message();
  EXPECT_NE(plugin, nullptr);
  return plugin;
}

// The plugin as one of its extension-point interfaces (the test fails when
// it does not implement it).
template <typename Interface>
Interface* As(const std::unique_ptr<Plugin>& plugin) {
  auto* p = dynamic_cast<Interface*>(plugin.get());
  EXPECT_NE(p, nullptr);
  return p;
}

// A volume plugin's FilterPlugin::PassesEveryNodeFor: true for a pod
// without volumes, which Filter then passes on every node of `cluster`, and
// false for `with_volumes`.
inline void ExpectPassesEveryNodeOnlyWithoutVolumes(const std::unique_ptr<Plugin>& plugin,
                                                    const ClusterState& cluster,
                                                    const Pod& with_volumes) {
  auto* filter = dynamic_cast<FilterPlugin*>(plugin.get());
  ASSERT_NE(filter, nullptr);
  Pod none;
  none.meta.name = "p";
  EXPECT_TRUE(filter->PassesEveryNodeFor(none));
  CycleState state;
  for (const NodeInfo& node : cluster.node_infos())
    EXPECT_TRUE(filter->Filter(state, none, node).IsSuccess()) << node.name();
  EXPECT_FALSE(filter->PassesEveryNodeFor(with_volumes));
}

}  // namespace ksched::framework::testing
