#include "live/health_server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <string>

namespace ksched::live {
namespace health_server_test {

TEST(HealthServer, AnswersLivezBeforeAnythingIsAttached) {
  HealthServer server;
  ASSERT_TRUE(server.Listen("127.0.0.1", 0).ok());
  httplib::Client client("127.0.0.1", server.port());
  auto livez = client.Get("/livez");
  ASSERT_TRUE(livez);
  EXPECT_EQ(livez->status, 200);
  auto healthz = client.Get("/healthz");
  ASSERT_TRUE(healthz);
  EXPECT_EQ(healthz->status, 200);
  auto readyz = client.Get("/readyz");
  ASSERT_TRUE(readyz);
  EXPECT_EQ(readyz->status, 500);
  EXPECT_NE(readyz->body.find("[-]api-discovery"), std::string::npos) << readyz->body;
  auto metrics = client.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 503);
  server.Stop();
}

// cpp-httplib's default socket options (SO_REUSEPORT) let a second server
// bind the same port; ours must refuse, naming the port and the reason.
TEST(HealthServer, PortInUseIsAnErrorNamingThePort) {
  HealthServer first;
  ASSERT_TRUE(first.Listen("127.0.0.1", 0).ok());
  HealthServer second;
  Status s = second.Listen("127.0.0.1", first.port());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("127.0.0.1:" + std::to_string(first.port())), std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find("in use"), std::string::npos) << s.error().message;
}

TEST(HealthServer, StopIsIdempotent) {
  HealthServer server;
  server.Stop();  // never listened
  ASSERT_TRUE(server.Listen("127.0.0.1", 0).ok());
  server.Stop();
  server.Stop();
}

}  // namespace health_server_test
}  // namespace ksched::live
