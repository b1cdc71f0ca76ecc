#include "client/rest_client.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "client/cluster_client.h"
#include "client/rate_limiter.h"

namespace ksched::client {
namespace rest_client_test {

TEST(ApiError, ForbiddenNamesTheMissingRbacRule) {
  RequestTarget t{"create", "", "pods/binding", "shop", "web-1"};
  Error e = ApiError(
      t, 403,
      R"({"kind":"Status","status":"Failure","message":"pods \"web-1\" is forbidden: User \"nobody\" cannot create resource \"pods/binding\" in API group \"\" in the namespace \"shop\"","reason":"Forbidden","code":403})");
  EXPECT_EQ(e.http_code, 403);
  EXPECT_TRUE(IsForbidden(e));
  EXPECT_EQ(
      e.message.rfind("forbidden: cannot create pods/binding in namespace shop: the scheduler's "
                      "identity needs rule {apiGroups: [\"\"], resources: [\"pods/binding\"], "
                      "verbs: [\"create\"]}",
                      0),
      0u)
      << e.message;
  EXPECT_NE(e.message.find("User \"nobody\""), std::string::npos);

  RequestTarget list{"list", "policy", "poddisruptionbudgets", "", ""};
  Error cluster = ApiError(list, 403, "");
  EXPECT_EQ(cluster.message,
            "forbidden: cannot list poddisruptionbudgets at the cluster scope: the scheduler's "
            "identity needs rule {apiGroups: [\"policy\"], resources: "
            "[\"poddisruptionbudgets\"], verbs: [\"list\"]}");
}

// A starting API server answers 403 until its bootstrap roles are loaded:
// the message must not send the user after a rule the identity has.
TEST(ApiError, ForbiddenByAMissingRoleDoesNotAskForARule) {
  RequestTarget t{"watch", "", "pods", "", ""};
  Error e = ApiError(
      t, 403,
      R"({"kind":"Status","message":"pods is forbidden: User \"system:kube-scheduler\" cannot watch resource \"pods\" in API group \"\" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io \"system:kube-scheduler\" not found","reason":"Forbidden","code":403})");
  EXPECT_TRUE(IsForbidden(e));
  EXPECT_EQ(e.message.rfind("forbidden: cannot watch pods at the cluster scope: a role bound to "
                            "the scheduler's identity was not found",
                            0),
            0u)
      << e.message;
  EXPECT_EQ(e.message.find("needs rule"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("(server: pods is forbidden"), std::string::npos) << e.message;
}

TEST(ApiError, OtherCodesNameVerbResourceObjectAndServerMessage) {
  RequestTarget t{"create", "", "pods/binding", "default", "p"};
  Error conflict = ApiError(
      t, 409,
      R"({"kind":"Status","message":"Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n1\"","reason":"Conflict","code":409})");
  EXPECT_TRUE(IsConflict(conflict));
  EXPECT_EQ(conflict.message,
            "create pods/binding default/p: 409 Conflict: Operation cannot be fulfilled on "
            "pods/binding \"p\": pod p is already assigned to node \"n1\"");

  RequestTarget lease{"update", "coordination.k8s.io", "leases", "kube-system", "ksched"};
  Error nf = ApiError(lease, 404, "<html>not found</html>\n");
  EXPECT_TRUE(IsNotFound(nf));
  EXPECT_EQ(nf.message,
            "update leases.coordination.k8s.io kube-system/ksched: 404 Not Found: "
            "<html>not found</html>");
  Error gone = ApiError(RequestTarget{"watch", "", "pods", "", ""}, 410,
                        R"({"kind":"Status","reason":"Gone","code":410})");
  EXPECT_TRUE(IsGone(gone));
  EXPECT_EQ(gone.message, "watch pods: 410 Gone: Gone");
}

TEST(RateLimiter, BurstThenQps) {
  RateLimiter limiter(10, 3);
  auto t0 = RateLimiter::Clock::time_point{} + std::chrono::seconds(100);
  using std::chrono::milliseconds;
  EXPECT_EQ(limiter.Reserve(t0), RateLimiter::Clock::duration::zero());
  EXPECT_EQ(limiter.Reserve(t0), RateLimiter::Clock::duration::zero());
  EXPECT_EQ(limiter.Reserve(t0), RateLimiter::Clock::duration::zero());
  // The fourth and fifth wait 100 ms and 200 ms at 10 qps.
  EXPECT_NEAR(std::chrono::duration<double>(limiter.Reserve(t0)).count(), 0.1, 1e-6);
  EXPECT_NEAR(std::chrono::duration<double>(limiter.Reserve(t0)).count(), 0.2, 1e-6);
  // One second later the debt is paid and 8 tokens have come back (capped at burst 3).
  auto t1 = t0 + std::chrono::seconds(1);
  EXPECT_EQ(limiter.Reserve(t1), RateLimiter::Clock::duration::zero());
  EXPECT_EQ(limiter.Reserve(t1), RateLimiter::Clock::duration::zero());
  EXPECT_EQ(limiter.Reserve(t1), RateLimiter::Clock::duration::zero());
  EXPECT_GT(limiter.Reserve(t1), RateLimiter::Clock::duration::zero());
}

