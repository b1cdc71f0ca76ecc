// `ksched run`: the live scheduler (see src/live/ and docs/run.md).
#include <fmt/format.h>
#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

#include "cli/commands.h"
#include "client/cluster_client.h"
#include "live/api_health.h"
#include "live/leader_elector.h"
#include "live/live_scheduler.h"
#include "live/log.h"
#include "live/metrics.h"

namespace ksched {

namespace {

using live::Log;

// The lock calls of leader election, over the cluster client: a
// coordination.k8s.io/v1 Lease, or v1.15's default Endpoints lock (the same
// record in an annotation).
class ClientLeaseStore : public live::LeaseStore {
 public:
  ClientLeaseStore(client::ClusterClient* c, std::string ns, std::string name, bool endpoints)
      : c_(c), ns_(std::move(ns)), name_(std::move(name)), endpoints_(endpoints) {}
  Result<std::optional<live::LeaseRecord>> Get() override {
    return endpoints_ ? c_->GetEndpointsLock(ns_, name_) : c_->GetLease(ns_, name_);
  }
  Status Create(const live::LeaseRecord& lease) override {
    return endpoints_ ? c_->CreateEndpointsLock(lease) : c_->CreateLease(lease);
  }
  Status Update(const live::LeaseRecord& lease) override {
    return endpoints_ ? c_->UpdateEndpointsLock(lease) : c_->UpdateLease(lease);
  }

 private:
  client::ClusterClient* c_;
  std::string ns_, name_;
  bool endpoints_;
};

// Go's time.ParseDuration for the forms the flags take: "15s", "1m30s",
// "500ms", "1.5s", "2h".
std::optional<std::chrono::nanoseconds> ParseGoDuration(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text == "0") return std::chrono::nanoseconds(0);
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && (isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.')) ++j;
    if (j == i) return std::nullopt;
    double value = 0;
    try {
      value = std::stod(text.substr(i, j - i));
    } catch (...) {
      return std::nullopt;
    }
    size_t k = j;
    while (k < text.size() && isalpha(static_cast<unsigned char>(text[k]))) ++k;
    const std::string unit = text.substr(j, k - j);
    double scale = 0;
    if (unit == "h")
      scale = 3600e9;
    else if (unit == "m")
      scale = 60e9;
    else if (unit == "s")
      scale = 1e9;
    else if (unit == "ms")
      scale = 1e6;
    else if (unit == "us" || unit == "µs")
      scale = 1e3;
    else if (unit == "ns")
      scale = 1;
    else
      return std::nullopt;
    total += value * scale;
    i = k;
  }
  if (total > 1e18) return std::nullopt;
  return std::chrono::nanoseconds(static_cast<int64_t>(total));
}

CLI::Validator GoDuration() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (!ParseGoDuration(text)) {
          return fmt::format("must be a duration such as 15s, 500ms or 1m (got \"{}\")", text);
        }
        return std::string();
      },
      "DURATION");
}

std::string Identity() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "ksched");
  std::random_device rd;
  std::mt19937_64 gen((uint64_t{rd()} << 32) ^ rd());
  uint64_t a = gen(), b = gen();
  // A random (version 4) UUID, as upstream appends to the host name.
  return fmt::format("{}_{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", host, uint32_t(a >> 32),
                     uint16_t(a >> 16), uint16_t(a) & 0xfff, (uint16_t(b >> 48) & 0x3fff) | 0x8000,
                     b & 0xffffffffffffULL);
}

}  // namespace

