#include "dra/allocator.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>

namespace ksched::dra {

std::string ClaimRef(const ResourceClaim& claim) {
  if (claim.meta.ns == kEmptyStr) return claim.meta.name;
  return std::string(Str(claim.meta.ns)) + "/" + claim.meta.name;
}

namespace {

// A request or a subrequest, read alike (upstream's requestAccessor).
struct RequestAccess {
  const DeviceRequest* request = nullptr;  // the request (the parent of a subrequest)
  const DeviceSubRequest* sub = nullptr;   // set for a firstAvailable entry

  const std::string& name() const { return sub != nullptr ? sub->name : request->name; }
  const std::string& class_name() const {
    return sub != nullptr ? sub->device_class_name : request->exactly->device_class_name;
  }
  const std::string& mode() const {
    return sub != nullptr ? sub->allocation_mode : request->exactly->allocation_mode;
  }
  int64_t count() const { return sub != nullptr ? sub->count : request->exactly->count; }
  bool admin_access() const {
    return sub == nullptr && request->exactly->admin_access.value_or(false);
  }
  bool has_admin_access() const {
    return sub == nullptr && request->exactly->admin_access.has_value();
  }
  const std::vector<DeviceSelector>& selectors() const {
    return sub != nullptr ? sub->selectors : request->exactly->selectors;
  }
  const std::vector<DeviceToleration>& tolerations() const {
    return sub != nullptr ? sub->tolerations : request->exactly->tolerations;
  }
};

struct DeviceRef {
  uint32_t slice = 0;
  uint32_t device = 0;
  DeviceId id;
};

struct RequestData {
  RequestAccess request;
  bool is_sub = false;  // upstream: parentRequest != nil
  const DeviceClass* cls = nullptr;
  int num_devices = 0;
  int selected_sub = 0;  // kept on the entry of subrequest 0
  std::vector<DeviceRef> all_devices;

  std::string RequestName() const {
    if (is_sub) return request.request->name + "/" + request.sub->name;
    return request.request->name;
  }
};

// requestIndices / deviceIndices.
struct Indices {
  int claim = 0;
  int request = 0;
  int sub = 0;
  int device = 0;
};

struct MatchKey {
  DeviceId id;
  int claim, request, sub;
  bool operator==(const MatchKey&) const = default;
};
struct MatchKeyHash {
  size_t operator()(const MatchKey& k) const {
    size_t h = DeviceIdHash()(k.id);
    h ^= (static_cast<size_t>(k.claim) << 40) ^ (static_cast<size_t>(k.request) << 20) ^
         static_cast<size_t>(k.sub);
    return h * 0x9E3779B97F4A7C15ull;
  }
};

// matchAttributeConstraint: every device of the named requests (all of the
// claim's when none are named) has the attribute, with one value.
struct MatchAttribute {
  std::vector<std::string> request_names;
  std::string attribute;  // fully qualified
  const DeviceAttribute* value = nullptr;
  int num_devices = 0;

