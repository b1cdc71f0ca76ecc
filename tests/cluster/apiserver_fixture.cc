#include "tests/cluster/apiserver_fixture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "client/client_config.h"

namespace ksched::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string Tail(const std::string& text, size_t lines) {
  size_t pos = text.size();
  for (size_t i = 0; i <= lines && pos != std::string::npos && pos > 0; ++i) {
    pos = text.rfind('\n', pos - 1);
  }
  return pos == std::string::npos ? text : text.substr(pos + 1);
}

}  // namespace

std::string SharedDir() {
  if (const char* d = std::getenv("KSCHED_SHARED_DIR"); d != nullptr && *d != '\0') return d;
#ifdef KSCHED_SHARED_DIR
  return KSCHED_SHARED_DIR;
#else
  return "../shared";
#endif
}

// ====================================================================== ApiServer

Result<std::unique_ptr<ApiServer>> ApiServer::Start(const std::string& extra_args,
                                                    const std::string& kube_version) {
  std::unique_ptr<ApiServer> s(new ApiServer());
  s->shared_dir_ = SharedDir() + "/apiserver";
  s->extra_args_ = extra_args;
  if (!kube_version.empty() && kube_version != "1.15" && kube_version != "1.26" &&
      kube_version != "1.35") {
    return MakeError("kube version \"" + kube_version + "\": 1.15, 1.26 or 1.35");
  }
  s->kube_version_ = kube_version == "1.15" || kube_version == "1.35" ? "" : kube_version;
  if (!fs::exists(s->shared_dir_ + "/start.sh")) {
    return MakeError("no " + s->shared_dir_ + "/start.sh (the shared API server scripts)");
  }
  const char* etcd = std::getenv("ETCD");
  if (!fs::exists(etcd != nullptr ? etcd : "/usr/bin/etcd")) {
    return MakeError("etcd is not installed (scripts/install-deps.sh installs etcd-server)");
  }
  if (kube_version == "1.35") {
    // start.sh has no archive of v1.35: it runs the binary it is given and picks the flags
    // by the binary's --version. Built here (minutes, once per machine) when not cached.
    auto binary = KubeBinaryV135("kube-apiserver");
    if (!binary.ok()) return binary.error();
    s->apiserver_binary_ = *binary;
  }
  std::string base = fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path().string();
  std::string tmpl = base + "/ksched-apiserver-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) return MakeError("cannot create a directory under " + base);
  s->env_.dir = buf.data();
  // If this process dies without its destructors (a crash, kill -9), a
  // watchdog stops the server and removes its directory.
  std::string watchdog =
      "(while kill -0 " + std::to_string(::getpid()) + " 2>/dev/null; do sleep 1; done; " +
      "bash " + ShellQuote(s->shared_dir_ + "/stop.sh") + " " + ShellQuote(s->env_.dir) +
      " --clean; rm -rf " + ShellQuote(s->env_.dir) + ") >/dev/null 2>&1 </dev/null &";
  if (std::system(("setsid sh -c " + ShellQuote(watchdog) + " >/dev/null 2>&1").c_str()) != 0) {
    // Not fatal: only the crash cleanup is lost.
  }
  if (Status st = s->StartAgain(); !st.ok()) return st.error();
  return s;
}

ApiServer::~ApiServer() {
  if (env_.dir.empty()) return;
  admin_.reset();
  if (running_) {
    (void)RunScript("stop.sh", "");
  }
  std::error_code ec;
  fs::remove_all(env_.dir, ec);
}

Status ApiServer::RunScript(const std::string& script, const std::string& env_prefix) {
  std::string log = env_.dir + "/" + script + ".out";
  std::string cmd = env_prefix + " bash " + ShellQuote(shared_dir_ + "/" + script) + " " +
                    ShellQuote(env_.dir) + " > " + ShellQuote(log) + " 2>&1 < /dev/null";
  int rc = std::system(cmd.c_str());
  if (rc != 0) {
    return MakeError(script + " " + env_.dir + " failed (status " + std::to_string(rc) + "):\n" +
                     Tail(ReadText(log), 25));
  }
  return Status::Ok();
}

