#include "cache/resource.h"

#include <algorithm>
#include <limits>
#include <string_view>

#include "util/go_arith.h"

namespace ksched {
namespace {

constexpr std::string_view kDefaultNamespacePrefix = "kubernetes.io/";
constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kAttachableVolumesPrefix = "attachable-volumes-";

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The name part of a qualified name: at most 63 characters, alphanumeric at
// both ends, '-', '_' and '.' allowed inside.
bool IsQualifiedNamePart(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  if (!IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s)
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

// A DNS-1123 subdomain: lower-case alphanumerics, '-' and '.', at most 253.
bool IsDns1123Subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (start <= s.size()) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty()) return false;
    auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label)
      if (!lower_alnum(c) && c != '-') return false;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return true;
}

bool IsQualifiedName(std::string_view s) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos) return IsQualifiedNamePart(s);
  if (s.find('/', slash + 1) != std::string_view::npos) return false;
  return IsDns1123Subdomain(s.substr(0, slash)) && IsQualifiedNamePart(s.substr(slash + 1));
}

bool IsPrefixedNative(std::string_view name) {
  return name.find(kDefaultNamespacePrefix) != std::string_view::npos;
}

bool IsNative(std::string_view name) {
  return name.find('/') == std::string_view::npos || IsPrefixedNative(name);
}

}  // namespace

const ResourceNames& ResourceNames::Get() {
  static const ResourceNames names{Intern("cpu"), Intern("memory"), Intern("pods"),
                                   Intern("ephemeral-storage")};
  return names;
}

bool IsExtendedResourceName(std::string_view name) {
  if (IsNative(name) || name.substr(0, kRequestsPrefix.size()) == kRequestsPrefix) return false;
  std::string for_quota(kRequestsPrefix);
  for_quota += name;
  return IsQualifiedName(for_quota);
}

bool IsAttachableVolumeResourceName(std::string_view name) {
  return name.substr(0, kAttachableVolumesPrefix.size()) == kAttachableVolumesPrefix;
}

bool IsScalarResourceName(StrId id) {
  std::string_view name = Str(id);
  return IsExtendedResourceName(name) || IsHugePageResourceName(name) || IsPrefixedNative(name) ||
         IsAttachableVolumeResourceName(name);
}

namespace {

using Scalars = std::vector<std::pair<StrId, int64_t>>;

bool ById(const std::pair<StrId, int64_t>& a, const std::pair<StrId, int64_t>& b) {
  return a.first < b.first;
}

// `v` is sorted and unique below `sorted_end`; the entries after it are new
// names, in any order and possibly repeated. Sorts the tail, folds repeats
// with `fold` and merges it in: O(k log k + n) for k new entries, so that a
// list of thousands of resource names costs no quadratic insertion.
template <class Fold>
void MergeNew(Scalars& v, size_t sorted_end, Fold fold) {
  if (sorted_end == v.size()) return;
  auto tail = v.begin() + static_cast<std::ptrdiff_t>(sorted_end);
  std::sort(tail, v.end(), ById);
  size_t out = sorted_end;
  for (size_t i = sorted_end; i < v.size(); ++i) {
    if (out > sorted_end && v[out - 1].first == v[i].first) {
      v[out - 1].second = fold(v[out - 1].second, v[i].second);
    } else {
      v[out++] = v[i];
    }
  }
  v.resize(out);
  std::inplace_merge(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(sorted_end), v.end(), ById);
}

int64_t Max(int64_t a, int64_t b) { return std::max(a, b); }

// The entry for `name` among the first `sorted_end` (sorted) entries, or null.
std::pair<StrId, int64_t>* FindSorted(Scalars& v, size_t sorted_end, StrId name) {
  auto end = v.begin() + static_cast<std::ptrdiff_t>(sorted_end);
  auto it =
      std::lower_bound(v.begin(), end, name, [](const auto& p, StrId n) { return p.first < n; });
  return (it != end && it->first == name) ? &*it : nullptr;
}

}  // namespace

int64_t Resource::Scalar(StrId name) const {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), name,
                             [](const auto& p, StrId n) { return p.first < n; });
  return (it != scalars.end() && it->first == name) ? it->second : 0;
}

void Resource::SetScalar(StrId name, int64_t amount) {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), name,
                             [](const auto& p, StrId n) { return p.first < n; });
  if (it != scalars.end() && it->first == name) {
    it->second = amount;
  } else {
    scalars.insert(it, {name, amount});
  }
}

void Resource::AddScalar(StrId name, int64_t amount) {
  if (auto* e = FindSorted(scalars, scalars.size(), name)) {
    e->second = goarith::Add(e->second, amount);
  } else {
    SetScalar(name, amount);
  }
}

