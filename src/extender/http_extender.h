// Scheduler extenders over HTTP, called as upstream v1.15's HTTPExtender does.
//
// Each extender owns one libcurl easy handle (so connections are kept alive
// between calls) behind a mutex. Requests are POSTs of JSON to
// `urlPrefix/verb` (trailing slashes of the prefix dropped); the wire format
// is in extender/extender_wire.h. Errors read like upstream's: transport
// failures as Go's net/http reports them ("Post <url>: ..."), a status other
// than 200 as "Failed <verb> with extender at URL <url>, code <status>", and a
// bad reply as encoding/json would say it.
//
// Where upstream would crash or go on with a node that does not exist (a
// filter reply naming a node the cluster does not have), the call fails with
// an error instead. Reasons for such nodes in FailedNodes are kept by name
// (ExtenderFilterResult::failed_unknown) and counted in the FitError message,
// as upstream counts them.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "algorithm/policy.h"
#include "algorithm/scheduler_extender.h"
#include "util/result.h"

namespace ksched {

// Upstream's DefaultExtenderTimeout.
inline constexpr int64_t kDefaultExtenderTimeoutNs = 5'000'000'000;

class HttpTransport;  // libcurl, in http_extender.cc

class HttpExtender : public SchedulerExtender {
 public:
  // Upstream's NewHTTPExtender: validates the TLS settings (files readable,
  // key pair matching, no CA together with insecure).
  static Result<std::unique_ptr<HttpExtender>> Create(const ExtenderConfig& config);
  ~HttpExtender() override;

  std::string Name() const override { return config_.url_prefix; }
  bool IsInterested(const Pod& pod) const override;
  bool IsIgnorable() const override { return config_.ignorable; }
  bool HasFilter() const override { return !config_.filter_verb.empty(); }
  bool HasPrioritize() const override { return !config_.prioritize_verb.empty(); }
  int64_t Weight() const override { return config_.weight; }
  Result<ExtenderFilterResult> Filter(const Pod& pod, const std::vector<NodeId>& nodes,
                                      const ClusterState& cluster) override;
  Result<std::vector<std::pair<NodeId, int64_t>>> Prioritize(const Pod& pod,
                                                             const std::vector<NodeId>& nodes,
                                                             const ClusterState& cluster) override;

  bool SupportsPreemption() const override { return !config_.preempt_verb.empty(); }
  // POSTs ExtenderPreemptionArgs to the preempt verb and maps the reply's
  // node names and pod UIDs back to the cluster's nodes and pods. Where
  // upstream would dereference nil (a null victims entry or pod, a node it
  // does not know) the call fails with an error naming the extender instead.
  Result<std::vector<ExtenderNodeVictims>> ProcessPreemption(
      const Pod& pod, const std::vector<ExtenderNodeVictims>& candidates,
      const ClusterState& cluster) override;

  // Upstream's IsBinder / Bind: delegates binding of the pod to `node`.
  bool IsBinder() const { return !config_.bind_verb.empty(); }
  Status Bind(std::string_view pod_name, std::string_view pod_namespace, std::string_view pod_uid,
              std::string_view node);
  Status Bind(const Pod& pod, std::string_view node);

  const ExtenderConfig& config() const { return config_; }

 private:
  HttpExtender(ExtenderConfig config, std::unique_ptr<HttpTransport> transport);

  // POSTs `body` to the verb's URL; the reply body on status 200.
  Result<std::string> Send(const std::string& verb, const std::string& body);

  ExtenderConfig config_;
  std::vector<StrId> managed_;  // managedResources, interned
  std::mutex mu_;               // guards transport_ (one easy handle)
  std::unique_ptr<HttpTransport> transport_;
};

// Creates one HTTP extender per Policy entry, in order.
Result<std::vector<std::unique_ptr<SchedulerExtender>>> MakeHttpExtenders(
    const std::vector<ExtenderConfig>& configs);

}  // namespace ksched
