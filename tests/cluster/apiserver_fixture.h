// A real kube-apiserver (with etcd) for end-to-end tests, started with
// ../shared/apiserver/start.sh -- v1.15.5, v1.26.0 (KUBE_VERSION=1.26), or
// v1.35.4 (KUBE_APISERVER= the binary scripts/k8s-v135.sh builds and caches) --,
// and the helpers tests use to play the user and the kubelet with the admin
// identity.
//
//   ApiServer& server = SharedApiServer();      // one per test binary, lazily
//   // SharedApiServer126() / SharedApiServer135(): one more, always v1.26 /
//   // v1.35 (started on first use)
//   if (!server.ok()) GTEST_SKIP() << server.why_not();
//   auto sched = server.SchedulerConfig();      // ksched's own identity
//   server.CreateReadyNode("n1", "4", "8Gi");  // as a kubelet would
//   server.CreatePod("ns1", "p1");              // as a user would
//
// The shared server is stopped (and its directory removed) when the test
// binary exits. Restart() stops and starts it on the same ports with the same
// etcd data (an API server restart as clients see it). TcpProxy sits between
// a client and the server so a test can cut or refuse connections without a
// restart.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client_config.h"
#include "client/rest_client.h"
#include "util/result.h"

namespace ksched::testing {

// DIR/env as start.sh writes it.
struct ApiServerEnv {
  std::string dir;
  std::string url;  // https://127.0.0.1:PORT
  int port = 0;
  int etcd_port = 0;
  int etcd_peer_port = 0;
  std::string ca_file;
  std::string admin_kubeconfig;
  std::string scheduler_kubeconfig;
  std::string version;  // APISERVER_VERSION: "1.15", "1.26" or "1.35"
};

class ApiServer {
 public:
  // Starts etcd + kube-apiserver in a new directory (under /dev/shm when it
  // exists: etcd's fsyncs are then free). `extra_args` go to
  // APISERVER_EXTRA_ARGS. Fails (with the reason) when etcd or the shared
  // scripts are missing or the server does not come up. `kube_version`:
  // "" or "1.15" for v1.15.5, "1.26" for v1.26.0 (start.sh's KUBE_VERSION),
  // "1.35" for v1.35.4 (built by scripts/k8s-v135.sh on first use on a machine:
  // minutes; then cached outside the tree).
  static Result<std::unique_ptr<ApiServer>> Start(const std::string& extra_args = "",
                                                  const std::string& kube_version = "");
  ~ApiServer();

  // Stops both processes and starts them again on the same ports and data.
  Status Restart();
  // Stops only (Restart's first half) / starts again (its second half).
  Status Stop();
  Status StartAgain();

  const ApiServerEnv& env() const { return env_; }
  // The server's minor version: 15, 26 or 35.
  int minor() const;
  // True for a v1.26 server or a newer one (v1.25+ APIs: policy/v1,
  // events.k8s.io/v1, CSINodes; bootstrap RBAC with Leases).
  bool is_v126() const { return minor() >= 26; }
  // True for a v1.35 server (resource.k8s.io/v1, QueueingHints-era defaults).
  bool is_v135() const { return minor() >= 35; }
  std::string dir() const { return env_.dir; }

  // ksched's identity (system:kube-scheduler) and the admin (system:masters).
  Result<client::ClientConfig> SchedulerConfig() const;
  Result<client::ClientConfig> AdminConfig() const;

  // A copy of `kubeconfig` (e.g. env().scheduler_kubeconfig) whose server is
  // `server_url` (e.g. a TcpProxy's url()), written into dir(); its path.
  Result<std::string> KubeconfigVia(const std::string& kubeconfig, const std::string& server_url,
                                    const std::string& name);

