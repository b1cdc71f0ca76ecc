// `ksched run` end to end against the real kube-apiserver v1.15.5 (RunE2E;
// KSCHED_TEST_KUBE_VERSION=1.26 runs them on v1.26.0) and v1.26.0 (RunE2E126): the
// binary runs as a separate process with the scheduler identity
// (system:kube-scheduler's rights only); the test plays the user and the
// kubelet with the admin identity.
#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "api/yaml_to_json.h"
#include "live/leader_elector.h"
#include "tests/cluster/apiserver_fixture.h"
#include "tests/cluster/ksched_process.h"

namespace ksched {
namespace {

using nlohmann::json;
using testing::ApiServer;
using testing::ReadFile;
using testing::SharedApiServer;
using testing::WaitFor;
using namespace std::chrono_literals;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

using Ksched = testing::KschedProcess;

class RunE2E : public ::testing::Test {
 protected:
  virtual testing::SharedServer& Shared() { return SharedApiServer(); }
  void SetUp() override {
    auto& shared = Shared();
    if (!shared.ok()) {
      if (std::getenv("KSCHED_SKIP_CLUSTER_TESTS") != nullptr) GTEST_SKIP() << shared.why_not();
      FAIL() << "cannot start the API server: " << shared.why_not();
    }
    server_ = &*shared;
    dir_ = server_->dir() + "/run-e2e";
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (server_ == nullptr) return;
    for (const std::string& n : nodes_) (void)server_->DeleteNode(n);
  }

  // `port` 0: no health or metrics server.
  std::vector<std::string> BaseArgs(const std::string& scheduler_name, int port = 0) {
    return {"--kubeconfig",     server_->env().scheduler_kubeconfig,
            "--scheduler-name", scheduler_name,
            "--port",           std::to_string(port)};
  }
  std::string LogPath(const std::string& name) { return dir_ + "/" + name + ".log"; }

  void Node(const std::string& name, const std::string& cpu, const std::string& labels = "{}") {
    Status s = server_->CreateReadyNode(name, cpu, "16Gi", "110", labels);
    ASSERT_TRUE(s.ok()) << s.error().message;
    nodes_.push_back(name);
  }
  void Pod(const std::string& ns, const std::string& name, const std::string& scheduler,
           const std::string& cpu = "100m") {
    auto r = server_->CreatePod(ns, name, scheduler, cpu);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  // A PriorityClass (kept if it exists: the server is shared between tests).
  void PriorityClass(const std::string& name, int value) {
    json pc = {{"apiVersion", "scheduling.k8s.io/v1"},
               {"kind", "PriorityClass"},
               {"metadata", {{"name", name}}},
               {"value", value}};
    auto created = server_->CreateObject("/apis/scheduling.k8s.io/v1/priorityclasses", pc.dump());
    ASSERT_TRUE(created.ok() || created.error().http_code == 409) << created.error().message;
  }
  void PodJson(const std::string& ns, const json& pod) {
    auto r = server_->CreateObject("/api/v1/namespaces/" + ns + "/pods", pod.dump());
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  // name -> spec.nodeName ("" when pending) of the pods in `ns`.
  std::map<std::string, std::string> Placement(const std::string& ns) {
    std::map<std::string, std::string> out;
    auto list = server_->Admin("GET", "/api/v1/namespaces/" + ns + "/pods");
    EXPECT_TRUE(list.ok()) << list.error().message;
    if (!list.ok()) return out;
    const json doc = json::parse(*list);  // not a temporary: the loop reads into it
    for (const json& item : doc["items"]) {
      out[item["metadata"]["name"]] = item["spec"].value("nodeName", "");
    }
    return out;
  }
  size_t NumBound(const std::string& ns) {
    size_t n = 0;
    for (const auto& [name, node] : Placement(ns)) n += node.empty() ? 0 : 1;
    return n;
  }
  // The events of `ns` as "name reason: message".
  std::vector<std::string> Events(const std::string& ns) {
    std::vector<std::string> out;
    auto list = server_->Admin("GET", "/api/v1/namespaces/" + ns + "/events");
    EXPECT_TRUE(list.ok());
    if (!list.ok()) return out;
    const json doc = json::parse(*list);
    for (const json& e : doc["items"]) {
      out.push_back(e["involvedObject"].value("name", "") + " " + e.value("reason", "") + ": " +
                    e.value("message", ""));
    }
    return out;
  }

  ApiServer* server_ = nullptr;
  std::string dir_;
  std::vector<std::string> nodes_;
};

json ShapedPod(const std::string& name, const std::string& scheduler, const std::string& cpu,
               const std::string& memory) {
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"labels", {{"shape", name}}}}},
              {"spec",
               {{"schedulerName", scheduler},
                {"automountServiceAccountToken", false},
                {"terminationGracePeriodSeconds", 0},
                {"containers",
                 {{{"name", "c"},
                   {"image", "registry.k8s.io/pause:3.1"},
                   {"resources", {{"requests", {{"cpu", cpu}, {"memory", memory}}}}}}}}}}};
}

// Pods of several shapes land where `ksched schedule` puts them on the same
// objects; pods of another scheduler are left alone.
TEST_F(RunE2E, BindsWhereScheduleWouldAndLeavesOtherSchedulersPods) {
  const std::string ns = "e2e-shapes", me = "e2e-shapes-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-shapes-a", "2", R"({"disk":"ssd","failure-domain.beta.kubernetes.io/zone":"z1"})");
  Node("e2e-shapes-b", "4", R"({"failure-domain.beta.kubernetes.io/zone":"z1"})");
  Node("e2e-shapes-c", "8", R"({"failure-domain.beta.kubernetes.io/zone":"z2"})");
  Node("e2e-shapes-d", "1", R"({"disk":"ssd","failure-domain.beta.kubernetes.io/zone":"z2"})");
  std::vector<json> pods;
  pods.push_back(ShapedPod("p01-small", me, "100m", "64Mi"));
  pods.push_back(ShapedPod("p02-large", me, "3", "1Gi"));
  pods.push_back(ShapedPod("p03-large", me, "3", "1Gi"));
  json ssd = ShapedPod("p04-ssd", me, "500m", "64Mi");
  ssd["spec"]["nodeSelector"] = {{"disk", "ssd"}};
  pods.push_back(ssd);
  for (int i = 5; i <= 8; ++i) {
    json web = ShapedPod(fmt::format("p{:02}-web", i), me, "200m", "128Mi");
    web["metadata"]["labels"]["app"] = "web";
    web["spec"]["affinity"] = {{"podAntiAffinity",
                                {{"requiredDuringSchedulingIgnoredDuringExecution",
                                  {{{"labelSelector", {{"matchLabels", {{"app", "web"}}}}},
                                    {"topologyKey", "kubernetes.io/hostname"}}}}}}};
    pods.push_back(web);
  }
  json zoned = ShapedPod("p09-zone2", me, "1", "1Gi");
  zoned["spec"]["affinity"] = {{"nodeAffinity",
                                {{"requiredDuringSchedulingIgnoredDuringExecution",
                                  {{"nodeSelectorTerms",
                                    {{{"matchExpressions",
                                       {{{"key", "failure-domain.beta.kubernetes.io/zone"},
                                         {"operator", "In"},
                                         {"values", {"z2"}}}}}}}}}}}}};
  pods.push_back(zoned);
  pods.push_back(ShapedPod("p10-cpu", me, "2", "2Gi"));
  pods.push_back(ShapedPod("p11-too-big", me, "16", "1Gi"));  // fits nowhere
  for (const json& p : pods) PodJson(ns, p);
  Pod(ns, "zz-other-1", "other-scheduler");
  Pod(ns, "zz-other-2", "other-scheduler");

  // What `ksched schedule` decides on a snapshot of the same objects, with
  // the engine `run` picks for this server (v1.15 on v1.15.5, else v1.26).
  const std::string engine = server_->is_v135() ? "v1.35" : server_->is_v126() ? "v1.26" : "v1.15";
  auto nodes_list = server_->Admin("GET", "/api/v1/nodes");
  auto pods_list = server_->Admin("GET", "/api/v1/pods");
  ASSERT_TRUE(nodes_list.ok() && pods_list.ok());
  std::ofstream(dir_ + "/shapes-nodes.json") << *nodes_list;
  std::ofstream(dir_ + "/shapes-pods.json") << *pods_list;
  const std::string cmd = fmt::format(
      "{} schedule --scheduler-version {} -f {}/shapes-nodes.json -f {}/shapes-pods.json "
      "--scheduler-name {} "
      "--tie-break name -o json > {}/shapes-expected.json",
      KSCHED_BINARY, engine, dir_, dir_, me, dir_);
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) <= 1) << cmd;
  std::map<std::string, std::string> expected;
  for (const json& step : json::parse(ReadFile(dir_ + "/shapes-expected.json"))) {
    std::string key = step["pod"];
    if (key.rfind(ns + "/", 0) != 0) continue;
    if (step.contains("skipped")) {  // another scheduler's pod
      EXPECT_EQ(key.rfind(ns + "/zz-other-", 0), 0u) << key;
      continue;
    }
    expected[key.substr(ns.size() + 1)] = step["node"].is_null() ? "" : step["node"];
  }
  ASSERT_EQ(expected.size(), pods.size());

  std::vector<std::string> args = BaseArgs(me);
  for (const char* a :
       {"--leader-elect=false", "--tie-break", "name", "--percentage-of-nodes-to-score", "100"})
    args.push_back(a);
  Ksched k(LogPath("shapes"), args);
  const size_t want_bound = pods.size() - 1;
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) >= want_bound; }, 30s)) << k.Log();
  std::this_thread::sleep_for(1s);  // nothing else gets bound
  std::map<std::string, std::string> got = Placement(ns);
  for (const auto& [name, node] : expected)
    EXPECT_EQ(got[name], node) << name << "\n"
                               << ReadFile(dir_ + "/shapes-expected.json").substr(0, 3000);
  EXPECT_EQ(got["zz-other-1"], "");
  EXPECT_EQ(got["zz-other-2"], "");
  // Events: Scheduled for the bound, FailedScheduling for the one that fits nowhere.
  ASSERT_TRUE(WaitFor(
      [&] {
        size_t scheduled = 0;
        for (const std::string& e : Events(ns))
          scheduled += e.find(" Scheduled: ") != std::string::npos;
        return scheduled >= want_bound;
      },
      15s));
  bool failed_event = false;
  for (const std::string& e : Events(ns)) {
    if (e.rfind("p11-too-big FailedScheduling: 0/", 0) == 0) failed_event = true;
    if (e.rfind("p01-small Scheduled: ", 0) == 0) {
      EXPECT_EQ(e, "p01-small Scheduled: Successfully assigned e2e-shapes/p01-small to " +
                       expected["p01-small"]);
    }
  }
  EXPECT_TRUE(failed_event);
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0) << k.Log();
  for (const auto& [name, node] : got) (void)server_->DeletePodNow(ns, name);
}

// An unschedulable pod gets the event and the condition, and is bound once a
// node that fits is added.
TEST_F(RunE2E, UnschedulablePodIsBoundOnceAFittingNodeArrives) {
  const std::string ns = "e2e-unsched", me = "e2e-unsched-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-unsched-small", "1");
  std::vector<std::string> args = BaseArgs(me);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("unsched"), args);
  Pod(ns, "huge", me, "40");
  ASSERT_TRUE(WaitFor(
      [&] {
        auto pod = server_->GetPod(ns, "huge");
        if (!pod.ok()) return false;
        const json doc = json::parse(*pod);
        for (const json& c : doc["status"].value("conditions", json::array())) {
          if (c["type"] == "PodScheduled" && c["status"] == "False" &&
              c["reason"] == "Unschedulable" &&
              c.value("message", "").find("Insufficient cpu") != std::string::npos)
            return true;
        }
        return false;
      },
      20s))
      << k.Log();
  // The event is written by another thread than the condition.
  EXPECT_TRUE(WaitFor(
      [&] {
        for (const std::string& e : Events(ns)) {
          if (e.rfind("huge FailedScheduling: 0/", 0) == 0 &&
              e.find("Insufficient cpu") != std::string::npos)
            return true;
        }
        return false;
      },
      10s))
      << json(Events(ns)).dump();
  Node("e2e-unsched-big", "64");
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["huge"] == "e2e-unsched-big"; }, 20s))
      << k.Log() << json(Placement(ns)).dump();
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  (void)server_->DeletePodNow(ns, "huge");
}

