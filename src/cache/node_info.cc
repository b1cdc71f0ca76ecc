#include "cache/node_info.h"

#include <algorithm>

#include "util/go_arith.h"

namespace ksched {

std::vector<HostPort> PodHostPorts(const Pod& pod, bool sidecars) {
  static const StrId kAllIps = Intern("0.0.0.0");
  static const StrId kTcp = Intern("TCP");
  std::vector<HostPort> ports;
  auto add = [&](const Container& c) {
    for (const ContainerPort& p : c.ports) {
      if (p.host_port <= 0) continue;
      ports.push_back(HostPort{p.host_ip.empty() ? kAllIps : Intern(p.host_ip),
                               p.protocol.empty() ? kTcp : Intern(p.protocol), p.host_port});
    }
  };
  if (sidecars)
    for (const Container& c : pod.spec.init_containers)
      if (c.IsRestartableInit()) add(c);
  for (const Container& c : pod.spec.containers) add(c);
  return ports;
}

bool HostPortConflicts(const std::vector<HostPort>& used, const HostPort& want) {
  static const StrId kAllIps = Intern("0.0.0.0");
  if (want.port <= 0) return false;
  for (const HostPort& u : used) {
    if (u.port != want.port || u.protocol != want.protocol) continue;
    if (want.ip == kAllIps || u.ip == kAllIps || u.ip == want.ip) return true;
  }
  return false;
}

void NodeInfo::AddPod(PodId id, const PodInfo& info) {
  requested.AddRequest(info.request);
  nonzero_requested.milli_cpu = goarith::Add(nonzero_requested.milli_cpu, info.nonzero.milli_cpu);
  nonzero_requested.memory = goarith::Add(nonzero_requested.memory, info.nonzero.memory);
  pods.push_back(id);
  if (info.has_affinity) pods_with_affinity.push_back(id);
  if (info.has_required_anti_affinity) pods_with_required_anti_affinity.push_back(id);
  used_ports.insert(used_ports.end(), info.host_ports.begin(), info.host_ports.end());
}

bool NodeInfo::RemovePod(PodId id, const PodInfo& info) {
  auto swap_remove = [id](std::vector<PodId>* v) {
    auto it = std::find(v->begin(), v->end(), id);
    if (it == v->end()) return false;
    *it = v->back();
    v->pop_back();
    return true;
  };
  if (info.has_affinity) swap_remove(&pods_with_affinity);
  if (info.has_required_anti_affinity) swap_remove(&pods_with_required_anti_affinity);
  if (!swap_remove(&pods)) return false;
  Resource negative;
  negative.milli_cpu = goarith::Sub(0, info.request.milli_cpu);
  negative.memory = goarith::Sub(0, info.request.memory);
  negative.ephemeral_storage = goarith::Sub(0, info.request.ephemeral_storage);
  for (const auto& [name, v] : info.request.scalars)
    negative.scalars.emplace_back(name, goarith::Sub(0, v));
  requested.AddRequest(negative);
  nonzero_requested.milli_cpu = goarith::Sub(nonzero_requested.milli_cpu, info.nonzero.milli_cpu);
  nonzero_requested.memory = goarith::Sub(nonzero_requested.memory, info.nonzero.memory);
  // Upstream keeps ports as a set: removing a pod frees its ports even when
  // another pod on the node claimed the same one.
  for (const HostPort& p : info.host_ports) {
    used_ports.erase(std::remove(used_ports.begin(), used_ports.end(), p), used_ports.end());
  }
  return true;
}

int64_t NodeInfo::ImageSize(StrId name) const {
  auto it = std::lower_bound(images.begin(), images.end(), name,
                             [](const ImageOnNode& i, StrId n) { return i.name < n; });
  return it != images.end() && it->name == name ? it->size : -1;
}

}  // namespace ksched
