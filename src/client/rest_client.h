// REST calls to the API server over libcurl.
//
// A pool of libcurl easy handles: a call takes an idle handle (its
// keep-alive connection is reused) or makes one, and gives it back. Every
// request first takes a token from the client-side rate limiter. Replies
// other than 2xx become Errors whose message names the verb, the resource and
// the object, and whose http_code is the status (see ApiError).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "client/client_config.h"
#include "client/rate_limiter.h"
#include "util/result.h"

namespace ksched::client {

// What a request is about, for error messages and RBAC rules.
struct RequestTarget {
  std::string verb;      // RBAC verb: get list watch create update patch delete
  std::string group;     // "" core, "apps", "coordination.k8s.io"
  std::string resource;  // "pods", "pods/binding", "leases"
  std::string ns;        // empty: cluster scope
  std::string name;      // empty for list/watch/create collections
};

struct HttpReply {
  long code = 0;
  std::string body;
};

// The message for a failed call (reply `code` with `body`, a Kubernetes
// Status or anything else). Examples:
//   create pods/binding default/web-1: 409 Conflict: pod web-1 is already assigned ...
//   forbidden: cannot create pods/binding in namespace "default": the scheduler's
//   identity needs rule {apiGroups: [""], resources: ["pods/binding"], verbs: ["create"]}
//   (server: ...)
Error ApiError(const RequestTarget& target, long code, std::string_view body);

class HttpHandlePool;  // rest_client.cc

class RestClient {
 public:
  static Result<std::unique_ptr<RestClient>> Create(const ClientConfig& config);
  ~RestClient();

  // One request. `path` starts with "/" and includes the query. A reply of
  // any status is a value; only transport failures are Errors (naming the
  // target). `content_type` is sent when body is not empty.
  Result<HttpReply> Send(const RequestTarget& target, std::string_view method,
                         const std::string& path, std::string_view body = {},
                         std::string_view content_type = "application/json");

  // Send, and a non-2xx reply becomes ApiError.
  Result<std::string> Call(const RequestTarget& target, std::string_view method,
                           const std::string& path, std::string_view body = {},
                           std::string_view content_type = "application/json");

  // A streaming GET (watch): `on_data` receives the body as it arrives and
  // returns false to stop; `stop` is polled (libcurl calls back at least once a second) and ends
  // the transfer when true. `timeout_ms` bounds the whole transfer (0: none). The reply's code is
  // returned; its body is only filled for non-2xx replies.
  Result<HttpReply> Stream(const RequestTarget& target, const std::string& path,
                           const std::function<bool(std::string_view)>& on_data,
                           const std::atomic<bool>& stop, int64_t timeout_ms);

  const ClientConfig& config() const { return config_; }

 private:
  explicit RestClient(ClientConfig config);
  std::string AuthHeader();

  ClientConfig config_;
  RateLimiter limiter_;
  std::unique_ptr<HttpHandlePool> pool_;
  std::mutex token_mu_;  // guards config_.bearer_token re-read from token_file
};

}  // namespace ksched::client