// Sums wrap around as Go's int64 does: upstream adds quantities without
// checking, and quantities saturate at int64's maximum, so two huge requests
// wrap to a negative total there (and the pod then fits). ksched decides the
// same, without C++'s undefined signed overflow.
void Resource::Add(const ResourceList& list) {
  const ResourceNames& rn = ResourceNames::Get();
  const size_t sorted_end = scalars.size();
  for (const ResourceQuantity& q : list) {
    if (q.name == rn.cpu) {
      milli_cpu = goarith::Add(milli_cpu, q.milli);
    } else if (q.name == rn.memory) {
      memory = goarith::Add(memory, q.value);
    } else if (q.name == rn.pods) {
      allowed_pod_number = goarith::Add(allowed_pod_number, q.value);
    } else if (q.name == rn.ephemeral_storage) {
      ephemeral_storage = goarith::Add(ephemeral_storage, q.value);
    } else if (IsScalarResourceName(q.name)) {
      if (auto* e = FindSorted(scalars, sorted_end, q.name)) {
        e->second = goarith::Add(e->second, q.value);
      } else {
        scalars.emplace_back(q.name, q.value);
      }
    }
  }
  MergeNew(scalars, sorted_end, goarith::Add);
}

void Resource::SetMax(const ResourceList& list) {
  const ResourceNames& rn = ResourceNames::Get();
  const size_t sorted_end = scalars.size();
  for (const ResourceQuantity& q : list) {
    if (q.name == rn.cpu) {
      milli_cpu = std::max(milli_cpu, q.milli);
    } else if (q.name == rn.memory) {
      memory = std::max(memory, q.value);
    } else if (q.name == rn.ephemeral_storage) {
      ephemeral_storage = std::max(ephemeral_storage, q.value);
    } else if (q.name != rn.pods && IsScalarResourceName(q.name)) {
      // Upstream only sets a name whose value beats the current one (0 when
      // absent), so a zero request adds no entry here.
      if (auto* e = FindSorted(scalars, sorted_end, q.name)) {
        e->second = std::max(e->second, q.value);
      } else if (q.value > 0) {
        scalars.emplace_back(q.name, q.value);
      }
    }
  }
  MergeNew(scalars, sorted_end, Max);
}

void Resource::AddRequest(const Resource& other) {
  milli_cpu = goarith::Add(milli_cpu, other.milli_cpu);
  memory = goarith::Add(memory, other.memory);
  ephemeral_storage = goarith::Add(ephemeral_storage, other.ephemeral_storage);
  const size_t sorted_end = scalars.size();
  for (const auto& [name, v] : other.scalars) {
    if (auto* e = FindSorted(scalars, sorted_end, name)) {
      e->second = goarith::Add(e->second, v);
    } else {
      scalars.emplace_back(name, v);
    }
  }
  MergeNew(scalars, sorted_end, goarith::Add);
}

Resource PodRequestOnNode(const Pod& pod) {
  Resource r;
  for (const Container& c : pod.spec.containers) r.Add(c.requests);
  return r;
}

Resource PodRequestToSchedule(const Pod& pod) {
  Resource r = PodRequestOnNode(pod);
  for (const Container& c : pod.spec.init_containers) r.SetMax(c.requests);
  return r;
}

namespace {

// One container's cpu and memory requests, with the non-zero defaults for
// the ones it does not name (an explicit 0 stays 0).
NonZeroRequest ContainerNonZero(const Container& c) {
  const ResourceNames& rn = ResourceNames::Get();
  NonZeroRequest nz{kDefaultMilliCpuRequest, kDefaultMemoryRequest};
  for (const ResourceQuantity& q : c.requests) {
    if (q.name == rn.cpu) nz.milli_cpu = q.milli;
    if (q.name == rn.memory) nz.memory = q.value;
  }
  return nz;
}

}  // namespace

NonZeroRequest PodNonZeroRequest(const Pod& pod) {
  NonZeroRequest nz;
  for (const Container& c : pod.spec.containers) {
    NonZeroRequest one = ContainerNonZero(c);
    nz.milli_cpu = goarith::Add(nz.milli_cpu, one.milli_cpu);
    nz.memory = goarith::Add(nz.memory, one.memory);
  }
  return nz;
}

Resource PodRequestV126(const Pod& pod) {
  Resource r = PodRequestToSchedule(pod);
  if (!pod.spec.overhead.empty()) r.Add(pod.spec.overhead);
  return r;
}

