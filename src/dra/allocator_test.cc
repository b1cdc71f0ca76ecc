#include "dra/allocator.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <vector>

#include "api/decode.h"

namespace ksched::dra {
namespace allocator_test {

// A GPU node with DRA objects given as JSON, decoded as a snapshot's.
class AllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    features_.admin_access = true;
    features_.prioritized_list = true;
  }

  template <typename T, typename F>
  static T Decode(const std::string& json, F decode) {
    simdjson::dom::parser parser;
    auto root = ParseJson(parser, json, "test");
    EXPECT_TRUE(root.ok()) << root.error().message;
    auto obj = decode(*root, "test", "");
    EXPECT_TRUE(obj.ok()) << obj.error().message;
    return std::move(obj).value();
  }

  void Class(const std::string& name, const std::string& cel = "") {
    std::string sel =
        cel.empty() ? "" : R"(,"selectors":[{"cel":{"expression":")" + cel + R"("}}])";
    classes_.push_back(
        Decode<DeviceClass>(R"({"metadata":{"name":")" + name + R"("},"spec":{)" +
                                sel.substr(sel.empty() ? 0 : 1) + "}}",
                            [](auto e, auto f, auto w) { return DecodeDeviceClass(e, f, w); }));
  }
  void Slice(const std::string& json) {
    slices_.push_back(Decode<ResourceSlice>(
        json, [](auto e, auto f, auto w) { return DecodeResourceSlice(e, f, w); }));
  }
  // A slice of `n` GPUs "gpu-0".."gpu-n-1" of `driver` on `node`.
  void Gpus(const std::string& node, int n, const std::string& driver = "gpu.example.com",
            const std::string& model = "a100") {
    std::string devices;
    for (int i = 0; i < n; ++i) {
      if (i > 0) devices += ",";
      devices += R"({"name":"gpu-)" + std::to_string(i) + R"(","attributes":{"model":{"string":")" +
                 model + R"("},"index":{"int":)" + std::to_string(i) +
                 R"(},"resource.kubernetes.io/pcieRoot":{"string":"root-)" + std::to_string(i / 2) +
                 R"("}},"capacity":{"memory":{"value":"80Gi"}}})";
    }
    Slice(R"({"metadata":{"name":")" + node + "-" + driver + R"("},"spec":{"driver":")" + driver +
          R"(","pool":{"name":")" + node + R"(","generation":1,"resourceSliceCount":1},)" +
          R"("nodeName":")" + node + R"(","devices":[)" + devices + "]}}");
  }
  void Claim(const std::string& name, const std::string& devices_json) {
    claims_.push_back(Decode<ResourceClaim>(
        R"({"metadata":{"name":")" + name + R"(","namespace":"default","uid":")" + name +
            R"("},"spec":{"devices":)" + devices_json + "}}",
        [](auto e, auto f, auto w) { return DecodeResourceClaim(e, f, w); }));
  }

  AllocateOutcome Allocate(const std::string& node_name,
                           std::unordered_set<DeviceId, DeviceIdHash> allocated = {}) {
    auto dra = DraState::Build(classes_, slices_, claims_, {});
    EXPECT_TRUE(dra.ok()) << dra.error().message;
    dra_ = std::move(dra).value();
    index_ = std::make_shared<SliceIndex>(dra_);
    Allocator alloc(features_, index_, std::move(allocated), &cache_);
    node_.meta.name = node_name;
    std::vector<const ResourceClaim*> claims;
    for (uint32_t i = 0; i < dra_.num_claims(); ++i) claims.push_back(&dra_.claim(i));
    return alloc.Allocate(node_, claims);
  }

  // "req:driver/pool/device" per result of claim i.
  static std::vector<std::string> Devices(const AllocateOutcome& out, size_t i = 0) {
    std::vector<std::string> v;
    if (i >= out.results.size()) return v;
    for (const auto& r : out.results[i].results)
      v.push_back(r.request + ":" + r.driver + "/" + r.pool + "/" + r.device +
                  (r.AdminAccess() ? "(admin)" : ""));
    return v;
  }

  Features features_;
  std::vector<DeviceClass> classes_;
  std::vector<ResourceSlice> slices_;
  std::vector<ResourceClaim> claims_;
  DraState dra_;
  std::shared_ptr<SliceIndex> index_;
  cel::SelectorCache cache_{10};
  Node node_;
};

DeviceId Id(const char* driver, const char* pool, const char* device) {
  return DeviceId{Intern(driver), Intern(pool), Intern(device)};
}

