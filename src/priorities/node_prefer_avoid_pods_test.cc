#include "priorities/node_prefer_avoid_pods.h"

#include <gtest/gtest.h>

#include <string>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace node_prefer_avoid_pods_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

// One preferAvoidPods entry for a controller.
std::string Avoid(const std::string& kind, const std::string& uid) {
  return R"({"podSignature":{"podController":{"apiVersion":"v1","kind":")" + kind +
         R"(","name":"x","uid":")" + uid +
         R"(","controller":true}},"reason":"r","message":"m","evictionTime":"2019-10-15T10:00:00Z"})";
}

std::string Annotation(const std::vector<std::string>& entries) {
  std::string s = R"({"preferAvoidPods":[)";
  for (size_t i = 0; i < entries.size(); ++i) s += (i ? "," : "") + entries[i];
  return s + "]}";
}

size_t Count(std::string_view json) {
  auto r = ParsePreferAvoidPods(json);
  return r ? r->size() : static_cast<size_t>(-1);
}
constexpr size_t kMalformed = static_cast<size_t>(-1);

TEST(ParsePreferAvoidPods, Valid) {
  auto r =
      ParsePreferAvoidPods(Annotation({Avoid("ReplicaSet", "u1"), Avoid("StatefulSet", "u2")}));
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].kind, "ReplicaSet");
  EXPECT_EQ((*r)[0].uid, "u1");
  EXPECT_EQ((*r)[1].kind, "StatefulSet");
  EXPECT_EQ(Count("{}"), 0u);
  EXPECT_EQ(Count("null"), 0u);
  EXPECT_EQ(Count(R"({"preferAvoidPods":null})"), 0u);
  EXPECT_EQ(Count(R"({"preferAvoidPods":[]})"), 0u);
  // An entry without a podController matches nothing and is left out.
  EXPECT_EQ(Count(R"({"preferAvoidPods":[{"reason":"r"},null,{"podSignature":null}]})"), 0u);
}

TEST(ParsePreferAvoidPods, SyntaxErrors) {
  EXPECT_EQ(Count("{not json"), kMalformed);
  EXPECT_EQ(Count(" "), kMalformed);
  EXPECT_EQ(Count("{} x"), kMalformed);
  EXPECT_EQ(Count(R"({"preferAvoidPods":[],})"), kMalformed);
  EXPECT_EQ(Count("\xEF\xBB\xBF{}"), kMalformed);  // Go does not skip a BOM
}

TEST(ParsePreferAvoidPods, WrongTypesForKnownFields) {
  EXPECT_EQ(Count("[]"), kMalformed);
  EXPECT_EQ(Count(R"("text")"), kMalformed);
  EXPECT_EQ(Count(R"({"preferAvoidPods":{}})"), kMalformed);
  EXPECT_EQ(Count(R"({"preferAvoidPods":[1]})"), kMalformed);
  EXPECT_EQ(Count(R"({"preferAvoidPods":[{"podSignature":[]}]})"), kMalformed);
  EXPECT_EQ(Count(R"({"preferAvoidPods":[{"podSignature":{"podController":"rs"}}]})"), kMalformed);
  EXPECT_EQ(Count(R"({"preferAvoidPods":[{"podSignature":{"podController":{"kind":5}}}]})"),
            kMalformed);
  EXPECT_EQ(
      Count(R"({"preferAvoidPods":[{"podSignature":{"podController":{"controller":"yes"}}}]})"),
      kMalformed);
  EXPECT_EQ(Count(R"({"preferAvoidPods":[{"reason":{"x":1}}]})"), kMalformed);
  // Unknown fields may hold anything.
  EXPECT_EQ(Count(R"({"other":[1,{"x":[[true]]}],"preferAvoidPods":[{"extra":{}}]})"), 0u);
}

TEST(ParsePreferAvoidPods, EvictionTimeMustBeRfc3339) {
  auto with_time = [](const std::string& t) {
    return Count(R"({"preferAvoidPods":[{"evictionTime":)" + t + "}]}");
  };
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00Z")"), 0u);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00.123456789Z")"), 0u);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00,5+02:00")"), 0u);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00-07:30")"), 0u);
  EXPECT_EQ(with_time(R"("2019-10-15T1:00:00Z")"), 0u);  // Go accepts a 1-digit hour
  EXPECT_EQ(with_time(R"("2020-02-29T10:00:00Z")"), 0u);
  EXPECT_EQ(with_time("null"), 0u);
  EXPECT_EQ(with_time(R"("2019-02-29T10:00:00Z")"), kMalformed);  // not a leap year
  EXPECT_EQ(with_time(R"("2019-04-31T10:00:00Z")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-13-01T10:00:00Z")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15T24:00:00Z")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15T10:60:00Z")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15 10:00:00Z")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00z")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00.Z")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00+0200")"), kMalformed);
  EXPECT_EQ(with_time(R"("2019-10-15T10:00:00Zjunk")"), kMalformed);
  EXPECT_EQ(with_time(R"("")"), kMalformed);
  EXPECT_EQ(with_time("1571133600"), kMalformed);
}

