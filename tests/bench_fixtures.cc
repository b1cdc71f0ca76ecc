#include "tests/bench_fixtures.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "api/decode.h"

namespace ksched::bench {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bench_fixtures: %s\n", what.c_str());
  std::abort();
}

ObjectSet Decode(std::string_view json) {
  ObjectSet set;
  Status s = DecodeObjects(json, "bench-input", &set);
  if (!s.ok()) Die("decode failed: " + s.error().message);
  return set;
}

}  // namespace

std::string NodeName(size_t index) { return fmt::format("node-{:05d}", index); }

std::string NodeJson(size_t index, size_t zones) {
  const std::string name = NodeName(index);
  return fmt::format(R"({{"kind":"Node","metadata":{{"name":"{0}","labels":{{)"
                     R"("kubernetes.io/hostname":"{0}",)"
                     R"("failure-domain.beta.kubernetes.io/zone":"zone{1}",)"
                     R"("failure-domain.beta.kubernetes.io/region":"region{2}"}}}},)"
                     R"("status":{{"capacity":{{"cpu":"4","memory":"32Gi","pods":"110"}},)"
                     R"("allocatable":{{"cpu":"4","memory":"32Gi","pods":"110"}},)"
                     R"("conditions":[{{"type":"Ready","status":"True"}}]}}}})",
                     name, index % zones + 1, index % 2 + 1);
}

std::string PodJson(std::string_view name, std::string_view labels_json,
                    std::string_view spec_extra, std::string_view meta_extra,
                    std::string_view node_name) {
  std::string spec = R"("containers":[{"name":"pause","image":"k8s.gcr.io/pause:3.1",)"
                     R"("resources":{"requests":{"cpu":"100m","memory":"500Mi"},)"
                     R"("limits":{"cpu":"100m","memory":"500Mi"}}}])";
  if (!node_name.empty()) spec += fmt::format(R"(,"nodeName":"{}")", node_name);
  if (!spec_extra.empty()) spec += fmt::format(",{}", spec_extra);
  std::string meta =
      fmt::format(R"("name":"{}","namespace":"default","labels":{{{}}})", name, labels_json);
  if (!meta_extra.empty()) meta += fmt::format(",{}", meta_extra);
  return fmt::format(R"({{"kind":"Pod","metadata":{{{}}},"spec":{{{}}}}})", meta, spec);
}

ClusterBuilder& ClusterBuilder::Nodes(size_t count, size_t zones) {
  for (size_t i = 0; i < count; ++i) items_.push_back(NodeJson(num_nodes_ + i, zones));
  num_nodes_ += count;
  return *this;
}

ClusterBuilder& ClusterBuilder::Pods(size_t count, std::string_view prefix,
                                     std::string_view labels_json, std::string_view spec_extra,
                                     std::string_view meta_extra, size_t first_node) {
  if (num_nodes_ == 0) Die("Pods() before Nodes()");
  for (size_t i = 0; i < count; ++i) {
    items_.push_back(PodJson(fmt::format("{}-{}", prefix, i), labels_json, spec_extra, meta_extra,
                             NodeName((first_node + i) % num_nodes_)));
  }
  return *this;
}

ClusterBuilder& ClusterBuilder::Object(std::string json) {
  items_.push_back(std::move(json));
  return *this;
}

ClusterState ClusterBuilder::Build() const {
  std::string list = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items_.size(); ++i) {
    if (i > 0) list += ',';
    list += items_[i];
  }
  list += "]}";
  auto state = ClusterState::Build(Decode(list));
  if (!state.ok()) Die("cluster build failed: " + state.error().message);
  return std::move(state).value();
}

Pod DecodePod(std::string_view json) {
  ObjectSet set = Decode(json);
  if (set.pods.size() != 1) Die("expected exactly one pod");
  return std::move(set.pods[0]);
}

const ClusterState& CachedCluster(const std::string& key,
                                  const std::function<ClusterState()>& make) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<ClusterState>> clusters;
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<ClusterState>& slot = clusters[key];
  if (!slot) slot = std::make_unique<ClusterState>(make());
  return *slot;
}

Incoming::Incoming(Pod pod) : info_(std::make_unique<PodInfo>(MakePodInfo(std::move(pod)))) {
  target_.info = info_.get();
  target_.request = PodRequestToSchedule(info_->pod);
}

std::vector<NodeId> AllNodes(const ClusterState& cluster) {
  std::vector<NodeId> nodes(cluster.num_nodes());
  for (NodeId n = 0; n < nodes.size(); ++n) nodes[n] = n;
  return nodes;
}

}  // namespace ksched::bench