TEST_F(AllocatorTest, FirstFreeDevicesInSliceOrder) {
  Class("gpu", "device.driver == 'gpu.example.com'");
  Gpus("node-1", 4);
  Claim("c", R"({"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","count":2}}]})");
  AllocateOutcome out = Allocate("node-1", {Id("gpu.example.com", "node-1", "gpu-0")});
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out), (std::vector<std::string>{"gpu:gpu.example.com/node-1/gpu-1",
                                                    "gpu:gpu.example.com/node-1/gpu-2"}));
  ASSERT_TRUE(out.results[0].node_selector.has_value());
  EXPECT_EQ(out.results[0].node_selector->terms[0].match_fields[0].values,
            std::vector<std::string>{"node-1"});
  // Another node has no pool: no solution.
  EXPECT_EQ(Allocate("node-2").kind, AllocateOutcome::Kind::kNoSolution);
}

TEST_F(AllocatorTest, MatchAttributeBacktracks) {
  Class("gpu");
  Gpus("node-1", 4);
  // gpu-0 is taken: gpu-1 (root-0) has no partner, so gpu-2 and gpu-3.
  Claim("c", R"({"requests":[{"name":"a","exactly":{"deviceClassName":"gpu"}},
                              {"name":"b","exactly":{"deviceClassName":"gpu"}}],
                 "constraints":[{"matchAttribute":"resource.kubernetes.io/pcieRoot"}]})");
  AllocateOutcome out = Allocate("node-1", {Id("gpu.example.com", "node-1", "gpu-0")});
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out), (std::vector<std::string>{"a:gpu.example.com/node-1/gpu-2",
                                                    "b:gpu.example.com/node-1/gpu-3"}));
}

TEST_F(AllocatorTest, MatchAttributeOfTheDriversDomain) {
  Class("gpu");
  Gpus("node-1", 3);
  Claim("c", R"({"requests":[{"name":"a","exactly":{"deviceClassName":"gpu","count":2}}],
                 "constraints":[{"requests":["a"],"matchAttribute":"gpu.example.com/model"}]})");
  AllocateOutcome out = Allocate("node-1");
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out).size(), 2u);
}

TEST_F(AllocatorTest, FirstAvailableFallsBackToALaterSubrequest) {
  Class("big", "device.attributes['gpu.example.com'].model == 'h100'");
  Class("small", "device.attributes['gpu.example.com'].model == 'a100'");
  Gpus("node-1", 2);
  Claim("c", R"({"requests":[{"name":"gpu","firstAvailable":[
                   {"name":"h100","deviceClassName":"big"},
                   {"name":"a100","deviceClassName":"small","count":2}]}]})");
  AllocateOutcome out = Allocate("node-1");
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out), (std::vector<std::string>{"gpu/a100:gpu.example.com/node-1/gpu-0",
                                                    "gpu/a100:gpu.example.com/node-1/gpu-1"}));
}

TEST_F(AllocatorTest, FirstAvailableNeedsTheGate) {
  features_.prioritized_list = false;
  Class("gpu");
  Gpus("node-1", 1);
  Claim("c",
        R"({"requests":[{"name":"gpu","firstAvailable":[{"name":"x","deviceClassName":"gpu"}]}]})");
  AllocateOutcome out = Allocate("node-1");
  EXPECT_EQ(out.kind, AllocateOutcome::Kind::kError);
  EXPECT_EQ(out.message,
            "claim default/c, request gpu: has subrequests, but the DRAPrioritizedList feature is "
            "disabled");
}

TEST_F(AllocatorTest, AllDevicesAndAnIncompletePool) {
  Class("gpu");
  Gpus("node-1", 3);
  Claim(
      "c",
      R"({"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","allocationMode":"All"}}]})");
  AllocateOutcome out = Allocate("node-1");
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out).size(), 3u);
  // One device taken: "All" cannot be had.
  EXPECT_EQ(Allocate("node-1", {Id("gpu.example.com", "node-1", "gpu-1")}).kind,
            AllocateOutcome::Kind::kNoSolution);

  slices_.clear();
  Slice(R"({"metadata":{"name":"s1"},"spec":{"driver":"gpu.example.com","nodeName":"node-1",
            "pool":{"name":"p","generation":1,"resourceSliceCount":2},"devices":[{"name":"d"}]}})");
  out = Allocate("node-1");
  EXPECT_EQ(out.kind, AllocateOutcome::Kind::kError);
  EXPECT_EQ(out.message,
            "claim default/c, request gpu: asks for all devices, but resource pool "
            "gpu.example.com/p is currently being updated");
}

