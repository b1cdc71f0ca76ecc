// ImageLocalityPriority: favours nodes that already hold the pod's images,
// weighting each image by its size and by how widely it has spread.
//
// Upstream's scheduler cache records image facts when a node is added, in
// the order nodes are added (here: the input order, i.e. NodeId order):
//  - an image name's size is the size given by the first node (and, within
//    that node, the first image entry) that lists the name; later nodes
//    listing another size for the same name do not change it;
//  - the node count a node sees for an image is the number of nodes listing
//    the name at the moment that node was added, itself included. Nodes added
//    later do not update it.
// The conformance vectors depend on both (they differ from "current count
// over all nodes" in hundreds of scores), so Prepare() recomputes them from
// the nodes for each image the pod uses. Only regular containers count; each
// container counts separately, even when two share an image.
#include "priorities/image_locality.h"

#include <algorithm>
#include <vector>

#include "priorities/factories.h"
#include "util/go_arith.h"

namespace ksched {
namespace {

constexpr int64_t kMiB = 1024 * 1024;
constexpr int64_t kMinThreshold = 23 * kMiB;
constexpr int64_t kMaxThreshold = 1000 * kMiB;

// The node's entry for `name`, or null when the node does not list it.
const ImageOnNode* FindImage(const NodeInfo& info, StrId name) {
  auto it = std::lower_bound(info.images.begin(), info.images.end(), name,
                             [](const ImageOnNode& i, StrId n) { return i.name < n; });
  return it != info.images.end() && it->name == name ? &*it : nullptr;
}

struct ImageLocalityState final : PriorityState {
  // Sum of spread-scaled sizes per NodeId; empty when no image of the pod is
  // on any node (every node then sums to 0).
  std::vector<int64_t> sums;
};

class ImageLocalityPriority final : public Priority {
 public:
  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override {
    auto state = std::make_unique<ImageLocalityState>();
    const size_t num_nodes = cluster.num_nodes();
    const double total = static_cast<double>(num_nodes);
    for (const Container& c : pod.pod().spec.containers) {
      // A name never interned is listed by no node.
      const StrId name = FindInterned(NormalizedImageName(c.image));
      if (name == kNoStr || cluster.ImageNumNodes(name) == 0) continue;
      if (state->sums.empty()) state->sums.assign(num_nodes, 0);
      int64_t size = 0;
      int seen = 0;  // nodes listing the image so far, in add order
      for (NodeId id = 0; id < num_nodes; ++id) {
        const ImageOnNode* image = FindImage(cluster.node_info(id), name);
        if (image == nullptr) continue;
        if (seen++ == 0) size = image->first_size;
        const double spread = static_cast<double>(seen) / total;
        state->sums[id] = goarith::Add(state->sums[id],
                                       goarith::FloatToInt64(static_cast<double>(size) * spread));
      }
    }
    return state;
  }

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    (void)pod;
    (void)cluster;
    const auto& sums = static_cast<const ImageLocalityState*>(state)->sums;
    return ImageLocalityScore(sums.empty() ? 0 : sums[node]);
  }
};

}  // namespace

std::string NormalizedImageName(std::string_view image) {
  // rfind gives npos (as upstream's LastIndex gives -1) when absent; compare
  // as signed so that "no ':'" counts as before any '/'.
  auto last = [&](char c) {
    size_t i = image.rfind(c);
    return i == std::string_view::npos ? int64_t{-1} : static_cast<int64_t>(i);
  };
  std::string name(image);
  if (last(':') <= last('/')) name += ":latest";
  return name;
}

int64_t ImageLocalityScore(int64_t sum) {
  sum = std::clamp(sum, kMinThreshold, kMaxThreshold);
  return kMaxPriority * (sum - kMinThreshold) / (kMaxThreshold - kMinThreshold);
}

std::unique_ptr<Priority> NewImageLocalityPriority() {
  return std::make_unique<ImageLocalityPriority>();
}

}  // namespace ksched