  bool Applies(const std::string& request, const std::string& sub) const {
    if (request_names.empty()) return true;
    auto has = [&](const std::string& n) {
      return std::find(request_names.begin(), request_names.end(), n) != request_names.end();
    };
    if (sub.empty()) return has(request);
    return has(request) || has(request + "/" + sub);
  }
};

// lookupAttribute: the fully qualified name, or its id alone when the
// domain is the device's driver.
const DeviceAttribute* LookupAttribute(const Device& device, std::string_view driver,
                                       std::string_view name) {
  for (const DeviceAttribute& a : device.attributes)
    if (a.name == name) return &a;
  size_t slash = name.find('/');
  if (slash == std::string_view::npos) return nullptr;
  if (name.substr(0, slash) != driver) return nullptr;
  std::string_view id = name.substr(slash + 1);
  for (const DeviceAttribute& a : device.attributes)
    if (a.name == id) return &a;
  return nullptr;
}

bool Tolerates(const DeviceToleration& t, const DeviceTaint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
  return t.op == "Exists";
}

bool TaintPreventsAllocation(const Device& device, const RequestAccess& request) {
  for (const DeviceTaint& taint : device.taints) {
    if (taint.effect != "NoExecute" && taint.effect != "NoSchedule") continue;
    bool tolerated = false;
    for (const DeviceToleration& t : request.tolerations()) {
      if (Tolerates(t, taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) return true;
  }
  return false;
}

struct InternalResult {
  std::string request;  // the request's, or the subrequest's name
  std::string parent;   // the parent request of a subrequest, else ""
  DeviceId id;
  uint32_t slice = 0;
  uint32_t device = 0;
  bool admin_access = false;

  std::string RequestName() const { return parent.empty() ? request : parent + "/" + request; }
};

// errAllocationResultMaxSizeExceeded / a fatal error.
enum class Err : uint8_t { kNone, kMaxSize, kFatal };

}  // namespace

// One Allocate call (upstream's allocator struct).
class AllocationRun {
 public:
  AllocationRun(const Allocator& a, const Node& node, std::span<const ResourceClaim* const> claims,
                const std::vector<Pool>& pools)
      : a_(a),
        index_(*a.index_),
        slices_(a.index_->state().slices()),
        node_(node),
        claims_(claims),
        pools_(pools) {}

  AllocateOutcome Run();

 private:
  bool Fatal(std::string msg) {
    fatal_ = std::move(msg);
    err_ = Err::kFatal;
    return false;
  }
  RequestData* Data(int claim, int request, int sub) {
    auto& subs = data_[claim][request];
    return sub < static_cast<int>(subs.size()) ? &subs[sub] : nullptr;
  }
  bool ValidateRequest(const RequestAccess& request, bool is_sub, Indices key, RequestData* out);
  bool IsSelectable(Indices key, const RequestData& data, uint32_t slice, uint32_t device,
                    bool* selectable);
  bool SelectorsMatch(Indices key, uint32_t slice, uint32_t device, const DeviceClass* cls,
                      const std::vector<DeviceSelector>& selectors, bool* match);
  bool InUse(const DeviceId& id) const {
    if (a_.allocated_.count(id) != 0) return true;
    auto it = allocating_.find(id);
    return it != allocating_.end() && !it->second.empty();
  }
  bool AllocatingForClaim(const DeviceId& id, int claim) const {
    auto it = allocating_.find(id);
    return it != allocating_.end() &&
           std::find(it->second.begin(), it->second.end(), claim) != it->second.end();
  }
  // allocateOne: true when everything got allocated; on false, err_ says
  // whether an error stops the search.
  bool AllocateOne(Indices r, bool allocate_sub_request);
  // allocateDevice: *allocated, or an error; on success the caller undoes
  // it with Deallocate(r, ref) when it backs up.
  bool AllocateDevice(Indices r, const DeviceRef& ref, bool must, bool* allocated);
  void Deallocate(Indices r, const DeviceRef& ref);
  bool BuildResults(std::vector<AllocationResult>* out);
  std::optional<NodeSelector> CreateNodeSelector(const std::vector<InternalResult>& results,
                                                 std::string* error) const;

  const Allocator& a_;
  const SliceIndex& index_;
  const std::vector<ResourceSlice>& slices_;
  const Node& node_;
  std::span<const ResourceClaim* const> claims_;
  const std::vector<Pool>& pools_;

  std::vector<std::vector<std::vector<RequestData>>> data_;  // claim, request, subrequest
  std::vector<std::vector<MatchAttribute>> constraints_;
  std::unordered_map<MatchKey, bool, MatchKeyHash> matches_;
  std::unordered_map<DeviceId, std::vector<int>, DeviceIdHash> allocating_;
  std::vector<std::vector<InternalResult>> results_;
  Err err_ = Err::kNone;
  std::string fatal_;
};

bool AllocationRun::ValidateRequest(const RequestAccess& request, bool is_sub, Indices key,
                                    RequestData* out) {
  const ResourceClaim& claim = *claims_[key.claim];
  out->request = request;
  out->is_sub = is_sub;
  for (size_t i = 0; i < request.selectors().size(); ++i) {
    if (!request.selectors()[i].cel) {
      return Fatal(fmt::format(
          "claim {}, request {}, selector #{}: CEL expression empty (unsupported selector type?)",
          ClaimRef(claim), request.name(), i));
    }
  }
  if (!a_.features_.admin_access && request.has_admin_access()) {
    return Fatal(
        fmt::format("claim {}, request {}: admin access is requested, but the feature "
                    "is disabled",
                    ClaimRef(claim), request.name()));
  }
  if (request.class_name().empty()) {
    return Fatal(
        fmt::format("claim {}, request {}: missing device class name (unsupported request type?)",
                    ClaimRef(claim), request.name()));
  }
  const DeviceClass* cls = index_.state().FindClass(request.class_name());
  if (cls == nullptr) {
    return Fatal(fmt::format(
        "claim {}, request {}: could not retrieve device class {}: deviceclass.resource.k8s.io "
        "\"{}\" not found",
        ClaimRef(claim), request.name(), request.class_name(), request.class_name()));
  }
  out->cls = cls;
  if (request.mode() == kAllocationModeExactCount) {
    out->num_devices = static_cast<int>(std::min<int64_t>(request.count(), INT_MAX));
    return true;
  }
  if (request.mode() == kAllocationModeAll) {
    for (const Pool& pool : pools_) {
      if (pool.incomplete) {
        return Fatal(fmt::format(
            "claim {}, request {}: asks for all devices, but resource pool {} is currently being "
            "updated",
            ClaimRef(claim), request.name(), pool.Id()));
      }
      if (pool.invalid) {
        return Fatal(fmt::format(
            "claim {}, request {}: asks for all devices, but resource pool {} is currently invalid",
            ClaimRef(claim), request.name(), pool.Id()));
      }
      for (uint32_t slice : pool.slices) {
        for (uint32_t d = 0; d < slices_[slice].devices.size(); ++d) {
          bool selectable = false;
          if (!IsSelectable(key, *out, slice, d, &selectable)) return false;
          if (selectable) out->all_devices.push_back({slice, d, index_.Id(slice, d)});
        }
      }
    }
    out->num_devices = static_cast<int>(out->all_devices.size());
    return true;
  }
  return Fatal(fmt::format("claim {}, request {}: unsupported count mode {}", ClaimRef(claim),
                           request.name(), request.mode()));
}

bool AllocationRun::SelectorsMatch(Indices key, uint32_t slice, uint32_t device,
                                   const DeviceClass* cls,
                                   const std::vector<DeviceSelector>& selectors, bool* match) {
  auto where = [&](size_t i) {
    if (cls != nullptr) return fmt::format("class {}: selector #{}", cls->meta.name, i);
    return fmt::format("claim {}: selector #{}", ClaimRef(*claims_[key.claim]), i);
  };
  for (size_t i = 0; i < selectors.size(); ++i) {
    if (!selectors[i].cel) return Fatal(where(i) + ": CEL expression empty");
    auto program = a_.cache_->GetOrCompile(*selectors[i].cel);
    if (!program.ok()) return Fatal(where(i) + ": CEL compile error: " + program.error().message);
    Result<bool> m = (*program)->Matches(index_.View(slice, device));
    if (!m.ok()) return Fatal(where(i) + ": CEL runtime error: " + m.error().message);
    if (!*m) {
      *match = false;
      return true;
    }
  }
  *match = true;
  return true;
}

bool AllocationRun::IsSelectable(Indices key, const RequestData& data, uint32_t slice,
                                 uint32_t device, bool* selectable) {
  const ResourceSlice& s = slices_[slice];
  const Device& dev = s.devices[device];
  if (!a_.features_.device_binding_and_status && !dev.binding_conditions.empty()) {
    *selectable = false;
    return true;
  }
  MatchKey mk{index_.Id(slice, device), key.claim, key.request, key.sub};
  if (auto it = matches_.find(mk); it != matches_.end()) {
    *selectable = it->second;
    return true;
  }
  bool match = false;
  if (data.cls != nullptr) {
    if (!SelectorsMatch(key, slice, device, data.cls, data.cls->selectors, &match)) return false;
    if (!match) {
      matches_[mk] = *selectable = false;
      return true;
    }
  }
  if (!SelectorsMatch(key, slice, device, nullptr, data.request.selectors(), &match)) return false;
  if (!match) {
    matches_[mk] = *selectable = false;
    return true;
  }
  if (s.per_device_node_selection.value_or(false)) {
    std::string err;
    bool ok = index_.DeviceMatches(slice, device, node_, &err);
    if (!err.empty()) return Fatal(err);
    if (!ok) {
      matches_[mk] = *selectable = false;
      return true;
    }
  }
  matches_[mk] = *selectable = true;
  return true;
}

bool AllocationRun::AllocateDevice(Indices r, const DeviceRef& ref, bool must, bool* allocated) {
  *allocated = false;
  const ResourceClaim& claim = *claims_[r.claim];
  RequestData& data = *Data(r.claim, r.request, r.sub);
  const RequestAccess& request = data.request;
  if (request.admin_access() && AllocatingForClaim(ref.id, r.claim)) return true;
  if (!request.admin_access() && InUse(ref.id)) return true;
  const Device& device = slices_[ref.slice].devices[ref.device];
  // Devices consuming counters need DRAPartitionableDevices; ksched does
  // not count shared counters, so it never hands them out.
  if (!device.consumes_counters.empty()) return true;

  std::string base, sub;
  if (!data.is_sub) {
    base = request.name();
  } else {
    base = request.request->name;
    sub = request.name();
  }
  if (a_.features_.device_taints && TaintPreventsAllocation(device, request)) return true;

  std::vector<MatchAttribute>& constraints = constraints_[r.claim];
  const std::string_view driver = Str(ref.id.driver);
  for (size_t i = 0; i < constraints.size(); ++i) {
    MatchAttribute& m = constraints[i];
    bool added = true;
    if (m.Applies(base, sub)) {
      const DeviceAttribute* attr = LookupAttribute(device, driver, m.attribute);
      if (attr == nullptr) {
        added = false;
      } else if (m.num_devices == 0) {
        m.value = attr;
        m.num_devices = 1;
      } else {
        const DeviceAttribute& have = *m.value;
        switch (attr->kind) {
          case DeviceAttribute::Kind::kString:
          case DeviceAttribute::Kind::kVersion:
          case DeviceAttribute::Kind::kInt:
          case DeviceAttribute::Kind::kBool:
            added = have.kind == attr->kind && have.int_value == attr->int_value &&
                    have.bool_value == attr->bool_value && have.string_value == attr->string_value;
            break;
          case DeviceAttribute::Kind::kNone:
            added = false;
            break;
        }
        if (added) ++m.num_devices;
      }
    }
    if (!added) {
      if (must) {
        return Fatal(fmt::format(
            "claim {}, request {}: cannot add device {} because a claim constraint would not be "
            "satisfied",
            ClaimRef(claim), request.name(), ref.id.String()));
      }
      for (size_t e = 0; e < i; ++e)
        if (constraints[e].Applies(base, sub)) --constraints[e].num_devices;
      return true;
    }
  }
  allocating_[ref.id].push_back(r.claim);
  InternalResult res;
  res.request = request.name();
  if (data.is_sub) res.parent = base;
  res.id = ref.id;
  res.slice = ref.slice;
  res.device = ref.device;
  res.admin_access = request.admin_access();
  results_[r.claim].push_back(std::move(res));
  *allocated = true;
  return true;
}

void AllocationRun::Deallocate(Indices r, const DeviceRef& ref) {
  RequestData& data = *Data(r.claim, r.request, r.sub);
  std::string base = data.is_sub ? data.request.request->name : data.request.name();
  std::string sub = data.is_sub ? data.request.name() : std::string();
  for (MatchAttribute& m : constraints_[r.claim])
    if (m.Applies(base, sub)) --m.num_devices;
  std::vector<int>& claims = allocating_[ref.id];
  if (auto it = std::find(claims.begin(), claims.end(), r.claim); it != claims.end())
    claims.erase(it);
  results_[r.claim].pop_back();
}

bool AllocationRun::AllocateOne(Indices r, bool allocate_sub_request) {
  if (r.claim >= static_cast<int>(claims_.size())) return true;
  const ResourceClaim& claim = *claims_[r.claim];
  if (r.request >= static_cast<int>(claim.spec.requests.size())) {
    bool ok = AllocateOne(Indices{r.claim + 1, 0, 0, 0}, false);
    // Too many devices for a later claim is no error here: another choice
    // of subrequests before may need fewer.
    if (err_ == Err::kMaxSize) {
      err_ = Err::kNone;
      return false;
    }
    return ok;
  }
  RequestData* data = Data(r.claim, r.request, r.sub);

  // The subrequests of a firstAvailable request: the first that can be
  // allocated wins.
  if (!allocate_sub_request && data->is_sub) {
    bool all_exceeded = true;
    for (int sub = 0;; ++sub) {
      if (Data(r.claim, r.request, sub) == nullptr) {
        if (all_exceeded) err_ = Err::kMaxSize;
        return false;
      }
      r.sub = sub;
      bool ok = AllocateOne(r, true);
      if (err_ == Err::kMaxSize) {
        err_ = Err::kNone;
        continue;
      }
      all_exceeded = false;
      if (err_ != Err::kNone) return false;
      if (ok) {
        data->selected_sub = sub;
        return true;
      }
    }
  }

  const RequestAccess& request = data->request;
  const bool all_devices = request.mode() == kAllocationModeAll;
  if (all_devices && data->all_devices.empty()) return false;

  if (r.device >= data->num_devices) {
    return AllocateOne(Indices{r.claim, r.request + 1, 0, 0}, false);
  }

  const int after = static_cast<int>(results_[r.claim].size()) + data->num_devices - r.device;
  if (after > kAllocationResultsMaxSize) {
    err_ = Err::kMaxSize;
    return false;
  }

  if (all_devices) {
    const DeviceRef ref = data->all_devices[r.device];
    bool allocated = false;
    if (!AllocateDevice(r, ref, true, &allocated)) return false;
    if (!allocated) return false;
    // Upstream moves on to the next device without the subrequest index
    // (deviceIndices{claim, request, device+1}), so a later "All"
    // subrequest continues with subrequest 0's data; kept as it is.
    bool done = AllocateOne(Indices{r.claim, r.request, 0, r.device + 1}, allocate_sub_request);
    if (err_ != Err::kNone || !done) {
      Deallocate(r, ref);
      return false;
    }
    return true;
  }

  for (const Pool& pool : pools_) {
    if (pool.incomplete || pool.invalid) continue;
    for (uint32_t slice : pool.slices) {
      const uint32_t n = static_cast<uint32_t>(slices_[slice].devices.size());
      for (uint32_t d = 0; d < n; ++d) {
        const DeviceId id = index_.Id(slice, d);
        if (request.admin_access() && AllocatingForClaim(id, r.claim)) continue;
        if (!request.admin_access() && InUse(id)) continue;
        bool selectable = false;
        if (!IsSelectable(Indices{r.claim, r.request, r.sub, 0}, *data, slice, d, &selectable))
          return false;
        if (!selectable) continue;
        const DeviceRef ref{slice, d, id};
        bool allocated = false;
        if (!AllocateDevice(r, ref, false, &allocated)) return false;
        if (!allocated) continue;
        bool done =
            AllocateOne(Indices{r.claim, r.request, r.sub, r.device + 1}, allocate_sub_request);
        if (err_ == Err::kNone && done) return true;
        Deallocate(r, ref);
        if (err_ != Err::kNone) return false;
      }
    }
  }
  return false;
}

std::optional<NodeSelector> AllocationRun::CreateNodeSelector(
    const std::vector<InternalResult>& results, std::string* error) const {
  NodeSelectorTerm term;
  auto add = [](const std::vector<SelectorRequirement>& from,
                std::vector<SelectorRequirement>* to) {
    for (const SelectorRequirement& req : from) {
      std::vector<std::string> want = req.values;
      std::sort(want.begin(), want.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
      bool found = false;
      for (const SelectorRequirement& have : *to) {
        if (have.key != req.key || have.op != req.op) continue;
        std::vector<std::string> got = have.values;
        std::sort(got.begin(), got.end());
        got.erase(std::unique(got.begin(), got.end()), got.end());
        if (got == want) {
          found = true;
          break;
        }
      }
      if (!found) to->push_back(req);
    }
  };
  for (const InternalResult& r : results) {
    const ResourceSlice& slice = slices_[r.slice];
    const std::optional<std::string>* node_name = &slice.node_name;
    const std::optional<NodeSelector>* selector = &slice.node_selector;
    if (slice.per_device_node_selection.value_or(false)) {
      node_name = &slice.devices[r.device].node_name;
      selector = &slice.devices[r.device].node_selector;
    }
    if (node_name->has_value()) {
      NodeSelector ns;
      NodeSelectorTerm t;
      t.match_fields.push_back(SelectorRequirement{"metadata.name", "In", {**node_name}});
      ns.terms.push_back(std::move(t));
      return ns;
    }
    if (selector->has_value()) {
      const std::vector<NodeSelectorTerm>& terms = (*selector)->terms;
      if (terms.size() == 1) {
        add(terms[0].match_fields, &term.match_fields);
        add(terms[0].match_expressions, &term.match_expressions);
      } else if (terms.size() > 1) {
        *error = fmt::format("unsupported ResourceSlice.NodeSelector with {} terms", terms.size());
        return std::nullopt;
      }
    }
  }
  if (term.match_fields.empty() && term.match_expressions.empty()) return std::nullopt;
  NodeSelector ns;
  ns.terms.push_back(std::move(term));
  return ns;
}

bool AllocationRun::BuildResults(std::vector<AllocationResult>* out) {
  out->resize(claims_.size());
  for (size_t c = 0; c < claims_.size(); ++c) {
    const ResourceClaim& claim = *claims_[c];
    AllocationResult& result = (*out)[c];
    for (const InternalResult& r : results_[c]) {
      DeviceRequestAllocationResult d;
      d.request = r.RequestName();
      d.driver = std::string(Str(r.id.driver));
      d.pool = std::string(Str(r.id.pool));
      d.device = std::string(Str(r.id.device));
      if (r.admin_access) d.admin_access = true;
      // lookupRequest(claim).tolerations()
      const std::string& base = r.parent.empty() ? r.request : r.parent;
      for (const DeviceRequest& req : claim.spec.requests) {
        if (req.name != base) continue;
        if (r.parent.empty()) {
          if (req.exactly) d.tolerations = req.exactly->tolerations;
        } else {
          for (const DeviceSubRequest& sub : req.first_available)
            if (sub.name == r.request) {
              d.tolerations = sub.tolerations;
              break;
            }
        }
        break;
      }
      result.results.push_back(std::move(d));
    }

    // Each class's config once, with the requests that use the class; then
    // the claim's config for the requests (or subrequests) allocated.
    struct Range {
      std::string cls;
      size_t start, end;
    };
    std::vector<Range> by_class;
    for (size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
      const RequestData* data = &data_[c][ri][0];
      if (data->is_sub) data = &data_[c][ri][static_cast<size_t>(data->selected_sub)];
      if (data->cls == nullptr) continue;
      auto it = std::find_if(by_class.begin(), by_class.end(),
                             [&](const Range& r) { return r.cls == data->cls->meta.name; });
      if (it != by_class.end()) {
        for (size_t i = it->start; i < it->end; ++i)
          result.config[i].requests.push_back(data->RequestName());
        continue;
      }
      const size_t start = result.config.size();
      for (const DeviceConfiguration& cfg : data->cls->config)
        result.config.push_back({"FromClass", {data->RequestName()}, cfg});
      by_class.push_back({data->cls->meta.name, start, result.config.size()});
    }
    for (const DeviceClaimConfiguration& cfg : claim.spec.config) {
      if (cfg.requests.empty()) {
        result.config.push_back({"FromClaim", cfg.requests, cfg.config});
        continue;
      }
      for (size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
        const DeviceRequest& req = claim.spec.requests[ri];
        auto named = [&](const std::string& n) {
          return std::find(cfg.requests.begin(), cfg.requests.end(), n) != cfg.requests.end();
        };
        if (named(req.name)) {
          result.config.push_back({"FromClaim", cfg.requests, cfg.config});
          continue;
        }
        const RequestData& data = data_[c][ri][0];
        if (!data.is_sub) continue;
        const DeviceSubRequest& sub = req.first_available[static_cast<size_t>(data.selected_sub)];
        if (named(req.name + "/" + sub.name))
          result.config.push_back({"FromClaim", cfg.requests, cfg.config});
      }
    }

    std::string err;
    result.node_selector = CreateNodeSelector(results_[c], &err);
    if (!err.empty()) {
      return Fatal("create NodeSelector for claim " + claim.meta.name + ": " + err);
    }
  }
  return true;
}

AllocateOutcome AllocationRun::Run() {
  AllocateOutcome out;
  auto fatal = [&]() {
    out.kind = AllocateOutcome::Kind::kError;
    out.message = fatal_;
    return out;
  };
  data_.resize(claims_.size());
  constraints_.resize(claims_.size());
  results_.resize(claims_.size());
  for (size_t c = 0; c < claims_.size(); ++c) {
    const ResourceClaim& claim = *claims_[c];
    data_[c].resize(claim.spec.requests.size());
    int64_t min_per_claim = 0;
    for (size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
      const DeviceRequest& request = claim.spec.requests[ri];
      Indices key{static_cast<int>(c), static_cast<int>(ri), 0, 0};
      const bool has_subs = !request.first_available.empty();
      if (!a_.features_.prioritized_list && has_subs) {
        Fatal(
            fmt::format("claim {}, request {}: has subrequests, but the DRAPrioritizedList "
                        "feature is disabled",
                        ClaimRef(claim), request.name));
        return fatal();
      }
      if (has_subs) {
        int64_t min_per_request = INT64_MAX;
        for (size_t i = 0; i < request.first_available.size(); ++i) {
          RequestData data;
          // Upstream validates subrequest i under the previous one's index
          // (the key moves on after the call), which is what its match
          // cache sees while the "All" devices are listed; kept.
          if (!ValidateRequest(RequestAccess{&request, &request.first_available[i]}, true, key,
                               &data))
            return fatal();
          key.sub = static_cast<int>(i);
          data_[c][ri].push_back(std::move(data));
          min_per_request = std::min<int64_t>(min_per_request, data_[c][ri].back().num_devices);
        }
        min_per_claim += min_per_request;
      } else {
        if (!request.exactly) {
          Fatal(fmt::format("claim {}, request {}: unknown request type", ClaimRef(claim),
                            request.name));
          return fatal();
        }
        RequestData data;
        if (!ValidateRequest(RequestAccess{&request, nullptr}, false, key, &data)) return fatal();
        data_[c][ri].push_back(std::move(data));
        min_per_claim += data_[c][ri].back().num_devices;
      }
    }
    if (min_per_claim > kAllocationResultsMaxSize) {
      Fatal(fmt::format("claim {}: number of requested devices {} exceeds the claim limit of {}",
                        ClaimRef(claim), min_per_claim, kAllocationResultsMaxSize));
      return fatal();
    }
    for (size_t i = 0; i < claim.spec.constraints.size(); ++i) {
      const DeviceConstraint& con = claim.spec.constraints[i];
      if (!con.match_attribute) {
        Fatal(
            fmt::format("claim {}, constraint #{}: empty constraint (unsupported constraint type?)",
                        ClaimRef(claim), i));
        return fatal();
      }
      MatchAttribute m;
      m.request_names = con.requests;
      m.attribute = *con.match_attribute;
      constraints_[c].push_back(std::move(m));
    }
  }
  matches_.clear();

  const bool done = AllocateOne(Indices{}, false);
  if (err_ == Err::kMaxSize) {
    out.kind = AllocateOutcome::Kind::kError;
    out.message = "allocation max size exceeded";
    return out;
  }
  if (err_ == Err::kFatal) return fatal();
  if (!done) {
    for (const Pool& pool : pools_) {
      if (pool.invalid) {
        out.kind = AllocateOutcome::Kind::kFailedOnNode;
        out.message = "invalid resource pools were encountered";
        return out;
      }
    }
    out.kind = AllocateOutcome::Kind::kNoSolution;
    return out;
  }
  if (!BuildResults(&out.results)) return fatal();
  out.kind = AllocateOutcome::Kind::kAllocated;
  return out;
}

Allocator::Allocator(Features features, std::shared_ptr<const SliceIndex> index,
                     std::unordered_set<DeviceId, DeviceIdHash> allocated,
                     cel::SelectorCache* cache)
    : features_(features),
      index_(std::move(index)),
      allocated_(std::move(allocated)),
      cache_(cache) {}

AllocateOutcome Allocator::Allocate(const Node& node,
                                    std::span<const ResourceClaim* const> claims) const {
  auto pools = index_->PoolsFor(node, features_);
  if (!pools.ok()) {
    AllocateOutcome out;
    out.kind = AllocateOutcome::Kind::kError;
    out.message = "gather pool information: " + pools.error().message;
    return out;
  }
  AllocationRun run(*this, node, claims, **pools);
  return run.Run();
}

}  // namespace ksched::dra
