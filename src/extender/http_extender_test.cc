// HttpExtender against real HTTP(S) servers on 127.0.0.1 (cpp-httplib).
#ifndef CPPHTTPLIB_OPENSSL_SUPPORT
#define CPPHTTPLIB_OPENSSL_SUPPORT
#endif
#include "extender/http_extender.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "algorithm/generic_scheduler.h"
#include "cache/node_tree.h"
#include "tests/fixtures.h"

namespace ksched {
namespace http_extender_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;
using json = nlohmann::json;

struct Recorded {
  std::string path;
  std::string body;
  std::string content_type;
};

// An extender server on an ephemeral loopback port, answering every POST
// with the current handler and recording what it was sent.
class FakeExtender {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  explicit FakeExtender(std::unique_ptr<httplib::Server> server = nullptr, bool https = false)
      : server_(server ? std::move(server) : std::make_unique<httplib::Server>()), https_(https) {
    server_->Post("/.*", [this](const httplib::Request& req, httplib::Response& res) {
      Handler h;
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back({req.path, req.body, req.get_header_value("Content-Type")});
        h = handler_;
      }
      if (h) h(req, res);
    });
    port_ = server_->bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    for (int i = 0; i < 2000 && !server_->is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  ~FakeExtender() {
    server_->stop();
    thread_.join();
  }

  void Handle(Handler h) {
    std::lock_guard<std::mutex> lock(mu_);
    handler_ = std::move(h);
  }
  // Replies 200 with `body` as JSON.
  void Reply(std::string body) {
    Handle([body](const httplib::Request&, httplib::Response& res) {
      res.set_content(body, "application/json");
    });
  }
  std::vector<Recorded> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }
  int port() const { return port_; }
  std::string url(const std::string& host = "127.0.0.1") const {
    return fmt::format("{}://{}:{}", https_ ? "https" : "http", host, port_);
  }

 private:
  std::unique_ptr<httplib::Server> server_;
  bool https_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  Handler handler_;
  std::vector<Recorded> requests_;
};

ExtenderConfig Config(const std::string& url) {
  ExtenderConfig c;
  c.url_prefix = url;
  c.filter_verb = "filter";
  c.prioritize_verb = "prioritize";
  c.weight = 1;
  return c;
}

std::unique_ptr<HttpExtender> MustCreate(const ExtenderConfig& c) {
  auto e = HttpExtender::Create(c);
  EXPECT_TRUE(e.ok()) << e.error().message;
  return e.ok() ? std::move(e).value() : nullptr;
}

ClusterState FourNodes() {
  return TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},
       "status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"10"}}},
      {"kind":"Node","metadata":{"name":"n2"}},
      {"kind":"Node","metadata":{"name":"n3"}},
      {"kind":"Node","metadata":{"name":"n4"}}]})");
}

Pod SimplePod() {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"web","namespace":"default",
      "labels":{"app":"web"}},"spec":{"containers":[{"name":"c",
      "resources":{"requests":{"cpu":"100m"}}}]}})");
}

std::vector<NodeId> Ids(const ClusterState& c, const std::vector<std::string>& names) {
  std::vector<NodeId> out;
  for (const auto& n : names) out.push_back(c.FindNode(n));
  return out;
}

std::vector<std::string> Names(const ClusterState& c, const std::vector<NodeId>& ids) {
  std::vector<std::string> out;
  for (NodeId id : ids) out.push_back(c.node(id).meta.name);
  return out;
}

// ---------------------------------------------------------------- filter

