// `ksched run`: the live scheduler (see src/live/ and docs/run.md).
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <tuple>

#include "cli/commands.h"
#include "client/cluster_client.h"
#include "client/rest_client.h"
#include "config/decode.h"
#include "config/feature_gates.h"
#include "config/types.h"
#include "config/unused_plugin_config.h"
#include "live/api_health.h"
#include "live/delegated_auth.h"
#include "live/engine_choice.h"
#include "live/health_server.h"
#include "live/leader_elector.h"
#include "live/live_scheduler.h"
#include "live/log.h"
#include "live/metrics.h"
#include "live/self_signed_cert.h"

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

// Go's time.ParseDuration, as kube-scheduler's duration flags read it.
std::optional<std::chrono::nanoseconds> ParseGoDuration(const std::string& text) {
  std::optional<int64_t> ns = config::ParseGoDuration(text);
  if (!ns || *ns < 0) return std::nullopt;
  return std::chrono::nanoseconds(*ns);
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

// --config's error, in an operator's words where upstream's are terse (the
// decoder keeps upstream's text, which `ksched schedule` compares): the
// accepted apiVersions for an unknown one; the field of a type error that
// v1.26's encoding/json does not name (v1.35's names it: read again so).
std::string ExplainConfigError(const SchedulerFlags& flags, const std::string& message) {
  if (message.find("is registered for version") != std::string::npos) {
    return message + " (the apiVersions ksched accepts: kubescheduler.config.k8s.io/v1" +
           (flags.scheduler_version == "v1.26" ? ", and v1beta3 for the v1.26 engine" : "") + ")";
  }
  if (message.find("into Go value of type") != std::string::npos &&
      flags.scheduler_version != "v1.35") {
    SchedulerFlags again = flags;
    again.scheduler_version = "v1.35";
    auto loaded = again.FrameworkConfig();
    if (!loaded.ok() && loaded.error().message.find("Go struct field") != std::string::npos)
      return loaded.error().message;
  }
  return message;
}

}  // namespace

