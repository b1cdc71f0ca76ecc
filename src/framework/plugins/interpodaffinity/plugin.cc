#include "framework/plugins/interpodaffinity/plugin.h"

#include <algorithm>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework {
namespace interpodaffinity {

std::string_view InterPodAffinity::Name() const { return names::kInterPodAffinity; }

std::vector<ClusterEvent> InterPodAffinity::EventsToRegister() const {
  // A pod added, updated or deleted may satisfy an affinity term or stop
  // violating an anti-affinity one; a node added or relabelled may offer a
  // topology domain.
  return {
      ClusterEvent{EventResource::kPod, kAll, ""},
      ClusterEvent{EventResource::kNode, kAdd | kUpdateNodeLabel, ""},
  };
}

const Labels& NamespaceLabelsOf(const ClusterState& cluster, StrId ns) {
  static const Labels kNoLabels;
  const Labels* l = cluster.NamespaceLabels(ns);
  return l ? *l : kNoLabels;
}

void InterPodAffinity::MergeNamespaces(const ClusterState& cluster,
                                       std::vector<AffinityTerm>* terms, bool keep_selector) {
  for (AffinityTerm& t : *terms) {
    // Nothing() selects no namespace and Everything() is kept as it is: it
    // matches any namespace without looking at its labels.
    if (t.namespace_selector.MatchesNothing() || t.namespace_selector.Empty()) continue;
    for (const Namespace& ns : cluster.namespaces()) {
      if (t.namespace_selector.Matches(ns.meta.labels))
        t.namespaces.push_back(Intern(ns.meta.name));
    }
    std::sort(t.namespaces.begin(), t.namespaces.end());
    t.namespaces.erase(std::unique(t.namespaces.begin(), t.namespaces.end()), t.namespaces.end());
    if (!keep_selector) t.namespace_selector = labels::Selector::Nothing();
  }
}

void InterPodAffinity::MergeAll(const ClusterState& cluster, PodTerms* terms,
                                bool preferred_only) const {
  if (!preferred_only) {
    MergeNamespaces(cluster, &terms->required_affinity, v135_);
    MergeNamespaces(cluster, &terms->required_anti_affinity, v135_);
  }
  MergeNamespaces(cluster, &terms->preferred_affinity, v135_);
  MergeNamespaces(cluster, &terms->preferred_anti_affinity, v135_);
}

}  // namespace interpodaffinity

namespace plugins {

std::unique_ptr<Plugin> NewInterPodAffinity(const config::PluginArgs& args, Handle* handle,
                                            Status* error) {
  config::InterPodAffinityArgs a;
  if (const auto* given = std::get_if<config::InterPodAffinityArgs>(&args)) {
    a = *given;
  } else if (!std::holds_alternative<std::monostate>(args)) {
    *error = Status::Error("want args to be of type InterPodAffinityArgs");
    return nullptr;
  }
  // ValidateInterPodAffinityArgs (the config layer has run it already for
  // configurations it decoded; args built in code are checked here).
  if (a.hard_pod_affinity_weight < 0 || a.hard_pod_affinity_weight > 100) {
    *error = Status::Error(
        "hardPodAffinityWeight: Invalid value: " + std::to_string(a.hard_pod_affinity_weight) +
        ": not in valid range [0, 100]");
    return nullptr;
  }
  if (handle == nullptr) {
    *error = Status::Error("SnapshotSharedlister is nil");
    return nullptr;
  }
  return std::make_unique<interpodaffinity::InterPodAffinity>(a, handle);
}

}  // namespace plugins
}  // namespace ksched::framework