TEST(HttpExtenderTest, FilterWithNodeObjects) {
  FakeExtender server;
  server.Reply(R"({"nodes":{"items":[{"metadata":{"name":"n1"}},{"metadata":{"name":"n3"}}]},
                   "failedNodes":{"n2":"n2 is busy","n4":"n4 is far"},"error":""})");
  auto ext = MustCreate(Config(server.url()));
  ClusterState cluster = FourNodes();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1", "n2", "n3", "n4"}), cluster);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(Names(cluster, r->nodes), (std::vector<std::string>{"n1", "n3"}));
  ASSERT_EQ(r->failed.size(), 2u);
  EXPECT_EQ(r->failed[0], (std::pair<NodeId, std::string>{cluster.FindNode("n2"), "n2 is busy"}));
  EXPECT_EQ(r->failed[1], (std::pair<NodeId, std::string>{cluster.FindNode("n4"), "n4 is far"}));

  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/filter");
  EXPECT_EQ(reqs[0].content_type, "application/json");
  json sent = json::parse(reqs[0].body);
  EXPECT_EQ(sent["Pod"]["metadata"]["name"], "web");
  EXPECT_EQ(sent["Pod"]["metadata"]["labels"]["app"], "web");
  EXPECT_EQ(sent["Pod"]["spec"]["containers"][0]["resources"]["requests"]["cpu"], "100m");
  ASSERT_EQ(sent["Nodes"]["items"].size(), 4u);
  EXPECT_EQ(sent["Nodes"]["items"][0]["metadata"]["labels"]["zone"], "a");
  EXPECT_EQ(sent["Nodes"]["items"][0]["status"]["allocatable"]["cpu"], "2");
  EXPECT_TRUE(sent["NodeNames"].is_null());
}

TEST(HttpExtenderTest, FilterWithNodeNames) {
  FakeExtender server;
  server.Reply(R"({"NodeNames":["n4","n2"],"FailedNodes":{"n1":"nope"},"Error":""})");
  ExtenderConfig c = Config(server.url());
  c.node_cache_capable = true;
  auto ext = MustCreate(c);
  ClusterState cluster = FourNodes();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1", "n2", "n4"}), cluster);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(Names(cluster, r->nodes), (std::vector<std::string>{"n4", "n2"}));
  ASSERT_EQ(r->failed.size(), 1u);
  EXPECT_EQ(r->failed[0].second, "nope");
  json sent = json::parse(server.requests().at(0).body);
  EXPECT_TRUE(sent["Nodes"].is_null());
  EXPECT_EQ(sent["NodeNames"], json::parse(R"(["n1","n2","n4"])"));
}

TEST(HttpExtenderTest, NodeNamesAreUsedOnlyByNodeCacheCapableExtenders) {
  FakeExtender server;
  server.Reply(R"({"NodeNames":["n1"],"Nodes":{"items":[{"metadata":{"name":"n2"}}]}})");
  ClusterState cluster = FourNodes();
  auto plain = MustCreate(Config(server.url()));
  auto r = plain->Filter(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Names(cluster, r->nodes), (std::vector<std::string>{"n2"}));

  ExtenderConfig c = Config(server.url());
  c.node_cache_capable = true;
  auto cached = MustCreate(c);
  r = cached->Filter(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Names(cluster, r->nodes), (std::vector<std::string>{"n1"}));

  // A node-cache-capable extender that answers with node objects only.
  server.Reply(R"({"nodes":{"items":[{"metadata":{"name":"n2"}}]}})");
  r = cached->Filter(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Names(cluster, r->nodes), (std::vector<std::string>{"n2"}));

  // Neither: every node is filtered out, with no reason.
  server.Reply(R"({"failedNodes":{}})");
  r = cached->Filter(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->nodes.empty());
  EXPECT_TRUE(r->failed.empty());
}

TEST(HttpExtenderTest, FilterErrorFieldIsAnError) {
  FakeExtender server;
  server.Reply(R"({"error":"disk 100% full"})");
  auto ext = MustCreate(Config(server.url()));
  ClusterState cluster = FourNodes();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_FALSE(r.ok());
  // Upstream passes the text to fmt.Errorf as the format.
  EXPECT_EQ(r.error().message, "disk 100%!f(MISSING)ull");
}

TEST(HttpExtenderTest, FilterUnknownNodes) {
  FakeExtender server;
  server.Reply(R"({"nodes":{"items":[{"metadata":{"name":"n1"}}]},"failedNodes":{"ghost":"x"}})");
  auto ext = MustCreate(Config(server.url()));
  ClusterState cluster = FourNodes();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->failed.empty());
  // A reason for a node the cluster lacks is kept by name.
  EXPECT_EQ(r->failed_unknown, (std::vector<std::pair<std::string, std::string>>{{"ghost", "x"}}));

  server.Reply(R"({"nodes":{"items":[{"metadata":{"name":"ghost"}}]}})");
  r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            fmt::format("extender: {} returned node \"ghost\" but the node is not found in the "
                        "cluster",
                        server.url()));

  // Upstream keeps a known node even if it was not a candidate.
  server.Reply(R"({"nodes":{"items":[{"metadata":{"name":"n3"}}]}})");
  r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Names(cluster, r->nodes), (std::vector<std::string>{"n3"}));
}

