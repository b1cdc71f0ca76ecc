#include "cache/node_info.h"

#include <algorithm>

namespace ksched {

std::vector<HostPort> PodHostPorts(const Pod& pod) {
  static const StrId kAllIps = Intern("0.0.0.0");
  static const StrId kTcp = Intern("TCP");
  std::vector<HostPort> ports;
  for (const Container& c : pod.spec.containers) {
    for (const ContainerPort& p : c.ports) {
      if (p.host_port <= 0) continue;
      ports.push_back(HostPort{p.host_ip.empty() ? kAllIps : Intern(p.host_ip),
                               p.protocol.empty() ? kTcp : Intern(p.protocol), p.host_port});
    }
  }
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

int64_t NodeInfo::ImageSize(StrId name) const {
  auto it = std::lower_bound(images.begin(), images.end(), name,
                             [](const ImageOnNode& i, StrId n) { return i.name < n; });
  return it != images.end() && it->name == name ? it->size : -1;
}

}  // namespace ksched