Status ApiServer::LoadEnv() {
  std::map<std::string, std::string> vars;
  std::ifstream in(env_.dir + "/env");
  if (!in) return MakeError("start.sh wrote no " + env_.dir + "/env");
  std::string line;
  while (std::getline(in, line)) {
    size_t eq = line.find('=');
    if (eq != std::string::npos) vars[line.substr(0, eq)] = line.substr(eq + 1);
  }
  env_.url = vars["APISERVER_URL"];
  env_.port = std::atoi(vars["APISERVER_PORT"].c_str());
  env_.etcd_port = std::atoi(vars["ETCD_PORT"].c_str());
  env_.etcd_peer_port = std::atoi(vars["ETCD_PEER_PORT"].c_str());
  env_.ca_file = vars["CA_FILE"];
  env_.admin_kubeconfig = vars["ADMIN_KUBECONFIG"];
  env_.scheduler_kubeconfig = vars["SCHEDULER_KUBECONFIG"];
  env_.version = vars.count("APISERVER_VERSION") ? vars["APISERVER_VERSION"] : "1.15";
  if (minor() != 15 && minor() != 26 && minor() != 35) {
    return MakeError(env_.dir + "/env: APISERVER_VERSION=" + env_.version +
                     ", not 1.15, 1.26 or 1.35");
  }
  if (env_.url.empty() || env_.port == 0) return MakeError(env_.dir + "/env is incomplete");
  return Status::Ok();
}

Status ApiServer::StartAgain() {
  // start.sh waits 60 s for /healthz by default; a loaded CI machine can need more.
  std::string prefix = "START_TIMEOUT=${START_TIMEOUT:-180} ";
  if (!extra_args_.empty()) prefix += "APISERVER_EXTRA_ARGS=" + ShellQuote(extra_args_) + " ";
  // start.sh reads KUBE_VERSION: set it (or clear an inherited one) explicitly.
  prefix += "KUBE_VERSION=" + ShellQuote(kube_version_) + " ";
  // KUBE_APISERVER likewise: an inherited one must not replace the version asked for.
  prefix += "KUBE_APISERVER=" + ShellQuote(apiserver_binary_) + " ";
  if (env_.port != 0) {
    prefix += "APISERVER_PORT=" + std::to_string(env_.port) +
              " ETCD_PORT=" + std::to_string(env_.etcd_port) +
              " ETCD_PEER_PORT=" + std::to_string(env_.etcd_peer_port) + " ";
  }
  // v1.26's /healthz can be ok a moment before its bootstrap controller has
  // created the "default" namespace, and start.sh's first POST then gets a
  // 404; start.sh stops both processes when it fails, so starting again in
  // the same directory (etcd data and PKI kept) is safe.
  Status started = Status::Ok();
  for (int attempt = 1; attempt <= 3; ++attempt) {
    started = RunScript("start.sh", prefix);
    if (started.ok()) break;
    std::fprintf(stderr, "apiserver fixture: start attempt %d failed, %s\n", attempt,
                 attempt < 3 ? "starting again" : "giving up");
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  if (!started.ok()) return started;
  running_ = true;
  if (Status st = LoadEnv(); !st.ok()) return st;
  std::lock_guard<std::mutex> lock(admin_mu_);
  if (admin_ == nullptr) {
    auto config = AdminConfig();
    if (!config.ok()) return config.error();
    auto rest = client::RestClient::Create(*config);
    if (!rest.ok()) return rest.error();
    admin_ = std::move(rest).value();
  }
  return Status::Ok();
}

int ApiServer::minor() const {
  // "1.MINOR"; LoadEnv accepts only the three versions the fixture starts.
  return env_.version.size() > 2 ? std::atoi(env_.version.c_str() + 2) : 0;
}

Status ApiServer::Stop() {
  if (!running_) return Status::Ok();
  Status st = RunScript("stop.sh", "");
  running_ = false;
  return st;
}

Status ApiServer::Restart() {
  if (Status st = Stop(); !st.ok()) return st;
  return StartAgain();
}

Result<client::ClientConfig> ApiServer::SchedulerConfig() const {
  return client::LoadKubeconfig(env_.scheduler_kubeconfig);
}

Result<client::ClientConfig> ApiServer::AdminConfig() const {
  return client::LoadKubeconfig(env_.admin_kubeconfig);
}

Result<std::string> ApiServer::KubeconfigVia(const std::string& kubeconfig,
                                             const std::string& server_url,
                                             const std::string& name) {
  std::string text = ReadText(kubeconfig);
  size_t at = text.find("server: ");
  if (at == std::string::npos) return MakeError(kubeconfig + ": no server line");
  size_t eol = text.find('\n', at);
  text.replace(at, eol - at, "server: " + server_url);
  std::string path = env_.dir + "/" + name;
  std::ofstream out(path);
  out << text;
  if (!out) return MakeError("cannot write " + path);
  return path;
}

Result<std::string> ApiServer::Admin(const std::string& method, const std::string& path,
                                     const std::string& body, const std::string& content_type) {
  client::RequestTarget t{method, "", path, "", ""};
  client::RestClient* rest;
  {
    std::lock_guard<std::mutex> lock(admin_mu_);
    rest = admin_.get();
  }
  if (rest == nullptr) return MakeError("the API server is not running");
  return rest->Call(t, method, path, body, content_type);
}

Status ApiServer::EnsureNamespace(const std::string& ns) {
  json nsobj = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}};
  auto r = Admin("POST", "/api/v1/namespaces", nsobj.dump());
  if (!r.ok() && r.error().http_code != 409) return r.error();
  json sa = {{"apiVersion", "v1"},
             {"kind", "ServiceAccount"},
             {"metadata", {{"name", "default"}}},
             {"automountServiceAccountToken", false}};
  auto s = Admin("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts", sa.dump());
  if (!s.ok() && s.error().http_code != 409) return s.error();
  return Status::Ok();
}