// Preemption: the high-priority pod is nominated, the victim deleted with a
// Preempted event, and the preemptor bound once the victim is gone.
TEST_F(RunE2E, PreemptionDeletesTheVictimAndBindsThePreemptor) {
  const std::string ns = "e2e-preempt", me = "e2e-preempt-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  PriorityClass("e2e-high", 1000);
  Node("e2e-preempt-n1", "2");
  std::vector<std::string> args = BaseArgs(me);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("preempt"), args);
  PodJson(ns, ShapedPod("low", me, "1500m", "64Mi"));
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["low"] == "e2e-preempt-n1"; }, 20s)) << k.Log();
  json high = ShapedPod("high", me, "1500m", "64Mi");
  high["spec"]["priorityClassName"] = "e2e-high";
  PodJson(ns, high);
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["high"] == "e2e-preempt-n1"; }, 30s)) << k.Log();
  EXPECT_EQ(Placement(ns).count("low"), 0u);  // deleted
  ASSERT_TRUE(WaitFor(
      [&] {
        for (const std::string& e : Events(ns))
          if (e == std::string("low Preempted: ") + (server_->is_v126() ? "Preempted " : "") +
                       "by e2e-preempt/high on node e2e-preempt-n1")
            return true;
        return false;
      },
      10s))
      << json(Events(ns)).dump();
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  EXPECT_NE(k.Log().find("preempting for e2e-preempt/high on node e2e-preempt-n1: deleting "
                         "e2e-preempt/low"),
            std::string::npos)
      << k.Log();
  for (const auto& [name, node] : Placement(ns)) (void)server_->DeletePodNow(ns, name);
}

// SIGTERM in the middle of a burst: ksched stops popping, finishes its
// in-flight bindings, releases the lease and exits 0; a second replica then
// takes the lease at once and binds the rest; no pod is bound twice.
TEST_F(RunE2E, SigtermMidBurstFinishesBindingsAndReleasesTheLease) {
  const std::string ns = "e2e-sigterm", me = "e2e-sigterm-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-sigterm-n1", "64");
  Node("e2e-sigterm-n2", "64");
  std::vector<std::string> args = BaseArgs(me);
  for (const char* a : {"--lock-object-name", "e2e-sigterm-lock"}) args.push_back(a);
  Ksched a(LogPath("sigterm-a"), args);
  ASSERT_TRUE(WaitFor([&] { return a.Log().find("became leader") != std::string::npos; }, 20s))
      << a.Log();
  const int kPods = 120;
  std::thread creator([&] {
    for (int i = 0; i < kPods; ++i) Pod(ns, fmt::format("burst-{:03}", i), me, "10m");
  });
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) >= 10; }, 30s)) << a.Log();
  a.Signal(SIGTERM);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(a.Wait(20s), 0) << a.Log();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  creator.join();
  const std::string log_a = a.Log();
  EXPECT_NE(log_a.find("lease released"), std::string::npos) << log_a;
  auto lease = server_->Admin("GET",
                              "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/"
                              "e2e-sigterm-lock");
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ(json::parse(*lease)["spec"].value("holderIdentity", ""), "");
  // Every binding a started was finished: what it logged bound is bound.
  const size_t bound_by_a = Count(log_a, "] bound " + ns + "/");
  const size_t bound_now = NumBound(ns);
  EXPECT_EQ(bound_now, bound_by_a);
  EXPECT_LT(bound_now, static_cast<size_t>(kPods));  // stopped mid-burst

  const auto t1 = std::chrono::steady_clock::now();
  Ksched b(LogPath("sigterm-b"), args);
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) == static_cast<size_t>(kPods); }, 60s)) << b.Log();
  // The released lease is taken at once, not after a lease duration.
  EXPECT_LT(std::chrono::steady_clock::now() - t1, 14s);
  b.Signal(SIGTERM);
  EXPECT_EQ(b.Wait(20s), 0);
  // Logs are complete once the process exited.
  const std::string log_b = b.Log();
  EXPECT_EQ(Count(log_b, "] bound " + ns + "/"), kPods - bound_by_a);
  EXPECT_EQ(Count(log_a + log_b, "] binding "), 0u) << log_a << log_b;  // no failed binding
  for (int i = 0; i < kPods; ++i) (void)server_->DeletePodNow(ns, fmt::format("burst-{:03}", i));
}

// Two replicas with leader election (kube-scheduler's default timings:
// lease 15 s, renew deadline 10 s, retry 2 s): exactly one binds; SIGKILL it
// and the standby takes over once the lease expires and binds the next 100
// pods within 40 s of the kill.
TEST_F(RunE2E, TwoReplicasOnlyTheLeaderBindsAndTheStandbyTakesOver) {
  const std::string ns = "e2e-leader", me = "e2e-leader-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-leader-n1", "64");
  Node("e2e-leader-n2", "64");
  std::vector<std::string> args = BaseArgs(me);
  for (const char* a : {"--lock-object-name", "e2e-leader-lock"}) args.push_back(a);
  auto a = std::make_unique<Ksched>(LogPath("leader-a"), args);
  ASSERT_TRUE(WaitFor([&] { return a->Log().find("became leader") != std::string::npos; }, 20s))
      << a->Log();
  Ksched b(LogPath("leader-b"), args);
  ASSERT_TRUE(WaitFor([&] { return b.Log().find("not leader") != std::string::npos; }, 20s))
      << b.Log();
  for (int i = 0; i < 10; ++i) Pod(ns, fmt::format("first-{}", i), me, "10m");
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) == 10; }, 30s)) << a->Log();
  // (the log line follows the binding's reply by a moment)
  EXPECT_TRUE(WaitFor([&] { return Count(a->Log(), "] bound " + ns + "/first-") == 10; }, 5s))
      << a->Log();
  EXPECT_EQ(Count(b.Log(), "] bound "), 0u);
  a->Signal(SIGKILL);  // dies without releasing
  a->Wait(5s);
  const auto t0 = std::chrono::steady_clock::now();
  const int kSecond = 100;
  for (int i = 0; i < kSecond; ++i) Pod(ns, fmt::format("second-{:03}", i), me, "10m");
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) == 10 + kSecond; }, 60s)) << b.Log();
  const auto took = std::chrono::steady_clock::now() - t0;
  std::fprintf(stderr,
               "leader SIGKILLed (v%s server): the standby bound the next %d pods %.1f s "
               "after the kill\n",
               server_->env().version.c_str(), kSecond,
               std::chrono::duration<double>(took).count());
  EXPECT_LT(took, 40s);  // lease duration 15 s + retry 2 s + binding
  b.Signal(SIGTERM);
  EXPECT_EQ(b.Wait(20s), 0);
  EXPECT_NE(b.Log().find("became leader"), std::string::npos);
  EXPECT_EQ(Count(b.Log(), "] bound " + ns + "/second-"), static_cast<size_t>(kSecond)) << b.Log();
  for (const auto& [name, node] : Placement(ns)) (void)server_->DeletePodNow(ns, name);
}

// v1.15's default lock: the record on the kube-system/kube-scheduler
// Endpoints, which the scheduler's role may update.
TEST_F(RunE2E, EndpointsLockLeadsAndReleases) {
  const std::string ns = "e2e-endpoints", me = "e2e-endpoints-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-endpoints-n1", "8");
  std::vector<std::string> args = BaseArgs(me);
  for (const char* a : {"--leader-elect-resource-lock", "endpoints"}) args.push_back(a);
  Ksched k(LogPath("endpoints"), args);
  ASSERT_TRUE(WaitFor([&] { return k.Log().find("became leader") != std::string::npos; }, 20s))
      << k.Log();
  Pod(ns, "p", me, "10m");
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["p"] == "e2e-endpoints-n1"; }, 20s)) << k.Log();
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  EXPECT_NE(k.Log().find("lease released"), std::string::npos) << k.Log();
  auto ep = server_->Admin("GET", "/api/v1/namespaces/kube-system/endpoints/kube-scheduler");
  ASSERT_TRUE(ep.ok()) << ep.error().message;
  const json doc = json::parse(*ep);
  const json record = json::parse(
      doc["metadata"]["annotations"].value("control-plane.alpha.kubernetes.io/leader", "{}"));
  EXPECT_EQ(record.value("holderIdentity", "?"), "") << record.dump();
  (void)server_->DeletePodNow(ns, "p");
}

// A pod bound by someone else between decision and binding (409): ksched
// drops it; every pod ends bound exactly once and ksched keeps scheduling.
TEST_F(RunE2E, PodsBoundByAnotherBinderMeanwhileAreDropped) {
  const std::string ns = "e2e-conflict", me = "e2e-conflict-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-conflict-n1", "64");
  std::vector<std::string> args = BaseArgs(me);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("conflict"), args);
  ASSERT_TRUE(WaitFor([&] { return k.Log().find("ksched run:") != std::string::npos; }, 10s));
  std::this_thread::sleep_for(2s);  // synced
  // Each pod is bound by the test right after it is created: a race with
  // ksched's own binding, which the server settles (the loser gets 409).
  const int kPods = 40;
  int test_bound = 0;
  for (int i = 0; i < kPods; ++i) {
    const std::string name = fmt::format("race-{:02}", i);
    Pod(ns, name, me, "10m");
    json binding = {
        {"apiVersion", "v1"},
        {"kind", "Binding"},
        {"metadata", {{"name", name}}},
        {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", "e2e-conflict-n1"}}}};
    auto r = server_->Admin("POST", "/api/v1/namespaces/" + ns + "/pods/" + name + "/binding",
                            binding.dump());
    test_bound += r.ok() ? 1 : 0;
  }
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) == static_cast<size_t>(kPods); }, 30s)) << k.Log();
  // Then a pod nobody races for is still scheduled.
  Pod(ns, "after", me, "10m");
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["after"] == "e2e-conflict-n1"; }, 20s)) << k.Log();
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  const std::string log = k.Log();
  const size_t ksched_bound = Count(log, "] bound " + ns + "/race-");
  EXPECT_EQ(ksched_bound + test_bound, static_cast<size_t>(kPods)) << log;
  // Conflicts are not retried for ever: at most one failed bind per pod.
  EXPECT_LE(Count(log, "] binding " + ns + "/race-"), static_cast<size_t>(test_bound));
  for (const auto& [name, node] : Placement(ns)) (void)server_->DeletePodNow(ns, name);
}

// A node deleted while pods are assumed on it (bindings still queued):
// ksched keeps going; the pods it could not place wait, and all of them land
// once the node is back.
TEST_F(RunE2E, NodeDeletedWhilePodsAreAssumedOnIt) {
  const std::string ns = "e2e-nodegone", me = "e2e-nodegone-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-nodegone-a", "64", R"({"pool":"a"})");
  Node("e2e-nodegone-b", "64", R"({"pool":"b"})");
  std::vector<std::string> args = BaseArgs(me);
  for (const char* a : {"--leader-elect=false", "--bind-workers", "1"}) args.push_back(a);
  Ksched k(LogPath("nodegone"), args);
  ASSERT_TRUE(WaitFor([&] { return k.Log().find("ksched run:") != std::string::npos; }, 10s));
  std::this_thread::sleep_for(1s);
  const int kPods = 30;
  for (int i = 0; i < kPods; ++i) {
    json pod = ShapedPod(fmt::format("on-a-{:02}", i), me, "100m", "64Mi");
    pod["spec"]["nodeSelector"] = {{"pool", "a"}};
    PodJson(ns, pod);
  }
  ASSERT_TRUE(server_->DeleteNode("e2e-nodegone-a").ok());
  // Still scheduling: a pod for the other pool is bound.
  json other = ShapedPod("on-b", me, "100m", "64Mi");
  other["spec"]["nodeSelector"] = {{"pool", "b"}};
  PodJson(ns, other);
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["on-b"] == "e2e-nodegone-b"; }, 20s)) << k.Log();
  // The node comes back: every pool-a pod ends on it, each bound once.
  Node("e2e-nodegone-a", "64", R"({"pool":"a"})");
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) == static_cast<size_t>(kPods + 1); }, 90s))
      << k.Log();
  for (const auto& [name, node] : Placement(ns)) {
    EXPECT_EQ(node, name == "on-b" ? "e2e-nodegone-b" : "e2e-nodegone-a") << name;
  }
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  const std::string log = k.Log();
  EXPECT_EQ(Count(log, "] bound " + ns + "/"), static_cast<size_t>(kPods + 1)) << log;
  for (const auto& [name, node] : Placement(ns)) (void)server_->DeletePodNow(ns, name);
}

