// node(s) didn't have free ports for the requested pod ports: each host port
// the pod asks for that is taken, and the pod holding it (a running pod, or a
// nominated pod the cycle counted).
#include <fmt/format.h>

#include "explain/explain.h"

namespace ksched::explain {

void ExplainHostPorts(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  std::vector<PodId> holders = c.info().pods;
  std::vector<PodId> nominated = c.NominatedHere();
  holders.insert(holders.end(), nominated.begin(), nominated.end());
  // A v1.35 cluster counts the pod's native sidecars' ports too.
  for (const HostPort& want : PodHostPorts(c.pod, /*sidecars=*/c.cluster.options().v135)) {
    std::vector<std::string> pods;
    for (PodId id : holders) {
      const PodInfo& p = c.cluster.pod(id);
      if (HostPortConflicts(p.host_ports, want)) pods.push_back(p.pod.Key());
    }
    if (pods.empty()) continue;
    const std::string port = fmt::format("{}/{}", want.port, Str(want.protocol));
    const std::string ip(Str(want.ip));
    Cause cause;
    cause.reason = reason;
    cause.kind = "hostPort";
    cause.message = fmt::format("host port {}{} is held by {}", port,
                                ip == "0.0.0.0" ? "" : " on " + ip, JoinLimited(pods));
    cause.details["port"] = want.port;
    cause.details["protocol"] = Str(want.protocol);
    cause.details["hostIP"] = ip;
    cause.details["pods"] = pods;
    out->push_back(std::move(cause));
  }
}

}  // namespace ksched::explain
