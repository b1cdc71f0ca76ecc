#include "live/delegated_auth.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ksched::live {
namespace delegated_auth_test {

using nlohmann::json;

// A fake API server: token "good" is alice (group dev), "admin" is in
// system:masters; alice may GET /metrics.
struct FakeReviews {
  int token_reviews = 0, access_reviews = 0;
  DelegatedAuth::Post Post() {
    return [this](const std::string&, const std::string& body,
                  const std::string& resource) -> Result<std::string> {
      json req = json::parse(body);
      if (resource == "tokenreviews") {
        ++token_reviews;
        const std::string token = req["spec"]["token"];
        json status = {{"authenticated", token == "good" || token == "admin"}};
        if (token == "good") status["user"] = {{"username", "alice"}, {"groups", {"dev"}}};
        if (token == "admin")
          status["user"] = {{"username", "root"}, {"groups", {"system:masters"}}};
        return json{{"status", status}}.dump();
      }
      ++access_reviews;
      const json& spec = req["spec"];
      const bool allowed = spec["user"] == "alice" &&
                           spec["nonResourceAttributes"]["path"] == "/metrics" &&
                           spec["nonResourceAttributes"]["verb"] == "get";
      return json{{"status", {{"allowed", allowed}, {"reason", allowed ? "" : "no rule"}}}}.dump();
    };
  }
};

TEST(DelegatedAuth, HealthChecksAreAlwaysAllowed) {
  FakeReviews fake;
  DelegatedAuth auth(fake.Post());
  for (const char* path : {"/healthz", "/livez", "/readyz"})
    EXPECT_EQ(auth.Check("", path, "get").status, 200) << path;
  EXPECT_EQ(fake.token_reviews + fake.access_reviews, 0);
}

TEST(DelegatedAuth, TokensAreReviewedThenAuthorized) {
  FakeReviews fake;
  DelegatedAuth auth(fake.Post());
  EXPECT_EQ(auth.Check("Bearer good", "/metrics", "get").status, 200);
  EXPECT_EQ(auth.Check("Bearer bad", "/metrics", "get").status, 401);
  DelegatedAuth::Decision anonymous = auth.Check("", "/metrics", "get");
  EXPECT_EQ(anonymous.status, 403);
  EXPECT_EQ(anonymous.message,
            "forbidden: User \"system:anonymous\" cannot get path \"/metrics\": no rule");
  EXPECT_EQ(auth.Check("Bearer good", "/configz", "get").status, 403);
  EXPECT_EQ(auth.Check("Bearer admin", "/anything", "get").status, 200);  // system:masters
  // Cached: a second identical check asks nothing.
  const int reviews = fake.token_reviews + fake.access_reviews;
  EXPECT_EQ(auth.Check("Bearer good", "/metrics", "get").status, 200);
  EXPECT_EQ(fake.token_reviews + fake.access_reviews, reviews);
}

TEST(DelegatedAuth, AnUnreachableServerIsAnError) {
  DelegatedAuth auth(
      [](const std::string&, const std::string&, const std::string&) -> Result<std::string> {
        return MakeError("connection refused");
      });
  DelegatedAuth::Decision d = auth.Check("Bearer x", "/metrics", "get");
  EXPECT_EQ(d.status, 500);
  EXPECT_NE(d.message.find("connection refused"), std::string::npos);
}

}  // namespace delegated_auth_test
}  // namespace ksched::live