TEST(HttpExtenderTest, NoFilterVerbPassesThroughWithoutCalling) {
  FakeExtender server;
  ExtenderConfig c = Config(server.url());
  c.filter_verb.clear();
  c.prioritize_verb.clear();
  auto ext = MustCreate(c);
  EXPECT_FALSE(ext->HasFilter());
  EXPECT_FALSE(ext->HasPrioritize());
  ClusterState cluster = FourNodes();
  auto nodes = Ids(cluster, {"n2", "n1"});
  auto r = ext->Filter(SimplePod(), nodes, cluster);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->nodes, nodes);
  auto p = ext->Prioritize(SimplePod(), nodes, cluster);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, (std::vector<std::pair<NodeId, int64_t>>{{nodes[0], 0}, {nodes[1], 0}}));
  EXPECT_TRUE(server.requests().empty());
}

TEST(HttpExtenderTest, UrlPrefixTrailingSlashesAreDropped) {
  FakeExtender server;
  server.Reply("{}");
  auto ext = MustCreate(Config(server.url() + "/scheduler//"));
  ClusterState cluster = FourNodes();
  ASSERT_TRUE(ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster).ok());
  EXPECT_EQ(server.requests().at(0).path, "/scheduler/filter");
  EXPECT_EQ(ext->Name(), server.url() + "/scheduler//");
}

// ---------------------------------------------------------------- errors

TEST(HttpExtenderTest, Non200Status) {
  FakeExtender server;
  server.Handle([](const httplib::Request&, httplib::Response& res) {
    res.status = 500;
    res.set_content(R"({"error":"ignored"})", "application/json");
  });
  auto ext = MustCreate(Config(server.url() + "/fail"));
  ClusterState cluster = FourNodes();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(
      r.error().message,
      fmt::format("Failed filter with extender at URL {}/fail/filter, code 500", server.url()));
  auto p = ext->Prioritize(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message,
            fmt::format("Failed prioritize with extender at URL {}/fail/prioritize, code 500",
                        server.url()));
}

TEST(HttpExtenderTest, Timeout) {
  FakeExtender server;
  server.Handle([](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    res.set_content("{}", "application/json");
  });
  ExtenderConfig c = Config(server.url());
  c.http_timeout_ns = 200'000'000;
  auto ext = MustCreate(c);
  ClusterState cluster = FourNodes();
  auto start = std::chrono::steady_clock::now();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            fmt::format("Post {}/filter: net/http: request canceled (Client.Timeout exceeded "
                        "while awaiting headers)",
                        server.url()));
  EXPECT_LT(elapsed, std::chrono::milliseconds(900));
}

TEST(HttpExtenderTest, DefaultTimeoutIsFiveSeconds) {
  auto ext = MustCreate(Config("http://127.0.0.1:1"));
  EXPECT_EQ(ext->config().http_timeout_ns, 5'000'000'000);
}

TEST(HttpExtenderTest, ConnectionRefused) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  int port = ntohs(addr.sin_port);
  close(fd);  // nothing listens there now

  auto ext = MustCreate(Config(fmt::format("http://127.0.0.1:{}", port)));
  ClusterState cluster = FourNodes();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            fmt::format("Post http://127.0.0.1:{0}/filter: dial tcp 127.0.0.1:{0}: connect: "
                        "connection refused",
                        port));
}

TEST(HttpExtenderTest, UnsupportedScheme) {
  auto ext = MustCreate(Config("ftp://127.0.0.1:1"));
  ClusterState cluster = FourNodes();
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "Post ftp://127.0.0.1:1/filter: unsupported protocol scheme \"ftp\"");
}

