#include "framework/plugins/volumebinding/prebind.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "predicates/volume_util.h"

namespace ksched::framework::volumebinding {
namespace prebind_test {

using namespace std::chrono_literals;

// The API server as the job sees it: PVs and claims by name, every write
// recorded; `bind_after` polls, the PV controller (this fake) completes the
// claims whose PV has the claim as claimRef.
class FakeApi final : public PreBindApi {
 public:
  ::ksched::Status BindPersistentVolume(std::string_view name, std::string_view rv,
                                        const std::optional<ClaimReference>& ref,
                                        bool bound_by_controller) override {
    std::lock_guard<std::mutex> lock(mu);
    writes.push_back("pv " + std::string(name) + "@" + std::string(rv) +
                     (ref ? " claimRef " + ref->ns + "/" + ref->name : "") +
                     (bound_by_controller ? " bound-by-controller" : ""));
    if (!write_error.empty()) return Error{write_error, 409};
    PersistentVolume& pv = pvs[std::string(name)];
    if (ref) {
      pv.claim_ref = std::make_pair(ref->ns, ref->name);
      pv.claim_ref_uid = ref->uid;
    }
    return ::ksched::Status::Ok();
  }
  ::ksched::Status SetSelectedNode(std::string_view ns, std::string_view name, std::string_view rv,
                                   std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu);
    writes.push_back("pvc " + std::string(ns) + "/" + std::string(name) + "@" + std::string(rv) +
                     " selected-node " + std::string(node));
    pvcs[std::string(name)].meta.annotations.emplace_back(
        std::string(volume::kSelectedNodeAnnotation),
        reset_selected_node.empty() ? std::string(node) : reset_selected_node);
    return ::ksched::Status::Ok();
  }
  Result<std::optional<PersistentVolume>> GetPersistentVolume(std::string_view name) override {
    std::lock_guard<std::mutex> lock(mu);
    auto it = pvs.find(std::string(name));
    if (it == pvs.end()) return std::optional<PersistentVolume>();
    return std::optional<PersistentVolume>(it->second);
  }
  Result<std::optional<PersistentVolumeClaim>> GetPersistentVolumeClaim(
      std::string_view, std::string_view name) override {
    std::lock_guard<std::mutex> lock(mu);
    if (++polls >= bind_after) Complete();
    auto it = pvcs.find(std::string(name));
    if (it == pvcs.end()) return std::optional<PersistentVolumeClaim>();
    return std::optional<PersistentVolumeClaim>(it->second);
  }
  Result<bool> PodExists(std::string_view, std::string_view) override { return pod_exists; }

  void Complete() {
    for (auto& [name, pvc] : pvcs) {
      if (pvc.meta.annotations.empty() && !pvc_bound_without_pv) continue;
      pvc.volume_name = "pv-for-" + name;
      pvs[pvc.volume_name].meta.name = pvc.volume_name;
      pvc.meta.annotations.emplace_back(std::string(volume::kBindCompletedAnnotation), "yes");
    }
  }

