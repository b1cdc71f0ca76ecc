#include "live/health_server.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "live/live_scheduler.h"

namespace ksched::live {

namespace {

// Why binding address:port fails, as the OS says it ("address already in
// use", "cannot assign requested address"): cpp-httplib only says that it
// failed, so the bind is tried once more here to learn the reason.
std::string BindFailureReason(const std::string& address, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (int rc =
          getaddrinfo(address.empty() ? nullptr : address.c_str(), service.c_str(), &hints, &found);
      rc != 0) {
    return gai_strerror(rc);
  }
  std::string reason = "unknown reason";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) {
      reason = std::strerror(errno);
      continue;
    }
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    const bool bound = bind(fd, a->ai_addr, a->ai_addrlen) == 0;
    if (!bound) reason = std::strerror(errno);
    close(fd);
    if (bound) {
      reason = "bound when tried again (a race with another process?)";
      break;
    }
  }
  freeaddrinfo(found);
  return reason;
}

}  // namespace

HealthServer::HealthServer() : http_(std::make_unique<httplib::Server>()) { Route(); }

HealthServer::HealthServer(X509* cert, EVP_PKEY* key, DelegatedAuth* auth)
    : http_(std::make_unique<httplib::SSLServer>(cert, key)), auth_(auth) {
  Route();
}

void HealthServer::Route() {
  // SO_REUSEADDR (a restart may bind while old connections linger in
  // TIME_WAIT) but not SO_REUSEPORT: a second process must not share it.
  http_->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  if (auth_ != nullptr) {
    http_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      DelegatedAuth::Decision d =
          auth_->Check(req.get_header_value("Authorization"), req.path,
                       req.method == "GET" || req.method == "HEAD" ? "get" : "create");
      if (d.status == 200) return httplib::Server::HandlerResponse::Unhandled;
      res.status = d.status;
      res.set_content(d.message + "\n", "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    });
  }
  http_->Get("/livez", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok", "text/plain");
  });
  http_->Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
    ApiHealth* health = health_.load();
    std::vector<std::string> problems;
    if (health != nullptr) problems = health->Problems();
    if (problems.empty()) {
      res.set_content("ok", "text/plain");
      return;
    }
    std::string text;
    for (const std::string& p : problems) text += "[-]" + p + "\n";
    res.status = 500;
    res.set_content(text + "healthz check failed\n", "text/plain");
  });
  // Upstream's /readyz: also every watched resource listed (its informers
  // synced) and readable.
  http_->Get("/readyz", [this](const httplib::Request&, httplib::Response& res) {
    ApiHealth* health = health_.load();
    LiveScheduler* scheduler = scheduler_.load();
    std::string text;
    if (scheduler == nullptr) {
      text += "[-]api-discovery failed: the API server has not answered discovery yet\n";
    } else if (!scheduler->synced()) {
      text += "[-]sched-handler-sync failed: caches not synced yet\n";
    }
    if (health != nullptr) {
      for (const std::string& p : health->Problems()) text += "[-]" + p + "\n";
    }
    if (text.empty()) {
      res.set_content("ok", "text/plain");
      return;
    }
    res.status = 500;
    res.set_content(text + "readyz check failed\n", "text/plain");
  });
  http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    Metrics* metrics = metrics_.load();
    if (metrics == nullptr) {
      res.status = 503;
      res.set_content("no metrics until the API server has answered discovery\n", "text/plain");
      return;
    }
    res.set_content(metrics->Serialize(), "text/plain; version=0.0.4");
  });
}

HealthServer::~HealthServer() { Stop(); }

Status HealthServer::Listen(const std::string& address, int port) {
  const int bound = port == 0 ? http_->bind_to_any_port(address.c_str())
                              : (http_->bind_to_port(address.c_str(), port) ? port : -1);
  if (bound < 0) {
    return MakeError(fmt::format("cannot serve health and metrics on {}:{} (port {}): {}", address,
                                 port, port, BindFailureReason(address, port)));
  }
  port_ = bound;
  thread_ = std::thread([this] { http_->listen_after_bind(); });
  // cpp-httplib's stop() does nothing before the loop runs: wait for it, so
  // that a Stop() right after Listen() cannot leave the thread serving.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!http_->is_running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return Status::Ok();
}

void HealthServer::Attach(ApiHealth* health, LiveScheduler* scheduler, Metrics* metrics) {
  health_.store(health);
  scheduler_.store(scheduler);
  metrics_.store(metrics);
}

void HealthServer::Stop() {
  if (!thread_.joinable()) return;
  http_->stop();
  thread_.join();
}

}  // namespace ksched::live
