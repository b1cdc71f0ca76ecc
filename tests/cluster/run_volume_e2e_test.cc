// `ksched run` binding volumes on the real kube-apiserver v1.26.0: v1.26's
// VolumeBinding PreBind writes the PV's claimRef (or the claim's
// selected-node annotation) and waits for the PV controller, which the test
// plays (there is no controller manager), before the pod is bound.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/cluster/apiserver_fixture.h"
#include "tests/cluster/ksched_process.h"

namespace ksched {
namespace {

using nlohmann::json;
using testing::ApiServer;
using namespace std::chrono_literals;

using RunProcess = testing::KschedProcess;
using testing::WaitFor;

class RunVolumeE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    auto& shared = testing::SharedApiServer126();
    if (!shared.ok()) {
      if (std::getenv("KSCHED_SKIP_CLUSTER_TESTS") != nullptr) GTEST_SKIP() << shared.why_not();
      FAIL() << "cannot start the API server: " << shared.why_not();
    }
    server_ = &*shared;
    ASSERT_TRUE(server_->is_v126());
    dir_ = server_->dir() + "/run-volume-e2e";
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (server_ == nullptr) return;
    for (const std::string& n : nodes_) (void)server_->DeleteNode(n);
    for (const std::string& pv : pvs_)
      (void)server_->Admin("DELETE", "/api/v1/persistentvolumes/" + pv);
  }

