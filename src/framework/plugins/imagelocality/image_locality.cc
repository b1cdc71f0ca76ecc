// ImageLocality: favours nodes that already hold the pod's container images,
// each image weighted by its size and by the share of nodes holding it (so
// that pods do not all pile onto the few nodes with a rare image).
//
// The size and node count of an image on a node are what v1.26's scheduler
// cache recorded when it added the node, not the current totals: that cache
// creates an image's record (its size: the first listing's) when the first
// node listing it is added, and gives each node it adds the count of nodes
// listing the image so far, itself included; nodes added later do not update
// earlier nodes' counts. Nodes are added in name order, the order an API
// server lists them. The framework vectors confirm both (they differ from
// "current totals" in about half of the ImageLocality scores).
//
// v1.35's cache keeps the set of nodes listing each image and counts it
// when it snapshots a node, so every node sees the current total (the size
// is still the first listing's). It also counts the images of init
// containers (sidecars or not), before the containers', and divides by the
// number of both.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"
#include "util/go_arith.h"

namespace ksched::framework::plugins {
namespace {

constexpr int64_t kMB = 1024 * 1024;
constexpr int64_t kMinThreshold = 23 * kMB;
constexpr int64_t kMaxContainerThreshold = 1000 * kMB;

// The interned id of the image's normalized name (":latest" added when the
// reference has no tag), or kNoStr when no node lists that name. Reuses a
// per-thread buffer: Score runs once per node and must not allocate.
StrId NormalizedImageId(std::string_view image) {
  size_t colon = image.rfind(':'), slash = image.rfind('/');
  bool has_tag =
      colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash);
  if (has_tag) return FindInterned(image);
  thread_local std::string buffer;
  buffer.assign(image);
  buffer += ":latest";
  return FindInterned(buffer);
}

// NormalizedImageId through a per-thread memo of the last names asked for.
// Score asks for the same pod's few images on node after node: a memo hit is
// a short string compare instead of a hash and a probe of the large intern
// table. A name no node listed may be interned later (a node added with the
// image), so the memo is dropped whenever the table grows.
StrId ImageIdOf(std::string_view image) {
  struct Memo {
    size_t interned = 0;
    std::vector<std::pair<std::string, StrId>> entries;
  };
  constexpr size_t kMaxEntries = 16;
  thread_local Memo memo;
  const size_t interned = InternedCount();
  if (interned != memo.interned) {
    memo.entries.clear();
    memo.interned = interned;
  }
  for (const auto& [name, id] : memo.entries)
    if (name == image) return id;
  const StrId id = NormalizedImageId(image);
  if (memo.entries.size() >= kMaxEntries) memo.entries.erase(memo.entries.begin());
  memo.entries.emplace_back(std::string(image), id);
  return id;
}

const ImageOnNode* FindImage(const NodeInfo& node, StrId name) {
  auto it = std::lower_bound(node.images.begin(), node.images.end(), name,
                             [](const ImageOnNode& i, StrId n) { return i.name < n; });
  return it != node.images.end() && it->name == name ? &*it : nullptr;
}

// calculatePriority: the summed sizes clamped to [minThreshold, 1000 MiB per
// container] and mapped linearly onto 0..100.
int64_t CalculatePriority(int64_t sum, int64_t num_containers) {
  const int64_t max_threshold = kMaxContainerThreshold * num_containers;
  if (sum < kMinThreshold) {
    sum = kMinThreshold;
  } else if (sum > max_threshold) {
    sum = max_threshold;
  }
  return kMaxNodeScore * (sum - kMinThreshold) / (max_threshold - kMinThreshold);
}

// What the cache recorded for one image name on one node.
struct ImageState {
  int32_t num_nodes = 0;
  int64_t size = 0;
};

// The image states of every node of one ClusterState: states[id][i] belongs
// to node_info(id).images[i]. Nodes never change within a ClusterState, so
// this is built once per ClusterState. `current_totals`: v1.35's counts.
struct ClusterImageStates {
  uint64_t cluster_id = 0;
  std::vector<std::vector<ImageState>> states;

