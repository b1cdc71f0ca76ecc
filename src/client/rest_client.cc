#include "client/rest_client.h"

#include <curl/curl.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ksched::client {
namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string_view StatusText(long code) {
  switch (code) {
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 415:
      return "Unsupported Media Type";
    case 422:
      return "Unprocessable Entity";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "";
  }
}

// The object a request is about: "pods/binding default/web-1", "nodes", ...
std::string Subject(const RequestTarget& t) {
  std::string s = t.group.empty() || t.resource.find('.') != std::string::npos
                      ? t.resource
                      : t.resource + "." + t.group;
  if (!t.name.empty()) {
    s += " " + (t.ns.empty() ? t.name : t.ns + "/" + t.name);
  } else if (!t.ns.empty()) {
    s += " in namespace " + t.ns;
  }
  return s;
}

std::string NoProxyList() {
  std::string list;
  for (const char* name : {"NO_PROXY", "no_proxy"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') {
      list = v;
      break;
    }
  }
  if (list == "*") return list;
  if (!list.empty()) list += ",";
  return list + "localhost,127.0.0.0/8,::1";
}

struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

void Append(Slist& list, const std::string& s) {
  curl_slist* next = curl_slist_append(list.get(), s.c_str());
  if (next != nullptr) {
    (void)list.release();
    list.reset(next);
  }
}

// Per-transfer state the callbacks see.
struct Transfer {
  CURL* curl = nullptr;
  std::string body;  // buffered body (plain requests; non-2xx streams)
  const std::function<bool(std::string_view)>* on_data = nullptr;
  const std::atomic<bool>* stop = nullptr;
  bool streaming_ok = false;  // 2xx seen on a streaming transfer
  bool checked_code = false;
};

size_t WriteCallback(char* data, size_t size, size_t nmemb, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * nmemb;
  if (t->on_data != nullptr) {
    if (!t->checked_code) {
      long code = 0;
      curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
      t->streaming_ok = code >= 200 && code < 300;
      t->checked_code = true;
    }
    if (t->streaming_ok) {
      if (t->stop != nullptr && t->stop->load()) return 0;
      return (*t->on_data)(std::string_view(data, n)) ? n : 0;
    }
  }
  if (t->body.size() > (size_t{1} << 31)) return 0;  // a 2 GiB reply is not an API object
  t->body.append(data, n);
  return n;
}

int ProgressCallback(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  return t->stop != nullptr && t->stop->load() ? 1 : 0;
}

}  // namespace

// ====================================================================== handle pool

class HttpHandlePool {
 public:
  explicit HttpHandlePool(const ClientConfig& config) : config_(config) {}
  ~HttpHandlePool() {
    for (CURL* c : idle_) curl_easy_cleanup(c);
  }

