#include "api/pod_resources.h"

namespace ksched {
namespace {

ResourceQuantity* FindEntry(ResourceList* list, StrId name) {
  for (ResourceQuantity& q : *list)
    if (q.name == name) return &q;
  return nullptr;
}

// Quantity.Add keeps the receiver's format (the first quantity's), unless
// the receiver is zero.
void AddResources(ResourceList* to, const ResourceList& from) {
  for (const ResourceQuantity& q : from) {
    if (ResourceQuantity* have = FindEntry(to, q.name)) {
      if (have->milli == 0) have->format = q.format;
      have->value += q.value;
      have->milli += q.milli;
    } else {
      to->push_back(q);
    }
  }
}

// Per name, the larger quantity (with its format).
void MaxResources(ResourceList* to, const ResourceList& from) {
  for (const ResourceQuantity& q : from) {
    if (ResourceQuantity* have = FindEntry(to, q.name)) {
      if (q.milli > have->milli) *have = q;
    } else {
      to->push_back(q);
    }
  }
}

template <typename Field>
ResourceList AggregateField(const PodSpec& spec, Field field) {
  ResourceList total;
  for (const Container& c : spec.containers) AddResources(&total, c.*field);
  ResourceList sidecars, init_max;
  for (const Container& c : spec.init_containers) {
    if (c.IsRestartableInit()) {
      AddResources(&total, c.*field);
      AddResources(&sidecars, c.*field);
      MaxResources(&init_max, sidecars);
    } else {
      ResourceList use = c.*field;
      AddResources(&use, sidecars);
      MaxResources(&init_max, use);
    }
  }
  MaxResources(&total, init_max);
  return total;
}

}  // namespace

ResourceList AggregateContainerRequests(const PodSpec& spec) {
  return AggregateField(spec, &Container::requests);
}

ResourceList AggregateContainerLimits(const PodSpec& spec) {
  return AggregateField(spec, &Container::limits);
}

bool IsHugePageResourceName(std::string_view name) { return name.starts_with("hugepages-"); }

bool IsSupportedPodLevelResource(std::string_view name) {
  return name == "cpu" || name == "memory" || IsHugePageResourceName(name);
}

const ResourceQuantity* FindResource(const ResourceList& list, StrId name) {
  for (const ResourceQuantity& q : list)
    if (q.name == name) return &q;
  return nullptr;
}

}  // namespace ksched