TEST(HttpExtenderTest, MalformedReplies) {
  FakeExtender server;
  auto ext = MustCreate(Config(server.url()));
  ClusterState cluster = FourNodes();
  auto filter_error = [&](const std::string& body) {
    server.Reply(body);
    auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(filter_error(R"({"nodes":)"), "unexpected EOF");
  EXPECT_EQ(filter_error(""), "EOF");
  EXPECT_EQ(filter_error("nodes"), "invalid character 'o' in literal null (expecting 'u')");
  EXPECT_EQ(filter_error("<html>oops</html>"),
            "invalid character '<' looking for beginning of value");
  EXPECT_EQ(filter_error(R"({"nodes":[]})"),
            "json: cannot unmarshal array into Go struct field ExtenderFilterResult.Nodes of type "
            "v1.NodeList");
  EXPECT_EQ(filter_error(R"({"nodenames":["n1"]} and then garbage)"), "ok");

  server.Reply(R"([{"host":"n1","score":"high"}])");
  auto p = ext->Prioritize(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message,
            "json: cannot unmarshal string into Go struct field HostPriority.Score of type int");
}

TEST(HttpExtenderTest, OversizedRepliesAreErrors) {
  FakeExtender server;
  ExtenderConfig config = Config(server.url());
  config.max_reply_bytes = 1 << 20;
  auto ext = MustCreate(config);
  ClusterState cluster = FourNodes();
  // A syntactically fine reply, padded past the limit.
  server.Reply(R"({"nodenames":["n1"],"error":")" + std::string(2 << 20, 'x') + R"("})");
  auto r = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "Post " + server.url() + "/filter: reply body larger than 1048576 bytes");

  // The handle stays usable: a reply within the limit is read again.
  server.Reply(R"({"nodenames":["n1"]})");
  auto ok = ext->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
}

// ---------------------------------------------------------------- prioritize

TEST(HttpExtenderTest, Prioritize) {
  FakeExtender server;
  server.Reply(R"([{"Host":"n1","Score":3},{"host":"n2","score":7},{"host":"ghost","score":9}])");
  ExtenderConfig c = Config(server.url());
  c.weight = 4;
  auto ext = MustCreate(c);
  EXPECT_EQ(ext->Weight(), 4);
  ClusterState cluster = FourNodes();
  auto p = ext->Prioritize(SimplePod(), Ids(cluster, {"n1", "n2"}), cluster);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(*p, (std::vector<std::pair<NodeId, int64_t>>{{cluster.FindNode("n1"), 3},
                                                         {cluster.FindNode("n2"), 7}}));
  EXPECT_EQ(server.requests().at(0).path, "/prioritize");
}

// ---------------------------------------------------------------- preempt

ClusterState TwoNodesWithVictims() {
  return TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1"}},
      {"kind":"Node","metadata":{"name":"n2"}},
      {"kind":"Pod","metadata":{"name":"a","namespace":"default","uid":"uid-a"},
       "spec":{"nodeName":"n1","containers":[{"name":"c"}]}},
      {"kind":"Pod","metadata":{"name":"b","namespace":"default","uid":"uid-b"},
       "spec":{"nodeName":"n2","containers":[{"name":"c"}]}},
      {"kind":"Pod","metadata":{"name":"c","namespace":"default","uid":"uid-c"},
       "spec":{"nodeName":"n2","containers":[{"name":"c"}]}}]})");
}

TEST(HttpExtenderTest, ProcessPreemptionMapsUidsBackToPods) {
  FakeExtender server;
  server.Reply(R"({"NodeNameToMetaVictims":{"n2":{"Pods":[{"UID":"uid-c"}],
      "NumPDBViolations":5}}})");
  ExtenderConfig c = Config(server.url());
  c.preempt_verb = "preempt";
  c.node_cache_capable = true;
  auto ext = MustCreate(c);
  ASSERT_TRUE(ext->SupportsPreemption());
  ClusterState cluster = TwoNodesWithVictims();
  NodeId n1 = cluster.FindNode("n1"), n2 = cluster.FindNode("n2");
  auto r = ext->ProcessPreemption(SimplePod(), {{n1, {0}, 0}, {n2, {1, 2}, 1}}, cluster);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].node, n2);
  EXPECT_EQ((*r)[0].pods, std::vector<PodId>{2});
  EXPECT_EQ((*r)[0].num_pdb_violations, 0) << "upstream drops the count";
  auto sent = server.requests().at(0);
  EXPECT_EQ(sent.path, "/preempt");
  auto args = nlohmann::json::parse(sent.body);
  EXPECT_EQ(args["NodeNameToMetaVictims"]["n2"]["Pods"][1]["UID"], "uid-c");
}

