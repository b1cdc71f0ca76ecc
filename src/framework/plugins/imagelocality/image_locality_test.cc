#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace imagelocality_image_locality_test {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;
using framework::testing::NodeNamed;
using ksched::testing::TestCluster;
using ksched::testing::TestPod;

// Sizes in MiB: big:1 is 500 on b and 300 on a; app:latest is 800 on b.
// Nodes are given b, a, c but v1.26's cache adds them by name: a, b, c.
const char* kCluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"b"},"status":{"images":[
        {"names":["big:1"],"sizeBytes":524288000},
        {"names":["app:latest","docker.io/library/app:latest"],"sizeBytes":838860800}]}},
    {"kind":"Node","metadata":{"name":"a"},"status":{"images":[
        {"names":["big:1"],"sizeBytes":314572800}]}},
    {"kind":"Node","metadata":{"name":"c"}}]})";

class ImageLocalityTest : public ::testing::Test {
 protected:
  int64_t ScoreOn(const Pod& pod, const char* node) {
    int64_t s = -1;
    CycleState state;
    EXPECT_TRUE(
        As<ScorePlugin>(plugin)->Score(state, pod, NodeNamed(cluster, node), &s).IsSuccess());
    return s;
  }

  ClusterState cluster = TestCluster(kCluster);
  FakeHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin = MustNew(&NewImageLocality, &handle);
};

TEST_F(ImageLocalityTest, SizeAndCountAsTheCacheRecordedThemInNameOrder) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","image":"big:1"}]}})");
  // a: 300 MiB x 1/3 nodes; b: 300 MiB (a's size, recorded first) x 2/3.
  EXPECT_EQ(ScoreOn(pod, "a"), 7);
  EXPECT_EQ(ScoreOn(pod, "b"), 18);
  EXPECT_EQ(ScoreOn(pod, "c"), 0);
  EXPECT_EQ(As<ScorePlugin>(plugin)->ScoreExt(), nullptr);
}

TEST_F(ImageLocalityTest, UntaggedImagesAreLatestAndThresholdsScaleWithContainers) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c1","image":"big:1"},{"name":"c2","image":"app"}]}})");
  EXPECT_EQ(ScoreOn(pod, "b"), 22);
  EXPECT_EQ(ScoreOn(pod, "a"), 3);
  EXPECT_EQ(ScoreOn(pod, "c"), 0);
  // A registry port is not a tag.
  Pod registry = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","image":"registry:5000/big"}]}})");
  EXPECT_EQ(ScoreOn(registry, "a"), 0);
}

TEST_F(ImageLocalityTest, AnImageFirstListedByALaterSnapshotScoresThere) {
  // Asked for first while no node lists it: the name is unknown.
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","image":"only-later:7"}]}})");
  EXPECT_EQ(ScoreOn(pod, "a"), 0);
  // A later snapshot's node lists it (1,000 MiB on one of two nodes).
  ClusterState later = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"a"},"status":{"images":[
          {"names":["only-later:7"],"sizeBytes":1048576000}]}},
      {"kind":"Node","metadata":{"name":"b"}}]})");
  FakeHandle later_handle{&later};
  std::unique_ptr<Plugin> later_plugin = MustNew(&NewImageLocality, &later_handle);
  int64_t s = -1;
  CycleState state;
  ASSERT_TRUE(
      As<ScorePlugin>(later_plugin)->Score(state, pod, NodeNamed(later, "a"), &s).IsSuccess());
  EXPECT_EQ(s, 48);  // 500 MiB scaled: (500 - 23) / (1000 - 23) of 100
}

// ------------------------------------------------- decisions keyed by release

TEST_F(ImageLocalityTest, V135CountsEveryNodeListingTheImage) {
  FakeHandle h135{&cluster, config::DefaultFeatureGates(config::SchedulerVersion::kV135)};
  auto v135 = MustNew(&NewImageLocality, &h135);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","image":"big:1"}]}})");
  auto score = [&](const char* node) {
    int64_t s = -1;
    CycleState state;
    EXPECT_TRUE(As<ScorePlugin>(v135)->Score(state, pod, NodeNamed(cluster, node), &s).IsSuccess());
    return s;
  };
  // 300 MiB (a's size, recorded first) x 2/3 on both a and b; v1.26 gives a
  // the count of its own addition (7, the fixture's plugin).
  EXPECT_EQ(ScoreOn(pod, "a"), 7);
  EXPECT_EQ(score("a"), 18);
  EXPECT_EQ(score("b"), 18);
  EXPECT_EQ(score("c"), 0);
}

TEST_F(ImageLocalityTest, V135CountsInitContainersImages) {
  FakeHandle h135{&cluster, config::DefaultFeatureGates(config::SchedulerVersion::kV135)};
  auto v135 = MustNew(&NewImageLocality, &h135);
  // big:1 in an init container, app in the container.
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"i","image":"big:1"}],
      "containers":[{"name":"c","image":"app"}]}})");
  auto score = [&](const char* node) {
    int64_t s = -1;
    CycleState state;
    EXPECT_TRUE(As<ScorePlugin>(v135)->Score(state, pod, NodeNamed(cluster, node), &s).IsSuccess());
    return s;
  };
  // v1.26: app alone, 800 MiB x 1/3 against one container's 1000 MiB.
  EXPECT_EQ(ScoreOn(pod, "b"), 24);
  EXPECT_EQ(ScoreOn(pod, "a"), 0);
  // v1.35: big 300 x 2/3 + app 800 x 1/3 against two containers' 2000 MiB.
  EXPECT_EQ(score("b"), 22);
  EXPECT_EQ(score("a"), 8);
}

}  // namespace imagelocality_image_locality_test
}  // namespace ksched::framework::plugins