// Every connection cut mid-run (watches and bindings alike, through a TCP
// proxy): the watches resume, no pod is lost or bound twice.
TEST_F(RunE2E, WatchCutMidRunLosesNoPod) {
  const std::string ns = "e2e-cut", me = "e2e-cut-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-cut-n1", "64");
  testing::TcpProxy proxy(server_->env().port);
  auto kubeconfig =
      server_->KubeconfigVia(server_->env().scheduler_kubeconfig, proxy.url(), "cut.kubeconfig");
  ASSERT_TRUE(kubeconfig.ok()) << kubeconfig.error().message;
  Ksched k(LogPath("cut"), {"--kubeconfig", *kubeconfig, "--scheduler-name", me, "--port", "0",
                            "--leader-elect=false"});
  for (int i = 0; i < 15; ++i) Pod(ns, fmt::format("before-{:02}", i), me, "10m");
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) == 15; }, 30s)) << k.Log();
  proxy.CutAll();
  for (int i = 0; i < 15; ++i) Pod(ns, fmt::format("after-{:02}", i), me, "10m");
  proxy.CutAll();
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) == 30; }, 60s)) << k.Log();
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  const std::string log = k.Log();
  // A binding whose reply was cut may be logged as failed although the
  // server bound the pod (the watch then shows it bound); none is bound twice.
  EXPECT_LE(Count(log, "] bound " + ns + "/"), 30u) << log;
  for (const auto& [name, node] : Placement(ns)) EXPECT_EQ(node, "e2e-cut-n1") << name;
  EXPECT_GT(proxy.connections_accepted(), 1);
  for (const auto& [name, node] : Placement(ns)) (void)server_->DeletePodNow(ns, name);
}

// Seconds since midnight of a ksched log line ("E1202 01:25:43.529586] ..."),
// -1 if it has no time.
double LogSeconds(std::string_view line) {
  int h = 0, m = 0;
  double s = 0;
  if (line.size() < 21 ||
      std::sscanf(std::string(line.substr(6, 15)).c_str(), "%d:%d:%lf", &h, &m, &s) != 3)
    return -1;
  return h * 3600 + m * 60 + s;
}

// How long the pods of `ns` whose binding failed waited for their next
// attempt, from ksched's log: from the last "binding NS/NAME ... failed"
// line to the start of the cycle that bound it ("bound NS/NAME to NODE (X ms
// after its cycle began)"), against the backoff of that many failures.
struct RetryGaps {
  int pods = 0;  // that failed and were bound later
  double max_gap_seconds = 0, max_excess_seconds = -1e9;
  std::string worst;
  int worst_failures = 0;
};
RetryGaps RetryGapsOf(const std::string& log, const std::string& ns) {
  struct Tally {
    int failures = 0;
    double last_failure = 0, bound_cycle_start = -1;
  };
  std::map<std::string, Tally> pods;
  std::istringstream lines(log);
  std::string line;
  const std::string failed = "] binding " + ns + "/", bound = "] bound " + ns + "/",
                    began = " ms after its cycle began)";
  while (std::getline(lines, line)) {
    const double t = LogSeconds(line);
    if (t < 0) continue;
    if (size_t at = line.find(failed); at != std::string::npos) {
      const size_t from = at + failed.size();
      Tally& p = pods[line.substr(from, line.find(' ', from) - from)];
      ++p.failures;
      p.last_failure = t;
    } else if (size_t at = line.find(bound); at != std::string::npos) {
      const size_t from = at + bound.size(), end = line.rfind(began), open = line.rfind('(');
      if (end == std::string::npos || open == std::string::npos) continue;
      pods[line.substr(from, line.find(' ', from) - from)].bound_cycle_start =
          t - std::stod(line.substr(open + 1, end - open - 1)) / 1000;
    }
  }
  RetryGaps out;
  for (const auto& [name, p] : pods) {
    if (p.failures == 0 || p.bound_cycle_start < 0) continue;
    ++out.pods;
    double gap = p.bound_cycle_start - p.last_failure;
    if (gap < -43200) gap += 86400;  // past midnight
    const double backoff = std::min(1 << std::min(p.failures - 1, 4), 10);
    out.max_gap_seconds = std::max(out.max_gap_seconds, gap);
    if (gap - backoff > out.max_excess_seconds) {
      out.max_excess_seconds = gap - backoff;
      out.worst = name;
      out.worst_failures = p.failures;
    }
  }
  return out;
}

// The API server restarted while ksched binds 600 pods (at kube-scheduler's
// default client rate, 50 requests/s with bursts of 100, so that the restart
// lands in the middle of the burst): the bindings made while the server is
// down fail, and each of those pods is one backoff from its next attempt
// (upstream's handleBindingCycleError), so all 600 are bound within 2 minutes
// of the restart and none twice. On the v1.15.5 server ksched runs the v1.15
// engine; on v1.26.0 (CTest's cluster_tests_v126_faults) the v1.26 engine.
TEST_F(RunE2E, ApiServerRestartMidRunLosesNoPod) {
  const std::string ns = "e2e-restart", me = "e2e-restart-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  for (int i = 1; i <= 6; ++i) Node(fmt::format("e2e-restart-n{}", i), "64");  // 660 pods' room
  const int kPods = 600;
  for (int i = 0; i < kPods; ++i) Pod(ns, fmt::format("p-{:03}", i), me, "10m");
  std::vector<std::string> args = BaseArgs(me);
  for (const char* a : {"--leader-elect=false", "--kube-api-qps", "50", "--kube-api-burst", "100"})
    args.push_back(a);
  Ksched k(LogPath("restart"), args);
  ASSERT_TRUE(WaitFor([&] { return NumBound(ns) >= 100; }, 60s)) << k.Log();
  const size_t bound_before = NumBound(ns);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(server_->Restart().ok());
  const auto up = std::chrono::steady_clock::now();
  // Listing 600 pods is work for the server too: every half second.
  size_t bound = 0;
  while (std::chrono::steady_clock::now() - t0 < 120s &&
         (bound = NumBound(ns)) < static_cast<size_t>(kPods)) {
    std::this_thread::sleep_for(500ms);
  }
  const auto t1 = std::chrono::steady_clock::now();
  k.Signal(SIGTERM);
  // It writes the events it still holds before it exits, at 50 requests/s.
  EXPECT_EQ(k.Wait(60s), 0);
  const auto t2 = std::chrono::steady_clock::now();
  const std::string log = k.Log();
  auto secs = [](std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double>(d).count();
  };
  const size_t failed = Count(log, "] binding " + ns + "/");
  const RetryGaps retry = RetryGapsOf(log, ns);
  std::fprintf(stderr,
               "restart mid-run (v%s server): %zu of %d bound before the restart, down and up "
               "again in %.1f s, all bound %.1f s after it was up (%.1f s after the restart "
               "began); %zu failed bindings of %d pods, each pod's next attempt at most "
               "%.1f s after its last failure (%.1f s beyond its backoff); exited %.1f s after "
               "SIGTERM\n",
               server_->env().version.c_str(), bound_before, kPods, secs(up - t0), secs(t1 - up),
               secs(t1 - t0), failed, retry.pods, retry.max_gap_seconds, retry.max_excess_seconds,
               secs(t2 - t1));
  EXPECT_EQ(bound, static_cast<size_t>(kPods))
      << "bound within 2 minutes of the restart\n"
      << log.substr(log.size() > 20000 ? log.size() - 20000 : 0);
  EXPECT_EQ(log.find("with the v1.15 engine") != std::string::npos, !server_->is_v126()) << log;
  // The restart did fail bindings (else this test tests nothing).
  EXPECT_GT(failed, 0u) << log;
  // Each pod whose binding failed was attempted again within its backoff
  // (1 s, doubling with each failure, at most 10 s) and the 1 s backoff
  // flush, with 2 s of slack: the gap between its last failed binding and
  // the start of the cycle that bound it. (Before bindings failed into
  // backoff, pods waited in the unschedulable pool for the relist's events
  // once the server was back, or for the flush.)
  EXPECT_LE(retry.max_excess_seconds, 3.0)
      << retry.worst << " waited " << retry.max_gap_seconds << " s after its "
      << retry.worst_failures << " failed binding(s)\n"
      << log;
  // None bound twice: each pod is logged bound at most once, on the node the
  // server has it on. (A binding whose reply was lost is logged as failed
  // although the server bound the pod; its retry then gets 409.)
  const std::map<std::string, std::string> placement = Placement(ns);
  for (const auto& [name, node] : placement) {
    const std::string line = "] bound " + ns + "/" + name + " to ";
    EXPECT_LE(Count(log, line), 1u) << name;
    if (size_t at = log.find(line); at != std::string::npos) {
      EXPECT_EQ(log.compare(at + line.size(), node.size() + 1, node + " "), 0) << name;
    }
  }
  for (const auto& [name, node] : placement) (void)server_->DeletePodNow(ns, name);
}

// ====================================================================== v1.26

// The same tests' fixture on the v1.26.0 server (policy/v1 budgets,
// events.k8s.io/v1 events, CSINodes registered with each node).
class RunE2E126 : public RunE2E {
 protected:
  // docs/run.md's ClusterRole suffices (DocumentedClusterRoleIsEnough).
  void CheckDocumentedClusterRole(const std::string& prefix);
  testing::SharedServer& Shared() override { return testing::SharedApiServer126(); }
  void SetUp() override {
    RunE2E::SetUp();
    if (server_ != nullptr) {
      ASSERT_TRUE(server_->is_v126()) << server_->env().version;
    }
  }
  // See the definition below.
  void PlacementAgainstUpstream(const std::string& version, uint32_t default_seed);
  // A token of ServiceAccount kube-system/`sa`, created if missing; with a
  // `role`, that ClusterRole (named `sa`, replaced) is bound to it first.
  // "" (and a test failure) when the server refuses.
  std::string ServiceAccountToken(const std::string& sa, const json* role);
  // The scheduler's kubeconfig with `token` instead of its own, written to
  // dir_/`file`; its path.
  std::string KubeconfigWithToken(const std::string& token, const std::string& file) {
    std::string kubeconfig = ReadFile(server_->env().scheduler_kubeconfig);
    const size_t at = kubeconfig.find("token: ");
    EXPECT_NE(at, std::string::npos);
    if (at != std::string::npos) {
      kubeconfig.replace(at, kubeconfig.find('\n', at) - at, "token: " + token);
    }
    const std::string path = dir_ + "/" + file;
    std::ofstream(path) << kubeconfig;
    return path;
  }
  // The PodScheduled condition of a pod as "Status Reason: message" ("" if none).
  std::string PodScheduled(const std::string& ns, const std::string& name) {
    auto pod = server_->GetPod(ns, name);
    if (!pod.ok()) return "";
    const json doc = json::parse(*pod);
    for (const json& c : doc["status"].value("conditions", json::array())) {
      if (c["type"] == "PodScheduled") {
        return c.value("status", "") + " " + c.value("reason", "") + ": " + c.value("message", "");
      }
    }
    return "";
  }
};