NonZeroRequest PodNonZeroRequestV126(const Pod& pod) {
  const ResourceNames& rn = ResourceNames::Get();
  NonZeroRequest nz = PodNonZeroRequest(pod);
  for (const Container& c : pod.spec.init_containers) {
    NonZeroRequest one = ContainerNonZero(c);
    nz.milli_cpu = std::max(nz.milli_cpu, one.milli_cpu);
    nz.memory = std::max(nz.memory, one.memory);
  }
  for (const ResourceQuantity& q : pod.spec.overhead) {
    if (q.name == rn.cpu) nz.milli_cpu = goarith::Add(nz.milli_cpu, q.milli);
    if (q.name == rn.memory) nz.memory = goarith::Add(nz.memory, q.value);
  }
  return nz;
}

}  // namespace ksched

namespace ksched {
namespace {

// A ResourceList as a map by name, as component-helpers works on
// v1.ResourceList: quantities added and compared per name.
class RequestList {
 public:
  ResourceList& list() { return list_; }

  ResourceQuantity* Find(StrId name) {
    for (ResourceQuantity& q : list_)
      if (q.name == name) return &q;
    return nullptr;
  }
  bool Has(StrId name) const {
    for (const ResourceQuantity& q : list_)
      if (q.name == name) return true;
    return false;
  }
  void Add(const ResourceList& other) {
    for (const ResourceQuantity& q : other) {
      if (ResourceQuantity* e = Find(q.name)) {
        e->value = goarith::Add(e->value, q.value);
        e->milli = goarith::Add(e->milli, q.milli);
      } else {
        list_.push_back(q);
      }
    }
  }
  // maxResourceList: each name of `other` set where absent or larger.
  void Max(const ResourceList& other) {
    for (const ResourceQuantity& q : other) {
      if (ResourceQuantity* e = Find(q.name)) {
        if (Greater(q, *e)) *e = q;
      } else {
        list_.push_back(q);
      }
    }
  }
  void Set(const ResourceQuantity& q) {
    if (ResourceQuantity* e = Find(q.name)) {
      *e = q;
    } else {
      list_.push_back(q);
    }
  }

  // Quantity.Cmp on what the parsed forms keep. Milli-units first: a sum's
  // whole units add each quantity rounded up (125m + 500m counts 2 units,
  // more than 1 cpu's 1), while its milli-units are exact for every quantity
  // with at most milli precision. Whole units when a milli value saturated
  // (beyond 9.2e15 units).
  static bool Greater(const ResourceQuantity& a, const ResourceQuantity& b) {
    constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();
    if (a.milli != kSaturated && b.milli != kSaturated && a.milli != b.milli)
      return a.milli > b.milli;
    if (a.value != b.value) return a.value > b.value;
    return a.milli > b.milli;
  }