  CURL* Acquire() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!idle_.empty()) {
        CURL* c = idle_.back();
        idle_.pop_back();
        return c;
      }
    }
    return Make();
  }
  void Release(CURL* c) {
    if (c == nullptr) return;
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(c);
  }
  // A handle whose transfer failed may hold a broken connection; drop it.
  void Discard(CURL* c) {
    if (c != nullptr) curl_easy_cleanup(c);
  }

 private:
  CURL* Make() {
    CURL* c = curl_easy_init();
    if (c == nullptr) return nullptr;
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, no_proxy_.c_str());
    curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(c, CURLOPT_TCP_KEEPIDLE, 30L);
    curl_easy_setopt(c, CURLOPT_TCP_KEEPINTVL, 15L);
    curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(c, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(config_.connect_timeout_ms));
    curl_easy_setopt(c, CURLOPT_USERAGENT, config_.user_agent.c_str());
    curl_easy_setopt(c, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, config_.insecure_skip_tls_verify ? 0L : 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, config_.insecure_skip_tls_verify ? 0L : 2L);
    if (!config_.ca_pem.empty()) {
      curl_blob blob{const_cast<char*>(config_.ca_pem.data()), config_.ca_pem.size(),
                     CURL_BLOB_COPY};
      curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &blob);
      curl_easy_setopt(c, CURLOPT_CAPATH, nullptr);
    }
    if (!config_.client_cert_pem.empty()) {
      curl_blob cert{const_cast<char*>(config_.client_cert_pem.data()),
                     config_.client_cert_pem.size(), CURL_BLOB_COPY};
      curl_blob key{const_cast<char*>(config_.client_key_pem.data()), config_.client_key_pem.size(),
                    CURL_BLOB_COPY};
      curl_easy_setopt(c, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(c, CURLOPT_SSLCERTTYPE, "PEM");
      curl_easy_setopt(c, CURLOPT_SSLKEY_BLOB, &key);
      curl_easy_setopt(c, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (!config_.username.empty()) {
      curl_easy_setopt(c, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
      curl_easy_setopt(c, CURLOPT_USERNAME, config_.username.c_str());
      curl_easy_setopt(c, CURLOPT_PASSWORD, config_.password.c_str());
    }
    return c;
  }

  const ClientConfig& config_;
  const std::string no_proxy_ = NoProxyList();
  std::mutex mu_;
  std::vector<CURL*> idle_;
};

// ====================================================================== errors

Error ApiError(const RequestTarget& target, long code, std::string_view body) {
  std::string server_message;
  std::string reason;
  nlohmann::json status = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!status.is_discarded() && status.is_object()) {
    if (auto m = status.find("message"); m != status.end() && m->is_string()) {
      server_message = m->get<std::string>();
    }
    if (auto r = status.find("reason"); r != status.end() && r->is_string()) {
      reason = r->get<std::string>();
    }
  } else {
    server_message = std::string(body.substr(0, 300));
    while (!server_message.empty() &&
           (server_message.back() == '\n' || server_message.back() == ' ')) {
      server_message.pop_back();
    }
  }
  Error e;
  e.http_code = static_cast<int>(code);
  if (code == 403) {
    std::string scope = target.ns.empty() ? "at the cluster scope" : "in namespace " + target.ns;
    e.message = "forbidden: cannot " + target.verb + " " + target.resource + " " + scope + ": ";
    // RBAC names a bound role it cannot find: a rule would not help. A
    // starting API server says so for every role until its bootstrap roles
    // are loaded, which is not a missing right.
    if (server_message.find("RBAC: ") != std::string::npos &&
        server_message.find(" not found") != std::string::npos) {
      e.message +=
          "a role bound to the scheduler's identity was not found (an API server that is "
          "still starting has not loaded its bootstrap roles yet)";
    } else {
      e.message += "the scheduler's identity needs rule {apiGroups: [\"" + target.group +
                   "\"], resources: [\"" + target.resource + "\"], verbs: [\"" + target.verb +
                   "\"]}";
    }
    if (!server_message.empty()) e.message += " (server: " + server_message + ")";
    return e;
  }
  e.message = target.verb + " " + Subject(target) + ": " + std::to_string(code);
  if (std::string_view text = StatusText(code); !text.empty()) e.message += " " + std::string(text);
  if (code == 401) {
    e.message += ": the API server rejected ksched's credentials (token expired or wrong?)";
  }
  if (!server_message.empty())
    e.message += ": " + server_message;
  else if (!reason.empty())
    e.message += ": " + reason;
  return e;
}

// ====================================================================== client

RestClient::RestClient(ClientConfig config)
    : config_(std::move(config)), limiter_(config_.qps, config_.burst) {
  pool_ = std::make_unique<HttpHandlePool>(config_);
}

RestClient::~RestClient() = default;

Result<std::unique_ptr<RestClient>> RestClient::Create(const ClientConfig& config) {
  GlobalInit();
  if (config.server.empty()) return MakeError("client config: no API server address");
  if (config.server.rfind("https://", 0) != 0 && config.server.rfind("http://", 0) != 0) {
    return MakeError("client config: server \"" + config.server +
                     "\" must start with https:// or http://");
  }
  return std::unique_ptr<RestClient>(new RestClient(config));
}

std::string RestClient::AuthHeader() {
  std::lock_guard<std::mutex> lock(token_mu_);
  if (config_.bearer_token.empty()) return "";
  return "Authorization: Bearer " + config_.bearer_token;
}

namespace {

struct PerformResult {
  CURLcode rc = CURLE_OK;
  long code = 0;
  std::string error;
};

}  // namespace

Result<HttpReply> RestClient::Send(const RequestTarget& target, std::string_view method,
                                   const std::string& path, std::string_view body,
                                   std::string_view content_type) {
  for (int attempt = 0;; ++attempt) {
    limiter_.Wait();
    CURL* c = pool_->Acquire();
    if (c == nullptr) return MakeError("cannot create an HTTP client (curl_easy_init failed)");
    Transfer t;
    t.curl = c;
    char errbuf[CURL_ERROR_SIZE] = {0};
    std::string url = config_.server + path;
    std::string m(method);
    Slist headers;
    Append(headers, "Accept: application/json");
    if (std::string auth = AuthHeader(); !auth.empty()) Append(headers, auth);
    if (!body.empty()) Append(headers, "Content-Type: " + std::string(content_type));
    Append(headers, "Expect:");
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &WriteCallback);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(config_.request_timeout_ms));
    if (m == "GET") {
      curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, nullptr);
    } else {
      curl_easy_setopt(c, CURLOPT_POST, 1L);
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, m == "POST" ? nullptr : m.c_str());
    }
    CURLcode rc = curl_easy_perform(c);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, nullptr);
    if (rc != CURLE_OK) {
      pool_->Discard(c);
      std::string why = errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc);
      // A kept-alive connection the server closed meanwhile (libcurl already
      // retries one that died before any reply): a GET is retried once more.
      if (attempt == 0 && m == "GET" &&
          (rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR)) {
        continue;
      }
      return MakeError(target.verb + " " + Subject(target) + ": cannot reach the API server " +
                       config_.server + ": " + why);
    }
    HttpReply reply;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.code);
    pool_->Release(c);
    reply.body = std::move(t.body);
    if (reply.code == 401 && attempt == 0 && !config_.token_file.empty()) {
      // A rotated service-account token: read the file again and retry once.
      std::ifstream in(config_.token_file);
      std::ostringstream ss;
      ss << in.rdbuf();
      std::string token = ss.str();
      while (!token.empty() && (token.back() == '\n' || token.back() == ' ')) token.pop_back();
      std::lock_guard<std::mutex> lock(token_mu_);
      if (!token.empty() && token != config_.bearer_token) {
        config_.bearer_token = token;
        continue;
      }
    }
    return reply;
  }
}