  static std::unique_ptr<ClusterImageStates> Build(const ClusterState& cluster,
                                                   bool current_totals) {
    auto out = std::make_unique<ClusterImageStates>();
    out->cluster_id = cluster.id();
    const size_t n = cluster.num_nodes();
    out->states.resize(n);
    std::vector<NodeId> by_name(n);
    for (NodeId id = 0; id < n; ++id) by_name[cluster.name_rank()[id]] = id;
    std::unordered_map<StrId, ImageState> cache;  // upstream's cache.imageStates
    for (NodeId id : by_name) {
      const auto& images = cluster.node_info(id).images;
      out->states[id].resize(images.size());
      for (size_t i = 0; i < images.size(); ++i) {
        auto [it, added] = cache.try_emplace(images[i].name, ImageState{0, images[i].first_size});
        ++it->second.num_nodes;
        out->states[id][i] = it->second;
      }
    }
    if (current_totals) {
      for (NodeId id = 0; id < n; ++id) {
        const auto& images = cluster.node_info(id).images;
        for (size_t i = 0; i < images.size(); ++i)
          out->states[id][i].num_nodes = cache.at(images[i].name).num_nodes;
      }
    }
    return out;
  }
};

class ImageLocality final : public ScorePlugin {
 public:
  ImageLocality(Handle* handle, bool v135) : handle_(handle), v135_(v135) {}

  std::string_view Name() const override { return names::kImageLocality; }

  // Reads the pod's images, this node and the cluster's image states (fixed).
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return 0; }

  Status Score(const CycleState&, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override {
    const ClusterState& cluster = handle_->cluster();
    const double total_nodes = static_cast<double>(cluster.num_nodes());
    const ClusterImageStates* states = nullptr;
    int64_t sum = 0;
    auto add = [&](const Container& c) {
      StrId name = ImageIdOf(c.image);
      if (name == kNoStr) return;
      const ImageOnNode* image = FindImage(node, name);
      if (image == nullptr) return;
      if (states == nullptr) states = StatesOf(cluster);
      const ImageState& state = states->states[node.id][image - node.images.data()];
      // scaledImageScore, with Go's float64 arithmetic and int64 conversion.
      double spread = static_cast<double>(state.num_nodes) / total_nodes;
      sum = goarith::Add(sum, goarith::FloatToInt64(static_cast<double>(state.size) * spread));
    };
    size_t num_containers = pod.spec.containers.size();
    if (v135_) {
      for (const Container& c : pod.spec.init_containers) add(c);
      num_containers += pod.spec.init_containers.size();
    }
    for (const Container& c : pod.spec.containers) add(c);
    *score = CalculatePriority(sum, static_cast<int64_t>(num_containers));
    return Status::Success();
  }

 private:
  // The image states of `cluster`, built on first use. Score runs on many
  // threads: the common case is one atomic load; a new ClusterState (the
  // engine switched snapshots between cycles) takes the lock once.
  const ClusterImageStates* StatesOf(const ClusterState& cluster) const {
    const ClusterImageStates* s = current_.load(std::memory_order_acquire);
    if (s != nullptr && s->cluster_id == cluster.id()) return s;
    std::lock_guard<std::mutex> lock(mu_);
    s = current_.load(std::memory_order_acquire);
    if (s != nullptr && s->cluster_id == cluster.id()) return s;
    // The previous snapshot's states may still be read by a straggler of
    // the previous cycle: keep it, free older ones.
    if (kept_.size() > 1) kept_.erase(kept_.begin());
    kept_.push_back(ClusterImageStates::Build(cluster, /*current_totals=*/v135_));
    current_.store(kept_.back().get(), std::memory_order_release);
    return kept_.back().get();
  }

  Handle* handle_;
  bool v135_;
  mutable std::mutex mu_;
  mutable std::atomic<const ClusterImageStates*> current_{nullptr};
  mutable std::vector<std::unique_ptr<ClusterImageStates>> kept_;
};

}  // namespace

std::unique_ptr<Plugin> NewImageLocality(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<ImageLocality>(
      handle, handle->feature_gates().AtLeast(config::SchedulerVersion::kV135));
}

}  // namespace ksched::framework::plugins
