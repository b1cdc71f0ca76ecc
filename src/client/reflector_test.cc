#include "client/reflector.h"

#include <gtest/gtest.h>

namespace ksched::client {
namespace {

std::string PodJson(const std::string& name, const std::string& uid, const std::string& rv,
                    bool with_kind = false) {
  std::string kind = with_kind ? R"("kind":"Pod","apiVersion":"v1",)" : "";
  return "{" + kind + R"("metadata":{"name":")" + name + R"(","namespace":"default","uid":")" +
         uid + R"(","resourceVersion":")" + rv + R"("},"spec":{"nodeName":""}})";
}

ObjectText Pod(const std::string& name, const std::string& uid, const std::string& rv) {
  auto o = ParseObject(PodJson(name, uid, rv), Info(Resource::kPod));
  EXPECT_TRUE(o.ok());
  return std::move(o).value();
}

TEST(ParseObject, FillsKindAndApiVersionOfListItems) {
  auto o = ParseObject(PodJson("a", "u1", "7"), Info(Resource::kPod));
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->key, "default/a");
  EXPECT_EQ(o->uid, "u1");
  EXPECT_EQ(o->resource_version, "7");
  EXPECT_EQ(o->json.rfind(R"({"kind":"Pod","apiVersion":"v1","metadata":)", 0), 0u) << o->json;

  auto rs =
      ParseObject(R"({"metadata":{"name":"r","namespace":"n"}})", Info(Resource::kReplicaSet));
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ(
      rs->json,
      R"({"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":{"name":"r","namespace":"n"}})");
  auto pdb = ParseObject("{}", Info(Resource::kPodDisruptionBudget));
  ASSERT_TRUE(pdb.ok());
  EXPECT_EQ(pdb->json, R"({"kind":"PodDisruptionBudget","apiVersion":"policy/v1beta1"})");
}

TEST(ParseObject, KeepsKindWhenPresentAndKeysClusterScopedByName) {
  auto o = ParseObject(R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}})",
                       Info(Resource::kNode));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->key, "n1");
  EXPECT_EQ(o->json, R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}})");
}

TEST(ParseObject, RejectsNonObjects) {
  EXPECT_FALSE(ParseObject("[1]", Info(Resource::kPod)).ok());
  EXPECT_FALSE(ParseObject("{", Info(Resource::kPod)).ok());
}

TEST(ParseWatchLine, Types) {
  const ResourceInfo& info = Info(Resource::kPod);
  auto added =
      ParseWatchLine(R"({"type":"ADDED","object":)" + PodJson("a", "u", "5", true) + "}", info);
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(added->type, WatchLine::kAdded);
  EXPECT_EQ(added->object.resource_version, "5");
  EXPECT_EQ(added->object.json, PodJson("a", "u", "5", true));

  auto deleted =
      ParseWatchLine(R"({"type":"DELETED","object":)" + PodJson("a", "u", "6") + "}", info);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(deleted->type, WatchLine::kDeleted);

  auto gone = ParseWatchLine(
      R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (10)","reason":"Gone","code":410}})json",
      info);
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(gone->type, WatchLine::kError);
  EXPECT_EQ(gone->error_code, 410);
  EXPECT_EQ(gone->error_message, "too old resource version: 5 (10)");

  EXPECT_FALSE(ParseWatchLine(R"({"type":"WHAT","object":{}})", info).ok());
  EXPECT_FALSE(ParseWatchLine(R"({"type":"ADDED"})", info).ok());
  EXPECT_FALSE(ParseWatchLine("not json", info).ok());
}

TEST(LineSplitter, SplitsAcrossChunksAndSkipsEmptyLines) {
  LineSplitter s;
  std::vector<std::string> lines;
  auto collect = [&](std::string_view l) {
    lines.emplace_back(l);
    return true;
  };
  EXPECT_TRUE(s.Feed("{\"a\":1}\n{\"b\"", collect));
  EXPECT_EQ(s.buffered(), 4u);
  EXPECT_TRUE(s.Feed(":2}", collect));
  EXPECT_TRUE(s.Feed("\n\n{\"c\":3}\n", collect));
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
  EXPECT_EQ(s.buffered(), 0u);
}

TEST(LineSplitter, StopsWhenTheConsumerSaysSo) {
  LineSplitter s;
  int calls = 0;
  EXPECT_FALSE(s.Feed("x\ny\nz\n", [&](std::string_view) { return ++calls < 2; }));
  EXPECT_EQ(calls, 2);
}

std::vector<std::string> Describe(const std::vector<WatchEvent>& events) {
  std::vector<std::string> out;
  for (const WatchEvent& e : events) {
    auto o = ParseObject(e.object_json, Info(Resource::kPod));
    out.push_back(std::string(WatchEventTypeName(e.type)) + " " + o->key + " " + o->uid + " " +
                  e.resource_version);
  }
  return out;
}

TEST(KnownObjects, InitialListAddsEverything) {
  KnownObjects k;
  auto events = k.Replace(Resource::kPod, {Pod("a", "u1", "1"), Pod("b", "u2", "2")});
  EXPECT_EQ(Describe(events),
            (std::vector<std::string>{"ADDED default/a u1 1", "ADDED default/b u2 2"}));
  EXPECT_EQ(k.size(), 2u);
}

TEST(KnownObjects, RelistDeletesVanishedRedeliversKeptAndReplacesRecreated) {
  KnownObjects k;
  (void)k.Replace(Resource::kPod, {Pod("a", "u1", "1"), Pod("b", "u2", "2"), Pod("c", "u3", "3")});
  k.Apply(Resource::kPod, WatchEventType::kModified, Pod("a", "u1", "4"));
  // Meanwhile (watch lost): c deleted, b deleted and recreated, d created.
  auto events =
      k.Replace(Resource::kPod, {Pod("a", "u1", "4"), Pod("b", "u9", "8"), Pod("d", "u4", "9")});
  EXPECT_EQ(Describe(events), (std::vector<std::string>{
                                  "DELETED default/c u3 3",
                                  "MODIFIED default/a u1 4",
                                  "DELETED default/b u2 2",
                                  "ADDED default/b u9 8",
                                  "ADDED default/d u4 9",
                              }));
  EXPECT_EQ(k.size(), 3u);
  // The store now holds exactly the list: an empty relist deletes all three.
  auto all_gone = k.Replace(Resource::kPod, {});
  EXPECT_EQ(all_gone.size(), 3u);
  for (const WatchEvent& e : all_gone) EXPECT_EQ(e.type, WatchEventType::kDeleted);
  EXPECT_EQ(k.size(), 0u);
}

TEST(KnownObjects, WatchDeleteForgets) {
  KnownObjects k;
  k.Apply(Resource::kPod, WatchEventType::kAdded, Pod("a", "u1", "1"));
  auto e = k.Apply(Resource::kPod, WatchEventType::kDeleted, Pod("a", "u1", "2"));
  EXPECT_EQ(e.type, WatchEventType::kDeleted);
  EXPECT_EQ(e.resource_version, "2");
  EXPECT_TRUE(k.Replace(Resource::kPod, {}).empty());
}

}  // namespace
}  // namespace ksched::client