CLI::App* AddRunCommand(CLI::App* app, RunArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "run",
      "Schedule a live cluster, as kube-scheduler does (list+watch, bind, events, leader "
      "election, /healthz and /metrics)\n"
      "  example: ksched run --kubeconfig ~/.kube/config --scheduler-name ksched "
      "--leader-elect=false");
  cmd->add_option("--kubeconfig", args->kubeconfig,
                  "kubeconfig file (default: $KUBECONFIG, in-cluster config, ~/.kube/config)");
  cmd->add_option("--scheduler-name", args->scheduler_name,
                  "Schedule the pods whose spec.schedulerName is this")
      ->capture_default_str();
  cmd->add_option("--policy-config-file", args->flags.policy_file,
                  "kube-scheduler v1 Policy file (JSON or YAML); replaces --algorithm-provider");
  cmd->add_option("--algorithm-provider", args->flags.provider,
                  "DefaultProvider or ClusterAutoscalerProvider")
      ->capture_default_str();
  cmd->add_option("--hard-pod-affinity-symmetric-weight",
                  args->flags.hard_pod_affinity_symmetric_weight,
                  "Weight of existing pods' required affinity in InterPodAffinityPriority (0-100)")
      ->check(IntegerIn(0, 100))
      ->capture_default_str();
  cmd->add_option("--percentage-of-nodes-to-score", args->flags.percentage_of_nodes_to_score,
                  "Stop filtering once this share of nodes is feasible (0 = adaptive; "
                  "upstream's default 50)")
      ->check(IntegerIn(0, 100))
      ->capture_default_str();
  cmd->add_option("--tie-break", args->flags.tie_break,
                  "Among the best nodes: rotate as upstream (round-robin) or smallest name (name, "
                  "reproducible)")
      ->check(CLI::IsMember({"name", "round-robin"}))
      ->capture_default_str();
  cmd->add_option("--feature-gates", args->flags.feature_gates,
                  "v1.15 feature gates that change the algorithm, e.g. "
                  "TaintNodesByCondition=false");
  cmd->add_flag("--disable-preemption", args->disable_preemption,
                "Never preempt lower-priority pods");
  cmd->add_flag("--leader-elect", args->leader_elect,
                "Lead-elect on a Lease before scheduling (--leader-elect=false: schedule at once)")
      ->capture_default_str();
  cmd->add_option("--leader-elect-lease-duration", args->lease_duration,
                  "How long a standby waits after the last renewal it saw")
      ->check(GoDuration())
      ->capture_default_str();
  cmd->add_option("--leader-elect-renew-deadline", args->renew_deadline,
                  "How long the leader keeps trying to renew before it stops scheduling")
      ->check(GoDuration())
      ->capture_default_str();
  cmd->add_option("--leader-elect-retry-period", args->retry_period,
                  "Time between attempts to acquire or renew")
      ->check(GoDuration())
      ->capture_default_str();
  cmd->add_option("--leader-elect-resource-lock", args->resource_lock,
                  "The lock object's kind: leases or endpoints")
      ->capture_default_str();
  cmd->add_option("--lock-object-namespace", args->lock_namespace, "Namespace of the lock object")
      ->capture_default_str();
  cmd->add_option("--lock-object-name", args->lock_name, "Name of the lock object")
      ->capture_default_str();
  cmd->add_option("--kube-api-qps", args->qps, "Requests per second to the API server")
      ->capture_default_str();
  cmd->add_option("--kube-api-burst", args->burst, "Burst of requests to the API server")
      ->capture_default_str();
  cmd->add_option("--bind-address", args->bind_address, "Address of /healthz and /metrics")
      ->capture_default_str();
  cmd->add_option("--port", args->port, "Port of /healthz and /metrics (0: none)")
      ->check(IntegerIn(0, 65535))
      ->capture_default_str();
  cmd->add_option("--bind-workers", args->bind_workers,
                  "Bindings in flight at once (ksched's own flag)")
      ->check(IntegerIn(1, 256))
      ->capture_default_str();
  return cmd;
}

