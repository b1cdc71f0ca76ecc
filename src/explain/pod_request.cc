// NodeResourcesFit's "Insufficient <resource>" with the pod's request as
// v1.26 counts it: its containers' sum, raised to any single init
// container's request, plus spec.overhead (the RuntimeClass's). When the
// init containers or the overhead make the request larger than the
// containers alone, the cause says by how much, since that is what a
// user looking at the containers would miss. A v1.35 cluster counts as
// v1.35's Filter does: native sidecars added to the containers (and to the
// init containers after them), pod-level requests, then the overhead.
#include <fmt/format.h>

#include <optional>

#include "explain/explain.h"
#include "util/go_arith.h"

namespace ksched::explain {

namespace {

// The v1.35 breakdown: pod-level request, or containers against the
// combination with init containers and sidecars, and the overhead.
void ExplainInsufficientV135(const NodeContext& c, std::string_view reason,
                             std::string_view resource, std::vector<Cause>* out) {
  const Pod& pod = c.pod;
  // NodeResourcesFit's PreFilter request: spec only, pod-level requests as
  // the PodLevelResources gate says.
  PodRequestOptions options;
  options.use_status_resources = false;
  options.pod_level_resources = c.cluster.options().requests.pod_level_resources;
  const size_t before = out->size();
  ExplainInsufficientRequest(c, reason, resource, PodRequestV135(pod, options), out);
  if (out->size() == before) return;

  Resource containers;
  for (const Container& ct : pod.spec.containers) containers.Add(ct.requests);
  const int64_t from_containers = ResourceAmount(containers, resource);
  Resource overhead_r;
  overhead_r.Add(pod.spec.overhead);
  const int64_t overhead = ResourceAmount(overhead_r, resource);
  std::optional<int64_t> pod_level;
  if (options.pod_level_resources && PodLevelRequestsSet(pod)) {
    Resource r;
    for (const ResourceQuantity& q : pod.spec.resources->requests) {
      const std::string_view name = Str(q.name);
      if (name == resource && (name == "cpu" || name == "memory" || IsHugePageResourceName(name))) {
        r.Add({q});
        pod_level = ResourceAmount(r, resource);
      }
    }
  }
  options.pod_level_resources = false;
  Resource combined_r = PodRequestV135(pod, options);
  const int64_t combined = goarith::Sub(ResourceAmount(combined_r, resource), overhead);
  const bool init_counts = !pod_level && combined != from_containers;
  if (!pod_level && !init_counts && overhead == 0) return;

  auto q = [&](int64_t v) { return FormatAmount(resource, v); };
  std::string how;
  if (pod_level) {
    how = fmt::format("its pod-level request (spec.resources) {}", q(*pod_level));
  } else if (init_counts) {
    how = fmt::format("{} with its init containers and sidecars (its containers ask {})",
                      q(combined), q(from_containers));
  } else {
    how = fmt::format("its containers' {}", q(from_containers));
  }
  if (overhead != 0) how += fmt::format(" + spec.overhead {}", q(overhead));
  Cause& cause = out->back();
  cause.message += fmt::format("; the pod's request is {}", how);
  cause.details["containersRequest"] = from_containers;
  if (pod_level) cause.details["podLevelRequest"] = *pod_level;
  if (init_counts) cause.details["withInitContainers"] = combined;
  if (overhead != 0) cause.details["overhead"] = overhead;
}

}  // namespace

void ExplainInsufficientV126(const NodeContext& c, std::string_view reason,
                             std::string_view resource, std::vector<Cause>* out) {
  if (c.cluster.options().v135) {
    ExplainInsufficientV135(c, reason, resource, out);
    return;
  }
  const Pod& pod = c.pod;
  const size_t before = out->size();
  ExplainInsufficientRequest(c, reason, resource, PodRequestV126(pod), out);
  if (out->size() == before) return;

  Resource containers;
  for (const Container& ct : pod.spec.containers) containers.Add(ct.requests);
  const int64_t from_containers = ResourceAmount(containers, resource);
  int64_t largest_init = 0;
  std::string largest_init_name;
  for (const Container& ct : pod.spec.init_containers) {
    Resource one;
    one.Add(ct.requests);
    const int64_t v = ResourceAmount(one, resource);
    if (v > largest_init) {
      largest_init = v;
      largest_init_name = ct.name;
    }
  }
  Resource overhead_r;
  overhead_r.Add(pod.spec.overhead);
  const int64_t overhead = ResourceAmount(overhead_r, resource);
  const bool init_wins = largest_init > from_containers;
  if (!init_wins && overhead == 0) return;

  auto q = [&](int64_t v) { return FormatAmount(resource, v); };
  std::string how = init_wins ? fmt::format("init container {}'s {} (its containers ask {})",
                                            largest_init_name, q(largest_init), q(from_containers))
                              : fmt::format("its containers' {}", q(from_containers));
  if (overhead != 0) how += fmt::format(" + spec.overhead {}", q(overhead));
  Cause& cause = out->back();
  cause.message += fmt::format("; the pod's request is {}", how);
  cause.details["containersRequest"] = from_containers;
  if (init_wins) {
    cause.details["initContainer"] = largest_init_name;
    cause.details["initContainerRequest"] = largest_init;
  }
  if (overhead != 0) cause.details["overhead"] = overhead;
}

}  // namespace ksched::explain
