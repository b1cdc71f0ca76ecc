#include "cache/resource.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "api/intern.h"

namespace ksched {
namespace resource_test {

// MilliValue() saturates, as the quantity parser does.
ResourceQuantity Q(const std::string& name, int64_t value) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  return ResourceQuantity{Intern(name), QuantityFormat::kDecimalSI, value,
                          value > max / 1000 ? max : value * 1000};
}

// Upstream's Resource keeps scalars in a map; the reference here is the same
// operations applied one entry at a time to a plain list.
std::vector<std::pair<std::string, int64_t>> Named(const Resource& r) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& [id, v] : r.scalars) out.emplace_back(std::string(Str(id)), v);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Resource, AddSumsRepeatedNamesInAnyOrder) {
  Resource r;
  r.Add({Q("example.com/b", 1), Q("cpu", 2), Q("example.com/a", 3), Q("example.com/b", 4)});
  r.Add({Q("example.com/a", 10), Q("example.com/c", 0), Q("not-scalar", 5)});
  EXPECT_EQ(r.milli_cpu, 2000);
  // A zero request still names the resource (upstream's AddScalar creates it).
  EXPECT_EQ(Named(r), (std::vector<std::pair<std::string, int64_t>>{
                          {"example.com/a", 13}, {"example.com/b", 5}, {"example.com/c", 0}}));
  EXPECT_TRUE(std::is_sorted(r.scalars.begin(), r.scalars.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; }));
  EXPECT_EQ(r.Scalar(Intern("example.com/a")), 13);
  EXPECT_EQ(r.Scalar(Intern("example.com/zzz")), 0);
}

TEST(Resource, SetMaxAddsOnlyLargerValues) {
  Resource r;
  r.Add({Q("example.com/a", 5)});
  r.SetMax({Q("example.com/a", 3), Q("example.com/b", 0), Q("example.com/c", 2),
            Q("example.com/c", 7), Q("cpu", 1)});
  EXPECT_EQ(r.milli_cpu, 1000);
  // A zero value does not beat the absent entry's 0, so b is not created.
  EXPECT_EQ(Named(r), (std::vector<std::pair<std::string, int64_t>>{{"example.com/a", 5},
                                                                    {"example.com/c", 7}}));
}

TEST(Resource, SumsWrapAsGoInt64) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  Resource r;
  r.Add({ResourceQuantity{Intern("cpu"), {}, max, max},
         ResourceQuantity{Intern("cpu"), {}, max, max}, Q("example.com/a", max),
         Q("example.com/a", max)});
  EXPECT_EQ(r.milli_cpu, -2);
  EXPECT_EQ(r.Scalar(Intern("example.com/a")), -2);
  Resource other;
  other.Add({Q("example.com/a", 3)});
  r.AddRequest(other);
  EXPECT_EQ(r.Scalar(Intern("example.com/a")), 1);
}

// Thousands of names, added in random order with repeats, in several calls:
// the sorted list must equal one-at-a-time accumulation.
TEST(Resource, LongListsMatchOneAtATime) {
  std::mt19937 rng(7);
  Resource bulk, single, requests;
  std::vector<std::pair<std::string, int64_t>> want_requests;
  for (int round = 0; round < 4; ++round) {
    ResourceList list;
    for (int i = 0; i < 3000; ++i) {
      list.push_back(Q("example.com/r" + std::to_string(rng() % 2500), rng() % 100));
    }
    bulk.Add(list);
    for (const ResourceQuantity& q : list) single.AddScalar(q.name, q.value);
    Resource piece;
    piece.Add(list);
    requests.AddRequest(piece);
  }
  EXPECT_EQ(bulk.scalars, single.scalars);
  EXPECT_EQ(requests.scalars, single.scalars);
  EXPECT_GT(bulk.scalars.size(), 2000u);
}

// v1.35 compares summed quantities exactly: containers of 125m and 500m
// (625m, though each rounds up to a whole unit) against an init container
// of 1 cpu takes the init container's 1000m.
TEST(PodRequestsV135, InitContainerBeatsASumOfRoundedUpParts) {
  const StrId cpu = Intern("cpu");
  Pod pod;
  Container c;
  c.name = "c";
  c.requests = {{.name = cpu, .value = 1, .milli = 125}};
  pod.spec.containers.push_back(c);
  Container init;
  init.name = "setup";
  init.requests = {{.name = cpu, .value = 1, .milli = 1000}};
  pod.spec.init_containers.push_back(init);
  Container sidecar;
  sidecar.name = "sidecar";
  sidecar.restart_policy = "Always";
  sidecar.requests = {{.name = cpu, .value = 1, .milli = 500}};
  pod.spec.init_containers.push_back(sidecar);
  PodRequestOptions options;
  EXPECT_EQ(PodRequestV135(pod, options).milli_cpu, 1000);
  EXPECT_EQ(PodNonZeroRequestV135(pod, options).milli_cpu, 1000);
}

}  // namespace resource_test
}  // namespace ksched