int RunRun(const RunArgs& args) {
  if (args.resource_lock != "leases" && args.resource_lock != "endpoints") {
    std::cerr << "ksched: --leader-elect-resource-lock " << args.resource_lock
              << ": must be leases (a coordination.k8s.io/v1 Lease) or endpoints (v1.15's "
                 "default: an annotation on an Endpoints object)\n";
    return kExitBadInput;
  }
  live::ElectionConfig election;
  election.identity = Identity();
  election.ns = args.lock_namespace;
  election.name = args.lock_name;
  election.lease_duration = *ParseGoDuration(args.lease_duration);
  election.renew_deadline = *ParseGoDuration(args.renew_deadline);
  election.retry_period = *ParseGoDuration(args.retry_period);
  if (args.leader_elect) {
    if (Status s = live::ValidateElectionConfig(election); !s.ok()) {
      std::cerr << "ksched: " << s.error().message << "\n";
      return kExitBadInput;
    }
  }
  auto sched_config = args.flags.Build();
  if (!sched_config.ok()) {
    std::cerr << "ksched: " << sched_config.error().message << "\n";
    return kExitBadInput;
  }
  auto client_config = client::ResolveConfig(args.kubeconfig);
  if (!client_config.ok()) {
    std::cerr << "ksched: " << client_config.error().message << "\n";
    return kExitBadInput;
  }
  client_config->qps = args.qps;
  client_config->burst = args.burst;
  client_config->user_agent = "ksched/" + args.scheduler_name;
  auto cluster = client::ClusterClient::Create(*client_config);
  if (!cluster.ok()) {
    std::cerr << "ksched: " << cluster.error().message << "\n";
    return kExitBadInput;
  }
  client::ClusterClient& c = **cluster;

  // API discovery: the versions this server serves (retried while the server
  // is unreachable; SIGTERM still ends the process here).
  Log('I', "ksched run: " + client_config->Describe());
  client::ServerApis server_apis;
  for (int attempt = 0;; ++attempt) {
    auto apis = c.Discover();
    if (apis.ok()) {
      server_apis = std::move(apis).value();
      break;
    }
    if (client::IsUnauthorized(apis.error()) || client::IsForbidden(apis.error())) {
      std::cerr << "ksched: " << apis.error().message << "\n";
      return 1;
    }
    if (attempt % 10 == 0) Log('W', apis.error().message + " (retrying)");
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  Log('I',
      fmt::format("API server {}: PodDisruptionBudgets policy/{}, Events {}, Leases {}",
                  server_apis.git_version.empty() ? "(version unknown)" : server_apis.git_version,
                  c.apis().pdb_version, c.apis().events_v1 ? "events.k8s.io/v1" : "core/v1",
                  c.apis().leases ? "coordination.k8s.io/v1" : "not served"));
  if (args.leader_elect && args.resource_lock == "leases" && !c.apis().leases) {
    std::cerr << "ksched: --leader-elect-resource-lock leases: the API server does not serve "
                 "coordination.k8s.io/v1 Leases (it serves: "
              << server_apis.VersionsOf("coordination.k8s.io")
              << "); use --leader-elect-resource-lock endpoints\n";
    return 1;
  }

  // SIGTERM/SIGINT go to one thread that asks everything to stop.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  Log('I', fmt::format("scheduler name {}, {}, preemption {}", args.scheduler_name,
                       args.flags.policy_file.empty() ? "provider " + args.flags.provider
                                                      : "policy " + args.flags.policy_file,
                       args.disable_preemption ? "off" : "on"));

  GenericScheduler engine(std::move(sched_config).value(), args.flags.tie());
  RealClock clock;
  live::Metrics metrics;
  live::ClientSchedulerApi api(&c);
  live::LiveOptions options;
  options.scheduler_name = args.scheduler_name;
  options.disable_preemption = args.disable_preemption;
  options.bind_workers = static_cast<size_t>(args.bind_workers);
  live::LiveScheduler scheduler(&engine, &api, &clock, &metrics, options);
  client::WatchOptions watch_options;
  scheduler.cache().ExpectResources(watch_options.resources);
  // A resource that cannot be listed or watched is logged at once and fails /healthz.
  live::ApiHealth health(&Log);
  for (const auto& [resource, message] : c.apis().missing) {
    if (std::find(watch_options.resources.begin(), watch_options.resources.end(), resource) !=
        watch_options.resources.end()) {
      health.SetProblem(resource, "cannot read " + client::ResourceName(resource) +
                                      " (nothing is scheduled until ksched can list and watch "
                                      "it): " +
                                      message);
    }
  }
  watch_options.on_error = [&health](client::Resource r, const Error& e) { health.OnError(r, e); };

  std::atomic<bool> stopping{false};
  std::atomic<int> exit_code{kExitOk};
  std::mutex stop_mu;
  std::condition_variable stop_cv;
  auto stop_all = [&](int code) {
    if (code != kExitOk) exit_code.store(code);
    {
      std::lock_guard<std::mutex> lock(stop_mu);
      stopping.store(true);
    }
    stop_cv.notify_all();
    scheduler.Stop();
  };

  std::thread signal_thread([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    if (sig == SIGTERM || sig == SIGINT) {
      Log('I', fmt::format("received {}: finishing in-flight bindings, then exiting",
                           sig == SIGTERM ? "SIGTERM" : "SIGINT"));
    }
    stop_all(kExitOk);
  });

  // /healthz and /metrics.
  httplib::Server http;
  std::thread http_thread;
  if (args.port != 0) {
    http.Get("/healthz", [&health](const httplib::Request&, httplib::Response& res) {
      std::vector<std::string> problems = health.Problems();
      if (problems.empty()) {
        res.set_content("ok", "text/plain");
        return;
      }
      std::string text;
      for (const std::string& p : problems) text += "[-]" + p + "\n";
      res.status = 500;
      res.set_content(text + "healthz check failed\n", "text/plain");
    });
    http.Get("/metrics", [&metrics](const httplib::Request&, httplib::Response& res) {
      res.set_content(metrics.Serialize(), "text/plain; version=0.0.4");
    });
    if (!http.bind_to_port(args.bind_address.c_str(), args.port)) {
      std::cerr << "ksched: --bind-address " << args.bind_address << " --port " << args.port
                << ": cannot listen there (in use, or not an address of this host)\n";
      pthread_kill(signal_thread.native_handle(), SIGTERM);
      signal_thread.join();
      return kExitBadInput;
    }
    http_thread = std::thread([&] { http.listen_after_bind(); });
    Log('I', fmt::format("serving /healthz and /metrics on {}:{}", args.bind_address, args.port));
  }

  if (Status s = c.StartWatches(
          [&](client::WatchEvent e) {
            health.OnEvent(e.resource);
            scheduler.OnWatchEvent(std::move(e));
          },
          watch_options);
      !s.ok()) {
    Log('E', "starting watches: " + s.error().message);
    stop_all(1);
  }

  ClientLeaseStore lease_store(&c, election.ns, election.name, args.resource_lock == "endpoints");
  live::LeaderElector elector(&lease_store, &clock, election);
  std::thread election_thread;
  if (args.leader_elect) {
    Log('I', fmt::format("leader election on {} {}/{} as {}",
                         args.resource_lock == "endpoints" ? "Endpoints" : "Lease", election.ns,
                         election.name, election.identity));
    election_thread = std::thread([&] {
      bool was_leader = false;
      std::string last_error;
      std::unique_lock<std::mutex> lock(stop_mu);
      while (!stopping.load()) {
        lock.unlock();
        Clock::TimePoint next = elector.Step();
        const bool leader = elector.IsLeader();
        if (leader && !was_leader) Log('I', "became leader: scheduling");
        if (!leader && elector.last_error() != last_error && !elector.last_error().empty()) {
          Log('I', "not leader: " + elector.last_error());
        }
        last_error = elector.last_error();
        was_leader = leader;
        if (elector.state() == live::LeaderElector::State::kLost) {
          Log('E', "leader election lost: could not renew the lease within the renew deadline");
          stop_all(1);
          return;
        }
        lock.lock();
        stop_cv.wait_until(lock, std::chrono::steady_clock::now() + (next - clock.Now()),
                           [&] { return stopping.load(); });
      }
    });
  }

  scheduler.Run([&] { return !args.leader_elect || elector.IsLeader(); });
  // Run returned after the in-flight bindings finished.
  if (election_thread.joinable()) election_thread.join();
  if (args.leader_elect) {
    if (Status s = elector.Release(); !s.ok()) {
      Log('W', "releasing the lease: " + s.error().message);
    } else {
      Log('I', "lease released");
    }
  }
  c.StopWatches();
  if (http_thread.joinable()) {
    http.stop();
    http_thread.join();
  }
  if (!stopping.load()) stop_all(kExitOk);
  pthread_kill(signal_thread.native_handle(), SIGTERM);  // wake sigwait if no signal came
  signal_thread.join();
  Log('I',
      fmt::format("stopped: {} pods bound in {} cycles", scheduler.bound(), scheduler.cycles()));
  return exit_code.load();
}

}  // namespace ksched