Status ApiServer::CreateReadyNode(const std::string& name, const std::string& cpu,
                                  const std::string& memory, const std::string& pods,
                                  const std::string& labels_json) {
  json labels = json::parse(labels_json, nullptr, false);
  if (labels.is_discarded() || !labels.is_object())
    return MakeError("labels must be a JSON object");
  labels["kubernetes.io/hostname"] = name;
  json resources = {{"cpu", cpu}, {"memory", memory}, {"pods", pods}};
  json conditions = json::array();
  std::string now = "2020-01-01T00:00:00Z";
  conditions.push_back({{"type", "Ready"},
                        {"status", "True"},
                        {"reason", "KubeletReady"},
                        {"lastHeartbeatTime", now},
                        {"lastTransitionTime", now}});
  for (const char* t : {"MemoryPressure", "DiskPressure", "PIDPressure"}) {
    conditions.push_back({{"type", t},
                          {"status", "False"},
                          {"lastHeartbeatTime", now},
                          {"lastTransitionTime", now}});
  }
  json node = {{"apiVersion", "v1"},
               {"kind", "Node"},
               {"metadata", {{"name", name}, {"labels", labels}}},
               {"status",
                {{"capacity", resources}, {"allocatable", resources}, {"conditions", conditions}}}};
  auto r = Admin("POST", "/api/v1/nodes", node.dump());
  if (!r.ok()) return r.error();
  // TaintNodesByCondition added node.kubernetes.io/not-ready; nothing else removes it here.
  auto p = Admin("PATCH", "/api/v1/nodes/" + name, R"({"spec":{"taints":null}})",
                 "application/merge-patch+json");
  if (!p.ok()) return p.error();
  if (is_v126()) {
    json csinode = {{"apiVersion", "storage.k8s.io/v1"},
                    {"kind", "CSINode"},
                    {"metadata", {{"name", name}}},
                    {"spec", {{"drivers", json::array()}}}};
    auto c = Admin("POST", "/apis/storage.k8s.io/v1/csinodes", csinode.dump());
    if (!c.ok() && c.error().http_code != 409) return c.error();
  }
  return Status::Ok();
}