// A free TCP port on 127.0.0.1 (for --port).
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    socklen_t len = sizeof addr;
    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

// GET http://127.0.0.1:PORT/PATH with curl: "CODE BODY" ("000 " when refused).
std::string HttpGet(int port, const std::string& path) {
  std::string cmd =
      fmt::format("curl -s -m 5 -w ' %{{http_code}}' http://127.0.0.1:{}{}", port, path);
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return "";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  pclose(f);
  size_t sp = out.rfind(' ');
  if (sp == std::string::npos) return out;
  return out.substr(sp + 1) + " " + out.substr(0, sp);
}

std::string RunE2E126::ServiceAccountToken(const std::string& sa, const json* role) {
  std::vector<std::pair<std::string, json>> objects = {
      {"/api/v1/namespaces/kube-system/serviceaccounts",
       {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", sa}}}}}};
  if (role != nullptr) {
    json named = *role;
    named["metadata"]["name"] = sa;
    (void)server_->Admin("DELETE", "/apis/rbac.authorization.k8s.io/v1/clusterroles/" + sa);
    objects.push_back({"/apis/rbac.authorization.k8s.io/v1/clusterroles", named});
    objects.push_back(
        {"/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
         {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRoleBinding"},
          {"metadata", {{"name", sa}}},
          {"roleRef",
           {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", sa}}},
          {"subjects",
           {{{"kind", "ServiceAccount"}, {"name", sa}, {"namespace", "kube-system"}}}}}});
  }
  for (const auto& [path, obj] : objects) {
    auto r = server_->CreateObject(path, obj.dump());
    EXPECT_TRUE(r.ok() || r.error().http_code == 409) << r.error().message;
  }
  auto token = server_->Admin(
      "POST", "/api/v1/namespaces/kube-system/serviceaccounts/" + sa + "/token",
      R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":3600}})");
  EXPECT_TRUE(token.ok()) << token.error().message;
  if (!token.ok()) return "";
  return json::parse(*token)["status"]["token"].get<std::string>();
}

// On v1.26, pods created one at a time are bound, each with a Scheduled
// event (written through events.k8s.io/v1) and the PodScheduled=True
// condition the binding sets; the log names the discovered APIs.
TEST_F(RunE2E126, BindsPodsCreatedOneAtATime) {
  const std::string ns = "e2e126-one", me = "e2e126-one-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-one-a", "2");
  Node("e2e126-one-b", "2");
  Node("e2e126-one-c", "2");
  auto csinode = server_->Admin("GET", "/apis/storage.k8s.io/v1/csinodes/e2e126-one-a");
  ASSERT_TRUE(csinode.ok()) << "CreateReadyNode registers the node's CSINode on v1.26";
  const int port = FreePort();
  std::vector<std::string> args = BaseArgs(me, port);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("one126"), args);
  ASSERT_TRUE(WaitFor([&] { return HttpGet(port, "/healthz") == "200 ok"; }, 20s)) << k.Log();
  std::set<std::string> used;
  for (int i = 0; i < 6; ++i) {
    const std::string name = fmt::format("p{}", i);
    Pod(ns, name, me, "500m");
    ASSERT_TRUE(WaitFor([&] { return !Placement(ns)[name].empty(); }, 20s)) << name << k.Log();
    used.insert(Placement(ns)[name]);
    EXPECT_EQ(PodScheduled(ns, name).rfind("True ", 0), 0u) << PodScheduled(ns, name);
  }
  EXPECT_EQ(used.size(), 3u);  // spread over the three equal nodes
  EXPECT_TRUE(WaitFor(
      [&] {
        size_t scheduled = 0;
        for (const std::string& e : Events(ns))
          scheduled += e.find(" Scheduled: Successfully assigned " + ns + "/") != std::string::npos;
        return scheduled == 6;
      },
      10s))
      << json(Events(ns)).dump();
  // Written through events.k8s.io/v1 by this scheduler.
  auto v1events = server_->Admin("GET", "/apis/events.k8s.io/v1/namespaces/" + ns + "/events");
  ASSERT_TRUE(v1events.ok());
  for (const json& e : json::parse(*v1events)["items"]) {
    EXPECT_EQ(e.value("reportingController", ""), me);
    EXPECT_EQ(e.value("action", ""), "Binding");
  }
  const std::string log = k.Log();
  EXPECT_NE(log.find("API server v1.26.0: PodDisruptionBudgets policy/v1, Events events.k8s.io/v1, "
                     "Leases coordination.k8s.io/v1"),
            std::string::npos)
      << log;
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// On v1.26, a pod that fits nowhere gets PodScheduled=False (Unschedulable)
// with the FitError message, and a FailedScheduling event.
TEST_F(RunE2E126, PodThatFitsNowhereGetsTheFitError) {
  const std::string ns = "e2e126-unsched", me = "e2e126-unsched-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-unsched-a", "1");
  Node("e2e126-unsched-b", "2");
  std::vector<std::string> args = BaseArgs(me);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("unsched126"), args);
  Pod(ns, "huge", me, "40");
  const std::string want = "False Unschedulable: 0/2 nodes are available: 2 Insufficient cpu.";
  ASSERT_TRUE(WaitFor([&] { return PodScheduled(ns, "huge").rfind(want, 0) == 0; }, 20s))
      << PodScheduled(ns, "huge") << "\n"
      << k.Log();
  EXPECT_TRUE(WaitFor(
      [&] {
        for (const std::string& e : Events(ns)) {
          if (e.rfind("huge FailedScheduling: 0/2 nodes are available: 2 Insufficient cpu.", 0) ==
              0)
            return true;
        }
        return false;
      },
      10s))
      << json(Events(ns)).dump();
  EXPECT_EQ(Placement(ns)["huge"], "");
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// An identity that may not read PodDisruptionBudgets: the error is logged at
// once, names the resource and the RBAC rule, and /healthz fails with it.
TEST_F(RunE2E126, UnreadableResourceIsLoggedAndFailsHealthz) {
  const std::string sa = "e2e126-limited";
  json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
               {"kind", "ClusterRole"},
               {"metadata", {{"name", sa}}},
               {"rules",
                {{{"apiGroups", {""}},
                  {"resources",
                   {"nodes", "pods", "services", "replicationcontrollers", "persistentvolumes",
                    "persistentvolumeclaims"}},
                  {"verbs", {"get", "list", "watch"}}},
                 {{"apiGroups", {"apps"}},
                  {"resources", {"replicasets", "statefulsets"}},
                  {"verbs", {"get", "list", "watch"}}},
                 {{"apiGroups", {"storage.k8s.io"}},
                  {"resources", {"storageclasses"}},
                  {"verbs", {"get", "list", "watch"}}}}}};
  const std::string token = ServiceAccountToken(sa, &role);
  ASSERT_FALSE(token.empty());
  const std::string path = KubeconfigWithToken(token, "limited.kubeconfig");

  const int port = FreePort();
  Ksched k(LogPath("limited126"), {"--kubeconfig", path, "--scheduler-name", "e2e126-limited",
                                   "--port", std::to_string(port), "--leader-elect=false"});
  std::string health;
  ASSERT_TRUE(WaitFor(
      [&] {
        health = HttpGet(port, "/healthz");
        return health.rfind("500 ", 0) == 0;
      },
      20s))
      << health << "\n"
      << k.Log();
  EXPECT_NE(health.find("cannot list poddisruptionbudgets"), std::string::npos) << health;
  EXPECT_NE(health.find(
                R"({apiGroups: ["policy"], resources: ["poddisruptionbudgets"], verbs: ["list"]})"),
            std::string::npos)
      << health;
  const std::string log = k.Log();
  EXPECT_NE(log.find("cannot read poddisruptionbudgets.policy (nothing is scheduled until ksched "
                     "can list and watch it): forbidden: cannot list poddisruptionbudgets"),
            std::string::npos)
      << log;
  EXPECT_EQ(Count(log, "cannot read poddisruptionbudgets.policy"), 1u) << log;
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
}

// One process serves every profile of --config, with v1.26's metric names
// per profile; /livez and /readyz answer as upstream's.
TEST_F(RunE2E126, ConfigProfilesAreAllServed) {
  const std::string ns = "e2e126-prof", a = "e2e126-prof-a", b = "e2e126-prof-b";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-prof-n1", "2");
  Node("e2e126-prof-n2", "2");
  const std::string config = dir_ + "/profiles.yaml";
  std::ofstream(config) << "apiVersion: kubescheduler.config.k8s.io/v1\n"
                           "kind: KubeSchedulerConfiguration\n"
                           "leaderElection:\n  leaderElect: false\n"
                           "clientConnection:\n  qps: 1000\n  burst: 1000\n"
                           "profiles:\n"
                           "- schedulerName: " +
                               a +
                               "\n"
                               "- schedulerName: " +
                               b +
                               "\n"
                               "  pluginConfig:\n"
                               "  - name: NodeResourcesFit\n"
                               "    args:\n"
                               "      scoringStrategy:\n"
                               "        type: MostAllocated\n";
  const int port = FreePort();
  Ksched k(LogPath("prof126"),
           {"--config", config, "--kubeconfig", server_->env().scheduler_kubeconfig, "--port",
            std::to_string(port)});
  ASSERT_TRUE(WaitFor([&] { return HttpGet(port, "/readyz") == "200 ok"; }, 20s)) << k.Log();
  EXPECT_EQ(HttpGet(port, "/livez"), "200 ok");
  // MostAllocated packs b's pods on one node; a's default LeastAllocated spreads.
  for (int i = 0; i < 2; ++i) {
    Pod(ns, fmt::format("a{}", i), a, "500m");
    ASSERT_TRUE(WaitFor([&] { return !Placement(ns)[fmt::format("a{}", i)].empty(); }, 20s))
        << k.Log();
  }
  for (int i = 0; i < 2; ++i) {
    Pod(ns, fmt::format("b{}", i), b, "300m");
    ASSERT_TRUE(WaitFor([&] { return !Placement(ns)[fmt::format("b{}", i)].empty(); }, 20s))
        << k.Log();
  }
  auto placed = Placement(ns);
  EXPECT_NE(placed["a0"], placed["a1"]);
  EXPECT_EQ(placed["b0"], placed["b1"]);
  const std::string metrics = HttpGet(port, "/metrics");
  EXPECT_NE(metrics.find("scheduler_schedule_attempts_total{profile=\"" + a +
                         "\",result=\"scheduled\"} 2"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("scheduler_schedule_attempts_total{profile=\"" + b +
                         "\",result=\"scheduled\"} 2"),
            std::string::npos);
  const std::string log = k.Log();
  EXPECT_NE(log.find("scheduler names " + a + ", " + b + ", v1.26 framework (config " + config),
            std::string::npos)
      << log;
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// DefaultPreemption on v1.26: the victim is marked DisruptionTarget and
// deleted, the preemptor nominated and then bound.
TEST_F(RunE2E126, PreemptionMarksTheVictimAndBindsThePreemptor) {
  const std::string ns = "e2e126-preempt", me = "e2e126-preempt-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  PriorityClass("e2e126-high", 1000);
  Node("e2e126-preempt-n1", "2");
  std::vector<std::string> args = BaseArgs(me);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("preempt126"), args);
  json low = ShapedPod("low", me, "1500m", "64Mi");
  low["spec"]["terminationGracePeriodSeconds"] = 30;  // stays Terminating: its condition is read
  PodJson(ns, low);
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["low"] == "e2e126-preempt-n1"; }, 20s)) << k.Log();
  json high = ShapedPod("high", me, "1500m", "64Mi");
  high["spec"]["priorityClassName"] = "e2e126-high";
  PodJson(ns, high);
  std::string victim;
  ASSERT_TRUE(WaitFor(
      [&] {
        auto pod = server_->GetPod(ns, "low");
        if (!pod.ok()) return false;
        victim = *pod;
        for (const json& c : json::parse(victim)["status"].value("conditions", json::array()))
          if (c["type"] == "DisruptionTarget") return true;
        return false;
      },
      20s))
      << victim << "\n"
      << k.Log();
  const json lowDoc = json::parse(victim);
  EXPECT_TRUE(lowDoc["metadata"].contains("deletionTimestamp")) << victim;
  for (const json& c : lowDoc["status"]["conditions"]) {
    if (c["type"] != "DisruptionTarget") continue;
    EXPECT_EQ(c.value("reason", ""), "PreemptionByKubeScheduler");
    EXPECT_EQ(c.value("message", ""),
              "Kube-scheduler: preempting to accommodate a higher priority pod: " + ns + "/high");
  }
  EXPECT_TRUE(WaitFor(
      [&] {
        auto pod = server_->GetPod(ns, "high");
        return pod.ok() &&
               json::parse(*pod)["status"].value("nominatedNodeName", "") == "e2e126-preempt-n1";
      },
      10s));
  // A preemption that chose a node adds nothing to the FitError (PostFilter
  // succeeded); a later attempt while the victim terminates may add why it
  // does not preempt again.
  EXPECT_EQ(PodScheduled(ns, "high")
                .rfind("False Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.", 0),
            0u)
      << PodScheduled(ns, "high");
  // The kubelet would now stop the victim: delete it for good.
  ASSERT_TRUE(server_->DeletePodNow(ns, "low").ok());
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["high"] == "e2e126-preempt-n1"; }, 30s))
      << k.Log();
  EXPECT_TRUE(WaitFor(
      [&] {
        for (const std::string& e : Events(ns))
          if (e == "low Preempted: Preempted by " + ns + "/high on node e2e126-preempt-n1")
            return true;
        return false;
      },
      10s))
      << json(Events(ns)).dump();
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  for (const auto& [name, node] : Placement(ns)) (void)server_->DeletePodNow(ns, name);
}