Result<std::string> RestClient::Call(const RequestTarget& target, std::string_view method,
                                     const std::string& path, std::string_view body,
                                     std::string_view content_type) {
  auto reply = Send(target, method, path, body, content_type);
  if (!reply.ok()) return reply.error();
  if (reply->code < 200 || reply->code >= 300) return ApiError(target, reply->code, reply->body);
  return std::move(reply->body);
}

Result<HttpReply> RestClient::Stream(const RequestTarget& target, const std::string& path,
                                     const std::function<bool(std::string_view)>& on_data,
                                     const std::atomic<bool>& stop, int64_t timeout_ms) {
  limiter_.Wait();
  CURL* c = pool_->Acquire();
  if (c == nullptr) return MakeError("cannot create an HTTP client (curl_easy_init failed)");
  Transfer t;
  t.curl = c;
  t.on_data = &on_data;
  t.stop = &stop;
  char errbuf[CURL_ERROR_SIZE] = {0};
  std::string url = config_.server + path;
  Slist headers;
  Append(headers, "Accept: application/json");
  if (std::string auth = AuthHeader(); !auth.empty()) Append(headers, auth);
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &WriteCallback);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &ProgressCallback);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, nullptr);
  CURLcode rc = curl_easy_perform(c);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 1L);
  HttpReply reply;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.code);
  // A watch ends by closing its connection (or by our abort): never reuse it.
  pool_->Discard(c);
  if (rc != CURLE_OK) {
    if (stop.load()) return reply;                                // stopped on request
    if (rc == CURLE_WRITE_ERROR && t.streaming_ok) return reply;  // on_data said stop
    std::string why = errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc);
    Error e = MakeError(target.verb + " " + Subject(target) + ": " +
                        (reply.code == 0 ? "cannot reach the API server " + config_.server
                                         : "stream from " + config_.server + " broke") +
                        ": " + why);
    return e;
  }
  reply.body = std::move(t.body);
  return reply;
}

}  // namespace ksched::client