TEST(RateLimiter, NonPositiveQpsIsUnlimited) {
  RateLimiter limiter(0, 1);
  auto t0 = RateLimiter::Clock::now();
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(limiter.Reserve(t0), RateLimiter::Clock::duration::zero());
}

// A plain-HTTP loopback server stands in for the API server's transport.
class RestClientLoopback : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.Get("/api/v1/nodes", [this](const httplib::Request& req, httplib::Response& res) {
      last_auth_ = req.get_header_value("Authorization");
      ++requests_;
      res.set_content(R"({"kind":"NodeList","items":[]})", "application/json");
    });
    server_.Post("/api/v1/namespaces/default/pods/p/binding",
                 [](const httplib::Request&, httplib::Response& res) {
                   res.status = 409;
                   res.set_content(R"({"kind":"Status","message":"already bound","code":409})",
                                   "application/json");
                 });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 2000 && !server_.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  void TearDown() override {
    server_.stop();
    thread_.join();
  }
  ClientConfig Config() {
    ClientConfig c;
    c.server = "http://127.0.0.1:" + std::to_string(port_);
    c.bearer_token = "tok";
    return c;
  }
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::string last_auth_;
  std::atomic<int> requests_{0};
};

TEST_F(RestClientLoopback, SendsTheTokenAndMapsErrors) {
  auto rest = RestClient::Create(Config());
  ASSERT_TRUE(rest.ok()) << rest.error().message;
  auto list = (*rest)->Call({"list", "", "nodes", "", ""}, "GET", "/api/v1/nodes");
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(last_auth_, "Bearer tok");
  auto client = ClusterClient::Create(Config());
  ASSERT_TRUE(client.ok());
  Status bind = (*client)->BindPod("default", "p", "uid", "n1");
  ASSERT_FALSE(bind.ok());
  EXPECT_TRUE(IsConflict(bind));
  EXPECT_EQ(bind.error().message, "create pods/binding default/p: 409 Conflict: already bound");
}

TEST_F(RestClientLoopback, RateLimitSpacesRequests) {
  ClientConfig c = Config();
  c.qps = 20;
  c.burst = 1;
  auto rest = RestClient::Create(c);
  ASSERT_TRUE(rest.ok());
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE((*rest)->Call({"list", "", "nodes", "", ""}, "GET", "/api/v1/nodes").ok());
  }
  // Burst 1 at 20 qps: requests 2..5 each wait 50 ms.
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(190));
  EXPECT_EQ(requests_.load(), 5);
}

TEST_F(RestClientLoopback, UnreachableServerNamesVerbAndResource) {
  ClientConfig c = Config();
  c.server = "http://127.0.0.1:1";
  auto client = ClusterClient::Create(c);
  ASSERT_TRUE(client.ok());
  Status s = (*client)->DeletePod("ns", "victim", "");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().http_code, 0);
  EXPECT_NE(s.error().message.find("delete pods ns/victim: cannot reach the API server "
                                   "http://127.0.0.1:1"),
            std::string::npos)
      << s.error().message;
}

TEST(ClusterClient, RefusesNamesThatWouldChangeThePath) {
  ClientConfig c;
  c.server = "http://127.0.0.1:1";
  auto client = ClusterClient::Create(c);
  ASSERT_TRUE(client.ok());
  Status s = (*client)->BindPod("default", "../nodes/x", "", "n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("not a valid object name"), std::string::npos);
  EXPECT_FALSE(ClusterClient::Create(ClientConfig{}).ok());
}

TEST(ClusterClient, TimesAreRfc3339) {
  std::string t = NowRfc3339();
  std::string m = NowRfc3339Micro();
  EXPECT_EQ(t.size(), 20u) << t;
  EXPECT_EQ(t.back(), 'Z');
  EXPECT_EQ(m.size(), 27u) << m;
  EXPECT_EQ(m[19], '.');
}

}  // namespace rest_client_test
}  // namespace ksched::client
