#include "priorities/image_locality.h"

#include <gtest/gtest.h>

#include <string>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace priorities_image_locality_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

constexpr int64_t kMiB = 1024 * 1024;

TEST(ImageLocalityPriority, NormalizedImageName) {
  EXPECT_EQ(NormalizedImageName("nginx"), "nginx:latest");
  EXPECT_EQ(NormalizedImageName("nginx:1.17"), "nginx:1.17");
  EXPECT_EQ(NormalizedImageName("library/nginx"), "library/nginx:latest");
  EXPECT_EQ(NormalizedImageName("docker.io/library/nginx:1.17"), "docker.io/library/nginx:1.17");
  EXPECT_EQ(NormalizedImageName("registry:5000/app"), "registry:5000/app:latest");
  EXPECT_EQ(NormalizedImageName("registry:5000/app:v2"), "registry:5000/app:v2");
  EXPECT_EQ(NormalizedImageName("app@sha256:0123abcd"), "app@sha256:0123abcd");
  EXPECT_EQ(NormalizedImageName("registry:5000/app@sha256:0123abcd"),
            "registry:5000/app@sha256:0123abcd");
  EXPECT_EQ(NormalizedImageName(""), ":latest");
}

TEST(ImageLocalityPriority, Thresholds) {
  const int64_t min = 23 * kMiB;
  const int64_t range = 977 * kMiB;  // 1000 MiB - 23 MiB
  EXPECT_EQ(ImageLocalityScore(0), 0);
  EXPECT_EQ(ImageLocalityScore(-5), 0);
  EXPECT_EQ(ImageLocalityScore(min), 0);
  EXPECT_EQ(ImageLocalityScore(min + range / 2), 5);
  // 10 * x / range truncates: the first size scoring 1 is ceil(range / 10).
  EXPECT_EQ(ImageLocalityScore(min + (range + 9) / 10 - 1), 0);
  EXPECT_EQ(ImageLocalityScore(min + (range + 9) / 10), 1);
  EXPECT_EQ(ImageLocalityScore(1000 * kMiB - 1), 9);
  EXPECT_EQ(ImageLocalityScore(1000 * kMiB), 10);
  EXPECT_EQ(ImageLocalityScore(int64_t{1} << 60), 10);
}

std::string Node(const std::string& name, const std::string& images) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"status":{"images":)" + images +
         "}}";
}

std::string Image(const std::vector<std::string>& names, int64_t mib) {
  std::string s = R"({"names":[)";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ",\"" : "\"") + names[i] + "\"";
  return s + R"(],"sizeBytes":)" + std::to_string(mib * kMiB) + "}";
}

std::string PodWithImages(const std::vector<std::string>& images,
                          const std::string& init_image = "") {
  std::string s = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{)";
  if (!init_image.empty()) s += R"("initContainers":[{"name":"i","image":")" + init_image + "\"}],";
  s += R"("containers":[)";
  for (size_t i = 0; i < images.size(); ++i) {
    if (i > 0) s += ",";
    s += R"({"name":"c)" + std::to_string(i) + R"(","image":")" + images[i] + "\"}";
  }
  return s + "]}}";
}

class ImageLocalityPriorityTest : public ::testing::Test {
 protected:
  // Four nodes, in this order. nginx:latest is on n1 (500 MiB) and n2 (which
  // reports 900 MiB); n3 lists "redis" without a tag; n4 has a registry image
  // and a digest reference.
  ClusterState c_ = TestCluster(ListOf({
      Node("n1", "[" + Image({"nginx:latest", "nginx:1.17"}, 500) + "]"),
      Node("n2", "[" + Image({"nginx:latest"}, 900) + "]"),
      Node("n3", "[" + Image({"redis"}, 500) + "]"),
      Node("n4", "[" + Image({"registry:5000/app:latest"}, 800) + "," +
                     Image({"app@sha256:0123abcd"}, 600) + "]"),
  }));
  std::unique_ptr<Priority> p_ = NewImageLocalityPriority();
};

TEST_F(ImageLocalityPriorityTest, SpreadIsCountedInNodeOrderWithTheFirstSize) {
  auto s = ScoreNodes(*p_, TestPod(PodWithImages({"nginx", "redis"})), c_);
  // n1 was added when only it had nginx: 500 MiB * 1/4 = 125 MiB -> 1020/977.
  EXPECT_EQ(s.at("n1"), 1);
  // n2 sees two nodes and the size first reported (500 MiB, not its own
  // 900): 250 MiB -> 2270/977.
  EXPECT_EQ(s.at("n2"), 2);
  // "redis" becomes redis:latest, which n3 does not list verbatim.
  EXPECT_EQ(s.at("n3"), 0);
  EXPECT_EQ(s.at("n4"), 0);
}

TEST_F(ImageLocalityPriorityTest, RegistryPortAndDigest) {
  auto s =
      ScoreNodes(*p_, TestPod(PodWithImages({"registry:5000/app", "app@sha256:0123abcd"})), c_);
  // (800 + 600) / 4 = 350 MiB -> 3270/977.
  EXPECT_EQ(s.at("n4"), 3);
  EXPECT_EQ(s.at("n1"), 0);
}

TEST_F(ImageLocalityPriorityTest, EachContainerCounts) {
  auto s = ScoreNodes(*p_, TestPod(PodWithImages({"nginx:latest", "nginx"})), c_);
  EXPECT_EQ(s.at("n2"), 4);  // 2 * 250 MiB -> 4770/977
  EXPECT_EQ(s.at("n1"), 2);  // 2 * 125 MiB -> 2270/977
}

TEST_F(ImageLocalityPriorityTest, InitContainersAndUnknownImagesDoNotCount) {
  auto s = ScoreNodes(*p_, TestPod(PodWithImages({"never-seen-image-xyz"}, "nginx")), c_);
  for (const auto& [node, score] : s) EXPECT_EQ(score, 0) << node;
}

TEST(ImageLocalityPriority, AllNodesWithTheImageScoreAlike) {
  ClusterState c = TestCluster(ListOf({Node("a", "[" + Image({"big:1"}, 2000) + "]"),
                                       Node("b", "[" + Image({"big:1"}, 2000) + "]")}));
  auto s = ScoreNodes(*NewImageLocalityPriority(), TestPod(PodWithImages({"big:1"})), c);
  // a: 2000 * 1/2 = 1000 MiB -> 10; b: 2000 * 2/2, clamped -> 10.
  EXPECT_EQ(s.at("a"), 10);
  EXPECT_EQ(s.at("b"), 10);
}

}  // namespace priorities_image_locality_test
}  // namespace ksched
