#include "predicates/volume_util.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/fixtures.h"

namespace ksched::volume {
namespace volume_util_test {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(VolumeUtil, LabelZonesToSet) {
  std::vector<std::string_view> z;
  ASSERT_TRUE(LabelZonesToSet("us-east1-b", &z));
  EXPECT_THAT(z, ElementsAre("us-east1-b"));
  ASSERT_TRUE(LabelZonesToSet("us-east1-b__us-east1-c", &z));
  EXPECT_THAT(z, ElementsAre("us-east1-b", "us-east1-c"));
  ASSERT_TRUE(LabelZonesToSet(" a __ b ", &z));
  EXPECT_THAT(z, ElementsAre("a", "b"));
  // A single underscore is part of the name.
  ASSERT_TRUE(LabelZonesToSet("a_b", &z));
  EXPECT_THAT(z, ElementsAre("a_b"));
  // Any empty element makes the whole value unparsable.
  EXPECT_FALSE(LabelZonesToSet("", &z));
  EXPECT_THAT(z, IsEmpty());
  EXPECT_FALSE(LabelZonesToSet("a____b", &z));
  EXPECT_FALSE(LabelZonesToSet("a__", &z));
  EXPECT_FALSE(LabelZonesToSet("__a", &z));
  EXPECT_FALSE(LabelZonesToSet("a__ __b", &z));
  EXPECT_THAT(z, IsEmpty());
}

TEST(VolumeUtil, EbsNitroInstanceTypes) {
  EXPECT_TRUE(IsEbsNitroInstanceType("m5.large"));
  EXPECT_TRUE(IsEbsNitroInstanceType("c5d.xlarge"));
  EXPECT_TRUE(IsEbsNitroInstanceType("r5"));
  EXPECT_TRUE(IsEbsNitroInstanceType("t3.micro"));
  EXPECT_TRUE(IsEbsNitroInstanceType("z1d.large"));
  // The alternatives after the first are unanchored.
  EXPECT_TRUE(IsEbsNitroInstanceType("xt3y"));
  EXPECT_TRUE(IsEbsNitroInstanceType("foo.z1d"));
  EXPECT_FALSE(IsEbsNitroInstanceType("m4.large"));
  EXPECT_FALSE(IsEbsNitroInstanceType("am5.large"));  // ^ anchors the first alternative
  EXPECT_FALSE(IsEbsNitroInstanceType("c"));
  EXPECT_FALSE(IsEbsNitroInstanceType("t2.micro"));
  EXPECT_FALSE(IsEbsNitroInstanceType(""));
}

TEST(VolumeUtil, CsiAttachLimitKey) {
  EXPECT_EQ(CsiAttachLimitKey("ebs.csi.aws.com"), "attachable-volumes-csi-ebs.csi.aws.com");
  // 23 + 39 = 62 < 63: still plain.
  std::string d39(39, 'a');
  EXPECT_EQ(CsiAttachLimitKey(d39), "attachable-volumes-csi-" + d39);
  // 23 + 40 = 63: truncated and hashed (value computed with SHA-1 offline).
  EXPECT_EQ(CsiAttachLimitKey("com.example.csi.very-long-driver-name.io"),
            "attachable-volumes-csi-com.example.csi.very-loce213d808d06037d");
}

TEST(VolumeUtil, ClaimAndVolumeClassPreferTheBetaAnnotation) {
  ClusterState c = testing::TestCluster(R"({"kind":"List","items":[
    {"kind":"PersistentVolumeClaim","metadata":{"name":"a","namespace":"default",
      "annotations":{"volume.beta.kubernetes.io/storage-class":"beta"}},
      "spec":{"storageClassName":"spec"}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"b","namespace":"default"},
      "spec":{"storageClassName":"spec"}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"c","namespace":"default"},"spec":{}},
    {"kind":"PersistentVolume","metadata":{"name":"pv1",
      "annotations":{"volume.beta.kubernetes.io/storage-class":"beta"}},
      "spec":{"storageClassName":"spec"}},
    {"kind":"PersistentVolume","metadata":{"name":"pv2"},"spec":{"storageClassName":"spec"}}
  ]})");
  StrId ns = Intern("default");
  EXPECT_EQ(ClaimClass(*c.FindPvc(ns, "a")), "beta");
  EXPECT_EQ(ClaimClass(*c.FindPvc(ns, "b")), "spec");
  EXPECT_EQ(ClaimClass(*c.FindPvc(ns, "c")), "");
  EXPECT_EQ(VolumeClass(*c.FindPv("pv1")), "beta");
  EXPECT_EQ(VolumeClass(*c.FindPv("pv2")), "spec");
}

// Sorts (key, tag) pairs by key with GoSort.
std::vector<std::pair<int, char>> Sorted(std::vector<std::pair<int, char>> v) {
  GoSort(
      v.size(), [&](size_t i, size_t j) { return v[i].first < v[j].first; },
      [&](size_t i, size_t j) { std::swap(v[i], v[j]); });
  return v;
}

TEST(VolumeUtil, GoSortReordersEqualElementsLikeGo) {
  // Go's gap-6 pass swaps positions 6 and 0 first, which moves 5a behind 5b.
  auto v = Sorted({{5, 'a'}, {9, 'w'}, {9, 'x'}, {5, 'b'}, {9, 'y'}, {9, 'z'}, {3, 'c'}});
  EXPECT_THAT(
      v, ElementsAre(std::pair{3, 'c'}, std::pair{5, 'b'}, std::pair{5, 'a'}, std::pair{9, 'w'},
                     std::pair{9, 'x'}, std::pair{9, 'y'}, std::pair{9, 'z'}));
  // Up to six elements it is a plain (stable) insertion sort.
  auto w = Sorted({{2, 'a'}, {1, 'b'}, {2, 'c'}, {1, 'd'}});
  EXPECT_THAT(
      w, ElementsAre(std::pair{1, 'b'}, std::pair{1, 'd'}, std::pair{2, 'a'}, std::pair{2, 'c'}));
  EXPECT_THAT(Sorted({}), IsEmpty());
}

TEST(VolumeUtil, GoSortSortsLongInputs) {
  std::mt19937 rng(7);
  for (int n : {13, 41, 100, 1000}) {
    for (int range : {3, 1000}) {
      std::vector<std::pair<int, char>> v;
      for (int i = 0; i < n; ++i) v.push_back({static_cast<int>(rng() % range), 'x'});
      auto s = Sorted(v);
      EXPECT_TRUE(std::is_sorted(s.begin(), s.end())) << n << " " << range;
      std::sort(v.begin(), v.end());
      EXPECT_EQ(s, v);
    }
  }
}

}  // namespace volume_util_test
}  // namespace ksched::volume
