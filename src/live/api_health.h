// The health of ksched's list+watch of each resource, for the log and
// /healthz: a resource the scheduler cannot list or watch (the server does not
// serve it: 404; the identity may not read it: 403; bad credentials: 401)
// leaves the cache unsynced, so nothing would be scheduled. Such a failure is
// logged at once (and again whenever its message changes) and makes /healthz
// fail with the message (which names the resource and, for 403, the RBAC rule
// the identity lacks) until the resource delivers events again.
// Transient failures (connection refused, timeouts during a restart) are
// logged, but do not fail /healthz.
//
// Thread-safe: errors come from the watch threads, events from the sink,
// Problems() from the HTTP server.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "client/cluster_client.h"
#include "util/result.h"

namespace ksched::live {

class ApiHealth {
 public:
  // `log` receives each line to log (level, message); null: nothing logged.
  using LogFn = void (*)(char, std::string_view);
  explicit ApiHealth(LogFn log) : log_(log) {}

  // A failed LIST or WATCH of `resource` (WatchOptions::on_error).
  void OnError(client::Resource resource, const Error& error);
  // An event of `resource` arrived: it can be read again.
  void OnEvent(client::Resource resource);
  // A problem found before any request (discovery: the server does not
  // serve the resource at all). Stays until an event of it arrives.
  void SetProblem(client::Resource resource, const std::string& message);

  // The current blocking problems, one message each (empty: healthy).
  std::vector<std::string> Problems() const;

  static bool Blocking(const Error& error) {
    return error.http_code == 401 || error.http_code == 403 || error.http_code == 404;
  }

 private:
  LogFn log_;
  std::atomic<bool> any_{false};  // problems_ or last_logged_ not empty (OnEvent's fast path)
  mutable std::mutex mu_;
  std::map<client::Resource, std::string> problems_;     // blocking, by resource
  std::map<client::Resource, std::string> last_logged_;  // to log each message once
};

}  // namespace ksched::live