TEST(HttpExtenderTest, ProcessPreemptionRejectsWhatUpstreamCannotResolve) {
  FakeExtender server;
  ExtenderConfig c = Config(server.url());
  c.preempt_verb = "preempt";
  auto ext = MustCreate(c);
  ClusterState cluster = TwoNodesWithVictims();
  std::vector<ExtenderNodeVictims> asked = {{cluster.FindNode("n1"), {0}, 0}};
  auto message = [&](const std::string& reply) {
    server.Reply(reply);
    auto r = ext->ProcessPreemption(SimplePod(), asked, cluster);
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(message(R"({"NodeNameToMetaVictims":{"n1":{"Pods":[{"UID":"uid-b"}]}}})"),
            "extender: " + server.url() +
                " claims to preempt pod (UID: &{uid-b}) on node: n1, but the pod is not found on "
                "that node");
  EXPECT_EQ(message(R"({"NodeNameToMetaVictims":{"ghost":{"Pods":[]}}})"),
            "extender: " + server.url() +
                " claims to preempt on node: ghost but the node is not found in the cluster");
  EXPECT_EQ(message(R"({"NodeNameToMetaVictims":{"n1":null}})"),
            "extender: " + server.url() + " returned null victims for node: n1");
  EXPECT_EQ(message(R"({"NodeNameToMetaVictims":{"n1":{"Pods":[null]}}})"),
            "extender: " + server.url() + " returned a null pod among the victims on node: n1");
  EXPECT_EQ(message(R"({})"), "ok") << "no nodes left: nobody is preempted";
}

// The generic scheduler with extenders only: filter, then weighted scores.
TEST(HttpExtenderTest, SchedulerUsesFilterAndWeightedScores) {
  FakeExtender filter_server;
  filter_server.Reply(R"({"NodeNames":["n1","n2","n3"],"FailedNodes":{"n4":"stub: no"}})");
  FakeExtender score_server;
  score_server.Handle([](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/a/prioritize") {
      res.set_content(
          R"([{"Host":"n1","Score":5},{"Host":"n2","Score":1},{"Host":"n3","Score":2}])",
          "application/json");
    } else {
      res.set_content(
          R"([{"Host":"n1","Score":0},{"Host":"n2","Score":3},{"Host":"n3","Score":2}])",
          "application/json");
    }
  });
  FakeExtender broken;
  broken.Handle([](const httplib::Request&, httplib::Response& res) { res.status = 500; });

  SchedulerConfig config;
  ExtenderConfig f = Config(filter_server.url());
  f.prioritize_verb.clear();
  f.node_cache_capable = true;
  ExtenderConfig a = Config(score_server.url() + "/a");
  a.filter_verb.clear();
  a.weight = 1;
  ExtenderConfig b = Config(score_server.url() + "/b");
  b.filter_verb.clear();
  b.weight = 3;
  ExtenderConfig x = Config(broken.url());
  x.filter_verb.clear();
  x.weight = 100;
  auto exts = MakeHttpExtenders({f, a, b, x});
  ASSERT_TRUE(exts.ok()) << exts.error().message;
  config.extenders = std::move(exts).value();

  ClusterState cluster = FourNodes();
  NodeTree tree(cluster);
  GenericScheduler scheduler(std::move(config), TieBreak::kName);
  ScheduleResult r = scheduler.Schedule(SimplePod(), cluster, &tree);
  ASSERT_EQ(r.error, "");
  // n1: 5 + 0*3 = 5; n2: 1 + 3*3 = 10; n3: 2 + 2*3 = 8. The failing extender adds nothing.
  EXPECT_EQ(cluster.node(r.chosen).meta.name, "n2");
  ASSERT_EQ(r.totals.size(), 3u);
  std::map<std::string, int64_t> totals;
  for (size_t i = 0; i < r.feasible.size(); ++i)
    totals[cluster.node(r.feasible[i]).meta.name] = r.totals[i];
  EXPECT_EQ(totals, (std::map<std::string, int64_t>{{"n1", 5}, {"n2", 10}, {"n3", 8}}));
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].reasons, (std::vector<std::string>{"stub: no"}));
}