TEST_F(AllocatorTest, CelRuntimeErrorStopsTheCycle) {
  Class("gpu", "device.attributes['gpu.example.com'].nosuch == 'x'");
  Gpus("node-1", 1);
  Claim("c", R"({"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]})");
  AllocateOutcome out = Allocate("node-1");
  EXPECT_EQ(out.kind, AllocateOutcome::Kind::kError);
  EXPECT_EQ(out.message, "class gpu: selector #0: CEL runtime error: no such key: nosuch");
}

TEST_F(AllocatorTest, PoolsByDriverThenName) {
  Class("any");
  Gpus("node-1", 1, "z.example.com");
  Gpus("node-1", 1, "a.example.com");
  Claim("c", R"({"requests":[{"name":"d","exactly":{"deviceClassName":"any"}}]})");
  AllocateOutcome out = Allocate("node-1");
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out), (std::vector<std::string>{"d:a.example.com/node-1/gpu-0"}));
}

TEST_F(AllocatorTest, AdminAccessSharesAllocatedDevices) {
  Class("gpu");
  Gpus("node-1", 1);
  Claim("c",
        R"({"requests":[{"name":"mon","exactly":{"deviceClassName":"gpu","adminAccess":true}}]})");
  AllocateOutcome out = Allocate("node-1", {Id("gpu.example.com", "node-1", "gpu-0")});
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out), (std::vector<std::string>{"mon:gpu.example.com/node-1/gpu-0(admin)"}));
  features_.admin_access = false;
  out = Allocate("node-1");
  EXPECT_EQ(out.kind, AllocateOutcome::Kind::kError);
  EXPECT_EQ(out.message,
            "claim default/c, request mon: admin access is requested, but the feature is "
            "disabled");
}

TEST_F(AllocatorTest, NetworkAttachedDevicesGetTheSlicesSelector) {
  Class("nic");
  Slice(R"({"metadata":{"name":"fabric"},"spec":{"driver":"nic.example.com",
            "pool":{"name":"fabric","generation":1,"resourceSliceCount":1},
            "nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[
              {"key":"topology.kubernetes.io/zone","operator":"In","values":["a"]}]}]},
            "devices":[{"name":"nic-0"}]}})");
  Claim("c", R"({"requests":[{"name":"nic","exactly":{"deviceClassName":"nic"}}]})");
  node_.meta.labels = Labels({{Intern("topology.kubernetes.io/zone"), Intern("a")}});
  auto dra = DraState::Build(classes_, slices_, claims_, {});
  ASSERT_TRUE(dra.ok());
  dra_ = std::move(dra).value();
  index_ = std::make_shared<SliceIndex>(dra_);
  Allocator alloc(features_, index_, {}, &cache_);
  node_.meta.name = "node-1";
  const ResourceClaim* claim = &dra_.claim(0);
  AllocateOutcome out = alloc.Allocate(node_, std::span<const ResourceClaim* const>(&claim, 1));
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  ASSERT_TRUE(out.results[0].node_selector.has_value());
  EXPECT_EQ(out.results[0].node_selector->terms[0].match_expressions[0].key,
            "topology.kubernetes.io/zone");
  node_.meta.labels = Labels();
  EXPECT_EQ(alloc.Allocate(node_, std::span<const ResourceClaim* const>(&claim, 1)).kind,
            AllocateOutcome::Kind::kAllocated)
      << "the pools of a node are kept per node name";
}

TEST_F(AllocatorTest, TooManyDevices) {
  Class("gpu");
  Gpus("node-1", 1);
  Claim("c", R"({"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","count":33}}]})");
  AllocateOutcome out = Allocate("node-1");
  EXPECT_EQ(out.kind, AllocateOutcome::Kind::kError);
  EXPECT_EQ(out.message,
            "claim default/c: number of requested devices 33 exceeds the claim limit of 32");
}

TEST_F(AllocatorTest, TwoClaimsDoNotShareADevice) {
  Class("gpu");
  Gpus("node-1", 2);
  Claim("a", R"({"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]})");
  Claim("b", R"({"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]})");
  AllocateOutcome out = Allocate("node-1");
  ASSERT_EQ(out.kind, AllocateOutcome::Kind::kAllocated) << out.message;
  EXPECT_EQ(Devices(out, 0), (std::vector<std::string>{"gpu:gpu.example.com/node-1/gpu-0"}));
  EXPECT_EQ(Devices(out, 1), (std::vector<std::string>{"gpu:gpu.example.com/node-1/gpu-1"}));
}

}  // namespace allocator_test
}  // namespace ksched::dra
