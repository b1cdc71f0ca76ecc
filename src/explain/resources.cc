// Insufficient <resource>: what the pod asks for against what the node has
// free (allocatable minus what its pods, and the nominated pods the cycle
// counted, already request). For "pods", the count of pods against the
// node's limit.
#include <fmt/format.h>

#include "explain/explain.h"
#include "util/go_arith.h"

namespace ksched::explain {

int64_t ResourceAmount(const Resource& r, std::string_view resource) {
  const ResourceNames& rn = ResourceNames::Get();
  const StrId name = FindInterned(resource);
  if (name == rn.cpu) return r.milli_cpu;
  if (name == rn.memory) return r.memory;
  if (name == rn.ephemeral_storage) return r.ephemeral_storage;
  return name == kNoStr ? 0 : r.Scalar(name);
}

void ExplainInsufficient(const NodeContext& c, std::string_view reason, std::string_view resource,
                         std::vector<Cause>* out) {
  const ResourceNames& rn = ResourceNames::Get();
  if (FindInterned(resource) != rn.pods) {
    // The pod's request as PodFitsResources sees it (init containers count).
    ExplainInsufficientRequest(c, reason, resource, PodRequestToSchedule(c.pod), out);
    return;
  }
  const NodeInfo& info = c.info();
  const std::vector<PodId> nominated = c.NominatedHere();
  Cause cause;
  cause.reason = reason;
  cause.kind = "resource";
  cause.details["resource"] = resource;
  const int64_t running = static_cast<int64_t>(info.pods.size());
  const int64_t counted = running + static_cast<int64_t>(nominated.size());
  cause.message = fmt::format("pods: the node allows {} pods and already counts {}",
                              info.allocatable.allowed_pod_number, counted);
  if (!nominated.empty())
    cause.message += fmt::format(" ({} running, {} nominated)", running, nominated.size());
  cause.details["allocatable"] = info.allocatable.allowed_pod_number;
  cause.details["podsOnNode"] = running;
  if (!nominated.empty()) cause.details["nominatedPods"] = nominated.size();
  out->push_back(std::move(cause));
}

void ExplainInsufficientRequest(const NodeContext& c, std::string_view reason,
                                std::string_view resource, const Resource& want,
                                std::vector<Cause>* out) {
  const ResourceNames& rn = ResourceNames::Get();
  const NodeInfo& info = c.info();
  const std::vector<PodId> nominated = c.NominatedHere();
  const StrId name = FindInterned(resource);
  Cause cause;
  cause.reason = reason;
  cause.kind = "resource";
  cause.details["resource"] = resource;
  auto amount = [&](const Resource& r) { return ResourceAmount(r, resource); };
  const int64_t allocatable = amount(info.allocatable);
  int64_t used = amount(info.requested);
  int64_t used_by_nominated = 0;
  for (PodId p : nominated)
    used_by_nominated = goarith::Add(used_by_nominated, amount(c.cluster.pod(p).request));
  used = goarith::Add(used, used_by_nominated);
  const int64_t free = goarith::Sub(allocatable, used);
  const int64_t requested = amount(want);
  // One unit for the line's amounts.
  const std::vector<std::string> q = FormatAmountsAlike(
      resource,
      {requested, free, allocatable, goarith::Sub(used, used_by_nominated), used_by_nominated});
  cause.message = fmt::format(
      "{}: the pod requests {}, the node has {} free (allocatable {}, "
      "requested by its pods {}",
      resource, q[0], q[1], q[2], q[3]);
  if (used_by_nominated != 0 || !nominated.empty())
    cause.message += fmt::format(", by {} nominated pod(s) {}", nominated.size(), q[4]);
  cause.message += ")";
  if (allocatable == 0 && used == 0) cause.message += fmt::format("; the node has no {}", resource);
  cause.details["requested"] = requested;
  cause.details["free"] = free;
  cause.details["allocatable"] = allocatable;
  cause.details["requestedOnNode"] = used;
  if (!nominated.empty()) cause.details["requestedByNominatedPods"] = used_by_nominated;
  cause.details["unit"] = name == rn.cpu ? "millicores" : "units";
  out->push_back(std::move(cause));
}

}  // namespace ksched::explain