  // Admin REST call; non-2xx is an error. `path` starts with "/".
  Result<std::string> Admin(const std::string& method, const std::string& path,
                            const std::string& body = "",
                            const std::string& content_type = "application/json");
  // The namespace and its "default" ServiceAccount (idempotent).
  Status EnsureNamespace(const std::string& ns);
  // A Ready node with capacity = allocatable, the not-ready taint removed
  // (as loadgen.py does: there is no node controller); on v1.26+ also its
  // CSINode (storage.k8s.io/v1, no drivers), as its kubelet would register.
  Status CreateReadyNode(const std::string& name, const std::string& cpu = "4",
                         const std::string& memory = "8Gi", const std::string& pods = "110",
                         const std::string& labels_json = "{}");
  // A pending pod with one container requesting `cpu`/`memory`,
  // terminationGracePeriodSeconds 0. Returns the created object's JSON.
  Result<std::string> CreatePod(const std::string& ns, const std::string& name,
                                const std::string& scheduler_name = "default-scheduler",
                                const std::string& cpu = "100m",
                                const std::string& memory = "64Mi");
  // Any object JSON into a collection path, e.g. "/api/v1/namespaces/x/pods".
  Result<std::string> CreateObject(const std::string& collection_path, const std::string& json);
  // Deletes with gracePeriodSeconds 0 (no kubelet confirms anything here).
  Status DeletePodNow(const std::string& ns, const std::string& name);
  Status DeleteNode(const std::string& name);  // and its CSINode on v1.26+
  // Every pod of `ns`, with gracePeriodSeconds 0 (tests clean up after themselves so that
  // later tests in the same binary see no leftovers).
  Status DeleteAllPods(const std::string& ns);
  // The pod as the server has it now.
  Result<std::string> GetPod(const std::string& ns, const std::string& name);

 private:
  ApiServer() = default;
  Status RunScript(const std::string& script, const std::string& env_prefix);
  Status LoadEnv();

  std::string shared_dir_;
  std::string extra_args_;
  std::string kube_version_;
  std::string apiserver_binary_;  // KUBE_APISERVER for start.sh; "" = its own archive
  ApiServerEnv env_;
  bool running_ = false;
  std::mutex admin_mu_;
  std::unique_ptr<client::RestClient> admin_;
};

// The shared server's extra kube-apiserver flags: a pod watch cache of 100
// events (upstream's heuristic gives 1000), so that a watch resumed after
// more than 100 pod changes gets 410 Gone -- cheap to provoke in a test, and
// a path every watcher must survive anyway.
inline constexpr char kSharedServerArgs[] = "--watch-cache-sizes=pods#100";

// The test binary's server, started on first use; ok() false with why_not()
// when it cannot start (tests then skip or fail as they choose).
class SharedServer {
 public:
  bool ok() const { return server_ != nullptr; }
  const std::string& why_not() const { return why_not_; }
  ApiServer& operator*() { return *server_; }
  ApiServer* operator->() { return server_.get(); }

 private:
  friend SharedServer& SharedApiServer();
  friend SharedServer& SharedApiServer126();
  friend SharedServer& SharedApiServer135();
  std::unique_ptr<ApiServer> server_;
  std::string why_not_;
};
// The test binary's main server: v1.15.5, or the version in
// KSCHED_TEST_KUBE_VERSION ("1.26" runs every test against v1.26.0, "1.35"
// against v1.35.4).
SharedServer& SharedApiServer();
// A v1.26.0 server for the tests written for it, started on first use (the
// main server itself when that is v1.26).
SharedServer& SharedApiServer126();
// A v1.35.4 server for the tests written for it, started on first use (the
// main server itself when that is v1.35). Its binary comes from
// scripts/k8s-v135.sh, which builds it the first time on a machine.
SharedServer& SharedApiServer135();

// The path of the cached upstream v1.35.4 binary `name` ("kube-apiserver" or
// "kube-scheduler"), both built by scripts/k8s-v135.sh when missing (minutes
// on 2 cores, once per machine; the script's progress goes to stderr).
Result<std::string> KubeBinaryV135(const std::string& name);

// Where ../shared is (KSCHED_SHARED_DIR, else the KSCHED_SHARED_DIR macro).
std::string SharedDir();

// A TCP relay on 127.0.0.1: connections to port() are relayed to
// 127.0.0.1:target_port. CutAll() closes every relayed connection;
// while Refuse(true), new connections are closed as soon as they arrive.
class TcpProxy {
 public:
  explicit TcpProxy(int target_port);
  ~TcpProxy();
  int port() const { return port_; }
  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
  void CutAll();
  void Refuse(bool refuse) { refuse_ = refuse; }
  int connections_accepted() const { return accepted_; }
  void set_target_port(int p) { target_port_ = p; }

 private:
  void AcceptLoop();
  void Relay(int client_fd, int server_fd);

  std::atomic<int> target_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> refuse_{false};
  std::atomic<int> accepted_{0};
  std::mutex mu_;
  std::vector<int> live_fds_;
  std::vector<std::thread> threads_;
  std::thread accept_thread_;
};

}  // namespace ksched::testing
