#include "framework/plugins/helper/spread.h"

#include <optional>
#include <string_view>

#include "api/owner.h"

namespace ksched::framework::plugins::helper {

SpreadSelector SpreadSelector::FromSetAnd(Labels set, const labels::Selector& other) {
  SpreadSelector s;
  s.set_ = std::move(set);
  if (!other.MatchesNothing()) s.reqs_ = other;
  return s;
}

namespace spread_internal {

// schema.ParseGroupVersion: "" and "/" are the empty version, no slash is a
// core version, one slash splits group and version, more is an error.
struct GroupVersion {
  std::string_view group, version;
};
std::optional<GroupVersion> ParseGroupVersion(std::string_view gv) {
  if (gv.empty() || gv == "/") return GroupVersion{};
  size_t slash = gv.find('/');
  if (slash == std::string_view::npos) return GroupVersion{"", gv};
  if (gv.find('/', slash + 1) != std::string_view::npos) return std::nullopt;
  return GroupVersion{gv.substr(0, slash), gv.substr(slash + 1)};
}

template <typename T>
const T* FindByName(const std::vector<T>& objects, StrId ns, std::string_view name, size_t* index) {
  for (size_t i = 0; i < objects.size(); ++i) {
    if (objects[i].meta.ns == ns && objects[i].meta.name == name) {
      *index = i;
      return &objects[i];
    }
  }
  return nullptr;
}

void AddRequirements(const std::optional<labels::Selector>& compiled, labels::Selector* out) {
  // An invalid selector adds nothing; so does a nil one (Nothing()).
  if (!compiled || compiled->MatchesNothing()) return;
  for (const labels::Requirement& r : compiled->requirements()) out->Add(r);
}

}  // namespace spread_internal

SpreadSelector DefaultSelector(const Pod& pod, const ClusterState& cluster) {
  using namespace spread_internal;
  Labels set;
  for (const Service& svc : cluster.services()) {
    // A nil service selector selects nothing; {} selects every pod.
    if (svc.meta.ns != pod.meta.ns || !svc.has_selector) continue;
    if (!pod.meta.labels.ContainsAll(svc.selector)) continue;
    for (const auto& [k, v] : svc.selector) set.Set(k, v);
  }
  labels::Selector reqs;
  const OwnerReference* owner = ControllerOf(pod);
  std::optional<GroupVersion> gv;
  if (owner != nullptr) gv = ParseGroupVersion(owner->api_version);
  if (gv) {
    size_t i = 0;
    if (gv->group.empty() && gv->version == "v1" && owner->kind == "ReplicationController") {
      if (const auto* rc =
              FindByName(cluster.replication_controllers(), pod.meta.ns, owner->name, &i)) {
        for (const auto& [k, v] : rc->selector) set.Set(k, v);
      }
    } else if (gv->group == "apps" && gv->version == "v1" && owner->kind == "ReplicaSet") {
      if (FindByName(cluster.replica_sets(), pod.meta.ns, owner->name, &i))
        AddRequirements(cluster.replica_set_selectors()[i], &reqs);
    } else if (gv->group == "apps" && gv->version == "v1" && owner->kind == "StatefulSet") {
      if (FindByName(cluster.stateful_sets(), pod.meta.ns, owner->name, &i))
        AddRequirements(cluster.stateful_set_selectors()[i], &reqs);
    }
  }
  return SpreadSelector::FromSetAnd(std::move(set), reqs);
}

}  // namespace ksched::framework::plugins::helper
