#include "live/delegated_auth.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ksched::live {

using nlohmann::json;

DelegatedAuth::DelegatedAuth(Post post, std::chrono::steady_clock::duration ttl)
    : post_(std::move(post)), ttl_(ttl) {}

Result<DelegatedAuth::User> DelegatedAuth::Authenticate(const std::string& token,
                                                        bool* authenticated) {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = users_.find(token); it != users_.end() && it->second.until > now) {
      *authenticated = true;
      return it->second.user;
    }
  }
  json review = {{"apiVersion", "authentication.k8s.io/v1"},
                 {"kind", "TokenReview"},
                 {"spec", {{"token", token}}}};
  auto reply = post_("/apis/authentication.k8s.io/v1/tokenreviews", review.dump(), "tokenreviews");
  if (!reply.ok()) return reply.error();
  json doc = json::parse(*reply, nullptr, false);
  if (doc.is_discarded()) return MakeError("TokenReview: the reply is not JSON");
  const json& status = doc.value("status", json::object());
  *authenticated = status.value("authenticated", false);
  if (!*authenticated) return User{};
  const json& u = status.value("user", json::object());
  User user;
  user.name = u.value("username", "");
  user.uid = u.value("uid", "");
  for (const json& g : u.value("groups", json::array()))
    if (g.is_string()) user.groups.push_back(g.get<std::string>());
  user.extra_json = u.value("extra", json::object()).dump();
  std::lock_guard<std::mutex> lock(mu_);
  if (users_.size() > 1000) users_.clear();  // bounded: tokens are many, reviews cheap
  users_[token] = CachedUser{user, now + ttl_};
  return user;
}

Result<bool> DelegatedAuth::Authorize(const User& user, const std::string& path,
                                      const std::string& verb, std::string* reason) {
  if (std::find(user.groups.begin(), user.groups.end(), "system:masters") != user.groups.end())
    return true;
  const auto now = std::chrono::steady_clock::now();
  std::string key = user.name + '\n' + user.uid + '\n' + path + '\n' + verb;
  for (const std::string& g : user.groups) key += '\n' + g;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = decisions_.find(key); it != decisions_.end() && it->second.until > now) {
      *reason = it->second.reason;
      return it->second.allowed;
    }
  }
  json spec = {{"user", user.name},
               {"groups", user.groups},
               {"nonResourceAttributes", {{"path", path}, {"verb", verb}}}};
  if (!user.uid.empty()) spec["uid"] = user.uid;
  json extra = json::parse(user.extra_json, nullptr, false);
  if (!extra.is_discarded() && !extra.empty()) spec["extra"] = extra;
  json review = {
      {"apiVersion", "authorization.k8s.io/v1"}, {"kind", "SubjectAccessReview"}, {"spec", spec}};
  auto reply = post_("/apis/authorization.k8s.io/v1/subjectaccessreviews", review.dump(),
                     "subjectaccessreviews");
  if (!reply.ok()) return reply.error();
  json doc = json::parse(*reply, nullptr, false);
  if (doc.is_discarded()) return MakeError("SubjectAccessReview: the reply is not JSON");
  const json& status = doc.value("status", json::object());
  const bool allowed = status.value("allowed", false);
  *reason = status.value("reason", "");
  std::lock_guard<std::mutex> lock(mu_);
  if (decisions_.size() > 1000) decisions_.clear();
  decisions_[key] = CachedDecision{allowed, *reason, now + ttl_};
  return allowed;
}

DelegatedAuth::Decision DelegatedAuth::Check(std::string_view authorization,
                                             const std::string& path, const std::string& verb) {
  if (path == "/healthz" || path == "/livez" || path == "/readyz") return {};
  User user;
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() > kBearer.size() && authorization.substr(0, kBearer.size()) == kBearer) {
    bool authenticated = false;
    auto got = Authenticate(std::string(authorization.substr(kBearer.size())), &authenticated);
    if (!got.ok()) return {500, "authentication failed: " + got.error().message};
    if (!authenticated) return {401, "Unauthorized"};
    user = std::move(got).value();
  } else {
    user.name = "system:anonymous";
    user.groups = {"system:unauthenticated"};
  }
  std::string reason;
  auto allowed = Authorize(user, path, verb, &reason);
  if (!allowed.ok()) return {500, "authorization failed: " + allowed.error().message};
  if (!*allowed) {
    return {403, fmt::format("forbidden: User \"{}\" cannot {} path \"{}\"{}", user.name, verb,
                             path, reason.empty() ? "" : ": " + reason)};
  }
  return {};
}

}  // namespace ksched::live