// An extender may answer any int64 score, and its weight is unbounded: the
// weighted sums wrap as Go's do (no C++ overflow), a node listed twice counts
// twice, and scores for nodes outside the feasible set are ignored.
TEST(HttpExtenderTest, ExtremeScoresWrapAsUpstreamDoes) {
  FakeExtender filter_server;
  filter_server.Reply(R"({"NodeNames":["n1","n2","n3"]})");
  FakeExtender score_server;
  score_server.Reply(
      R"([{"Host":"n1","Score":9223372036854775807},{"Host":"n2","Score":1},)"
      R"({"Host":"n2","Score":1},{"Host":"n4","Score":7},{"Host":"ghost","Score":7}])");
  SchedulerConfig config;
  ExtenderConfig f = Config(filter_server.url());
  f.prioritize_verb.clear();
  f.node_cache_capable = true;
  ExtenderConfig a = Config(score_server.url());
  a.filter_verb.clear();
  a.weight = 2;
  auto exts = MakeHttpExtenders({f, a});
  ASSERT_TRUE(exts.ok()) << exts.error().message;
  config.extenders = std::move(exts).value();
  ClusterState cluster = FourNodes();
  NodeTree tree(cluster);
  GenericScheduler scheduler(std::move(config), TieBreak::kName);
  ScheduleResult r = scheduler.Schedule(SimplePod(), cluster, &tree);
  ASSERT_EQ(r.error, "");
  std::map<std::string, int64_t> totals;
  for (size_t i = 0; i < r.feasible.size(); ++i)
    totals[cluster.node(r.feasible[i]).meta.name] = r.totals[i];
  // n1: (2^63 - 1) * 2 wraps to -2; n2: 1*2 + 1*2; n3: nothing from the extender.
  // No priorities are configured, so the extender's scores are the totals.
  EXPECT_EQ(totals, (std::map<std::string, int64_t>{{"n1", -2}, {"n2", 4}, {"n3", 0}}));
  EXPECT_EQ(cluster.node(r.chosen).meta.name, "n2");
}

// Upstream adds FailedNodes entries to its failure map by name, whether or
// not the cluster has such a node, so they count in the FitError message.
TEST(HttpExtenderTest, FitErrorCountsReasonsForNodesOutsideTheCluster) {
  FakeExtender server;
  server.Reply(
      R"({"NodeNames":[],"FailedNodes":{"n1":"stub: no","ghost":"stub: no","ghost2":"gone"}})");
  SchedulerConfig config;
  ExtenderConfig f = Config(server.url());
  f.prioritize_verb.clear();
  f.node_cache_capable = true;
  auto exts = MakeHttpExtenders({f});
  ASSERT_TRUE(exts.ok()) << exts.error().message;
  config.extenders = std::move(exts).value();
  ClusterState cluster = FourNodes();
  NodeTree tree(cluster);
  GenericScheduler scheduler(std::move(config), TieBreak::kName);
  ScheduleResult r = scheduler.Schedule(SimplePod(), cluster, &tree);
  EXPECT_TRUE(r.fit_error);
  EXPECT_EQ(r.error, "0/4 nodes are available: 1 gone, 2 stub: no.");
  ASSERT_EQ(r.unknown_node_failures.size(), 2u);
  EXPECT_EQ(r.unknown_node_failures[0].first, "ghost");
}

TEST(HttpExtenderTest, SchedulerFailsOnNonIgnorableFilterError) {
  FakeExtender broken;
  broken.Handle([](const httplib::Request&, httplib::Response& res) { res.status = 503; });
  ExtenderConfig c = Config(broken.url());
  c.prioritize_verb.clear();
  ClusterState cluster = FourNodes();
  for (bool ignorable : {false, true}) {
    c.ignorable = ignorable;
    SchedulerConfig config;
    auto exts = MakeHttpExtenders({c});
    ASSERT_TRUE(exts.ok());
    config.extenders = std::move(exts).value();
    NodeTree tree(cluster);
    GenericScheduler scheduler(std::move(config), TieBreak::kName);
    ScheduleResult r = scheduler.Schedule(SimplePod(), cluster, &tree);
    if (ignorable) {
      EXPECT_EQ(r.error, "");
      EXPECT_NE(r.chosen, kNoNode);
    } else {
      EXPECT_EQ(r.error, fmt::format("Failed filter with extender at URL {}/filter, code 503",
                                     broken.url()));
      EXPECT_EQ(r.chosen, kNoNode);
    }
  }
}