CLI::App* AddRunCommand(CLI::App* app, RunArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "run",
      "Schedule a live cluster, as kube-scheduler does (list+watch, bind, events, leader "
      "election, /healthz and /metrics)\n"
      "  example: ksched run --kubeconfig ~/.kube/config --scheduler-name ksched "
      "--leader-elect=false");
  // Records that a flag was given (see RunArgs::given).
  auto mark = [args](const char* flag) {
    return [args, flag](const std::string&) { args->given.insert(flag); };
  };
  cmd->add_option("--config", args->flags.config_file,
                  "KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1): profiles "
                  "(one process serves them all), plugins and args, percentageOfNodesToScore, "
                  "leaderElection, clientConnection; selects the framework (v1.35 or v1.26)");
  cmd->add_option("--scheduler-version", args->flags.scheduler_version,
                  "The engine: v1.35 or v1.26 (the framework) or v1.15 (predicates and "
                  "priorities; the default with --policy-config-file or --algorithm-provider). "
                  "Default: the newest the API server serves the APIs of (v1.35 with "
                  "resource.k8s.io/v1, v1.26 from v1.18, else v1.15)")
      ->check(CLI::IsMember({"v1.15", "v1.26", "v1.35"}));
  cmd->add_option("--kubeconfig", args->kubeconfig,
                  "kubeconfig file (default: --config's clientConnection.kubeconfig, $KUBECONFIG, "
                  "in-cluster config, ~/.kube/config)")
      ->each(mark("--kubeconfig"));
  cmd->add_option(
         "--scheduler-name", args->scheduler_name,
         "Schedule the pods whose spec.schedulerName is this (the framework without --config: "
         "the default profile's name; with --config: serve only that profile, "
         "otherwise every profile is served)")
      ->each(mark("--scheduler-name"))
      ->capture_default_str();
  cmd->add_option("--policy-config-file", args->flags.policy_file,
                  "kube-scheduler v1 Policy file (JSON or YAML); selects the v1.15 engine");
  cmd->add_option("--algorithm-provider", args->flags.provider,
                  "DefaultProvider or ClusterAutoscalerProvider; selects the v1.15 engine")
      ->each([args](const std::string&) { args->flags.provider_given = true; })
      ->capture_default_str();
  cmd->add_option("--hard-pod-affinity-symmetric-weight",
                  args->flags.hard_pod_affinity_symmetric_weight,
                  "v1.15: weight of existing pods' required affinity in InterPodAffinityPriority "
                  "(0-100; v1.26: InterPodAffinity's hardPodAffinityWeight in --config)")
      ->each([args](const std::string&) { args->flags.hard_weight_given = true; })
      ->check(IntegerIn(0, 100))
      ->capture_default_str();
  cmd->add_option(
         "--percentage-of-nodes-to-score", args->flags.percentage_of_nodes_to_score,
         "Stop filtering once this share of nodes is feasible (0 = adaptive). Default: "
         "v1.35 and v1.26 --config's percentageOfNodesToScore, else adaptive; v1.15 50 (each "
         "upstream's default)")
      ->check(IntegerIn(0, 100));
  cmd->add_option("--tie-break", args->flags.tie_break,
                  "Among the best nodes: pick at random as upstream (round-robin) or the smallest "
                  "name (name, reproducible)")
      ->check(CLI::IsMember({"name", "round-robin"}))
      ->capture_default_str();
  cmd->add_option("--feature-gates", args->flags.feature_gates,
                  "Feature gates of the engine that runs, e.g. v1.26 "
                  "PodSchedulingReadiness=true, v1.15 TaintNodesByCondition=false");
  cmd->add_flag("--disable-preemption", args->disable_preemption,
                "Never preempt lower-priority pods");
  cmd->add_flag("--leader-elect", args->leader_elect,
                "Lead-elect on a Lease before scheduling (--leader-elect=false: schedule at once)")
      ->each(mark("--leader-elect"))
      ->capture_default_str();
  cmd->add_option("--leader-elect-lease-duration", args->lease_duration,
                  "How long a standby waits after the last renewal it saw")
      ->check(GoDuration())
      ->each(mark("--leader-elect-lease-duration"))
      ->capture_default_str();
  cmd->add_option("--leader-elect-renew-deadline", args->renew_deadline,
                  "How long the leader keeps trying to renew before it stops scheduling")
      ->check(GoDuration())
      ->each(mark("--leader-elect-renew-deadline"))
      ->capture_default_str();
  cmd->add_option("--leader-elect-retry-period", args->retry_period,
                  "Time between attempts to acquire or renew")
      ->check(GoDuration())
      ->each(mark("--leader-elect-retry-period"))
      ->capture_default_str();
  cmd->add_option("--leader-elect-resource-lock", args->resource_lock,
                  "The lock object's kind: leases or endpoints")
      ->each(mark("--leader-elect-resource-lock"))
      ->capture_default_str();
  cmd->add_option("--leader-elect-resource-namespace", args->lock_namespace,
                  "Namespace of the lock object")
      ->each(mark("--leader-elect-resource-namespace"))
      ->capture_default_str();
  cmd->add_option("--leader-elect-resource-name", args->lock_name,
                  "Name of the lock object (another scheduler than kube-scheduler beside it "
                  "needs a lock of its own)")
      ->each(mark("--leader-elect-resource-name"))
      ->capture_default_str();
  // v1.15's names of the same flags, still accepted with a warning (as
  // pflag's deprecated flags: hidden from --help).
  auto deprecated = [args, mark](const char* old_name, const char* new_name) {
    return [args, mark, old_name, new_name](const std::string& value) {
      mark(new_name)(value);
      args->deprecation_warnings.push_back(
          fmt::format("Flag {} has been deprecated, use {} instead", old_name, new_name));
    };
  };
  cmd->add_option("--lock-object-namespace", args->lock_namespace)
      ->each(deprecated("--lock-object-namespace", "--leader-elect-resource-namespace"))
      ->group("");
  cmd->add_option("--lock-object-name", args->lock_name)
      ->each(deprecated("--lock-object-name", "--leader-elect-resource-name"))
      ->group("");
  cmd->add_option("--kube-api-qps", args->qps, "Requests per second to the API server")
      ->each(mark("--kube-api-qps"))
      ->capture_default_str();
  cmd->add_option("--kube-api-burst", args->burst, "Burst of requests to the API server")
      ->each(mark("--kube-api-burst"))
      ->capture_default_str();
  cmd->add_option("--bind-address", args->bind_address, "Address of --secure-port and --port")
      ->capture_default_str();
  cmd->add_option("--secure-port", args->secure_port,
                  "HTTPS port of /healthz, /livez, /readyz (always allowed) and /metrics "
                  "(authenticated by TokenReview, authorized by SubjectAccessReview) (0: none; in "
                  "use: exit 1)")
      ->check(IntegerIn(0, 65535))
      ->capture_default_str();
  cmd->add_option("--tls-cert-file", args->tls_cert_file,
                  "PEM certificate of --secure-port (default: a self-signed one made at start)");
  cmd->add_option("--tls-private-key-file", args->tls_key_file,
                  "PEM private key of --tls-cert-file");
  cmd->add_option("--authentication-kubeconfig", args->authentication_kubeconfig,
                  "kubeconfig of the API server that reviews tokens (TokenReview) for "
                  "--secure-port (default: the scheduler's own connection)");
  cmd->add_option("--authorization-kubeconfig", args->authorization_kubeconfig,
                  "kubeconfig of the API server that authorizes requests (SubjectAccessReview) "
                  "for --secure-port (default: the scheduler's own connection)");
  cmd->add_option("-v,--v", args->verbosity,
                  "Log verbosity, as kube-scheduler's -v (accepted; ksched logs every decision "
                  "at any level)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--port", args->port,
                  "Plain HTTP port of the same endpoints, none authenticated (v1.15's insecure "
                  "port; 0: none)")
      ->check(IntegerIn(0, 65535))
      ->capture_default_str();
  cmd->add_option("--bind-workers", args->bind_workers,
                  "Bindings in flight at once (ksched's own flag)")
      ->check(IntegerIn(1, 256))
      ->capture_default_str();
  return cmd;
}

