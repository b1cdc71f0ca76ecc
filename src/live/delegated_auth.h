// Delegated authentication and authorization of the secure port's requests,
// as kube-scheduler's (k8s.io/apiserver's DelegatingAuthenticationOptions
// and DelegatingAuthorizationOptions): the API server decides.
//   - /healthz, /livez, /readyz are always allowed (AlwaysAllowPaths).
//   - A bearer token is reviewed by a TokenReview (authentication.k8s.io/v1):
//     not authenticated is 401. No token: the anonymous user
//     (system:anonymous, group system:unauthenticated), as upstream's default.
//   - The user is then checked by a SubjectAccessReview
//     (authorization.k8s.io/v1, nonResourceAttributes {path, verb}); members
//     of system:masters are allowed without one (AlwaysAllowGroups). Not
//     allowed is 403.
// Decisions are cached 10 s (upstream's default TTLs for allowed tokens and
// decisions). The identity needs create on tokenreviews and
// subjectaccessreviews (kube-scheduler's ClusterRole has both).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace ksched::live {

class DelegatedAuth {
 public:
  // POSTs `body` (JSON) to `path` on the API server; the reply's body.
  using Post = std::function<Result<std::string>(const std::string& path, const std::string& body,
                                                 const std::string& resource)>;
  explicit DelegatedAuth(Post post,
                         std::chrono::steady_clock::duration ttl = std::chrono::seconds(10));

  struct Decision {
    int status = 200;  // 200, 401 or 403 (500 when a review could not be made)
    std::string message;
  };
  // `authorization`: the request's Authorization header ("" when absent).
  Decision Check(std::string_view authorization, const std::string& path, const std::string& verb);

 private:
  struct User {
    std::string name, uid;
    std::vector<std::string> groups;
    std::string extra_json = "{}";
  };
  Result<User> Authenticate(const std::string& token, bool* authenticated);
  Result<bool> Authorize(const User& user, const std::string& path, const std::string& verb,
                         std::string* reason);

  Post post_;
  std::chrono::steady_clock::duration ttl_;
  std::mutex mu_;
  struct CachedUser {
    User user;
    std::chrono::steady_clock::time_point until;
  };
  struct CachedDecision {
    bool allowed = false;
    std::string reason;
    std::chrono::steady_clock::time_point until;
  };
  std::map<std::string, CachedUser> users_;          // by token
  std::map<std::string, CachedDecision> decisions_;  // by user, path, verb
};

}  // namespace ksched::live