// ---------------------------------------------------------------- interest, bind

TEST(HttpExtenderTest, IsInterestedInManagedResources) {
  ExtenderConfig c = Config("http://127.0.0.1:1");
  auto all = MustCreate(c);
  Pod plain = SimplePod();
  EXPECT_TRUE(all->IsInterested(plain));

  c.managed_resources = {{"example.com/foo", true}, {"example.com/bar", false}};
  auto managed = MustCreate(c);
  EXPECT_FALSE(managed->IsInterested(plain));
  EXPECT_TRUE(managed->IsInterested(TestPod(R"({"kind":"Pod","metadata":{"name":"a"},
      "spec":{"containers":[{"name":"c","resources":{"requests":{"example.com/foo":"1"}}}]}})")));
  EXPECT_TRUE(managed->IsInterested(TestPod(R"({"kind":"Pod","metadata":{"name":"b"},
      "spec":{"containers":[{"name":"c","resources":{"limits":{"example.com/bar":"2"}}}]}})")));
  EXPECT_TRUE(managed->IsInterested(TestPod(R"({"kind":"Pod","metadata":{"name":"c"},
      "spec":{"containers":[{"name":"c"}],
       "initContainers":[{"name":"i","resources":{"requests":{"example.com/foo":"0"}}}]}})")));
  EXPECT_FALSE(managed->IsInterested(TestPod(R"({"kind":"Pod","metadata":{"name":"d"},
      "spec":{"containers":[{"name":"c","resources":{"requests":{"example.com/baz":"1"}}}]}})")));
}

TEST(HttpExtenderTest, Bind) {
  FakeExtender server;
  server.Reply(R"({"Error":""})");
  ExtenderConfig c = Config(server.url());
  c.bind_verb = "bind";
  auto ext = MustCreate(c);
  ASSERT_TRUE(ext->IsBinder());
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"ns","uid":"u-1"},
      "spec":{"containers":[{"name":"c"}]}})");
  Status s = ext->Bind(pod, "n1");
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/bind");
  EXPECT_EQ(reqs[0].body, R"({"PodName":"p","PodNamespace":"ns","PodUID":"u-1","Node":"n1"})");

  server.Reply(R"({"error":"node n1 is gone: %v"})");
  s = ext->Bind(pod, "n1");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "node n1 is gone: %!v(MISSING)");

  auto not_binder = MustCreate(Config(server.url()));
  EXPECT_FALSE(not_binder->IsBinder());
  s = not_binder->Bind(pod, "n1");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "Unexpected empty bindVerb in extender");
}

// ---------------------------------------------------------------- HTTPS

