#include "framework/cluster_event.h"

#include <algorithm>

namespace ksched::framework {

const std::vector<ClusterEvent>& AllClusterEvents() {
  static const std::vector<ClusterEvent> kEvents = {
      {EventResource::kPod, kAll, ""},
      {EventResource::kNode, kAll, ""},
      {EventResource::kCSINode, kAll, ""},
      {EventResource::kPersistentVolume, kAll, ""},
      {EventResource::kPersistentVolumeClaim, kAll, ""},
      {EventResource::kStorageClass, kAll, ""},
  };
  return kEvents;
}

void ClusterEventMap::Register(std::string_view plugin, const std::vector<ClusterEvent>& events) {
  for (const ClusterEvent& e : events) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& x) {
      return x.resource == e.resource && x.action == e.action;
    });
    if (it == entries_.end()) it = entries_.insert(entries_.end(), Entry{e.resource, e.action, {}});
    auto pos = std::lower_bound(it->plugins.begin(), it->plugins.end(), plugin);
    if (pos == it->plugins.end() || *pos != plugin) it->plugins.insert(pos, std::string(plugin));
  }
}

bool ClusterEventMap::Matches(const std::vector<std::string>& unschedulable_plugins,
                              const ClusterEvent& event) const {
  if (event.IsWildCard()) return true;
  for (const Entry& e : entries_) {
    const bool registered_wildcard = e.resource == EventResource::kWildCard && e.action == kAll;
    const bool event_matches =
        registered_wildcard || (e.resource == event.resource && (e.action & event.action) != 0);
    if (!event_matches) continue;
    for (const std::string& p : unschedulable_plugins)
      if (std::binary_search(e.plugins.begin(), e.plugins.end(), p)) return true;
  }
  return false;
}

bool ClusterEventMap::Fires(EventResource resource, uint32_t action) const {
  for (const Entry& e : entries_) {
    if (e.resource == resource && (e.action & action) != 0) return true;
  }
  return false;
}

}  // namespace ksched::framework
