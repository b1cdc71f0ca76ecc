// NodeResourcesFit's "Insufficient <resource>" with the pod's request as
// v1.26 counts it: its containers' sum, raised to any single init
// container's request, plus spec.overhead (the RuntimeClass's). When the
// init containers or the overhead make the request larger than the
// containers alone, the cause says by how much, since that is what a
// user looking at the containers would miss.
#include <fmt/format.h>

#include "explain/explain.h"

namespace ksched::explain {

void ExplainInsufficientV126(const NodeContext& c, std::string_view reason,
                             std::string_view resource, std::vector<Cause>* out) {
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
