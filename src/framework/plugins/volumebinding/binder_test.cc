#include "framework/plugins/volumebinding/binder.h"

#include <gtest/gtest.h>

namespace ksched::framework::volumebinding {
namespace binder_test {

TEST(BinderTest, ParseIntErrorAsGoPrintsIt) {
  EXPECT_EQ(ParseIntError("42"), "");
  EXPECT_EQ(ParseIntError("-9223372036854775808"), "");
  EXPECT_EQ(ParseIntError(""), "strconv.ParseInt: parsing \"\": invalid syntax");
  EXPECT_EQ(ParseIntError("4x"), "strconv.ParseInt: parsing \"4x\": invalid syntax");
  EXPECT_EQ(ParseIntError("9223372036854775808"),
            "strconv.ParseInt: parsing \"9223372036854775808\": value out of range");
}

TEST(BinderTest, PvNodeAffinityMatchesLabelsOnly) {
  NodeSelector sel;
  NodeSelectorTerm term;
  term.match_expressions.push_back({"zone", "In", {"a"}});
  sel.terms.push_back(term);
  PvNodeAffinity affinity(sel);
  EXPECT_TRUE(affinity.Matches(Labels({{Intern("zone"), Intern("a")}})));
  EXPECT_FALSE(affinity.Matches(Labels({{Intern("zone"), Intern("b")}})));
  EXPECT_TRUE(PvNodeAffinity(std::nullopt).Matches(Labels()));
  // matchFields on a field other than metadata.name never matches in v1.26.
  NodeSelector fields;
  NodeSelectorTerm ft;
  ft.match_fields.push_back({"spec.unschedulable", "NotIn", {"x"}});
  fields.terms.push_back(ft);
  EXPECT_FALSE(PvNodeAffinity(fields).Matches(Labels()));
}

}  // namespace binder_test
}  // namespace ksched::framework::volumebinding

#include "framework/plugins/volumebinding/test_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::volumebinding {
namespace binder_test {

// Two claims of a WaitForFirstConsumer class and one local PV on n1.
const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}}},
  {"kind":"StorageClass","metadata":{"name":"local"},"provisioner":"kubernetes.io/no-provisioner",
   "volumeBindingMode":"WaitForFirstConsumer"},
  {"kind":"PersistentVolume","metadata":{"name":"pv-1"},"spec":{"storageClassName":"local",
   "capacity":{"storage":"10Gi"},"accessModes":["ReadWriteOnce"],
   "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
     {"key":"kubernetes.io/hostname","operator":"In","values":["n1"]}]}]}}},"status":{"phase":"Available"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"a","namespace":"default","uid":"ua"},
   "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"]}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"b","namespace":"default","uid":"ub"},
   "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"]}}
]})";

std::string_view SevenRv(const ObjectMeta&) { return "7"; }

struct Decision {
  std::vector<PersistentVolumeClaim> bound, delayed, immediate;  // volumes point here
  Status status;
  std::vector<std::string> reasons;
  PodVolumes volumes;
};

std::unique_ptr<Decision> Find(const Binder& binder, const Pod& pod, const NodeInfo& node) {
  std::unique_ptr<Decision> d = std::make_unique<Decision>();
  d->status = binder.GetPodVolumes(pod, &d->bound, &d->delayed, &d->immediate);
  EXPECT_TRUE(d->immediate.empty());
  if (d->status.IsSuccess())
    d->status = binder.FindPodVolumes(pod, d->bound, d->delayed, node, &d->volumes, &d->reasons);
  return d;
}

TEST(BinderTest, AssumedBindingsHideThePvFromOtherClaims) {
  ClusterState cluster = ksched::testing::TestCluster(kCluster);
  testing::VolumeTestHandle handle(&cluster);
  Binder binder(&handle);
  binder.set_resource_version_for_testing(&SevenRv);
  binder.Sync();
  Pod a = ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":"pa","namespace":"default"},"spec":{
      "volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"a"}}]}})");
  Pod b = ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":"pb","namespace":"default"},"spec":{
      "volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"b"}}]}})");
  const NodeInfo& n1 = cluster.node_info(0);

  std::unique_ptr<Decision> da_ptr = Find(binder, a, n1);
  Decision& da = *da_ptr;
  ASSERT_TRUE(da.status.IsSuccess());
  ASSERT_TRUE(da.reasons.empty());
  ASSERT_EQ(da.volumes.static_bindings.size(), 1u);
  bool all_bound = true;
  ASSERT_TRUE(binder.AssumePodVolumes(a, "n1", &da.volumes, &all_bound).IsSuccess());
  EXPECT_FALSE(all_bound);
  EXPECT_EQ(binder.num_assumed(), 1u);

  // pv-1 is now a's: b finds nothing, a still finds it.
  EXPECT_EQ(Find(binder, b, n1)->reasons, std::vector<std::string>{kErrReasonBindConflict});
  EXPECT_TRUE(Find(binder, a, n1)->reasons.empty());

  binder.RevertAssumedPodVolumes(da.volumes);
  EXPECT_EQ(binder.num_assumed(), 0u);
  EXPECT_TRUE(Find(binder, b, n1)->reasons.empty());
}

}  // namespace binder_test
}  // namespace ksched::framework::volumebinding
