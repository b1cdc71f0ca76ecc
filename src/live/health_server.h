// The health and metrics endpoints of `ksched run`, served from the first
// second: the server listens before API discovery, so a liveness probe
// passes while the API server is still unreachable. What the endpoints read
// (the scheduler, the resource health, the metrics) is attached once it
// exists; until then:
//   /livez   200 (the process serves)
//   /healthz 200 (kube-scheduler's healthz checks the process, not the API)
//   /readyz  500 "[-]api-discovery ..." (not ready to schedule)
//   /metrics 503
// Listening fails when the address is in use: unlike cpp-httplib's default
// (SO_REUSEPORT, which lets a second process share the port and split the
// scrapes), the socket gets SO_REUSEADDR only, as Go's net.Listen.
// The secure port (kube-scheduler's --secure-port) is the same server over
// TLS with DelegatedAuth deciding every request but the health checks.
#pragma once

#include <httplib.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "live/api_health.h"
#include "live/delegated_auth.h"
#include "live/metrics.h"
#include "util/result.h"

namespace ksched::live {

class LiveScheduler;

class HealthServer {
 public:
  HealthServer();  // plain HTTP, every request allowed
  // Over TLS with `cert` (its X509 and key are copied), each request
  // decided by `auth` (may be null: allowed), which must outlive Stop().
  HealthServer(X509* cert, EVP_PKEY* key, DelegatedAuth* auth);
  // False when the TLS server could not be set up (a bad certificate).
  bool valid() const { return http_->is_valid(); }
  ~HealthServer();  // Stop()
  HealthServer(const HealthServer&) = delete;
  HealthServer& operator=(const HealthServer&) = delete;

  // Binds address:port and serves on a thread of its own. The error names
  // the address, the port and the OS reason ("address already in use").
  Status Listen(const std::string& address, int port);
  // Port 0 picks a free one: the port bound.
  int port() const { return port_; }

  // What the endpoints read; each must outlive Stop() (or be detached).
  void Attach(ApiHealth* health, LiveScheduler* scheduler, Metrics* metrics);
  void Detach() { Attach(nullptr, nullptr, nullptr); }

  // Stops listening and joins the thread. Idempotent.
  void Stop();

 private:
  void Route();
  std::unique_ptr<httplib::Server> http_;
  DelegatedAuth* auth_ = nullptr;
  std::thread thread_;
  int port_ = 0;
  std::atomic<ApiHealth*> health_{nullptr};
  std::atomic<LiveScheduler*> scheduler_{nullptr};
  std::atomic<Metrics*> metrics_{nullptr};
};

}  // namespace ksched::live