Result<std::string> ApiServer::CreatePod(const std::string& ns, const std::string& name,
                                         const std::string& scheduler_name, const std::string& cpu,
                                         const std::string& memory) {
  json res = {{"cpu", cpu}, {"memory", memory}};
  json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", ns}, {"labels", {{"app", "test"}}}}},
      {"spec",
       {{"schedulerName", scheduler_name},
        {"terminationGracePeriodSeconds", 0},
        {"automountServiceAccountToken", false},
        {"containers", json::array({{{"name", "c"},
                                     {"image", "registry.k8s.io/pause:3.1"},
                                     {"resources", {{"requests", res}, {"limits", res}}}}})}}}};
  return Admin("POST", "/api/v1/namespaces/" + ns + "/pods", pod.dump());
}

Result<std::string> ApiServer::CreateObject(const std::string& collection_path,
                                            const std::string& object_json) {
  return Admin("POST", collection_path, object_json);
}

Status ApiServer::DeletePodNow(const std::string& ns, const std::string& name) {
  auto r = Admin("DELETE", "/api/v1/namespaces/" + ns + "/pods/" + name,
                 R"({"apiVersion":"v1","kind":"DeleteOptions","gracePeriodSeconds":0})");
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ApiServer::DeleteAllPods(const std::string& ns) {
  auto r = Admin("DELETE", "/api/v1/namespaces/" + ns + "/pods",
                 R"({"apiVersion":"v1","kind":"DeleteOptions","gracePeriodSeconds":0})");
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ApiServer::DeleteNode(const std::string& name) {
  auto r = Admin("DELETE", "/api/v1/nodes/" + name);
  if (!r.ok()) return r.error();
  if (is_v126()) {
    auto c = Admin("DELETE", "/apis/storage.k8s.io/v1/csinodes/" + name);
    if (!c.ok() && c.error().http_code != 404) return c.error();
  }
  return Status::Ok();
}

Result<std::string> ApiServer::GetPod(const std::string& ns, const std::string& name) {
  return Admin("GET", "/api/v1/namespaces/" + ns + "/pods/" + name);
}

namespace {

std::string MainServerVersion() {
  const char* v = std::getenv("KSCHED_TEST_KUBE_VERSION");
  return v != nullptr ? v : "";
}

}  // namespace

SharedServer& SharedApiServer() {
  static SharedServer* shared = [] {
    auto* s = new SharedServer();
    auto started = ApiServer::Start(kSharedServerArgs, MainServerVersion());
    if (started.ok()) {
      s->server_ = std::move(started).value();
    } else {
      s->why_not_ = started.error().message;
    }
    // Stopped at exit (the watchdog covers a crash).
    std::atexit([] { SharedApiServer().server_.reset(); });
    return s;
  }();
  return *shared;
}

SharedServer& SharedApiServer126() {
  if (MainServerVersion() == "1.26") return SharedApiServer();
  static SharedServer* shared = [] {
    auto* s = new SharedServer();
    auto started = ApiServer::Start(kSharedServerArgs, "1.26");
    if (started.ok()) {
      s->server_ = std::move(started).value();
    } else {
      s->why_not_ = started.error().message;
    }
    std::atexit([] { SharedApiServer126().server_.reset(); });
    return s;
  }();
  return *shared;
}

SharedServer& SharedApiServer135() {
  if (MainServerVersion() == "1.35") return SharedApiServer();
  static SharedServer* shared = [] {
    auto* s = new SharedServer();
    auto started = ApiServer::Start(kSharedServerArgs, "1.35");
    if (started.ok()) {
      s->server_ = std::move(started).value();
    } else {
      s->why_not_ = started.error().message;
    }
    std::atexit([] { SharedApiServer135().server_.reset(); });
    return s;
  }();
  return *shared;
}

Result<std::string> KubeBinaryV135(const std::string& name) {
  if (name != "kube-apiserver" && name != "kube-scheduler") {
    return MakeError("no v1.35 binary \"" + name + "\": kube-apiserver or kube-scheduler");
  }
#ifdef KSCHED_SOURCE_DIR
  std::string script = std::string(KSCHED_SOURCE_DIR) + "/scripts/k8s-v135.sh";
#else
  std::string script = "scripts/k8s-v135.sh";
#endif
  if (!fs::exists(script)) return MakeError("no " + script + " (builds kube-apiserver v1.35)");
  // One caller at a time in this process; the script itself locks against other processes
  // and returns at once when the binaries are cached.
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  // The script's progress (a cold build takes minutes) goes to our stderr; its stdout is
  // KUBE_APISERVER=... and KUBE_SCHEDULER=...
  FILE* out = ::popen(("bash " + ShellQuote(script) + " < /dev/null").c_str(), "r");
  if (out == nullptr) return MakeError("cannot run " + script);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, out)) > 0;) text.append(buf, n);
  int rc = ::pclose(out);
  if (rc != 0) {
    return MakeError(script + " failed (status " + std::to_string(rc) +
                     "; its messages are above on stderr): cannot build kube-apiserver "
                     "v1.35.4 (needs Go >= 1.25 and the Go module proxy the first time)");
  }
  std::string key = name == "kube-apiserver" ? "KUBE_APISERVER=" : "KUBE_SCHEDULER=";
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
  }
  return MakeError(script + " printed no " + key + " line:\n" + text);
}