  void Node(const std::string& name) {
    Status s = server_->CreateReadyNode(name, "4", "16Gi");
    ASSERT_TRUE(s.ok()) << s.error().message;
    nodes_.push_back(name);
  }
  // A StorageClass binding at the first consumer (kept if it exists).
  void StorageClass(const std::string& name, const std::string& provisioner) {
    json sc = {{"apiVersion", "storage.k8s.io/v1"},
               {"kind", "StorageClass"},
               {"metadata", {{"name", name}}},
               {"provisioner", provisioner},
               {"volumeBindingMode", "WaitForFirstConsumer"}};
    auto r = server_->CreateObject("/apis/storage.k8s.io/v1/storageclasses", sc.dump());
    ASSERT_TRUE(r.ok() || r.error().http_code == 409) << r.error().message;
  }
  // A local PV on `node`, Available (as the PV controller would mark it).
  void LocalPv(const std::string& name, const std::string& sc, const std::string& node) {
    json pv = {{"apiVersion", "v1"},
               {"kind", "PersistentVolume"},
               {"metadata", {{"name", name}}},
               {"spec",
                {{"capacity", {{"storage", "1Gi"}}},
                 {"accessModes", {"ReadWriteOnce"}},
                 {"storageClassName", sc},
                 {"local", {{"path", "/mnt/" + name}}},
                 {"nodeAffinity",
                  {{"required",
                    {{"nodeSelectorTerms",
                      {{{"matchExpressions",
                         {{{"key", "kubernetes.io/hostname"},
                           {"operator", "In"},
                           {"values", {node}}}}}}}}}}}}}}};
    auto r = server_->CreateObject("/api/v1/persistentvolumes", pv.dump());
    ASSERT_TRUE(r.ok()) << r.error().message;
    pvs_.push_back(name);
    SetStatus("/api/v1/persistentvolumes/" + name, "Available");
  }
  void Claim(const std::string& ns, const std::string& name, const std::string& sc) {
    json pvc = {{"apiVersion", "v1"},
                {"kind", "PersistentVolumeClaim"},
                {"metadata", {{"name", name}}},
                {"spec",
                 {{"accessModes", {"ReadWriteOnce"}},
                  {"storageClassName", sc},
                  {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}};
    auto r =
        server_->CreateObject("/api/v1/namespaces/" + ns + "/persistentvolumeclaims", pvc.dump());
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  void PodWithClaim(const std::string& ns, const std::string& name, const std::string& scheduler,
                    const std::string& claim) {
    json pod = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", name}}},
        {"spec",
         {{"schedulerName", scheduler},
          {"automountServiceAccountToken", false},
          {"terminationGracePeriodSeconds", 0},
          {"volumes", {{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", claim}}}}}},
          {"containers",
           {{{"name", "c"},
             {"image", "registry.k8s.io/pause:3.1"},
             {"volumeMounts", {{{"name", "data"}, {"mountPath", "/data"}}}}}}}}}};
    auto r = server_->CreateObject("/api/v1/namespaces/" + ns + "/pods", pod.dump());
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  void SetStatus(const std::string& path, const std::string& phase) {
    auto r = server_->Admin("PATCH", path + "/status", json{{"status", {{"phase", phase}}}}.dump(),
                            "application/merge-patch+json");
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  json Get(const std::string& path) {
    auto r = server_->Admin("GET", path);
    return r.ok() ? json::parse(*r) : json::object();
  }
  // The PV controller's half of a binding: the claim names the PV, both
  // are Bound.
  void CompleteBinding(const std::string& ns, const std::string& claim, const std::string& pv) {
    const std::string pvc_path = "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/" + claim;
    json patch = {{"metadata",
                   {{"annotations",
                     {{"pv.kubernetes.io/bind-completed", "yes"},
                      {"pv.kubernetes.io/bound-by-controller", "yes"}}}}},
                  {"spec", {{"volumeName", pv}}}};
    auto r = server_->Admin("PATCH", pvc_path, patch.dump(), "application/merge-patch+json");
    ASSERT_TRUE(r.ok()) << r.error().message;
    SetStatus("/api/v1/persistentvolumes/" + pv, "Bound");
    SetStatus(pvc_path, "Bound");
  }
  std::string NodeOf(const std::string& ns, const std::string& pod) {
    return Get("/api/v1/namespaces/" + ns + "/pods/" + pod)["spec"].value("nodeName", "");
  }
  // The pod's PodScheduled condition as "Status Reason: message".
  std::string PodScheduled(const std::string& ns, const std::string& pod) {
    const json p = Get("/api/v1/namespaces/" + ns + "/pods/" + pod);
    for (const json& c : p["status"].value("conditions", json::array())) {
      if (c.value("type", "") == "PodScheduled")
        return c.value("status", "") + " " + c.value("reason", "") + ": " + c.value("message", "");
    }
    return "";
  }
  std::vector<std::string> Events(const std::string& ns) {
    std::vector<std::string> out;
    const json list = Get("/api/v1/namespaces/" + ns + "/events");
    for (const json& e : list.value("items", json::array())) {
      out.push_back(e["involvedObject"].value("name", "") + " " + e.value("reason", "") + ": " +
                    e.value("message", ""));
    }
    return out;
  }
  std::vector<std::string> Args(const std::string& scheduler) {
    return {"--kubeconfig",
            server_->env().scheduler_kubeconfig,
            "--scheduler-name",
            scheduler,
            "--leader-elect=false",
            "--port",
            "0"};
  }

  ApiServer* server_ = nullptr;
  std::string dir_;
  std::vector<std::string> nodes_, pvs_;
};

// A WaitForFirstConsumer claim and the one PV that fits it, on node b: the
// scheduler writes the PV's claimRef and waits; once the PV controller (the
// test) completes the binding, the pod is bound to b.
TEST_F(RunVolumeE2E, StaticBindingWritesTheClaimRefThenBindsThePod) {
  const std::string ns = "e2e126-vol", me = "e2e126-vol-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-vol-a");
  Node("e2e126-vol-b");
  StorageClass("e2e126-local", "kubernetes.io/no-provisioner");
  LocalPv("e2e126-vol-pv", "e2e126-local", "e2e126-vol-b");
  Claim(ns, "data", "e2e126-local");
  const std::string claim_uid =
      Get("/api/v1/namespaces/" + ns + "/persistentvolumeclaims/data")["metadata"].value("uid", "");
  RunProcess k(dir_ + "/static.log", Args(me));
  PodWithClaim(ns, "p", me, "data");

  json pv;
  ASSERT_TRUE(WaitFor(
      [&] {
        pv = Get("/api/v1/persistentvolumes/e2e126-vol-pv");
        return pv["spec"].contains("claimRef");
      },
      30s))
      << k.Log();
  const json& ref = pv["spec"]["claimRef"];
  EXPECT_EQ(ref.value("kind", ""), "PersistentVolumeClaim");
  EXPECT_EQ(ref.value("namespace", ""), ns);
  EXPECT_EQ(ref.value("name", ""), "data");
  EXPECT_EQ(ref.value("uid", ""), claim_uid);
  EXPECT_EQ(pv["metadata"]["annotations"].value("pv.kubernetes.io/bound-by-controller", ""), "yes");
  // PreBind waits for the controller: not bound yet.
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(NodeOf(ns, "p"), "");

  CompleteBinding(ns, "data", "e2e126-vol-pv");
  ASSERT_TRUE(WaitFor([&] { return !NodeOf(ns, "p").empty(); }, 20s)) << k.Log();
  EXPECT_EQ(NodeOf(ns, "p"), "e2e126-vol-b");
  EXPECT_EQ(k.Terminate(10s), 0);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// bindTimeoutSeconds from --config: the controller never completes the
// binding, so PreBind fails with upstream's message, the pod stays pending
// and is tried again.
TEST_F(RunVolumeE2E, BindTimeoutFailsTheAttemptWithUpstreamsMessage) {
  const std::string ns = "e2e126-voltimeout", me = "e2e126-voltimeout-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-voltimeout-a");
  StorageClass("e2e126-local", "kubernetes.io/no-provisioner");
  LocalPv("e2e126-voltimeout-pv", "e2e126-local", "e2e126-voltimeout-a");
  Claim(ns, "data", "e2e126-local");
  const std::string config = dir_ + "/timeout.yaml";
  std::ofstream(config) << "apiVersion: kubescheduler.config.k8s.io/v1\n"
                           "kind: KubeSchedulerConfiguration\n"
                           "leaderElection:\n  leaderElect: false\n"
                           "profiles:\n"
                           "- schedulerName: " +
                               me +
                               "\n"
                               "  pluginConfig:\n"
                               "  - name: VolumeBinding\n"
                               "    args:\n"
                               "      bindTimeoutSeconds: 2\n";
  RunProcess k(dir_ + "/timeout.log", {"--config", config, "--kubeconfig",
                                       server_->env().scheduler_kubeconfig, "--port", "0"});
  PodWithClaim(ns, "p", me, "data");
  const std::string message =
      "running PreBind plugin \"VolumeBinding\": binding volumes: timed out waiting for the "
      "condition";
  ASSERT_TRUE(
      WaitFor([&] { return PodScheduled(ns, "p") == "False SchedulerError: " + message; }, 30s))
      << PodScheduled(ns, "p") << "\n"
      << k.Log();
  EXPECT_TRUE(WaitFor(
      [&] {
        for (const std::string& e : Events(ns))
          if (e == "p FailedScheduling: " + message) return true;
        return false;
      },
      10s))
      << json(Events(ns)).dump();
  EXPECT_EQ(NodeOf(ns, "p"), "");
  // Requeued: the next attempt finds the PV already bound to the claim and
  // waits again; the controller finishing it now binds the pod.
  CompleteBinding(ns, "data", "e2e126-voltimeout-pv");
  ASSERT_TRUE(WaitFor([&] { return NodeOf(ns, "p") == "e2e126-voltimeout-a"; }, 40s)) << k.Log();
  EXPECT_EQ(k.Terminate(10s), 0);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

// Dynamic provisioning: no PV fits, the class has a provisioner, so the
// claim gets volume.kubernetes.io/selected-node; the provisioner (the test)
// creates a PV on that node and the controller binds it.
TEST_F(RunVolumeE2E, ProvisioningAnnotatesTheClaimWithTheSelectedNode) {
  const std::string ns = "e2e126-volprov", me = "e2e126-volprov-sched";
  ASSERT_TRUE(server_->EnsureNamespace(ns).ok());
  Node("e2e126-volprov-a");
  StorageClass("e2e126-provisioned", "example.com/fake-provisioner");
  Claim(ns, "data", "e2e126-provisioned");
  RunProcess k(dir_ + "/provision.log", Args(me));
  PodWithClaim(ns, "p", me, "data");
  const std::string pvc_path = "/api/v1/namespaces/" + ns + "/persistentvolumeclaims/data";
  ASSERT_TRUE(WaitFor(
      [&] {
        return Get(pvc_path)["metadata"]
                   .value("annotations", json::object())
                   .value("volume.kubernetes.io/selected-node", "") == "e2e126-volprov-a";
      },
      30s))
      << k.Log();
  EXPECT_EQ(NodeOf(ns, "p"), "");
  LocalPv("e2e126-volprov-pv", "e2e126-provisioned", "e2e126-volprov-a");
  CompleteBinding(ns, "data", "e2e126-volprov-pv");
  ASSERT_TRUE(WaitFor([&] { return NodeOf(ns, "p") == "e2e126-volprov-a"; }, 20s)) << k.Log();
  EXPECT_EQ(k.Terminate(10s), 0);
  ASSERT_TRUE(server_->DeleteAllPods(ns).ok());
}

}  // namespace
}  // namespace ksched
