#include "cache/dra_state.h"

#include <algorithm>
#include <utility>

namespace ksched {

std::string DeviceId::String() const {
  std::string s(Str(driver));
  s += '/';
  s += Str(pool);
  s += '/';
  s += Str(device);
  return s;
}

namespace {

std::string NsKey(StrId ns, std::string_view name) {
  std::string key(Str(ns));
  key += '/';
  key += name;
  return key;
}

const std::vector<uint32_t>& NoSlices() {
  static const std::vector<uint32_t> none;
  return none;
}

}  // namespace

Result<DraState> DraState::Build(std::vector<DeviceClass> classes,
                                 std::vector<ResourceSlice> slices,
                                 std::vector<ResourceClaim> claims,
                                 std::vector<ResourceClaimTemplate> templates) {
  DraState s;
  s.classes_ = std::move(classes);
  for (uint32_t i = 0; i < s.classes_.size(); ++i) {
    if (!s.class_by_name_.emplace(s.classes_[i].meta.name, i).second)
      return MakeError("DeviceClass " + s.classes_[i].meta.name + ": duplicate name");
  }
  // The DRA manager's lister returns slices sorted by name (refsched135;
  // upstream's informer store is a map).
  s.slices_ = std::move(slices);
  std::stable_sort(
      s.slices_.begin(), s.slices_.end(),
      [](const ResourceSlice& a, const ResourceSlice& b) { return a.meta.name < b.meta.name; });
  for (uint32_t i = 0; i < s.slices_.size(); ++i) {
    const ResourceSlice& sl = s.slices_[i];
    if (i > 0 && s.slices_[i - 1].meta.name == sl.meta.name)
      return MakeError("ResourceSlice " + sl.meta.name + ": duplicate name");
    if (sl.node_name && !sl.node_name->empty() && sl.shared_counters.empty()) {
      s.slices_by_node_[*sl.node_name].push_back(i);
    } else {
      s.not_node_local_.push_back(i);
    }
  }
  s.claims_ = std::move(claims);
  s.exists_.assign(s.claims_.size(), 1);
  for (uint32_t i = 0; i < s.claims_.size(); ++i) {
    const ResourceClaim& c = s.claims_[i];
    if (!s.claim_by_key_.emplace(NsKey(c.meta.ns, c.meta.name), i).second)
      return MakeError("ResourceClaim " + c.Key() + ": duplicate name");
    s.CountDevices(c, +1);
  }
  s.templates_ = std::move(templates);
  for (uint32_t i = 0; i < s.templates_.size(); ++i) {
    const ResourceClaimTemplate& t = s.templates_[i];
    if (!s.template_by_key_.emplace(NsKey(t.meta.ns, t.meta.name), i).second)
      return MakeError("ResourceClaimTemplate " + NsKey(t.meta.ns, t.meta.name) +
                       ": duplicate name");
  }
  return s;
}

const DeviceClass* DraState::FindClass(std::string_view name) const {
  auto it = class_by_name_.find(std::string(name));
  return it == class_by_name_.end() ? nullptr : &classes_[it->second];
}

const std::vector<uint32_t>& DraState::SlicesOnNode(std::string_view node) const {
  auto it = slices_by_node_.find(std::string(node));
  return it == slices_by_node_.end() ? NoSlices() : it->second;
}

std::optional<uint32_t> DraState::FindClaim(StrId ns, std::string_view name) const {
  auto it = claim_by_key_.find(NsKey(ns, name));
  if (it == claim_by_key_.end()) return std::nullopt;
  return it->second;
}

const ResourceClaimTemplate* DraState::FindTemplate(StrId ns, std::string_view name) const {
  auto it = template_by_key_.find(NsKey(ns, name));
  return it == template_by_key_.end() ? nullptr : &templates_[it->second];
}

// foreachAllocatedDevice: admin-access results hold no device.
void DraState::CountDevices(const ResourceClaim& claim, int delta) {
  if (!claim.allocation) return;
  for (const DeviceRequestAllocationResult& r : claim.allocation->results) {
    if (r.AdminAccess()) continue;
    DeviceId id{Intern(r.driver), Intern(r.pool), Intern(r.device)};
    if (delta > 0) {
      ++allocated_[id];
    } else if (auto it = allocated_.find(id); it != allocated_.end() && --it->second == 0) {
      allocated_.erase(it);
    }
  }
}

void DraState::UpdateClaim(uint32_t i, ResourceClaim updated) {
  if (!exists_[i]) return;
  ++generation_;
  // The allocated-device set follows allocation changes only (upstream's
  // allocatedDevices.onUpdate).
  const bool had = claims_[i].allocation.has_value();
  const bool has = updated.allocation.has_value();
  if (had && !has) CountDevices(claims_[i], -1);
  if (!had && has) CountDevices(updated, +1);
  updated.meta.name = claims_[i].meta.name;
  updated.meta.ns = claims_[i].meta.ns;
  claims_[i] = std::move(updated);
}

void DraState::DeleteClaim(uint32_t i) {
  if (!exists_[i]) return;
  ++generation_;
  CountDevices(claims_[i], -1);
  claim_by_key_.erase(NsKey(claims_[i].meta.ns, claims_[i].meta.name));
  exists_[i] = 0;
}

Result<uint32_t> DraState::AddClaim(ResourceClaim claim) {
  const uint32_t i = static_cast<uint32_t>(claims_.size());
  if (!claim_by_key_.emplace(NsKey(claim.meta.ns, claim.meta.name), i).second)
    return MakeError("ResourceClaim " + claim.Key() + ": already exists");
  ++generation_;
  CountDevices(claim, +1);
  claims_.push_back(std::move(claim));
  exists_.push_back(1);
  return i;
}

}  // namespace ksched