// v1.26's queue: a pod rejected for CPU waits through events its plugin did
// not register for (a Service, a PVC), is not attempted again, and moves on
// the assigned pod's deletion (NodeResourcesFit registered Pod/Delete); the
// metrics of the framework and of the pods show it.
TEST_F(RunE2E126, UnschedulablePodMovesOnlyOnItsPluginsEvents) {
  const std::string ns = "e2e126-events", me = "e2e126-events-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-events-n1", "2");
  const int port = FreePort();
  std::vector<std::string> args = BaseArgs(me, port);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("events126"), args);
  ASSERT_TRUE(WaitFor([&] { return HttpGet(port, "/readyz") == "200 ok"; }, 20s)) << k.Log();
  Pod(ns, "filler", me, "1500m");
  ASSERT_TRUE(WaitFor([&] { return !Placement(ns)["filler"].empty(); }, 20s)) << k.Log();
  Pod(ns, "big", me, "1");
  ASSERT_TRUE(
      WaitFor([&] { return PodScheduled(ns, "big").rfind("False Unschedulable", 0) == 0; }, 20s))
      << k.Log();
  std::this_thread::sleep_for(1500ms);  // past its first backoff
  auto svc = server_->CreateObject("/api/v1/namespaces/" + ns + "/services",
                                   R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},)"
                                   R"("spec":{"selector":{"app":"x"},"ports":[{"port":80}]}})");
  ASSERT_TRUE(svc.ok()) << svc.error().message;
  auto pvc = server_->CreateObject(
      "/api/v1/namespaces/" + ns + "/persistentvolumeclaims",
      R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"c"},)"
      R"("spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}})");
  ASSERT_TRUE(pvc.ok()) << pvc.error().message;
  std::this_thread::sleep_for(2s);
  std::string metrics = HttpGet(port, "/metrics");
  const std::string one_failure =
      "scheduler_schedule_attempts_total{profile=\"" + me + "\",result=\"unschedulable\"} 1";
  EXPECT_NE(metrics.find(one_failure), std::string::npos) << metrics << k.Log();
  EXPECT_EQ(metrics.find("event=\"PvcAdd\""), std::string::npos) << metrics;
  // v1.26's framework and pod metrics, with upstream's names and labels:
  // the pod waiting is counted under the plugin that rejected it.
  const std::string waiting =
      "scheduler_unschedulable_pods{plugin=\"NodeResourcesFit\",profile=\"" + me + "\"} ";
  EXPECT_NE(metrics.find(waiting + "1"), std::string::npos) << metrics;
  auto point = [&](const std::string& name, const std::string& status) {
    return "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"" + name +
           "\",profile=\"" + me + "\",status=\"" + status + "\"}";
  };
  for (const std::string& series :
       {point("PreEnqueue", "Success"), point("PreFilter", "Success"), point("Filter", "Success"),
        point("PostFilter", "Unschedulable"), point("Bind", "Success"),
        std::string("scheduler_pod_scheduling_duration_seconds_count{attempts=\"1\"} 1"),
        std::string("scheduler_pod_scheduling_attempts_count 1"),
        std::string("scheduler_goroutines{operation=\"binding\"} 0")}) {
    EXPECT_NE(metrics.find(series), std::string::npos) << series << "\n" << metrics;
  }
  EXPECT_EQ(Placement(ns)["big"], "");
  ASSERT_TRUE(server_->DeletePodNow(ns, "filler").ok());
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["big"] == "e2e126-events-n1"; }, 20s)) << k.Log();
  metrics = HttpGet(port, "/metrics");
  EXPECT_NE(metrics.find("scheduler_queue_incoming_pods_total{event=\"AssignedPodDelete\""),
            std::string::npos)
      << metrics;
  // Bound at its second attempt, no longer waiting.
  EXPECT_NE(metrics.find(waiting + "0"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("scheduler_pod_scheduling_duration_seconds_count{attempts=\"2\"} 1"),
            std::string::npos)
      << metrics;
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  (void)server_->Admin("DELETE", "/api/v1/namespaces/" + ns + "/services/s");
  (void)server_->Admin("DELETE", "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/c");
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// ---- Placement against upstream's scores, one pod at a time.

// A generated workload of `count` pods (seeded): plain requests, nodeSelector,
// required and preferred node affinity, a tainted node and its tolerations,
// required pod anti-affinity, preferred pod affinity, topology spread (both
// kinds), host ports and pods that fit nowhere.
std::vector<json> GeneratedPods(uint32_t seed, int count, const std::string& scheduler) {
  std::mt19937 rng(seed);
  auto pick = [&](std::initializer_list<const char*> options) {
    std::vector<const char*> v(options);
    return std::string(v[rng() % v.size()]);
  };
  std::vector<json> pods;
  for (int i = 0; i < count; ++i) {
    const std::string name = fmt::format("p{:02}", i);
    json pod = ShapedPod(name, scheduler, pick({"100m", "250m", "500m", "1", "1500m"}),
                         pick({"64Mi", "256Mi", "1Gi", "2Gi"}));
    json& spec = pod["spec"];
    json& labels = pod["metadata"]["labels"];
    switch (rng() % 11) {
      case 0:
        break;
      case 1:
        spec["nodeSelector"] = {{"disk", "ssd"}};
        break;
      case 2:
        spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = {
            {"nodeSelectorTerms",
             {{{"matchExpressions",
                {{{"key", "topology.kubernetes.io/zone"},
                  {"operator", "In"},
                  {"values", {pick({"z1", "z2", "z3"})}}}}}}}}};
        break;
      case 3:
        spec["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"] = {
            {{"weight", 1 + rng() % 100},
             {"preference",
              {{"matchExpressions",
                {{{"key", pick({"topology.kubernetes.io/zone", "disk"})},
                  {"operator", "In"},
                  {"values", {"z2", "ssd"}}}}}}}}};
        break;
      case 4:
        spec["tolerations"] = {{{"key", "dedicated"},
                                {"operator", "Equal"},
                                {"value", "gpu"},
                                {"effect", "NoSchedule"}}};
        break;
      case 5: {
        const std::string app = pick({"web-a", "web-b"});
        labels["app"] = app;
        spec["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = {
            {{"labelSelector", {{"matchLabels", {{"app", app}}}}},
             {"topologyKey", "kubernetes.io/hostname"}}};
        break;
      }
      case 6:
        spec["affinity"]["podAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"] = {
            {{"weight", 50},
             {"podAffinityTerm",
              {{"labelSelector", {{"matchLabels", {{"app", pick({"web-a", "web-b"})}}}}},
               {"topologyKey", "topology.kubernetes.io/zone"}}}}};
        break;
      case 7:
      case 8: {
        const bool hard = rng() % 2 == 0;
        labels["app"] = hard ? "spread-hard" : "spread-soft";
        spec["topologySpreadConstraints"] = {
            {{"maxSkew", 1},
             {"topologyKey", hard ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname"},
             {"whenUnsatisfiable", hard ? "DoNotSchedule" : "ScheduleAnyway"},
             {"labelSelector", {{"matchLabels", {{"app", labels["app"]}}}}}}};
        break;
      }
      case 9:
        spec["containers"][0]["ports"] = {{{"containerPort", 8080}, {"hostPort", 8080}}};
        break;
      case 10:
        spec["containers"][0]["resources"]["requests"]["cpu"] = pick({"12", "64"});
        break;
    }
    pods.push_back(pod);
  }
  return pods;
}

// Pods created one at a time land on a node the upstream release's framework
// scores best for them at that moment, or get PodScheduled=False with its
// FitError (preemption's part included). The expectation comes from
// `ksched schedule --scheduler-version VERSION --explain` on a snapshot of
// the server's objects taken before each pod (its score for every node):
// the set of best nodes, so the check holds for any tie-break.
// KSCHED_TEST_SEED picks another workload; KSCHED_TEST_STANDIN=PATH runs
// that binary (upstream's kube-scheduler of the release) as the scheduler
// instead of `ksched run`, to check the check; on v1.35 "upstream" names the
// cached kube-scheduler v1.35.4 (scripts/k8s-v135.sh).
void RunE2E126::PlacementAgainstUpstream(const std::string& version, uint32_t default_seed) {
  const std::string tag = version == "v1.35" ? "e2e135-ua" : "e2e126-ua";
  const std::string ns = tag, me = tag + "-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  const char* seed_env = std::getenv("KSCHED_TEST_SEED");
  const uint32_t seed =
      seed_env != nullptr ? static_cast<uint32_t>(std::atoi(seed_env)) : default_seed;
  std::mt19937 rng(seed);
  const char* zones[] = {"z1", "z2", "z3"};
  for (int i = 0; i < 8; ++i) {
    const std::string cpu = std::vector<std::string>{"2", "4", "4", "8"}[rng() % 4];
    json labels = {{"topology.kubernetes.io/zone", zones[i % 3]}};
    if (rng() % 3 == 0) labels["disk"] = "ssd";
    const std::string name = fmt::format("{}-n{}", tag, i);
    Status s =
        server_->CreateReadyNode(name, cpu, cpu == "2" ? "4Gi" : "16Gi", "110", labels.dump());
    ASSERT_TRUE(s.ok()) << s.error().message;
    nodes_.push_back(name);
    if (i == 5) {  // one dedicated node
      auto patched = server_->Admin(
          "PATCH", "/api/v1/nodes/" + name,
          R"({"spec":{"taints":[{"key":"dedicated","value":"gpu","effect":"NoSchedule"}]}})",
          "application/merge-patch+json");
      ASSERT_TRUE(patched.ok()) << patched.error().message;
    }
  }

  std::unique_ptr<Ksched> k;
  std::string standin_path;
  const char* standin = std::getenv("KSCHED_TEST_STANDIN");
  if (standin != nullptr && *standin != '\0') {
    standin_path = standin;
    if (standin_path == "upstream") {
      ASSERT_EQ(version, "v1.35") << "KSCHED_TEST_STANDIN=upstream: only v1.35 is cached; "
                                     "give the path of kube-scheduler "
                                  << version;
      auto path = testing::KubeBinaryV135("kube-scheduler");
      ASSERT_TRUE(path.ok()) << path.error().message;
      standin_path = *path;
    }
  }
  if (!standin_path.empty()) {
    const std::string config = dir_ + "/standin-" + tag + ".yaml";
    std::ofstream(config) << "apiVersion: kubescheduler.config.k8s.io/v1\n"
                             "kind: KubeSchedulerConfiguration\n"
                             "leaderElection:\n  leaderElect: false\n"
                             "clientConnection:\n  kubeconfig: "
                          << server_->env().scheduler_kubeconfig
                          << "\nprofiles:\n- schedulerName: " << me << "\n";
    k = std::make_unique<Ksched>(LogPath(tag + "-standin"),
                                 std::vector<std::string>{"--config", config, "--secure-port", "0"},
                                 std::vector<std::string>{standin_path});
  } else {
    std::vector<std::string> args = BaseArgs(me);
    args.push_back("--leader-elect=false");
    k = std::make_unique<Ksched>(LogPath(tag), args);
  }

  const std::vector<json> pods = GeneratedPods(seed, 39, me);
  size_t agreed = 0, unschedulable = 0, ties = 0;
  std::vector<std::string> disagreements;
  for (const json& pod : pods) {
    const std::string name = pod["metadata"]["name"];
    // The objects as the scheduler will see them, with the pod as created.
    auto nodes_list = server_->Admin("GET", "/api/v1/nodes");
    auto pods_list = server_->Admin("GET", "/api/v1/pods");
    ASSERT_TRUE(nodes_list.ok() && pods_list.ok());
    auto created = server_->CreateObject("/api/v1/namespaces/" + ns + "/pods", pod.dump());
    ASSERT_TRUE(created.ok()) << created.error().message;
    json all = json::parse(*pods_list);
    json as_created = json::parse(*created);
    as_created["spec"].erase("nodeName");
    all["items"].push_back(as_created);
    std::ofstream(dir_ + "/ua-nodes.json") << *nodes_list;
    std::ofstream(dir_ + "/ua-pods.json") << all.dump();
    const std::string out = dir_ + "/ua-" + name + ".json";
    // Fields of the server's objects ksched does not know are warned about
    // (stderr), not refused: a newer server adds status fields.
    const std::string cmd = fmt::format(
        "{} schedule --scheduler-version {} -f {}/ua-nodes.json -f {}/ua-pods.json "
        "--scheduler-name {} --explain {}/{} -o json --validate=warn > {} 2> {}.err",
        KSCHED_BINARY, version, dir_, dir_, me, ns, name, out, out);
    const int rc = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) <= 1) << cmd << "\n"
                                                       << ReadFile(out) << ReadFile(out + ".err");
    const json explain = json::parse(ReadFile(out));
    std::set<std::string> best;
    std::string want_error;
    if (explain["node"].is_null()) {
      want_error = explain.value("error", "");
    } else {
      int64_t top = INT64_MIN;
      for (const json& n : explain["nodes"]) {
        if (!n.value("fits", false)) continue;
        const int64_t total = n.value("total", int64_t{0});
        if (total > top) best.clear();
        if (total >= top) {
          top = total;
          best.insert(n["node"].get<std::string>());
        }
      }
    }
    // Wait for the scheduler's verdict.
    std::string node, condition;
    const bool decided = WaitFor(
        [&] {
          node = Placement(ns)[name];
          condition = PodScheduled(ns, name);
          return !node.empty() || condition.rfind("False Unschedulable: ", 0) == 0;
        },
        30s);
    ASSERT_TRUE(decided) << name << " undecided\n" << k->Log();
    const bool ok = want_error.empty()
                        ? best.count(node) != 0
                        : node.empty() && condition == "False Unschedulable: " + want_error;
    unschedulable += want_error.empty() ? 0 : 1;
    ties += best.size() > 1 ? 1 : 0;
    if (ok) {
      ++agreed;
    } else {
      disagreements.push_back(
          fmt::format("{}: got node '{}' / '{}', want one of {} / '{}'", name, node, condition,
                      json(std::vector<std::string>(best.begin(), best.end())).dump(), want_error));
    }
  }
  std::fprintf(stderr,
               "placement agreement with %s (seed %u, %s): %zu/%zu (%zu with a FitError, %zu "
               "with tied best nodes)\n",
               version.c_str(), seed, standin_path.empty() ? "ksched run" : "stand-in", agreed,
               pods.size(), unschedulable, ties);
  EXPECT_EQ(agreed, pods.size()) << json(disagreements).dump(1);
  if (standin_path.empty()) {
    // `run` chose the release's engine by itself.
    EXPECT_NE(k->Log().find("scheduling with the " + version + " engine"), std::string::npos)
        << k->Log();
  }
  k->Signal(SIGTERM);
  k->Wait(10s);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

TEST_F(RunE2E126, PodsCreatedOneAtATimeLandWhereUpstreamScoresBest) {
  PlacementAgainstUpstream("v1.26", 126);
}

// ====================================================================== v1.35

// The v1.35.4 server (scripts/k8s-v135.sh), where `run` picks the v1.35
// engine by itself: it serves resource.k8s.io/v1.
class RunE2E135 : public RunE2E126 {
 protected:
  testing::SharedServer& Shared() override { return testing::SharedApiServer135(); }
  void SetUp() override {
    RunE2E126::SetUp();
    if (server_ != nullptr) {
      ASSERT_TRUE(server_->is_v135()) << server_->env().version;
    }
  }
  json Gated(const std::string& name, const std::string& scheduler) {
    json pod = ShapedPod(name, scheduler, "100m", "64Mi");
    pod["spec"]["schedulingGates"] = {{{"name", "example.com/hold"}}};
    return pod;
  }
};

TEST_F(RunE2E135, PodsCreatedOneAtATimeLandWhereUpstreamScoresBest) {
  PlacementAgainstUpstream("v1.35", 135);
}

// Gated pods: the API server marks them PodScheduled=False/SchedulingGated;
// the scheduler never attempts them (no event, no condition of its own, no
// attempt counted), and schedules each once its gates are removed.
TEST_F(RunE2E135, GatedPodsAreNeverAttemptedAndScheduledOnceTheirGatesGo) {
  const std::string ns = "e2e135-gates", me = "e2e135-gates-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e135-gates-n1", "4");
  const int port = FreePort();
  std::vector<std::string> args = BaseArgs(me, port);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("gates135"), args);
  ASSERT_TRUE(WaitFor([&] { return HttpGet(port, "/readyz") == "200 ok"; }, 20s)) << k.Log();
  PodJson(ns, Gated("g1", me));
  PodJson(ns, Gated("g2", me));
  const std::string gated =
      "False SchedulingGated: Scheduling is blocked due to non-empty scheduling gates";
  std::this_thread::sleep_for(3s);  // backoff flushes and a few cycles of nothing
  for (const char* name : {"g1", "g2"}) {
    EXPECT_EQ(PodScheduled(ns, name), gated) << name;
    EXPECT_EQ(Placement(ns)[name], "") << name;
  }
  for (const std::string& e : Events(ns))
    EXPECT_EQ(e.find("FailedScheduling"), std::string::npos) << e;
  std::string metrics = HttpGet(port, "/metrics");
  EXPECT_NE(metrics.find("scheduler_pending_pods{queue=\"gated\"} 2"), std::string::npos)
      << metrics;
  EXPECT_EQ(metrics.find("scheduler_schedule_attempts_total{profile=\"" + me + "\""),
            std::string::npos)
      << metrics;
  // The last gate of g1 removed: bound.
  auto patched =
      server_->Admin("PATCH", "/api/v1/namespaces/" + ns + "/pods/g1",
                     R"({"spec":{"schedulingGates":null}})", "application/merge-patch+json");
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["g1"] == "e2e135-gates-n1"; }, 20s)) << k.Log();
  EXPECT_EQ(PodScheduled(ns, "g1").rfind("True ", 0), 0u) << PodScheduled(ns, "g1");
  std::this_thread::sleep_for(1s);
  EXPECT_EQ(PodScheduled(ns, "g2"), gated);
  metrics = HttpGet(port, "/metrics");
  EXPECT_NE(metrics.find("scheduler_schedule_attempts_total{profile=\"" + me +
                         "\",result=\"scheduled\"} 1"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("scheduler_pending_pods{queue=\"gated\"} 1"), std::string::npos)
      << metrics;
  const std::string log = k.Log();
  EXPECT_NE(log.find("the API server (v1.35.4) serves resource.k8s.io/v1: scheduling with the "
                     "v1.35 engine"),
            std::string::npos)
      << log;
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// v1.35's QueueingHints: a pod rejected for CPU is not attempted again when
// a node is relabelled or a Service or a claim appears (NodeResourcesFit
// registered for none of them), and is bound as soon as the pod holding the
// CPU is deleted (its hint: a bound pod went).
TEST_F(RunE2E135, PodRejectedForCpuMovesOnlyWhenThePodHoldingItGoes) {
  const std::string ns = "e2e135-cpu", me = "e2e135-cpu-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e135-cpu-n1", "2");
  const int port = FreePort();
  std::vector<std::string> args = BaseArgs(me, port);
  args.push_back("--leader-elect=false");
  Ksched k(LogPath("cpu135"), args);
  ASSERT_TRUE(WaitFor([&] { return HttpGet(port, "/readyz") == "200 ok"; }, 20s)) << k.Log();
  Pod(ns, "filler", me, "1500m");
  ASSERT_TRUE(WaitFor([&] { return !Placement(ns)["filler"].empty(); }, 20s)) << k.Log();
  Pod(ns, "big", me, "1");
  ASSERT_TRUE(WaitFor(
      [&] {
        return PodScheduled(ns, "big").rfind(
                   "False Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.", 0) == 0;
      },
      20s))
      << PodScheduled(ns, "big") << "\n"
      << k.Log();
  std::this_thread::sleep_for(1500ms);  // past its backoff
  auto relabelled =
      server_->Admin("PATCH", "/api/v1/nodes/e2e135-cpu-n1",
                     R"({"metadata":{"labels":{"team":"a"}}})", "application/merge-patch+json");
  ASSERT_TRUE(relabelled.ok()) << relabelled.error().message;
  auto svc = server_->CreateObject("/api/v1/namespaces/" + ns + "/services",
                                   R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},)"
                                   R"("spec":{"selector":{"app":"x"},"ports":[{"port":80}]}})");
  ASSERT_TRUE(svc.ok()) << svc.error().message;
  auto pvc = server_->CreateObject(
      "/api/v1/namespaces/" + ns + "/persistentvolumeclaims",
      R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"c"},)"
      R"("spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}})");
  ASSERT_TRUE(pvc.ok()) << pvc.error().message;
  std::this_thread::sleep_for(2s);
  std::string metrics = HttpGet(port, "/metrics");
  EXPECT_NE(metrics.find("scheduler_schedule_attempts_total{profile=\"" + me +
                         "\",result=\"unschedulable\"} 1"),
            std::string::npos)
      << metrics << k.Log();
  EXPECT_EQ(metrics.find("event=\"NodeUpdateNodeLabel\""), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("scheduler_unschedulable_pods{plugin=\"NodeResourcesFit\",profile=\"" +
                         me + "\"} 1"),
            std::string::npos)
      << metrics;
  EXPECT_EQ(Placement(ns)["big"], "");
  ASSERT_TRUE(server_->DeletePodNow(ns, "filler").ok());
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["big"] == "e2e135-cpu-n1"; }, 20s)) << k.Log();
  metrics = HttpGet(port, "/metrics");
  EXPECT_NE(metrics.find("scheduler_queueing_hint_execution_duration_seconds_count{event=\""
                         "AssignedPodDelete\",hint=\"Queue\",plugin=\"NodeResourcesFit\"}"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("scheduler_pod_scheduling_sli_duration_seconds_count{attempts=\"2\"} 1"),
            std::string::npos)
      << metrics;
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0);
  (void)server_->Admin("DELETE", "/api/v1/namespaces/" + ns + "/services/s");
  (void)server_->Admin("DELETE", "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/c");
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// Handover with a backlog: a leader whose client is throttled (5 requests/s)
// has about 1,000 status and event writes queued when it gets SIGTERM. It
// releases the Lease at once, before flushing (through a client of its own,
// not behind the backlog), so the standby leads within 3 s (its retry period
// is 2 s); the flush is then cut at its bound and the leader exits 0.
TEST_F(RunE2E, SigtermWithAWriteBacklogHandsOverWithinThreeSeconds) {
  const std::string ns = "e2e-backlog", me = "e2e-backlog-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e-backlog-n1", "1");
  std::vector<std::string> args = BaseArgs(me);
  for (const char* a :
       {"--lock-object-name", "e2e-backlog-lock", "--kube-api-qps", "5", "--kube-api-burst", "5"})
    args.push_back(a);
  Ksched a(LogPath("backlog-a"), args);
  ASSERT_TRUE(WaitFor([&] { return a.Log().find("became leader") != std::string::npos; }, 20s))
      << a.Log();
  Ksched b(LogPath("backlog-b"), args);
  ASSERT_TRUE(WaitFor([&] { return b.Log().find("not leader") != std::string::npos; }, 20s))
      << b.Log();
  // Pods that fit nowhere: each attempt queues a condition write and a
  // FailedScheduling event.
  const int kPods = 500;
  for (int i = 0; i < kPods; ++i) Pod(ns, fmt::format("big-{:03}", i), me, "2");
  ASSERT_TRUE(WaitFor([&] { return Count(a.Log(), "] unschedulable " + ns + "/") >= kPods; }, 60s))
      << a.Log();
  a.Signal(SIGTERM);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(WaitFor([&] { return b.Log().find("became leader") != std::string::npos; }, 20s))
      << b.Log();
  const double handover =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(a.Wait(20s), 0) << a.Log();
  const double exited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string log_a = a.Log();
  std::fprintf(stderr,
               "SIGTERM with a write backlog (v%s server): the standby led after %.1f s, the "
               "leader exited after %.1f s\n",
               server_->env().version.c_str(), handover, exited);
  for (const char* what : {"] flushing ", "] gave up flushing"}) {
    const size_t at = log_a.find(what);
    if (at != std::string::npos)
      std::fprintf(stderr, "  leader: %s\n",
                   log_a.substr(at + 2, log_a.find('\n', at) - at - 2).c_str());
  }
  EXPECT_LT(handover, 3.0) << log_a << b.Log();
  EXPECT_LT(exited, 15.0) << log_a;  // the flush's bound (10 s) and the last requests
  // The log says what happened, in that order.
  const size_t term = log_a.find("received SIGTERM: stopping scheduling");
  const size_t released = log_a.find("e2e-backlog-lock lease released");
  const size_t flushing = log_a.find("] flushing ");
  const size_t gave_up = log_a.find("gave up flushing");
  ASSERT_NE(term, std::string::npos) << log_a;
  ASSERT_NE(released, std::string::npos) << log_a;
  ASSERT_NE(flushing, std::string::npos) << log_a;
  EXPECT_LT(term, released);
  EXPECT_LT(released, flushing);
  EXPECT_NE(gave_up, std::string::npos) << log_a;  // the backlog was real
  b.Signal(SIGTERM);
  EXPECT_EQ(b.Wait(20s), 0) << b.Log();
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// A lease lost (another identity wrote the record and it is not renewed):
// the leader stops and exits 1, saying so, without claiming a signal or a
// release it did not have.
TEST_F(RunE2E, LostLeaseIsLoggedAsSuchAndReleasesNothing) {
  const std::string me = "e2e-lost-sched";
  std::vector<std::string> args = BaseArgs(me);
  for (const char* a :
       {"--lock-object-name", "e2e-lost-lock", "--leader-elect-lease-duration", "4s",
        "--leader-elect-renew-deadline", "3s", "--leader-elect-retry-period", "1s"})
    args.push_back(a);
  Ksched a(LogPath("lost"), args);
  ASSERT_TRUE(WaitFor([&] { return a.Log().find("became leader") != std::string::npos; }, 20s))
      << a.Log();
  const std::string path =
      "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/e2e-lost-lock";
  // Taken by "intruder", renewed for a minute: a's renewals find it held.
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto got = server_->Admin("GET", path);
    ASSERT_TRUE(got.ok()) << got.error().message;
    json lease = json::parse(*got);
    lease["spec"]["holderIdentity"] = "intruder";
    lease["spec"]["leaseDurationSeconds"] = 60;
    if (server_->Admin("PUT", path, lease.dump()).ok()) break;  // else a renewed meanwhile
  }
  EXPECT_EQ(a.Wait(20s), 1) << a.Log();
  const std::string log = a.Log();
  EXPECT_NE(log.find("leader election lost"), std::string::npos) << log;
  EXPECT_NE(log.find("not released: this replica lost it"), std::string::npos) << log;
  EXPECT_EQ(log.find("received SIGTERM"), std::string::npos) << log;
  EXPECT_EQ(log.find("lease released"), std::string::npos) << log;
  auto lease = server_->Admin("GET", path);
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ(json::parse(*lease)["spec"].value("holderIdentity", ""), "intruder");
}

