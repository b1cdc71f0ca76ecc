// A minimal framework::Handle over one ClusterState, for the volume
// plugins' tests.
#pragma once

#include "framework/interface.h"

namespace ksched::framework::testing {

class VolumeTestHandle final : public Handle {
 public:
  explicit VolumeTestHandle(const ClusterState* cluster) : cluster_(cluster) {}
  const ClusterState& cluster() const override { return *cluster_; }
  const NominatedPods* nominated() const override { return nullptr; }
  const config::FeatureGates& feature_gates() const override { return gates; }
  int parallelism() const override { return 1; }
  Status RunFilterPluginsWithNominatedPods(const CycleState&, const Pod&,
                                           const NodeInfo&) const override {
    return Status();
  }
  Status RunPreFilterExtensionAddPod(CycleState*, const Pod&, const PodInfo&,
                                     const NodeInfo&) const override {
    return Status();
  }
  Status RunPreFilterExtensionRemovePod(CycleState*, const Pod&, const PodInfo&,
                                        const NodeInfo&) const override {
    return Status();
  }
  Binder* binder() const override { return nullptr; }
  PreemptionActions* preemption() const override { return nullptr; }

  void set_cluster(const ClusterState* cluster) { cluster_ = cluster; }
  config::FeatureGates gates;

 private:
  const ClusterState* cluster_;
};

// Runs a plugin's factory and casts the result.
template <typename T>
T* As(Plugin* p) {
  return dynamic_cast<T*>(p);
}

}  // namespace ksched::framework::testing