TEST(ParsePreferAvoidPods, KeysMatchCaseInsensitivelyAsInGo) {
  auto r = ParsePreferAvoidPods(
      R"({"PreferAvoidPods":[{"PODSIGNATURE":{"podcontroller":{"Kind":"ReplicaSet","UID":"u1"}}}]})");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].kind, "ReplicaSet");
  EXPECT_EQ((*r)[0].uid, "u1");
  // The Kelvin sign folds to 'k' in Go.
  auto kelvin = ParsePreferAvoidPods(
      "{\"preferAvoidPods\":[{\"podSignature\":{\"podController\":{\"\xE2\x84\xAAind\":\"RS\"}}}]"
      "}");
  ASSERT_TRUE(kelvin.has_value());
  ASSERT_EQ(kelvin->size(), 1u);
  EXPECT_EQ((*kelvin)[0].kind, "RS");
  // Near misses are unknown fields.
  auto miss = ParsePreferAvoidPods(
      R"({"preferAvoidPods":[{"podSignature":{"podController":{"kind_":"RS","kinds":5}}}]})");
  ASSERT_TRUE(miss.has_value());
  EXPECT_EQ((*miss)[0].kind, "");
}

TEST(ParsePreferAvoidPods, DuplicateKeysDecodeIntoTheSameValue) {
  // The second list decodes into the first list's element: the controller
  // survives, as Go's decoder merges into existing values.
  auto merged = ParsePreferAvoidPods(R"({"preferAvoidPods":[)" + Avoid("ReplicaSet", "u1") +
                                     R"(],"preferAvoidPods":[{"reason":"again"}]})");
  ASSERT_TRUE(merged.has_value());
  ASSERT_EQ(merged->size(), 1u);
  EXPECT_EQ((*merged)[0].uid, "u1");
  // A later shorter list cuts it; null clears it.
  EXPECT_EQ(Count(R"({"preferAvoidPods":[)" + Avoid("ReplicaSet", "u1") + "," +
                  Avoid("ReplicaSet", "u2") + R"(],"preferAvoidPods":[{}]})"),
            1u);
  EXPECT_EQ(
      Count(R"({"preferAvoidPods":[)" + Avoid("ReplicaSet", "u1") + R"(],"preferAvoidPods":null})"),
      0u);
  // Within one object the last "uid" wins.
  auto last = ParsePreferAvoidPods(
      R"({"preferAvoidPods":[{"podSignature":{"podController":{"uid":"a","Uid":"b"}}}]})");
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ((*last)[0].uid, "b");
}

TEST(ParsePreferAvoidPods, InvalidUtf8InStringsIsAccepted) {
  auto r = ParsePreferAvoidPods(
      "{\"preferAvoidPods\":[{\"podSignature\":{\"podController\":{\"uid\":\"a\xFF\"}}}]}");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].uid, "a\xEF\xBF\xBD");
}

TEST(ParsePreferAvoidPods, NestingLimit) {
  std::string ok = R"({"x":)" + std::string(9000, '[') + std::string(9000, ']') + "}";
  EXPECT_EQ(Count(ok), 0u);
  std::string deep = R"({"x":)" + std::string(10000, '[') + std::string(10000, ']') + "}";
  EXPECT_EQ(Count(deep), kMalformed);
}

// ---------------------------------------------------------------- priority

std::string Node(const std::string& name, const std::string* annotation) {
  std::string s = R"({"kind":"Node","metadata":{"name":")" + name + "\"";
  if (annotation != nullptr) {
    std::string escaped;
    for (char ch : *annotation) {
      if (ch == '"' || ch == '\\') escaped += '\\';
      escaped += ch;
    }
    s += R"(,"annotations":{"scheduler.alpha.kubernetes.io/preferAvoidPods":")" + escaped + "\"}";
  }
  return s + "}}";
}

std::string PodOwnedBy(const std::string& owner_refs) {
  return R"({"kind":"Pod","metadata":{"name":"p","namespace":"default","ownerReferences":)" +
         owner_refs + R"(},"spec":{"containers":[{"name":"c"}]}})";
}