  std::mutex mu;
  std::map<std::string, PersistentVolume> pvs;
  std::map<std::string, PersistentVolumeClaim> pvcs;
  std::vector<std::string> writes;
  std::string write_error;
  int polls = 0;
  int bind_after = 1 << 30;
  bool pod_exists = true;
  bool pvc_bound_without_pv = true;
  std::string reset_selected_node;  // what the claim says after the write
};

VolumeBindingJob StaticJob() {
  VolumeBindingJob job;
  job.pod_ns = "ns";
  job.pod_name = "p";
  job.node_name = "n1";
  job.interval = 2ms;
  job.timeout = 40ms;
  VolumeBindingJob::StaticBinding b;
  b.pv_name = "pv1";
  b.pv_resource_version = "12";
  b.claim_ref = ClaimReference{"ns", "c1", "uid-c1", "5"};
  b.bound_by_controller = true;
  b.claim_ns = "ns";
  b.claim_name = "c1";
  job.bindings.push_back(b);
  return job;
}

void AddStaticObjects(FakeApi* api) {
  api->pvs["pv1"].meta.name = "pv1";
  api->pvcs["c1"].meta.name = "c1";
}

TEST(VolumeBindingJobTest, WritesTheClaimRefAndWaitsUntilTheClaimIsBound) {
  FakeApi api;
  AddStaticObjects(&api);
  api.bind_after = 3;
  std::atomic<bool> stop{false};
  Status s = StaticJob().Run(&api, stop);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
  ASSERT_EQ(api.writes.size(), 1u);
  EXPECT_EQ(api.writes[0], "pv pv1@12 claimRef ns/c1 bound-by-controller");
  EXPECT_GE(api.polls, 3);
}

TEST(VolumeBindingJobTest, TimesOutWithUpstreamsMessage) {
  FakeApi api;
  AddStaticObjects(&api);
  std::atomic<bool> stop{false};
  EXPECT_EQ(StaticJob().Run(&api, stop).Message(),
            "binding volumes: timed out waiting for the condition");
}

TEST(VolumeBindingJobTest, AWriteErrorFailsAtOnce) {
  FakeApi api;
  AddStaticObjects(&api);
  api.write_error = "the object has been modified";
  std::atomic<bool> stop{false};
  EXPECT_EQ(StaticJob().Run(&api, stop).Message(), "the object has been modified");
}

TEST(VolumeBindingJobTest, UndoneBindingsFail) {
  std::atomic<bool> stop{false};
  {
    FakeApi api;
    AddStaticObjects(&api);
    VolumeBindingJob job = StaticJob();
    job.bindings[0].claim_ref.reset();  // nothing sets a claimRef: as if reset
    EXPECT_EQ(job.Run(&api, stop).Message(), "binding volumes: ClaimRef got reset for pv \"pv1\"");
  }
  {
    FakeApi api;
    AddStaticObjects(&api);
    api.pvcs.clear();
    EXPECT_EQ(StaticJob().Run(&api, stop).Message(),
              "binding volumes: failed to check binding: could not find "
              "v1.PersistentVolumeClaim \"ns/c1\"");
  }
  {
    FakeApi api;
    AddStaticObjects(&api);
    api.pod_exists = false;
    EXPECT_EQ(StaticJob().Run(&api, stop).Message(),
              "binding volumes: pod does not exist any more: pod \"p\" not found");
  }
  {
    FakeApi api;
    AddStaticObjects(&api);
    api.pvs["pv1"].node_affinity =
        NodeSelector{{NodeSelectorTerm{{SelectorRequirement{"zone", "In", {"b"}}}, {}}}};
    VolumeBindingJob job = StaticJob();
    EXPECT_EQ(job.Run(&api, stop).Message(),
              "binding volumes: pv \"pv1\" node affinity doesn't match node \"n1\": no matching "
              "NodeSelectorTerms");
  }
}

VolumeBindingJob ProvisioningJob() {
  VolumeBindingJob job;
  job.pod_ns = "ns";
  job.pod_name = "p";
  job.node_name = "n1";
  job.interval = 2ms;
  job.timeout = 40ms;
  job.provisionings.push_back({"ns", "c2", "33"});
  return job;
}

TEST(VolumeBindingJobTest, ProvisioningSetsTheSelectedNode) {
  FakeApi api;
  api.pvcs["c2"].meta.name = "c2";
  api.pvc_bound_without_pv = false;
  api.bind_after = 2;
  std::atomic<bool> stop{false};
  Status s = ProvisioningJob().Run(&api, stop);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
  ASSERT_EQ(api.writes.size(), 1u);
  EXPECT_EQ(api.writes[0], "pvc ns/c2@33 selected-node n1");
}

TEST(VolumeBindingJobTest, ProvisioningFailsWhenTheSelectedNodeChanges) {
  FakeApi api;
  api.pvcs["c2"].meta.name = "c2";
  api.reset_selected_node = "n9";  // the provisioner gave up, another attempt took the claim
  std::atomic<bool> stop{false};
  EXPECT_EQ(ProvisioningJob().Run(&api, stop).Message(),
            "binding volumes: provisioning failed for PVC \"c2\"");
}

TEST(VolumeBindingJobTest, StopEndsTheWait) {
  FakeApi api;
  AddStaticObjects(&api);
  VolumeBindingJob job = StaticJob();
  job.timeout = 0ms;  // no limit
  std::atomic<bool> stop{true};
  EXPECT_EQ(job.Run(&api, stop).Message(), "binding volumes: the scheduler is shutting down");
}

}  // namespace prebind_test
}  // namespace ksched::framework::volumebinding