// kube-scheduler refuses an address in use; so does ksched, naming the port
// (cpp-httplib's SO_REUSEPORT let both listen and split the scrapes).
TEST_F(RunE2E, SecondInstanceOnTheSamePortExitsNamingIt) {
  const int port = FreePort();
  std::vector<std::string> args = BaseArgs("e2e-port-a", port);
  args.push_back("--leader-elect=false");
  Ksched a(LogPath("port-a"), args);
  ASSERT_TRUE(WaitFor([&] { return HttpGet(port, "/livez") == "200 ok"; }, 10s)) << a.Log();
  args[3] = "e2e-port-b";  // --scheduler-name
  Ksched b(LogPath("port-b"), args);
  const int code = b.Wait(10s);
  EXPECT_NE(code, 0) << b.Log();
  EXPECT_NE(code, -1) << "still running: " << b.Log();
  const std::string log = b.Log();
  EXPECT_NE(log.find(fmt::format(":{} (port {}): Address already in use", port, port)),
            std::string::npos)
      << log;
  a.Signal(SIGTERM);
  EXPECT_EQ(a.Wait(10s), 0) << a.Log();
}

// /livez answers from the first second, while the API server does not:
// a liveness probe must not restart a scheduler waiting for its server.
TEST_F(RunE2E, LivezAnswersBeforeTheApiServerDoes) {
  auto dead = server_->KubeconfigVia(server_->env().scheduler_kubeconfig,
                                     fmt::format("https://127.0.0.1:{}", FreePort()), "dead");
  ASSERT_TRUE(dead.ok()) << dead.error().message;
  const int port = FreePort();
  const auto t0 = std::chrono::steady_clock::now();
  Ksched k(LogPath("livez-dead"), {"--kubeconfig", *dead, "--scheduler-name", "e2e-livez", "--port",
                                   std::to_string(port), "--leader-elect=false"});
  ASSERT_TRUE(WaitFor([&] { return HttpGet(port, "/livez") == "200 ok"; }, 5s)) << k.Log();
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "/livez answered %.2f s after start, the API server down\n", took);
  EXPECT_LT(took, 1.0);
  const std::string ready = HttpGet(port, "/readyz");
  EXPECT_EQ(ready.rfind("500 ", 0), 0u) << ready;
  EXPECT_NE(ready.find("api-discovery"), std::string::npos) << ready;
  EXPECT_EQ(HttpGet(port, "/healthz"), "200 ok");
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0) << k.Log();
  EXPECT_NE(k.Log().find("received SIGTERM before the API server answered discovery"),
            std::string::npos)
      << k.Log();
}

