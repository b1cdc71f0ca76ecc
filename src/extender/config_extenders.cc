#include "extender/config_extenders.h"

#include "extender/http_extender.h"

namespace ksched {
namespace {

std::vector<ExtenderConfig> ToExtenderConfigs(const std::vector<config::Extender>& extenders) {
  std::vector<ExtenderConfig> out;
  for (const config::Extender& e : extenders) {
    ExtenderConfig c;
    c.url_prefix = e.url_prefix;
    c.filter_verb = e.filter_verb;
    c.preempt_verb = e.preempt_verb;
    c.prioritize_verb = e.prioritize_verb;
    c.bind_verb = e.bind_verb;
    c.weight = e.weight;
    c.enable_https = e.enable_https;
    if (e.tls_config) {
      ExtenderTlsConfig t;
      t.insecure = e.tls_config->insecure;
      t.server_name = e.tls_config->server_name;
      t.cert_file = e.tls_config->cert_file;
      t.key_file = e.tls_config->key_file;
      t.ca_file = e.tls_config->ca_file;
      t.cert_data = e.tls_config->cert_data;
      t.key_data = e.tls_config->key_data;
      t.ca_data = e.tls_config->ca_data;
      c.tls_config = std::move(t);
    }
    c.http_timeout_ns = e.http_timeout_ns;
    c.node_cache_capable = e.node_cache_capable;
    for (const auto& r : e.managed_resources)
      c.managed_resources.push_back({r.name, r.ignored_by_scheduler});
    c.ignorable = e.ignorable;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

Result<std::vector<std::unique_ptr<SchedulerExtender>>> MakeConfigExtenders(
    const std::vector<config::Extender>& extenders) {
  return MakeHttpExtenders(ToExtenderConfigs(extenders));
}

}  // namespace ksched