// Self-signed certificates made with the openssl tool once per suite.
class HttpsExtenderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/ksched-ext-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return;
    dir_ = tmpl;
    for (const char* name : {"server", "client", "other"}) {
      std::string cn = std::string(name) == "server" ? "localhost" : name;
      std::string cmd = fmt::format(
          "openssl req -x509 -newkey rsa:2048 -nodes -subj /CN={0} -days 1 "
          "-addext subjectAltName=DNS:{0} -keyout {1}/{2}.key -out {1}/{2}.crt >/dev/null 2>&1",
          cn, dir_, name);
      if (std::system(cmd.c_str()) != 0) {
        dir_.clear();
        return;
      }
    }
  }
  static void TearDownTestSuite() {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  void SetUp() override {
    if (dir_.empty()) GTEST_SKIP() << "openssl could not make test certificates";
  }

  static std::string Path(const std::string& file) { return dir_ + "/" + file; }
  static std::string Read(const std::string& file) {
    std::ifstream in(Path(file));
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static std::unique_ptr<httplib::Server> Server(bool require_client_cert = false) {
    return std::make_unique<httplib::SSLServer>(
        Path("server.crt").c_str(), Path("server.key").c_str(),
        require_client_cert ? Path("client.crt").c_str() : nullptr);
  }
  // Runs one filter call and returns "ok" or the error.
  static std::string Call(const ExtenderConfig& c) {
    auto ext = HttpExtender::Create(c);
    if (!ext.ok()) return "create: " + ext.error().message;
    ClusterState cluster = FourNodes();
    auto r = (*ext)->Filter(SimplePod(), Ids(cluster, {"n1"}), cluster);
    return r.ok() ? "ok" : r.error().message;
  }

  static std::string dir_;
};

std::string HttpsExtenderTest::dir_;

TEST_F(HttpsExtenderTest, EnableHttpsWithoutCaSkipsVerification) {
  FakeExtender server(Server(), /*https=*/true);
  server.Reply(R"({"nodenames":["n1"]})");
  ExtenderConfig c = Config(server.url());
  c.enable_https = true;
  EXPECT_EQ(Call(c), "ok");
  // Without enableHttps and without a CA, Go's default verification applies.
  c.enable_https = false;
  std::string err = Call(c);
  EXPECT_EQ(err.rfind(fmt::format("Post {}/filter: ", server.url()), 0), 0u) << err;
}

TEST_F(HttpsExtenderTest, CaFileAndServerName) {
  FakeExtender server(Server(), /*https=*/true);
  server.Reply("{}");
  ExtenderConfig c = Config(server.url("localhost"));
  c.enable_https = true;
  c.tls_config = ExtenderTlsConfig{};
  c.tls_config->ca_file = Path("server.crt");
  EXPECT_EQ(Call(c), "ok");

  // By address the certificate's name does not match ...
  c.url_prefix = server.url("127.0.0.1");
  c.tls_config->ca_file.clear();
  c.tls_config->ca_data = Read("server.crt");
  EXPECT_NE(Call(c), "ok");
  // ... unless serverName says which name to verify.
  c.tls_config->server_name = "localhost";
  EXPECT_EQ(Call(c), "ok");
  EXPECT_EQ(server.requests().back().path, "/filter");

  // A CA that did not sign the server's certificate.
  c.tls_config->ca_data = Read("other.crt");
  EXPECT_NE(Call(c), "ok");
}

TEST_F(HttpsExtenderTest, ClientCertificates) {
  FakeExtender server(Server(/*require_client_cert=*/true), /*https=*/true);
  server.Reply("{}");
  ExtenderConfig c = Config(server.url());
  c.enable_https = true;
  EXPECT_NE(Call(c), "ok");  // the server wants a client certificate
  c.tls_config = ExtenderTlsConfig{};
  c.tls_config->cert_file = Path("client.crt");
  c.tls_config->key_file = Path("client.key");
  c.tls_config->insecure = true;
  EXPECT_EQ(Call(c), "ok");
  c.tls_config->cert_file.clear();
  c.tls_config->key_file.clear();
  c.tls_config->cert_data = Read("client.crt");
  c.tls_config->key_data = Read("client.key");
  EXPECT_EQ(Call(c), "ok");
}

TEST_F(HttpsExtenderTest, InvalidTlsSettingsFailAtCreation) {
  ExtenderConfig c = Config("https://127.0.0.1:1");
  c.tls_config = ExtenderTlsConfig{};
  c.tls_config->insecure = true;
  c.tls_config->ca_file = Path("server.crt");
  EXPECT_EQ(Call(c),
            "create: specifying a root certificates file with the insecure flag is not allowed");

  c.tls_config = ExtenderTlsConfig{};
  c.tls_config->ca_file = "/nonexistent/ca.pem";
  EXPECT_EQ(Call(c), "create: open /nonexistent/ca.pem: no such file or directory");

  c.tls_config = ExtenderTlsConfig{};
  c.tls_config->cert_data = Read("client.crt");
  c.tls_config->key_data = Read("other.key");
  EXPECT_EQ(Call(c), "create: tls: private key does not match public key");

  c.tls_config->key_data = Read("client.crt");
  EXPECT_EQ(Call(c),
            "create: tls: found a certificate rather than a key in the PEM for the private key");

  c.tls_config->cert_data = Read("client.key");
  c.tls_config->key_data = Read("client.key");
  EXPECT_EQ(Call(c),
            "create: tls: failed to find certificate PEM data in certificate input, but did find "
            "a private key; PEM inputs may have been switched");

  c.tls_config->cert_data = "not pem";
  EXPECT_EQ(Call(c), "create: tls: failed to find any PEM data in certificate input");

  // A certificate without a key is not client authentication (and not checked).
  c.tls_config->key_data.clear();
  EXPECT_NE(Call(c).rfind("create:", 0), 0u);
}

}  // namespace http_extender_test
}  // namespace ksched
