#include "live/api_health.h"

#include <gtest/gtest.h>

namespace ksched::live {
namespace api_health_test {

using client::Resource;

std::vector<std::string> g_log;
void Record(char level, std::string_view m) {
  g_log.push_back(std::string(1, level) + " " + std::string(m));
}

Error Http(int code, const std::string& message) {
  Error e;
  e.message = message;
  e.http_code = code;
  return e;
}

TEST(ApiHealth, ForbiddenIsLoggedOnceAndFailsUntilTheResourceIsReadAgain) {
  g_log.clear();
  ApiHealth h(&Record);
  EXPECT_TRUE(h.Problems().empty());
  h.OnEvent(Resource::kPod);
  const Error forbidden = Http(403, "forbidden: cannot list poddisruptionbudgets ...");
  h.OnError(Resource::kPodDisruptionBudget, forbidden);
  h.OnError(Resource::kPodDisruptionBudget, forbidden);  // the retry: not logged again
  ASSERT_EQ(g_log.size(), 1u);
  EXPECT_EQ(g_log[0],
            "E cannot read poddisruptionbudgets.policy (nothing is scheduled until ksched can "
            "list and watch it): forbidden: cannot list poddisruptionbudgets ...");
  ASSERT_EQ(h.Problems().size(), 1u);
  EXPECT_EQ(h.Problems()[0], forbidden.message);
  h.OnEvent(Resource::kPod);  // another resource: no change
  EXPECT_EQ(h.Problems().size(), 1u);
  h.OnEvent(Resource::kPodDisruptionBudget);
  EXPECT_TRUE(h.Problems().empty());
  ASSERT_EQ(g_log.size(), 2u);
  EXPECT_EQ(g_log[1], "I poddisruptionbudgets.policy can be read again");
}

TEST(ApiHealth, TransientErrorsAreLoggedButHealthy) {
  g_log.clear();
  ApiHealth h(&Record);
  h.OnError(Resource::kNode, Http(0, "list nodes: connection refused"));
  EXPECT_TRUE(h.Problems().empty());
  ASSERT_EQ(g_log.size(), 1u);
  EXPECT_EQ(g_log[0], "W list nodes: connection refused");
  h.OnError(Resource::kNode, Http(404, "list nodes: 404 Not Found"));
  EXPECT_EQ(h.Problems().size(), 1u);
}

TEST(ApiHealth, DiscoveryProblemStaysUntilAnEvent) {
  g_log.clear();
  ApiHealth h(&Record);
  h.SetProblem(Resource::kPodDisruptionBudget, "no policy group");
  EXPECT_EQ(h.Problems(), std::vector<std::string>{"no policy group"});
  EXPECT_EQ(g_log, std::vector<std::string>{"E no policy group"});
  h.OnEvent(Resource::kPodDisruptionBudget);
  EXPECT_TRUE(h.Problems().empty());
}

}  // namespace api_health_test
}  // namespace ksched::live