// ====================================================================== TcpProxy

TcpProxy::TcpProxy(int target_port) : target_port_(target_port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::listen(listen_fd_, 64) == 0) {
    socklen_t len = sizeof addr;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  accept_thread_ = std::thread([this] { AcceptLoop(); });
}

TcpProxy::~TcpProxy() {
  stop_ = true;
  accept_thread_.join();
  CutAll();
  for (auto& t : threads_) t.join();
  ::close(listen_fd_);
}

void TcpProxy::CutAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (int fd : live_fds_) ::shutdown(fd, SHUT_RDWR);
}

void TcpProxy::AcceptLoop() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    int client = ::accept(listen_fd_, nullptr, nullptr);
    if (client < 0) continue;
    if (refuse_) {
      ::close(client);
      continue;
    }
    int server = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(target_port_.load()));
    if (::connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(server);
      ::close(client);
      continue;
    }
    int one = 1;
    ::setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ++accepted_;
    std::lock_guard<std::mutex> lock(mu_);
    live_fds_.push_back(client);
    live_fds_.push_back(server);
    threads_.emplace_back([this, client, server] { Relay(client, server); });
  }
}

void TcpProxy::Relay(int a, int b) {
  char buf[65536];
  pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
  while (!stop_) {
    int n = ::poll(fds, 2, 100);
    if (n < 0) break;
    if (n == 0) continue;
    bool done = false;
    for (int i = 0; i < 2 && !done; ++i) {
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
        if (got <= 0) {
          done = true;
          break;
        }
        ssize_t off = 0;
        while (off < got) {
          ssize_t w =
              ::send(fds[1 - i].fd, buf + off, static_cast<size_t>(got - off), MSG_NOSIGNAL);
          if (w <= 0) {
            done = true;
            break;
          }
          off += w;
        }
      }
    }
    if (done) break;
  }
  std::lock_guard<std::mutex> lock(mu_);
  ::shutdown(a, SHUT_RDWR);
  ::shutdown(b, SHUT_RDWR);
  ::close(a);
  ::close(b);
  std::erase(live_fds_, a);
  std::erase(live_fds_, b);
}

}  // namespace ksched::testing