// The lock kinds `run` can hold: a Lease, or v1.15's Endpoints annotation.
bool KnownResourceLock(const std::string& lock) { return lock == "leases" || lock == "endpoints"; }

int RunRun(const RunArgs& args) {
  // Errors are log lines too, in klog's format, as kube-scheduler's.
  auto fail = [](const std::string& message, const char* file = __builtin_FILE(),
                 unsigned line = __builtin_LINE()) {
    Log('E', message, file, line);
    return kExitBadInput;
  };
  // SIGTERM/SIGINT are blocked before any thread starts (every thread
  // inherits the mask, so none of them dies of the default action): they
  // wait for the discovery loop's sigtimedwait, then for one thread that
  // asks everything to stop.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  for (const std::string& warning : args.deprecation_warnings) Log('W', warning);
  SchedulerFlags flags = args.flags;
  if (Status s = flags.CheckConsistent(); !s.ok()) return fail(s.error().message);
  // No flag chose the engine: the newest whose APIs the server serves,
  // decided after discovery (live/engine_choice.h). Until then --config is
  // read as v1.26's, for its leaderElection and clientConnection.
  const bool engine_from_server =
      flags.scheduler_version.empty() && flags.policy_file.empty() && !flags.provider_given;
  if (engine_from_server) flags.scheduler_version = "v1.26";

  // What --config gives, overridden by the flags given on the command line.
  std::string kubeconfig = args.kubeconfig;
  double qps = args.qps;
  int burst = args.burst;
  bool leader_elect = args.leader_elect;
  std::string resource_lock = args.resource_lock;
  live::ElectionConfig election;
  election.identity = Identity();
  election.ns = args.lock_namespace;
  election.name = args.lock_name;
  election.lease_duration = *ParseGoDuration(args.lease_duration);
  election.renew_deadline = *ParseGoDuration(args.renew_deadline);
  election.retry_period = *ParseGoDuration(args.retry_period);
  std::optional<config::KubeSchedulerConfiguration> cfg;
  if (!flags.config_file.empty()) {
    auto loaded = flags.FrameworkConfig();
    if (!loaded.ok()) return fail(ExplainConfigError(flags, loaded.error().message));
    cfg = std::move(loaded).value();
    for (const std::string& unused : config::UnusedPluginConfig(*cfg))
      Log('W', flags.config_file + ": " + unused);
    const config::LeaderElection& le = cfg->leader_election;
    auto ns = [](int64_t v) { return std::chrono::nanoseconds(v); };
    if (!args.Given("--leader-elect")) leader_elect = le.leader_elect;
    if (!args.Given("--leader-elect-lease-duration"))
      election.lease_duration = ns(le.lease_duration_ns);
    if (!args.Given("--leader-elect-renew-deadline"))
      election.renew_deadline = ns(le.renew_deadline_ns);
    if (!args.Given("--leader-elect-retry-period")) election.retry_period = ns(le.retry_period_ns);
    if (!args.Given("--leader-elect-resource-lock")) resource_lock = le.resource_lock;
    if (!args.Given("--leader-elect-resource-namespace")) election.ns = le.resource_namespace;
    if (!args.Given("--leader-elect-resource-name")) election.name = le.resource_name;
    const config::ClientConnection& cc = cfg->client_connection;
    if (!args.Given("--kubeconfig") && !cc.kubeconfig.empty()) kubeconfig = cc.kubeconfig;
    if (!args.Given("--kube-api-qps")) qps = cc.qps;
    if (!args.Given("--kube-api-burst")) burst = cc.burst;
    if (!KnownResourceLock(resource_lock)) {
      return fail(flags.config_file + ": leaderElection.resourceLock " + resource_lock +
                  ": ksched holds leases (a coordination.k8s.io/v1 Lease) or endpoints");
    }
  }
  if (!KnownResourceLock(resource_lock)) {
    return fail("--leader-elect-resource-lock " + resource_lock +
                ": must be leases (a coordination.k8s.io/v1 Lease) or endpoints (v1.15's "
                "default: an annotation on an Endpoints object)");
  }
  if (leader_elect) {
    if (Status s = live::ValidateElectionConfig(election); !s.ok()) return fail(s.error().message);
  }
  auto client_config = client::ResolveConfig(kubeconfig);
  if (!client_config.ok()) return fail(client_config.error().message);
  client_config->qps = qps;
  client_config->burst = burst;
  client_config->user_agent = "ksched/" + args.scheduler_name;
  auto cluster = client::ClusterClient::Create(*client_config);
  if (!cluster.ok()) return fail(cluster.error().message);
  client::ClusterClient& c = **cluster;
  // Leader election has a client (and a rate limit) of its own, as
  // kube-scheduler's: renewing and releasing the Lease never queue behind
  // the scheduler's writes.
  client::ClientConfig lease_config = *client_config;
  lease_config.user_agent = "ksched/leader-election";
  auto lease_cluster = client::ClusterClient::Create(lease_config);
  if (!lease_cluster.ok()) return fail(lease_cluster.error().message);

  // /livez, /healthz, /readyz and /metrics from the first second (before
  // discovery); an address in use ends the process here.
  live::HealthServer http;
  if (args.port != 0) {
    if (Status s = http.Listen(args.bind_address, args.port); !s.ok()) {
      Log('E', fmt::format("{} (--bind-address {}, --port {})", s.error().message,
                           args.bind_address, args.port));
      return 1;
    }
    Log('W', fmt::format("serving /healthz, /livez, /readyz and /metrics on {}:{} over plain "
                         "HTTP without authentication (--port; --secure-port serves HTTPS)",
                         args.bind_address, args.port));
  }
  // The secure port, as kube-scheduler's: TLS, the reviews of the API server.
  std::unique_ptr<client::RestClient> authn_rest, authz_rest;
  for (auto [file, rest, flag] :
       {std::tuple{&args.authentication_kubeconfig, &authn_rest, "--authentication-kubeconfig"},
        std::tuple{&args.authorization_kubeconfig, &authz_rest, "--authorization-kubeconfig"}}) {
    if (file->empty()) continue;
    auto resolved = client::ResolveConfig(*file);
    if (!resolved.ok()) return fail(std::string(flag) + ": " + resolved.error().message);
    auto created = client::RestClient::Create(*resolved);
    if (!created.ok()) return fail(std::string(flag) + ": " + created.error().message);
    *rest = std::move(created).value();
  }
  live::DelegatedAuth auth(
      [&](const std::string& path, const std::string& body, const std::string& resource) {
        const bool authn = resource == "tokenreviews";
        client::RestClient* rest = authn ? authn_rest.get() : authz_rest.get();
        if (rest == nullptr) rest = &c.rest();
        client::RequestTarget target{
            "create", authn ? "authentication.k8s.io" : "authorization.k8s.io", resource, "", ""};
        return rest->Call(target, "POST", path, body);
      });
  std::unique_ptr<live::HealthServer> https;
  if (args.secure_port != 0) {
    if (args.tls_cert_file.empty() != args.tls_key_file.empty())
      return fail("--tls-cert-file and --tls-private-key-file go together");
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    auto cert = args.tls_cert_file.empty()
                    ? live::SelfSignedCert(host)
                    : live::LoadCertKey(args.tls_cert_file, args.tls_key_file);
    if (!cert.ok()) return fail(cert.error().message);
    https = std::make_unique<live::HealthServer>(cert->cert.get(), cert->key.get(), &auth);
    if (!https->valid()) return fail("--secure-port: the TLS server could not be set up");
    if (Status s = https->Listen(args.bind_address, args.secure_port); !s.ok()) {
      Log('E', fmt::format("{} (--bind-address {}, --secure-port {})", s.error().message,
                           args.bind_address, args.secure_port));
      return 1;
    }
    Log('I', fmt::format("serving /healthz, /livez, /readyz and /metrics on https://{}:{} ({} "
                         "certificate; /metrics by TokenReview and SubjectAccessReview)",
                         args.bind_address, args.secure_port,
                         args.tls_cert_file.empty() ? "a self-signed" : args.tls_cert_file));
  }

  // API discovery: the versions this server serves (retried every second
  // while the server is unreachable; SIGTERM ends the process here).
  Log('I', "ksched run: " + client_config->Describe());
  client::ServerApis server_apis;
  for (int attempt = 0;; ++attempt) {
    auto apis = c.Discover();
    if (apis.ok()) {
      server_apis = std::move(apis).value();
      break;
    }
    if (client::IsUnauthorized(apis.error()) || client::IsForbidden(apis.error())) {
      Log('E', apis.error().message);
      return 1;
    }
    if (attempt % 10 == 0) Log('W', apis.error().message + " (retrying)");
    const timespec second{1, 0};
    if (int sig = sigtimedwait(&signals, nullptr, &second); sig == SIGTERM || sig == SIGINT) {
      Log('I', fmt::format("received {} before the API server answered discovery: exiting",
                           sig == SIGINT ? "SIGINT" : "SIGTERM"));
      return kExitOk;
    }
  }
  Log('I',
      fmt::format("API server {}: PodDisruptionBudgets policy/{}, Events {}, Leases {}",
                  server_apis.git_version.empty() ? "(version unknown)" : server_apis.git_version,
                  c.apis().pdb_version, c.apis().events_v1 ? "events.k8s.io/v1" : "core/v1",
                  c.apis().leases ? "coordination.k8s.io/v1" : "not served"));
  if (leader_elect && resource_lock == "leases" && !c.apis().leases) {
    Log('E',
        "--leader-elect-resource-lock leases: the API server does not serve "
        "coordination.k8s.io/v1 Leases (it serves: " +
            server_apis.VersionsOf("coordination.k8s.io") +
            "); use --leader-elect-resource-lock endpoints");
    return 1;
  }
  if (engine_from_server) {
    live::EngineChoice choice = live::ChooseEngineForServer(server_apis);
    if (choice.version == "v1.15" && !flags.config_file.empty()) {
      // A KubeSchedulerConfiguration needs the framework: its oldest.
      choice = {"v1.26", choice.reason + ", but --config needs the framework"};
    }
    flags.scheduler_version = choice.version;
    Log('I', fmt::format("{}: scheduling with the {} engine (--scheduler-version chooses another)",
                         choice.reason, choice.version));
    if (cfg && choice.version != "v1.26") {
      // Read again as the chosen release reads it (its defaults and checks).
      auto loaded = flags.FrameworkConfig();
      if (!loaded.ok()) return fail(loaded.error().message);
      cfg = std::move(loaded).value();
    }
  }
  if (std::string warning =
          live::NewerServerWarning(server_apis, std::string(flags.EngineVersion()));
      !warning.empty()) {
    Log('W', warning);
  }
  const bool framework = flags.framework();

  SchedulingQueue::Options queue_options;
  if (framework) {
    if (!cfg) {
      auto loaded = flags.FrameworkConfig();
      if (!loaded.ok()) return fail(loaded.error().message);
      cfg = std::move(loaded).value();
      // v1.26's default configuration has one profile: named by --scheduler-name.
      cfg->profiles.front().scheduler_name = args.scheduler_name;
      if (flags.percentage_of_nodes_to_score < 0) flags.percentage_of_nodes_to_score = 0;
    }
    queue_options.initial_backoff = std::chrono::seconds(cfg->pod_initial_backoff_seconds);
    queue_options.max_backoff = std::chrono::seconds(cfg->pod_max_backoff_seconds);
    // podMaxInUnschedulablePodsDuration of v1.26 and v1.35 (v1.15: 60 s).
    queue_options.unschedulable_timeout = std::chrono::minutes(5);
  } else if (flags.percentage_of_nodes_to_score < 0) {
    flags.percentage_of_nodes_to_score = 50;  // v1.15's default
  }
  auto built = flags.BuildEngine(cfg ? &*cfg : nullptr);
  if (!built.ok()) return fail(built.error().message);
  std::unique_ptr<Engine> engine = std::move(built).value();
  // The pods to schedule: every profile's, or --scheduler-name's alone.
  std::vector<std::string> served = {args.scheduler_name};
  if (framework && !flags.config_file.empty()) {
    served =
        ServedSchedulerNames(args.Given("--scheduler-name") ? args.scheduler_name : "", *engine);
    const std::vector<std::string> profiles = engine->profile_names();
    if (std::find(profiles.begin(), profiles.end(), served.front()) == profiles.end()) {
      return fail("--scheduler-name " + served.front() + ": " + flags.config_file +
                  " has no profile of that schedulerName");
    }
  }

  std::string names;
  for (const std::string& n : served) names += (names.empty() ? "" : ", ") + n;
  std::string engine_text =
      framework                   ? fmt::format("{} framework ({})", engine->version(),
                              flags.config_file.empty() ? "default configuration"
                                                                          : "config " + flags.config_file)
      : flags.policy_file.empty() ? "v1.15 provider " + flags.provider
                                  : "v1.15 policy " + flags.policy_file;
  Log('I', fmt::format("scheduler name{} {}, {}, preemption {}", served.size() > 1 ? "s" : "",
                       names, engine_text, args.disable_preemption ? "off" : "on"));

  c.SetEventsFallbackHook([](const std::string& why) {
    Log('W', "events.k8s.io/v1 Events are forbidden (" + why +
                 "): writing core/v1 Events from now on (no eventTime, reportingController or "
                 "series); the identity needs {apiGroups: [\"events.k8s.io\"], resources: "
                 "[\"events\"], verbs: [\"create\", \"patch\", \"update\"]}");
  });
  RealClock clock;
  live::Metrics metrics(engine->version());
  live::ClientSchedulerApi api(&c);
  live::LiveOptions options;
  options.scheduler_names = served;
  options.disable_preemption = args.disable_preemption;
  options.bind_workers = static_cast<size_t>(args.bind_workers);
  if (framework) {
    options.queue = queue_options;
    auto gates = flags.FrameworkGates();
    options.disruption_target_condition = gates.ok() && gates->pod_disruption_conditions;
    // v1.35's queue and preemption gates.
    options.queue.pop_from_backoff = gates.ok() && gates->scheduler_pop_from_backoff_q;
    options.async_preemption = gates.ok() && gates->scheduler_async_preemption;
  }
  live::LiveScheduler scheduler(engine.get(), &api, &clock, &metrics, options);
  client::WatchOptions watch_options;
  if (framework) {
    for (client::Resource r : client::kFrameworkResources) {
      // No CSIStorageCapacity API before v1.21: no capacity is known, as upstream.
      if (r == client::Resource::kCSIStorageCapacity && !c.apis().csi_storage_capacities) continue;
      watch_options.resources.push_back(r);
    }
  }
  scheduler.cache().ExpectResources(watch_options.resources);
  // A resource that cannot be listed or watched is logged at once and fails /healthz.
  live::ApiHealth health([](char level, std::string_view message) { Log(level, message); });
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

  // Set before the signal thread is woken at the end without a signal.
  std::atomic<bool> waking_signal_thread{false};
  std::thread signal_thread([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    if (waking_signal_thread.load()) return;
    Log('I', fmt::format("received {}: stopping scheduling{}", sig == SIGINT ? "SIGINT" : "SIGTERM",
                         leader_elect ? ", releasing the lease if held, then flushing queued writes"
                                      : ", then flushing queued writes"));
    stop_all(kExitOk);
  });

  http.Attach(&health, &scheduler, &metrics);
  if (https) https->Attach(&health, &scheduler, &metrics);

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

  ClientLeaseStore lease_store(lease_cluster->get(), election.ns, election.name,
                               resource_lock == "endpoints");
  live::LeaderElector elector(&lease_store, &clock, election);
  std::thread election_thread;
  if (leader_elect) {
    Log('I', fmt::format("leader election on {} {}/{} as {}",
                         resource_lock == "endpoints" ? "Endpoints" : "Lease", election.ns,
                         election.name, election.identity));
    election_thread = std::thread([&] {
      bool was_leader = false;
      std::string last_error;
      // Another identity holding the lock for longer than a lease duration
      // (kube-scheduler itself, when --scheduler-name differs but the lock
      // is the same): said once, since this replica may wait forever.
      std::string waited_for;
      Clock::TimePoint waiting_since = clock.Now();
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
        const std::string holder = elector.observed_holder();
        if (leader || holder.empty() || holder == election.identity) {
          waiting_since = clock.Now();
        } else if (waited_for != holder && clock.Now() - waiting_since > election.lease_duration) {
          waited_for = holder;
          Log('W',
              fmt::format("{} {}/{} has been held by {} for more than a lease duration ({}s): "
                          "nothing is scheduled while it renews. If that is another scheduler "
                          "(kube-scheduler uses kube-system/kube-scheduler), give this one a lock "
                          "of its own (--leader-elect-resource-name)",
                          resource_lock == "endpoints" ? "Endpoints" : "Lease", election.ns,
                          election.name, holder,
                          std::chrono::duration<double>(election.lease_duration).count()));
        }
        if (elector.state() == live::LeaderElector::State::kLost) {
          Log('E', fmt::format("leader election lost: the lease was not renewed within the renew "
                               "deadline ({}s): stopping scheduling and exiting{}",
                               std::chrono::duration<double>(election.renew_deadline).count(),
                               last_error.empty() ? "" : " (last error: " + last_error + ")"));
          stop_all(1);
          return;
        }
        lock.lock();
        stop_cv.wait_until(lock, std::chrono::steady_clock::now() + (next - clock.Now()),
                           [&] { return stopping.load(); });
      }
    });
  }

  // Once scheduling stopped, the Lease goes at once, before the backlog of
  // status writes and events is flushed, so that a standby leads within its
  // retry period however long the flush takes.
  auto release = [&] {
    if (election_thread.joinable()) election_thread.join();  // no renewal races the release
    if (!leader_elect) return;
    const std::string lock =
        fmt::format("{} {}/{}", resource_lock == "endpoints" ? "Endpoints" : "Lease", election.ns,
                    election.name);
    const bool lost = elector.state() == live::LeaderElector::State::kLost;
    auto released = elector.Release();
    if (!released.ok()) {
      Log('W', fmt::format("{} not released: {} (the others take it once it expires)", lock,
                           released.error().message));
      return;
    }
    switch (*released) {
      case live::LeaderElector::ReleaseOutcome::kReleased:
        Log('I', lock + " lease released: a standby may take it at once");
        break;
      case live::LeaderElector::ReleaseOutcome::kNotHeld:
        Log('I', lock + (lost ? " not released: this replica lost it"
                              : " not released: this replica was not the leader"));
        break;
      case live::LeaderElector::ReleaseOutcome::kTakenOver:
        Log('I', lock + " not released: already held by " +
                     (elector.observed_holder().empty() ? std::string("another replica")
                                                        : elector.observed_holder()));
        break;
    }
  };
  scheduler.Run([&] { return !leader_elect || elector.IsLeader(); }, release);
  // Run returned after the flush (or its bound).
  c.StopWatches();
  http.Stop();
  if (https) https->Stop();
  if (!stopping.load()) stop_all(kExitOk);
  waking_signal_thread.store(true);
  pthread_kill(signal_thread.native_handle(), SIGTERM);  // wake sigwait if no signal came
  signal_thread.join();
  Log('I',
      fmt::format("stopped: {} pods bound in {} cycles", scheduler.bound(), scheduler.cycles()));
  return exit_code.load();
}

}  // namespace ksched
