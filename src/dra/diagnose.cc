#include "dra/diagnose.h"

#include <fmt/format.h>

#include <algorithm>

namespace ksched::dra {
namespace {

struct Candidate {
  uint32_t slice;
  uint32_t device;
  DeviceId id;
};

// The claims (other than the pod's) whose allocation holds `ids`.
std::vector<std::string> Holders(const DraState& dra, const std::vector<DeviceId>& ids) {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < dra.num_claims(); ++i) {
    if (!dra.ClaimExists(i) || !dra.claim(i).allocation) continue;
    const ResourceClaim& c = dra.claim(i);
    for (const DeviceRequestAllocationResult& r : c.allocation->results) {
      if (r.AdminAccess()) continue;
      DeviceId id{FindInterned(r.driver), FindInterned(r.pool), FindInterned(r.device)};
      if (std::find(ids.begin(), ids.end(), id) != ids.end()) {
        out.push_back(ClaimRef(c));
        break;
      }
    }
  }
  return out;
}

std::string Join(const std::vector<std::string>& v, size_t limit = 5) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < limit; ++i) {
    if (i > 0) s += ", ";
    s += v[i];
  }
  if (v.size() > limit) s += fmt::format(" and {} more", v.size() - limit);
  return s;
}

}  // namespace

std::vector<Finding> DiagnoseNode(const SliceIndex& index, const Allocator& allocator,
                                  cel::SelectorCache* cache, const Node& node,
                                  std::span<const ResourceClaim* const> claims) {
  std::vector<Finding> out;
  auto pools = index.PoolsFor(node, allocator.features());
  if (!pools.ok()) {
    out.push_back({"", "", "error", "", 0, 0, 0, {}, pools.error().message});
    return out;
  }
  std::vector<Candidate> devices;
  std::vector<std::string> unusable_pools;
  for (const Pool& pool : **pools) {
    if (pool.incomplete || pool.invalid) {
      unusable_pools.push_back(pool.Id() + (pool.incomplete
                                                ? " (incomplete)"
                                                : " (invalid: " + pool.invalid_reason + ")"));
      continue;
    }
    for (uint32_t s : pool.slices) {
      const size_t n = index.state().slices()[s].devices.size();
      for (uint32_t d = 0; d < n; ++d) devices.push_back({s, d, index.Id(s, d)});
    }
  }
  if (devices.empty()) {
    std::string msg = "no ResourceSlice offers devices on node " + node.meta.name;
    if (!unusable_pools.empty()) msg += "; pools not usable: " + Join(unusable_pools);
    out.push_back({"", "", "noDevices", "", 0, 0, 0, {}, msg});
    return out;
  }

  // Selectors over the candidates; false on a CEL error (reported).
  auto filter = [&](const std::vector<Candidate>& in, const std::string& expr,
                    std::vector<Candidate>* kept, std::string* err) {
    auto program = cache->GetOrCompile(expr);
    if (!program.ok()) {
      *err = program.error().message;
      return false;
    }
    for (const Candidate& c : in) {
      Result<bool> m = (*program)->Matches(index.View(c.slice, c.device));
      if (!m.ok()) {
        *err = m.error().message;
        return false;
      }
      if (*m) kept->push_back(c);
    }
    return true;
  };

  for (const ResourceClaim* claim : claims) {
    const std::string claim_ref = ClaimRef(*claim);
    bool every_request_fits = true;
    for (const DeviceRequest& req : claim->spec.requests) {
      struct Alt {
        std::string name;
        const std::string* cls;
        const std::vector<DeviceSelector>* selectors;
        std::string mode;
        int64_t count;
        bool admin;
      };
      std::vector<Alt> alts;
      if (req.exactly) {
        alts.push_back({req.name, &req.exactly->device_class_name, &req.exactly->selectors,
                        req.exactly->allocation_mode, req.exactly->count,
                        req.exactly->admin_access.value_or(false)});
      }
      for (const DeviceSubRequest& sub : req.first_available)
        alts.push_back({req.name + "/" + sub.name, &sub.device_class_name, &sub.selectors,
                        sub.allocation_mode, sub.count, false});
      std::vector<Finding> req_findings;
      bool fits = false;
      for (const Alt& alt : alts) {
        Finding f;
        f.claim = claim_ref;
        f.request = alt.name;
        const DeviceClass* cls = index.state().FindClass(*alt.cls);
        if (cls == nullptr) {
          f.kind = "error";
          f.message = "request " + alt.name + ": device class " + *alt.cls + " does not exist";
          req_findings.push_back(std::move(f));
          continue;
        }
        std::vector<Candidate> pass = devices;
        bool stopped = false;
        auto apply = [&](const std::vector<DeviceSelector>& sels, bool of_class) {
          for (size_t i = 0; i < sels.size() && !stopped; ++i) {
            if (!sels[i].cel) continue;
            std::vector<Candidate> kept;
            std::string err;
            const std::string where = of_class
                                          ? fmt::format("class {} selector #{}", cls->meta.name, i)
                                          : fmt::format("request {} selector #{}", alt.name, i);
            if (!filter(pass, *sels[i].cel, &kept, &err)) {
              f.kind = "error";
              f.selector = *sels[i].cel;
              f.message = where + ": " + err;
              stopped = true;
              return;
            }
            if (kept.empty()) {
              f.kind = of_class ? "classSelector" : "requestSelector";
              f.selector = *sels[i].cel;
              f.message = fmt::format(
                  "request {}: {} `{}` matches none of the {} device(s) {} "
                  "on node {}",
                  alt.name, where, *sels[i].cel, pass.size(),
                  pass.size() == devices.size() ? "offered" : "left", node.meta.name);
              stopped = true;
              return;
            }
            pass = std::move(kept);
          }
        };
        apply(cls->selectors, true);
        if (!stopped) apply(*alt.selectors, false);
        if (stopped) {
          req_findings.push_back(std::move(f));
          continue;
        }
        std::vector<DeviceId> taken;
        int free = 0;
        for (const Candidate& c : pass) {
          if (!alt.admin && allocator.IsAllocated(c.id)) {
            taken.push_back(c.id);
          } else {
            ++free;
          }
        }
        const bool all = alt.mode == kAllocationModeAll;
        const int64_t needed = all ? static_cast<int64_t>(pass.size()) : alt.count;
        f.needed = static_cast<int>(needed);
        f.matching = static_cast<int>(pass.size());
        f.free = free;
        if ((all && !taken.empty()) || free < needed) {
          f.kind = taken.empty() ? "count" : "allocated";
          f.holders = Holders(index.state(), taken);
          f.message = fmt::format(
              "request {} needs {} device(s) of class {}{}; node {} has {} "
              "matching, {} free",
              alt.name, all ? "all" : std::to_string(needed), cls->meta.name,
              alt.selectors->empty() ? "" : " and its selectors", node.meta.name, pass.size(),
              free);
          if (!f.holders.empty()) f.message += " (allocated to " + Join(f.holders) + ")";
          req_findings.push_back(std::move(f));
          continue;
        }
        fits = true;
        break;
      }
      if (!fits) {
        every_request_fits = false;
        for (Finding& f : req_findings) out.push_back(std::move(f));
      }
    }
    if (!every_request_fits) continue;
    Finding f;
    f.claim = claim_ref;
    if (!claim->spec.constraints.empty()) {
      f.kind = "constraint";
      std::vector<std::string> parts;
      for (const DeviceConstraint& c : claim->spec.constraints) {
        if (!c.match_attribute) continue;
        std::string requests = c.requests.empty() ? "all requests" : Join(c.requests, 8);
        parts.push_back("matchAttribute " + *c.match_attribute + " over " + requests);
      }
      f.message = "no combination of free devices on node " + node.meta.name +
                  " meets the claim's constraint(s): " + Join(parts, 8);
    } else {
      f.kind = "count";
      f.message =
          "each request fits alone, but the node's free devices cannot serve all of "
          "the pod's requests together";
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace ksched::dra