 private:
  ResourceList list_;
};

const ContainerStatus* FindStatus(const std::vector<ContainerStatus>& statuses,
                                  std::string_view name) {
  for (const ContainerStatus& cs : statuses)
    if (cs.name == name) return &cs;
  return nullptr;
}

bool ResizeInfeasible(const Pod& pod) {
  for (const PodCondition& c : pod.conditions)
    if (c.type == "PodResizePending") return c.reason == "Infeasible";
  return false;
}

// determineEffectiveRequests: per name the largest of spec, actuated and
// allocated (spec left out while the resize is infeasible).
ResourceList EffectiveRequests(const Pod& pod, const ResourceList& spec,
                               const ContainerStatus& status) {
  RequestList out;
  if (!ResizeInfeasible(pod)) out.Max(spec);
  out.Max(status.resources->requests);
  out.Max(status.allocated_resources);
  return std::move(out.list());
}

// The requests one container counts with: its status's when
// use_status_resources and the status reports resources.
const ResourceList& ContainerRequests(const Pod& pod, const Container& c,
                                      const PodRequestOptions& options, ResourceList* scratch) {
  if (!options.use_status_resources) return c.requests;
  const ContainerStatus* cs = FindStatus(pod.container_statuses, c.name);
  if (cs == nullptr) cs = FindStatus(pod.init_container_statuses, c.name);
  if (cs == nullptr || !cs->resources) return c.requests;
  *scratch = EffectiveRequests(pod, c.requests, *cs);
  return *scratch;
}

// applyNonMissing: `reqs` with each default added for a name it lacks.
ResourceList WithDefaults(const ResourceList& reqs, const ResourceList& defaults) {
  RequestList out;
  out.Add(reqs);
  for (const ResourceQuantity& d : defaults)
    if (!out.Has(d.name)) out.Add({d});
  return std::move(out.list());
}

bool IsSupportedPodLevelResource(StrId name) {
  const ResourceNames& rn = ResourceNames::Get();
  return name == rn.cpu || name == rn.memory || IsHugePageResourceName(Str(name));
}

// resource.PodRequests with NonMissingContainerRequests `defaults` (empty:
// none).
ResourceList PodRequestsWith(const Pod& pod, const PodRequestOptions& options,
                             const ResourceList& defaults) {
  RequestList reqs;
  ResourceList scratch;
  for (const Container& c : pod.spec.containers) {
    const ResourceList* r = &ContainerRequests(pod, c, options, &scratch);
    ResourceList with_defaults;
    if (!defaults.empty()) {
      with_defaults = WithDefaults(*r, defaults);
      r = &with_defaults;
    }
    reqs.Add(*r);
  }
  RequestList sidecars;  // restartable init containers so far
  RequestList init_max;  // the largest use while any init container runs
  for (const Container& c : pod.spec.init_containers) {
    // Status resources count for sidecars only: an ordinary init container
    // is not resized.
    const ResourceList* r =
        c.IsRestartableInit() ? &ContainerRequests(pod, c, options, &scratch) : &c.requests;
    ResourceList with_defaults;
    if (!defaults.empty()) {
      with_defaults = WithDefaults(*r, defaults);
      r = &with_defaults;
    }
    if (c.IsRestartableInit()) {
      reqs.Add(*r);
      sidecars.Add(*r);
      init_max.Max(sidecars.list());
    } else {
      RequestList use;
      use.Add(*r);
      use.Add(sidecars.list());
      init_max.Max(use.list());
    }
  }
  reqs.Max(init_max.list());
  if (options.pod_level_resources && PodLevelRequestsSet(pod)) {
    for (const ResourceQuantity& q : pod.spec.resources->requests)
      if (IsSupportedPodLevelResource(q.name)) reqs.Set(q);
  }
  if (!pod.spec.overhead.empty()) reqs.Add(pod.spec.overhead);
  return std::move(reqs.list());
}

}  // namespace

bool PodLevelRequestsSet(const Pod& pod) {
  if (!pod.spec.resources) return false;
  for (const ResourceQuantity& q : pod.spec.resources->requests)
    if (IsSupportedPodLevelResource(q.name)) return true;
  return false;
}

bool PodLevelResourcesSet(const Pod& pod) {
  if (!pod.spec.resources) return false;
  for (const ResourceList* l : {&pod.spec.resources->requests, &pod.spec.resources->limits})
    for (const ResourceQuantity& q : *l)
      if (IsSupportedPodLevelResource(q.name)) return true;
  return false;
}

ResourceList PodRequestsV135(const Pod& pod, const PodRequestOptions& options) {
  if (!options.non_missing_container_requests) return PodRequestsWith(pod, options, {});
  const ResourceNames& rn = ResourceNames::Get();
  static const ResourceList kDefaults = {
      {.name = rn.cpu, .value = 1, .milli = kDefaultMilliCpuRequest},
      {.name = rn.memory,
       .format = QuantityFormat::kBinarySI,
       .value = kDefaultMemoryRequest,
       .milli = kDefaultMemoryRequest * 1000}};
  return PodRequestsWith(pod, options, kDefaults);
}

Resource PodRequestV135(const Pod& pod, const PodRequestOptions& options) {
  Resource r;
  r.Add(PodRequestsV135(pod, options));
  return r;
}

NonZeroRequest PodNonZeroRequestV135(const Pod& pod, const PodRequestOptions& options) {
  const ResourceNames& rn = ResourceNames::Get();
  ResourceList requests = PodRequestsV135(pod, options);
  // getNonMissingContainerRequests: without pod-level requests both
  // defaults apply to every container; with them, only for a resource
  // neither the pod nor any container names.
  const bool pod_level = options.pod_level_resources && PodLevelRequestsSet(pod);
  auto has = [&](StrId name) {
    for (const ResourceQuantity& q : requests)
      if (q.name == name) return true;
    return false;
  };
  ResourceList defaults;
  if (!pod_level || !has(rn.cpu)) defaults.push_back({rn.cpu, {}, 1, kDefaultMilliCpuRequest});
  if (!pod_level || !has(rn.memory))
    defaults.push_back({rn.memory, {}, kDefaultMemoryRequest, kDefaultMemoryRequest * 1000});
  if (!defaults.empty()) requests = PodRequestsWith(pod, options, defaults);
  NonZeroRequest nz;
  for (const ResourceQuantity& q : requests) {
    if (q.name == rn.cpu) nz.milli_cpu = q.milli;
    if (q.name == rn.memory) nz.memory = q.value;
  }
  return nz;
}

}  // namespace ksched