// Another identity renews the lock (kube-scheduler's own, say, when this
// replica has another --scheduler-name but the same lock): after a lease
// duration of waiting, a warning says so and names the flag. The v1.15 name
// of that flag still works, with a deprecation warning.
TEST_F(RunE2E, LockHeldByAnotherIdentityIsWarnedAbout) {
  const std::string path =
      "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/e2e-held-lock";
  auto now = [] {
    return live::FormatMicroTime(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  };
  json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                {"kind", "Lease"},
                {"metadata", {{"name", "e2e-held-lock"}, {"namespace", "kube-system"}}},
                {"spec",
                 {{"holderIdentity", "other-scheduler"},
                  {"leaseDurationSeconds", 3},
                  {"acquireTime", now()},
                  {"renewTime", now()}}}};
  (void)server_->Admin("DELETE", path);
  auto created = server_->CreateObject("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                                       lease.dump());
  ASSERT_TRUE(created.ok()) << created.error().message;
  std::vector<std::string> args = BaseArgs("e2e-held-sched");
  for (const char* a :
       {"--lock-object-name", "e2e-held-lock", "--leader-elect-lease-duration", "3s",
        "--leader-elect-renew-deadline", "2s", "--leader-elect-retry-period", "1s"})
    args.push_back(a);
  Ksched k(LogPath("held"), args);
  // The other holder renews every second for 6 s.
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(1s);
    auto got = server_->Admin("GET", path);
    ASSERT_TRUE(got.ok()) << got.error().message;
    json current = json::parse(*got);
    current["spec"]["renewTime"] = now();
    (void)server_->Admin("PUT", path, current.dump());
  }
  const std::string log = k.Log();
  EXPECT_NE(log.find("Flag --lock-object-name has been deprecated, use "
                     "--leader-elect-resource-name instead"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("Lease kube-system/e2e-held-lock has been held by other-scheduler for more "
                     "than a lease duration (3s)"),
            std::string::npos)
      << log;
  EXPECT_EQ(Count(log, "has been held by"), 1u) << log;
  EXPECT_EQ(log.find("became leader"), std::string::npos) << log;
  // Once the other stops renewing, this one leads.
  EXPECT_TRUE(WaitFor([&] { return k.Log().find("became leader") != std::string::npos; }, 10s))
      << k.Log();
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0) << k.Log();
}

// --config errors an operator can act on (no API server needed: the file is
// read first): the field of a type error, the accepted apiVersions, the OS
// reason a file cannot be read; and a warning for args nothing reads.
TEST(RunConfigErrors, SayWhereAndWhy) {
  const std::string dir = ::testing::TempDir() + "/run-config-errors";
  std::filesystem::create_directories(dir);
  auto run = [&](const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name + ".yaml";
    if (!text.empty()) std::ofstream(path) << text;
    Ksched k(dir + "/" + name + ".log", {"--config", path, "--kubeconfig", "/nonexistent"});
    EXPECT_EQ(k.Wait(10s), 2) << k.Log();
    return k.Log();
  };
  const std::string duration = run("duration",
                                   "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                   "kind: KubeSchedulerConfiguration\n"
                                   "leaderElection:\n  leaseDuration: 15\n");
  EXPECT_NE(duration.find("leaderElection.leaseDuration"), std::string::npos) << duration;
  const std::string version = run("version",
                                  "apiVersion: kubescheduler.config.k8s.io/v2\n"
                                  "kind: KubeSchedulerConfiguration\n");
  EXPECT_NE(version.find("the apiVersions ksched accepts: kubescheduler.config.k8s.io/v1"),
            std::string::npos)
      << version;
  const std::string unused = run("unused",
                                 "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                 "kind: KubeSchedulerConfiguration\n"
                                 "profiles:\n- schedulerName: a\n  plugins:\n    multiPoint:\n"
                                 "      disabled: [{name: InterPodAffinity}]\n"
                                 "  pluginConfig:\n  - name: InterPodAffinity\n"
                                 "    args: {hardPodAffinityWeight: 5}\n");
  EXPECT_NE(unused.find("pluginConfig has args for InterPodAffinity, which no extension point of "
                        "the profile enables"),
            std::string::npos)
      << unused;
  const std::string missing = run("missing", "");
  EXPECT_NE(missing.find("missing.yaml: cannot read the file: No such file or directory"),
            std::string::npos)
      << missing;
}

