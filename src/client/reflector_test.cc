#include "client/reflector.h"

#include <gtest/gtest.h>

namespace ksched::client {
namespace reflector_test {

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

}  // namespace reflector_test
}  // namespace ksched::client

// ====================================================================== against a fake server

#include <httplib.h>

#include <condition_variable>
#include <thread>

namespace ksched::client {
namespace reflector_test {

std::string Line(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}\n";
}

// A scripted API server for pods: the reflector's requests are recorded and
// answered from the script (LIST pages, WATCH streams that end, a 410 ERROR
// event, a watch that stays open).
class FakePodServer {
 public:
  FakePodServer() {
    server_.Get("/api/v1/pods", [this](const httplib::Request& req, httplib::Response& res) {
      std::string rv = req.get_param_value("resourceVersion");
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back(req.has_param("watch")
                                ? "WATCH rv=" + rv
                                : "LIST continue=" + req.get_param_value("continue") +
                                      " limit=" + req.get_param_value("limit"));
      }
      if (!req.has_param("watch")) return List(req, res);
      return Watch(rv, res);
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 2000 && !server_.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  ~FakePodServer() {
    closing_ = true;
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }
  std::vector<std::string> Requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  void List(const httplib::Request& req, httplib::Response& res) {
    ++lists_;
    std::string cont = req.get_param_value("continue");
    if (lists_ <= 2) {
      // First LIST, in two pages of one: pods a and gone.
      if (cont.empty()) {
        res.set_content(
            R"({"kind":"PodList","metadata":{"resourceVersion":"10","continue":"p2"},"items":[)" +
                PodJson("a", "ua", "3") + "]}",
            "application/json");
      } else {
        res.set_content(R"({"kind":"PodList","metadata":{"resourceVersion":"10"},"items":[)" +
                            PodJson("gone", "ug", "4") + "]}",
                        "application/json");
      }
      return;
    }
    // The re-LIST after 410: "gone" vanished, "b" (seen on the watch) is there.
    res.set_content(R"({"kind":"PodList","metadata":{"resourceVersion":"30"},"items":[)" +
                        PodJson("a", "ua", "3") + "," + PodJson("b", "ub", "11") + "]}",
                    "application/json");
  }
  void Watch(const std::string& rv, httplib::Response& res) {
    std::string body;
    if (rv == "10") {
      // One event, then the connection ends (as on a server timeout).
      body = Line("ADDED", PodJson("b", "ub", "11", true));
    } else if (rv == "11") {
      body = Line(
          "ERROR",
          R"json({"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 11 (25)","reason":"Gone","code":410})json");
    } else {
      // From the re-LIST on: stay open until the client goes away.
      res.set_chunked_content_provider("application/json", [this](size_t, httplib::DataSink& sink) {
        while (!closing_ && sink.is_writable()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        sink.done();
        return true;
      });
      return;
    }
    res.set_content(body, "application/json");
  }

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<bool> closing_{false};
  std::atomic<int> lists_{0};
  std::mutex mu_;
  std::vector<std::string> requests_;
};

TEST(Reflector, PagedListResumeGoneRelistAndStop) {
  FakePodServer fake;
  ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(fake.port());
  auto rest = RestClient::Create(config);
  ASSERT_TRUE(rest.ok());
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> events;
  WatchOptions options;
  options.list_page_size = 1;
  options.pod_field_selector.clear();
  options.backoff_initial_ms = 10;
  std::vector<std::string> errors;
  Reflector reflector(
      **rest, Resource::kPod, Info(Resource::kPod), options,
      [&](WatchEvent e) {
        std::string d = std::string(WatchEventTypeName(e.type)) + " " + e.resource_version;
        if (e.type != WatchEventType::kSynced) {
          auto o = ParseObject(e.object_json, Info(Resource::kPod));
          d += " " + o->key;
          EXPECT_NE(e.object_json.find(R"("kind":"Pod")"), std::string::npos);
        }
        std::lock_guard<std::mutex> lock(mu);
        events.push_back(d);
        cv.notify_all();
      },
      [&](Resource, const Error& e) {
        std::lock_guard<std::mutex> lock(mu);
        errors.push_back(e.message);
      });
  reflector.Start();
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return events.size() >= 8; }))
        << events.size();
  }
  // Let the last watch block, then stop it.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto t0 = std::chrono::steady_clock::now();
  reflector.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  EXPECT_EQ(events, (std::vector<std::string>{
                        "ADDED 3 default/a",
                        "ADDED 4 default/gone",
                        "SYNCED 10",
                        "ADDED 11 default/b",
                        "DELETED 4 default/gone",  // vanished while the watch was gone
                        "MODIFIED 3 default/a",
                        "MODIFIED 11 default/b",
                        "SYNCED 30",
                    }));
  std::vector<std::string> requests = fake.Requests();
  ASSERT_GE(requests.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(requests.begin(), requests.begin() + 6),
            (std::vector<std::string>{
                "LIST continue= limit=1",
                "LIST continue=p2 limit=1",
                "WATCH rv=10",
                "WATCH rv=11",  // resumed from the last event's resourceVersion
                "LIST continue= limit=1",
                "WATCH rv=30",
            }));
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

}  // namespace reflector_test
}  // namespace ksched::client
