// DynamicResources: the request and the selector or constraint behind
// "cannot allocate all claims", the allocation behind "resourceclaim not
// available on the node".
#include "dra/diagnose.h"
#include "explain/explain.h"
#include "framework/plugins/dynamicresources/dynamic_resources.h"
#include "framework/schedule_one.h"

namespace ksched::explain {

void ExplainDeviceClaims(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  if (c.cycle == nullptr) return;
  namespace drp = framework::plugins::dynamicresources;
  const drp::CycleData* d = drp::ReadCycle(c.cycle->state);
  if (d == nullptr) return;
  const Node& node = c.node_object();
  if (reason == "resourceclaim not available on the node") {
    for (const drp::ClaimInfo& info : d->claims) {
      if (!info.available_on || info.available_on->terms.Matches(node.meta.labels, node.meta.name))
        continue;
      Cause cause;
      cause.reason = std::string(reason);
      cause.kind = "resourceClaim";
      std::string where;
      for (const NodeSelectorTerm& t : info.claim.allocation->node_selector->terms) {
        for (const SelectorRequirement& r : t.match_fields) {
          if (!where.empty()) where += ", ";
          where += FormatRequirement(r);
        }
        for (const SelectorRequirement& r : t.match_expressions) {
          if (!where.empty()) where += ", ";
          where += FormatRequirement(r);
        }
      }
      cause.message = "claim " + dra::ClaimRef(info.claim) +
                      " is allocated to devices available only where " + where;
      cause.details["claim"] = dra::ClaimRef(info.claim);
      cause.details["reservedFor"] = info.claim.reserved_for.size();
      out->push_back(std::move(cause));
    }
    return;
  }
  if (reason != "cannot allocate all claims" || !d->allocator) return;
  // The same state the cycle's allocator had: its slice index and its
  // allocated devices.
  cel::SelectorCache cache(16);
  const dra::SliceIndex* index = d->allocator->index();
  if (index == nullptr) return;
  for (dra::Finding& f : dra::DiagnoseNode(*index, *d->allocator, &cache, node, d->to_allocate)) {
    Cause cause;
    cause.reason = std::string(reason);
    cause.kind = "deviceRequest";
    cause.message = f.claim.empty() ? f.message : "claim " + f.claim + ": " + f.message;
    if (!f.claim.empty()) cause.details["claim"] = f.claim;
    if (!f.request.empty()) cause.details["request"] = f.request;
    cause.details["problem"] = f.kind;
    if (!f.selector.empty()) cause.details["selector"] = f.selector;
    if (f.kind == "allocated" || f.kind == "count") {
      cause.details["needed"] = f.needed;
      cause.details["matching"] = f.matching;
      cause.details["free"] = f.free;
    }
    if (!f.holders.empty()) cause.details["allocatedTo"] = f.holders;
    out->push_back(std::move(cause));
  }
}

}  // namespace ksched::explain