// GET https://127.0.0.1:PORT/PATH (the certificate not checked) with an
// optional bearer token: "CODE BODY".
std::string HttpsGet(int port, const std::string& path, const std::string& token = "") {
  std::string cmd =
      fmt::format("curl -sk -m 5 -w ' %{{http_code}}' {} https://127.0.0.1:{}{}",
                  token.empty() ? "" : "-H 'Authorization: Bearer " + token + "'", port, path);
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return "";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  pclose(f);
  size_t sp = out.rfind(' ');
  if (sp == std::string::npos) return out;
  return out.substr(sp + 1) + " " + out.substr(0, sp);
}

// kube-scheduler's serving: HTTPS on --secure-port with a self-signed
// certificate; the health checks open to anyone; /metrics for whom the API
// server authenticates (TokenReview) and authorizes (SubjectAccessReview).
TEST_F(RunE2E126, SecurePortServesMetricsToAuthorizedTokensOnly) {
  // Two ServiceAccounts: one may GET /metrics, one may not.
  const json metrics_role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                             {"kind", "ClusterRole"},
                             {"metadata", json::object()},
                             {"rules", {{{"nonResourceURLs", {"/metrics"}}, {"verbs", {"get"}}}}}};
  auto token_of = [&](const std::string& sa, bool metrics) {
    return ServiceAccountToken(sa, metrics ? &metrics_role : nullptr);
  };
  const std::string reader = token_of("e2e126-metrics-reader", true);
  const std::string other = token_of("e2e126-metrics-other", false);
  ASSERT_FALSE(reader.empty());
  const int port = FreePort();
  Ksched k(LogPath("secure126"),
           {"--kubeconfig", server_->env().scheduler_kubeconfig, "--scheduler-name",
            "e2e126-secure", "--secure-port", std::to_string(port), "--leader-elect=false"});
  ASSERT_TRUE(WaitFor([&] { return HttpsGet(port, "/livez") == "200 ok"; }, 10s)) << k.Log();
  EXPECT_TRUE(WaitFor([&] { return HttpsGet(port, "/readyz") == "200 ok"; }, 20s)) << k.Log();
  EXPECT_EQ(HttpsGet(port, "/healthz"), "200 ok");
  // Plain HTTP is not served there.
  EXPECT_NE(HttpGet(port, "/livez"), "200 ok");
  const std::string anonymous = HttpsGet(port, "/metrics");
  EXPECT_EQ(anonymous.rfind("403 ", 0), 0u) << anonymous;
  EXPECT_NE(anonymous.find("system:anonymous"), std::string::npos) << anonymous;
  EXPECT_EQ(HttpsGet(port, "/metrics", "not-a-token").rfind("401 ", 0), 0u);
  const std::string forbidden = HttpsGet(port, "/metrics", other);
  EXPECT_EQ(forbidden.rfind("403 ", 0), 0u) << forbidden;
  EXPECT_NE(forbidden.find("system:serviceaccount:kube-system:e2e126-metrics-other"),
            std::string::npos)
      << forbidden;
  const std::string metrics = HttpsGet(port, "/metrics", reader);
  EXPECT_EQ(metrics.rfind("200 ", 0), 0u) << metrics.substr(0, 300);
  EXPECT_NE(metrics.find("scheduler_pending_pods"), std::string::npos) << metrics.substr(0, 300);
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0) << k.Log();
}

// The ClusterRole docs/run.md documents, read from the page, is what ksched
// needs on v1.26: under exactly that role (a ServiceAccount token) it leads on
// its Lease, lists and watches everything (/healthz ok, no "needs rule"),
// binds, writes its events through events.k8s.io/v1 (no fallback), reviews
// the secure port's requests, and releases the Lease.
void RunE2E126::CheckDocumentedClusterRole(const std::string& prefix) {
  const std::string page = ReadFile(std::string(KSCHED_SOURCE_DIR) + "/docs/run.md");
  const size_t block = page.find("```yaml\napiVersion: v1\nkind: ServiceAccount");
  ASSERT_NE(block, std::string::npos);
  const size_t start = page.find("---\n", block) + 4;
  const size_t end = page.find("\n---\n", start);
  std::string role_yaml = page.substr(start, end - start);
  ASSERT_EQ(role_yaml.rfind("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n", 0), 0u)
      << role_yaml;
  auto role_json = YamlToJson(role_yaml, "docs/run.md");
  ASSERT_TRUE(role_json.ok()) << role_json.error().message;
  const std::string sa = prefix + "-documented", me = sa + "-sched", ns = sa, node = sa + "-n1",
                    lock = sa + "-lock";
  const json role = json::parse(*role_json);
  const std::string token = ServiceAccountToken(sa, &role);
  ASSERT_FALSE(token.empty());
  const std::string path = KubeconfigWithToken(token, "documented.kubeconfig");

  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node(node, "4");
  const int port = FreePort();
  Ksched k(LogPath(prefix + "-documented"),
           {"--kubeconfig", path, "--scheduler-name", me, "--secure-port", std::to_string(port),
            "--leader-elect-resource-name", lock});
  ASSERT_TRUE(WaitFor([&] { return k.Log().find("became leader") != std::string::npos; }, 20s))
      << k.Log();
  EXPECT_TRUE(WaitFor([&] { return HttpsGet(port, "/healthz") == "200 ok"; }, 20s))
      << HttpsGet(port, "/healthz") << k.Log();
  Pod(ns, "p", me, "100m");
  ASSERT_TRUE(WaitFor([&] { return Placement(ns)["p"] == node; }, 20s)) << k.Log();
  EXPECT_TRUE(WaitFor(
      [&] {
        auto v1events =
            server_->Admin("GET", "/apis/events.k8s.io/v1/namespaces/" + ns + "/events");
        if (!v1events.ok()) return false;
        const json doc = json::parse(*v1events);  // not a temporary: the loop reads into it
        for (const json& e : doc["items"])
          if (e.value("reason", "") == "Scheduled" && e.value("reportingController", "") == me)
            return true;
        return false;
      },
      10s))
      << k.Log() << "\nevents.k8s.io/v1: " << [&] {
           auto got = server_->Admin("GET", "/apis/events.k8s.io/v1/namespaces/" + ns + "/events");
           return got.ok() ? *got : got.error().message;
         }();
  // The reviews are allowed: anonymous is forbidden (403), not an error (500).
  const std::string metrics = HttpsGet(port, "/metrics");
  EXPECT_EQ(metrics.rfind("403 ", 0), 0u) << metrics;
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(20s), 0) << k.Log();
  const std::string log = k.Log();
  EXPECT_EQ(log.find("needs rule"), std::string::npos) << log;
  EXPECT_EQ(log.find("events.k8s.io/v1 Events are forbidden"), std::string::npos) << log;
  EXPECT_NE(log.find(lock + " lease released"), std::string::npos) << log;
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

TEST_F(RunE2E126, DocumentedClusterRoleIsEnough) { CheckDocumentedClusterRole("e2e126"); }

// The same role on v1.35 (the engine chosen there is v1.35's).
TEST_F(RunE2E135, DocumentedClusterRoleIsEnough) { CheckDocumentedClusterRole("e2e135"); }

// A pod that fails again and again with the same message gets one
// FailedScheduling Event whose series counts, as upstream's events.k8s.io/v1
// broadcaster writes it, not an Event per attempt. Each deletion of an
// assigned pod moves it (v1.26: NodeResourcesFit's AssignedPodDelete) for
// another attempt.
TEST_F(RunE2E126, RepeatedFailedSchedulingBecomesASeries) {
  const std::string ns = "e2e126-series", me = "e2e126-series-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-series-n1", "1");
  Ksched k(LogPath("series126"), {"--kubeconfig", server_->env().scheduler_kubeconfig,
                                  "--scheduler-name", me, "--leader-elect=false"});
  Pod(ns, "big", me, "2");
  auto failed_events = [&] {
    std::vector<json> out;
    auto list = server_->Admin("GET", "/apis/events.k8s.io/v1/namespaces/" + ns + "/events");
    if (!list.ok()) return out;
    const json doc = json::parse(*list);  // not a temporary: the loop reads into it
    for (const json& e : doc["items"])
      if (e.value("reason", "") == "FailedScheduling") out.push_back(e);
    return out;
  };
  ASSERT_TRUE(WaitFor([&] { return failed_events().size() == 1; }, 20s)) << k.Log();
  for (int i = 0; i < 3; ++i) {
    const size_t before = Count(k.Log(), "] unschedulable " + ns + "/big");
    // An assigned pod comes and goes: its deletion moves `big`.
    json filler = ShapedPod(fmt::format("filler-{}", i), "other-scheduler", "10m", "1Mi");
    filler["spec"]["nodeName"] = "e2e126-series-n1";
    PodJson(ns, filler);
    std::this_thread::sleep_for(500ms);
    ASSERT_TRUE(server_->DeletePodNow(ns, fmt::format("filler-{}", i)).ok());
    ASSERT_TRUE(
        WaitFor([&] { return Count(k.Log(), "] unschedulable " + ns + "/big") > before; }, 20s))
        << k.Log();
  }
  EXPECT_TRUE(WaitFor(
      [&] {
        auto events = failed_events();
        return events.size() == 1 && events[0].contains("series");
      },
      10s))
      << json(failed_events()).dump();
  const std::vector<json> events = failed_events();
  ASSERT_EQ(events.size(), 1u) << json(events).dump();
  EXPECT_EQ(events[0]["series"].value("count", 0), 2) << events[0].dump();  // later ones counted
  EXPECT_GE(Count(k.Log(), "] unschedulable " + ns + "/big"), 4u);
  k.Signal(SIGTERM);
  EXPECT_EQ(k.Wait(10s), 0) << k.Log();
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// The manifest docs/run.md gives (ConfigMap, Deployment, PodDisruptionBudget)
// is accepted by the API server as written (a server-side dry run), and its
// ConfigMap's configuration is one ksched reads.
TEST_F(RunE2E126, DocumentedManifestIsAccepted) {
  const std::string page = ReadFile(std::string(KSCHED_SOURCE_DIR) + "/docs/run.md");
  const size_t block = page.find("```yaml\napiVersion: v1\nkind: ConfigMap");
  ASSERT_NE(block, std::string::npos);
  const size_t end = page.find("\n```\n", block);
  const std::string manifest = page.substr(block + 8, end - block - 8 + 1);
  std::vector<std::string> docs;
  for (size_t at = 0;;) {
    const size_t sep = manifest.find("\n---\n", at);
    docs.push_back(
        manifest.substr(at, sep == std::string::npos ? std::string::npos : sep + 1 - at));
    if (sep == std::string::npos) break;
    at = sep + 5;
  }
  ASSERT_EQ(docs.size(), 3u);
  const std::map<std::string, std::string> collection = {
      {"ConfigMap", "/api/v1/namespaces/kube-system/configmaps"},
      {"Deployment", "/apis/apps/v1/namespaces/kube-system/deployments"},
      {"PodDisruptionBudget", "/apis/policy/v1/namespaces/kube-system/poddisruptionbudgets"}};
  std::string config;
  for (const std::string& doc : docs) {
    auto converted = YamlToJson(doc, "docs/run.md");
    ASSERT_TRUE(converted.ok()) << converted.error().message << "\n" << doc;
    const json object = json::parse(*converted);
    const std::string kind = object.value("kind", "");
    ASSERT_EQ(collection.count(kind), 1u) << kind;
    auto created = server_->Admin("POST", collection.at(kind) + "?dryRun=All", object.dump());
    EXPECT_TRUE(created.ok()) << kind << ": " << created.error().message;
    if (kind == "ConfigMap") config = object["data"].value("config.yaml", "");
  }
  ASSERT_FALSE(config.empty());
  const std::string path = dir_ + "/documented-config.yaml";
  std::ofstream(path) << config;
  Ksched k(LogPath("documented-config"), {"--config", path, "--kubeconfig", "/nonexistent"});
  EXPECT_EQ(k.Wait(10s), 2);
  const std::string log = k.Log();
  EXPECT_NE(log.find("kubeconfig: cannot read /nonexistent"), std::string::npos) << log;
  EXPECT_EQ(log.find(path), std::string::npos) << log;  // no complaint about the file
}

}  // namespace
}  // namespace ksched