std::string Owner(const std::string& kind, const std::string& uid, bool controller = true) {
  return R"({"apiVersion":"apps/v1","kind":")" + kind + R"(","name":"o","uid":")" + uid +
         R"(","controller":)" + (controller ? "true" : "false") + "}";
}

class NodePreferAvoidPodsPriorityTest : public ::testing::Test {
 protected:
  std::string avoid_rs_ = Annotation({Avoid("StatefulSet", "ss-1"), Avoid("ReplicaSet", "rs-1"),
                                      Avoid("ReplicationController", "rc-1")});
  std::string malformed_ = "{not json";
  std::string empty_;
  ClusterState c_ = TestCluster(ListOf({Node("avoid", &avoid_rs_), Node("bad", &malformed_),
                                        Node("empty", &empty_), Node("plain", nullptr)}));
  std::unique_ptr<Priority> p_ = NewNodePreferAvoidPodsPriority();
};

TEST_F(NodePreferAvoidPodsPriorityTest, ReplicaSetAndReplicationControllerAreAvoided) {
  for (const std::string& owner :
       {Owner("ReplicaSet", "rs-1"), Owner("ReplicationController", "rc-1")}) {
    auto s = ScoreNodes(*p_, TestPod(PodOwnedBy("[" + owner + "]")), c_);
    EXPECT_EQ(s.at("avoid"), 0) << owner;
    EXPECT_EQ(s.at("bad"), 10);  // malformed: as if absent
    EXPECT_EQ(s.at("empty"), 10);
    EXPECT_EQ(s.at("plain"), 10);
  }
}

TEST_F(NodePreferAvoidPodsPriorityTest, OtherControllerKindsAreIgnored) {
  // The annotation lists StatefulSet ss-1, but only RC and RS owners count.
  auto s = ScoreNodes(*p_, TestPod(PodOwnedBy("[" + Owner("StatefulSet", "ss-1") + "]")), c_);
  EXPECT_EQ(s.at("avoid"), 10);
}

TEST_F(NodePreferAvoidPodsPriorityTest, KindAndUidMustBothMatch) {
  auto wrong_uid =
      ScoreNodes(*p_, TestPod(PodOwnedBy("[" + Owner("ReplicaSet", "rs-2") + "]")), c_);
  EXPECT_EQ(wrong_uid.at("avoid"), 10);
  auto wrong_kind =
      ScoreNodes(*p_, TestPod(PodOwnedBy("[" + Owner("ReplicationController", "rs-1") + "]")), c_);
  EXPECT_EQ(wrong_kind.at("avoid"), 10);
}

TEST_F(NodePreferAvoidPodsPriorityTest, OnlyTheFirstControllerReferenceCounts) {
  auto not_controller =
      ScoreNodes(*p_, TestPod(PodOwnedBy("[" + Owner("ReplicaSet", "rs-1", false) + "]")), c_);
  EXPECT_EQ(not_controller.at("avoid"), 10);
  auto after_non_controller =
      ScoreNodes(*p_,
                 TestPod(PodOwnedBy("[" + Owner("ReplicaSet", "x", false) + "," +
                                    Owner("ReplicaSet", "rs-1") + "]")),
                 c_);
  EXPECT_EQ(after_non_controller.at("avoid"), 0);
  auto second_controller = ScoreNodes(*p_,
                                      TestPod(PodOwnedBy("[" + Owner("StatefulSet", "ss-1") + "," +
                                                         Owner("ReplicaSet", "rs-1") + "]")),
                                      c_);
  EXPECT_EQ(second_controller.at("avoid"), 10);
  auto none = ScoreNodes(*p_, TestPod(PodOwnedBy("[]")), c_);
  EXPECT_EQ(none.at("avoid"), 10);
}

TEST_F(NodePreferAvoidPodsPriorityTest, ReusedWithAnotherCluster) {
  Pod pod = TestPod(PodOwnedBy("[" + Owner("ReplicaSet", "rs-1") + "]"));
  EXPECT_EQ(ScoreNodes(*p_, pod, c_).at("avoid"), 0);
  // Same node ids, different annotations: the parsed cache must not leak.
  std::string other = Annotation({Avoid("ReplicaSet", "rs-9")});
  ClusterState c2 = TestCluster(ListOf({Node("avoid", &other), Node("bad", &avoid_rs_)}));
  auto s = ScoreNodes(*p_, pod, c2);
  EXPECT_EQ(s.at("avoid"), 10);
  EXPECT_EQ(s.at("bad"), 0);
}

}  // namespace node_prefer_avoid_pods_test
}  // namespace ksched
