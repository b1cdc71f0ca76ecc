#include "extender/http_extender.h"

#include <curl/curl.h>
#include <fmt/format.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "extender/extender_wire.h"

namespace ksched {

// ====================================================================== TLS

// HttpTransport (declared in the header) holds these, so they have a named
// namespace rather than an anonymous one.
namespace http_internal {

// The TLS client settings upstream derives from an ExtenderConfig
// (makeTransport + client-go's TLSConfigFor), with files already read.
struct TlsSettings {
  bool configured = false;  // false: Go's default TLS config (system roots, verify)
  bool insecure = false;
  std::string server_name;
  std::string ca;         // PEM; empty: system roots
  std::string cert, key;  // PEM; both set or both empty
};

// Where a reply body is collected, and how large it may grow.
struct BodySink {
  std::string data;
  size_t limit = 0;
  bool overflowed = false;
};

}  // namespace http_internal

using http_internal::BodySink;
using http_internal::TlsSettings;

namespace {

// Go's syscall errors read like strerror with a lower-case first letter.
std::string ErrnoText(int err) {
  std::string s = std::strerror(err);
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

// ioutil.ReadFile with Go's error text.
Result<std::string> ReadWholeFile(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(fmt::format("open {}: {}", path, ErrnoText(errno ? errno : ENOENT)));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return MakeError(fmt::format("read {}: {}", path, ErrnoText(errno ? errno : EIO)));
  return ss.str();
}

struct PemBlock {
  std::string type;
  std::string text;  // the whole block, BEGIN to END line
};

// The PEM blocks in `data`, as encoding/pem.Decode finds them one by one.
std::vector<PemBlock> PemBlocks(const std::string& data) {
  std::vector<PemBlock> out;
  size_t pos = 0;
  static constexpr std::string_view kBegin = "-----BEGIN ";
  while ((pos = data.find(kBegin, pos)) != std::string::npos) {
    size_t type_start = pos + kBegin.size();
    size_t type_end = data.find("-----", type_start);
    if (type_end == std::string::npos) break;
    std::string type = data.substr(type_start, type_end - type_start);
    std::string end_marker = "-----END " + type + "-----";
    size_t end = data.find(end_marker, type_end);
    if (end == std::string::npos) break;
    end += end_marker.size();
    out.push_back(PemBlock{std::move(type), data.substr(pos, end - pos)});
    pos = end;
  }
  return out;
}

std::string JoinTypes(const std::vector<std::string>& types) {
  return fmt::format("[{}]", fmt::join(types, " "));
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// crypto/tls.X509KeyPair's checks, with its error texts.
Status CheckKeyPair(const std::string& cert_pem, const std::string& key_pem) {
  std::vector<std::string> skipped;
  const PemBlock* cert = nullptr;
  std::vector<PemBlock> cert_blocks = PemBlocks(cert_pem);
  for (const PemBlock& b : cert_blocks) {
    if (b.type == "CERTIFICATE") {
      if (cert == nullptr) cert = &b;
    } else {
      skipped.push_back(b.type);
    }
  }
  if (cert == nullptr) {
    if (skipped.empty()) return MakeError("tls: failed to find any PEM data in certificate input");
    if (skipped.size() == 1 && EndsWith(skipped[0], "PRIVATE KEY")) {
      return MakeError(
          "tls: failed to find certificate PEM data in certificate input, but did find a private "
          "key; PEM inputs may have been switched");
    }
    return MakeError(fmt::format(
        "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM "
        "blocks of the following types: {}",
        JoinTypes(skipped)));
  }
  skipped.clear();
  const PemBlock* key = nullptr;
  std::vector<PemBlock> key_blocks = PemBlocks(key_pem);
  for (const PemBlock& b : key_blocks) {
    if (b.type == "PRIVATE KEY" || EndsWith(b.type, " PRIVATE KEY")) {
      key = &b;
      break;
    }
    skipped.push_back(b.type);
  }
  if (key == nullptr) {
    if (skipped.empty()) return MakeError("tls: failed to find any PEM data in key input");
    if (skipped.size() == 1 && skipped[0] == "CERTIFICATE") {
      return MakeError("tls: found a certificate rather than a key in the PEM for the private key");
    }
    return MakeError(fmt::format(
        "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after "
        "skipping PEM blocks of the following types: {}",
        JoinTypes(skipped)));
  }

  BIO* cbio = BIO_new_mem_buf(cert->text.data(), static_cast<int>(cert->text.size()));
  X509* x509 = PEM_read_bio_X509(cbio, nullptr, nullptr, nullptr);
  BIO_free(cbio);
  if (x509 == nullptr) return MakeError("x509: malformed certificate");
  BIO* kbio = BIO_new_mem_buf(key->text.data(), static_cast<int>(key->text.size()));
  EVP_PKEY* pkey = PEM_read_bio_PrivateKey(kbio, nullptr, nullptr, nullptr);
  BIO_free(kbio);
  Status result;
  if (pkey == nullptr) {
    result = MakeError("tls: failed to parse private key");
  } else {
    EVP_PKEY* pub = X509_get0_pubkey(x509);
    if (pub == nullptr || EVP_PKEY_base_id(pub) != EVP_PKEY_base_id(pkey)) {
      result = MakeError("tls: private key type does not match public key type");
    } else if (X509_check_private_key(x509, pkey) != 1) {
      result = MakeError("tls: private key does not match public key");
    }
    EVP_PKEY_free(pkey);
  }
  X509_free(x509);
  return result;
}

// upstream makeTransport + restclient.TLSConfigFor.
Result<TlsSettings> MakeTlsSettings(const ExtenderConfig& config) {
  ExtenderTlsConfig t = config.tls_config.value_or(ExtenderTlsConfig{});
  bool has_ca = !t.ca_file.empty() || !t.ca_data.empty();
  if (config.enable_https && !has_ca) t.insecure = true;
  bool has_cert_auth = (!t.cert_data.empty() || !t.cert_file.empty()) &&
                       (!t.key_data.empty() || !t.key_file.empty());
  TlsSettings s;
  if (!(has_ca || has_cert_auth || t.insecure || !t.server_name.empty())) return s;
  if (has_ca && t.insecure) {
    return MakeError("specifying a root certificates file with the insecure flag is not allowed");
  }
  // loadTLSFiles: inline data wins over the file.
  auto load = [](const std::string& data, const std::string& file) -> Result<std::string> {
    if (!data.empty() || file.empty()) return data;
    return ReadWholeFile(file);
  };
  auto ca = load(t.ca_data, t.ca_file);
  if (!ca.ok()) return ca.error();
  auto cert = load(t.cert_data, t.cert_file);
  if (!cert.ok()) return cert.error();
  auto key = load(t.key_data, t.key_file);
  if (!key.ok()) return key.error();
  if (has_cert_auth) {
    if (Status st = CheckKeyPair(*cert, *key); !st.ok()) return st.error();
    s.cert = std::move(*cert);
    s.key = std::move(*key);
  }
  s.configured = true;
  s.insecure = t.insecure;
  s.server_name = t.server_name;
  s.ca = std::move(*ca);
  return s;
}

void GlobalCurlInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t AppendBody(char* data, size_t size, size_t nmemb, void* user) {
  auto* sink = static_cast<BodySink*>(user);
  size_t n = size * nmemb;
  if (n > sink->limit - sink->data.size()) {
    // Returning less than n makes libcurl abort the transfer.
    sink->overflowed = true;
    return 0;
  }
  sink->data.append(data, n);
  return n;
}

struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

Slist Append(Slist list, const std::string& s) {
  curl_slist* raw = list.release();
  curl_slist* next = curl_slist_append(raw, s.c_str());
  if (next == nullptr) {
    curl_slist_free_all(raw);
    return nullptr;
  }
  return Slist(next);
}

// Go's ProxyFromEnvironment never proxies loopback hosts; curl would.
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

}  // namespace

// ====================================================================== transport

// One libcurl easy handle with the extender's timeout and TLS settings.
// Not thread-safe: HttpExtender serialises calls.
class HttpTransport {
 public:
  struct Reply {
    long status = 0;
    std::string body;
  };

  static Result<std::unique_ptr<HttpTransport>> Create(const ExtenderConfig& config) {
    auto tls = MakeTlsSettings(config);
    if (!tls.ok()) return tls.error();
    GlobalCurlInit();
    CURL* curl = curl_easy_init();
    if (curl == nullptr) return MakeError("cannot create an HTTP client (curl_easy_init failed)");
    int64_t timeout_ns =
        config.http_timeout_ns == 0 ? kDefaultExtenderTimeoutNs : config.http_timeout_ns;
    auto t = std::unique_ptr<HttpTransport>(new HttpTransport(curl, std::move(tls).value()));
    t->body_.limit = config.max_reply_bytes;
    if (Status s = t->Setup(timeout_ns); !s.ok()) return s.error();
    return t;
  }

  ~HttpTransport() { curl_easy_cleanup(curl_); }

  // POSTs `body` as JSON. Errors are the transport's, in Go's words.
  Result<Reply> Post(const std::string& url, const std::string& body) {
    body_.data.clear();
    body_.overflowed = false;
    error_buffer_[0] = '\0';
    std::string target = url;
    Slist headers = Append(nullptr, "Content-Type: application/json");
    headers = Append(std::move(headers), "Expect:");  // Go never waits for 100-continue
    Slist connect_to;
    if (tls_.configured && !tls_.server_name.empty()) {
      // tls.Config.ServerName: the TLS session (SNI and verification) uses the
      // configured name while the connection goes to the URL's host.
      RewriteForServerName(url, &target, &headers, &connect_to);
    }
    if (!headers) return MakeError(fmt::format("Post {}: out of memory", url));
    curl_easy_setopt(curl_, CURLOPT_URL, target.c_str());
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(curl_, CURLOPT_CONNECT_TO, connect_to.get());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    CURLcode rc = curl_easy_perform(curl_);
    // Do not leave pointers to this call's buffers in the handle.
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(curl_, CURLOPT_CONNECT_TO, nullptr);

    long status = 0;
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
    bool final_status = status >= 200 && !(status >= 300 && status < 400);
    if (body_.overflowed) {
      body_.data.clear();
      return MakeError(fmt::format("Post {}: reply body larger than {} bytes", url, body_.limit));
    }
    if (rc == CURLE_OK) return Reply{status, std::move(body_.data)};
    if (final_status && status != 200) return Reply{status, {}};  // Go stops at the headers
    if (final_status) {
      // The body was cut short: Go's decoder reads what arrived.
      if (rc == CURLE_OPERATION_TIMEDOUT) {
        return MakeError("net/http: request canceled (Client.Timeout exceeded while reading body)");
      }
      if (rc == CURLE_PARTIAL_FILE || rc == CURLE_RECV_ERROR)
        return Reply{status, std::move(body_.data)};
    }
    return MakeError(fmt::format("Post {}: {}", url, TransportErrorText(rc, url)));
  }

 private:
  HttpTransport(CURL* curl, TlsSettings tls) : curl_(curl), tls_(std::move(tls)) {}

  Status Setup(int64_t timeout_ns) {
    CURL* c = curl_;
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error_buffer_);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &AppendBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &body_);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    // Go's client follows up to 10 redirects; 301/302/303 turn the POST into
    // a GET, 307/308 repeat it, which is also curl's default.
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "gzip");
    no_proxy_ = NoProxyList();
    curl_easy_setopt(c, CURLOPT_NOPROXY, no_proxy_.c_str());
    // http.Client.Timeout covers the whole exchange; zero or less is none.
    long timeout_ms = timeout_ns <= 0 ? 0L : static_cast<long>((timeout_ns + 999'999) / 1'000'000);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    if (!tls_.configured) return Status::Ok();

    curl_easy_setopt(c, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, tls_.insecure ? 0L : 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, tls_.insecure ? 0L : 2L);
    if (!tls_.ca.empty()) {
      // RootCAs replaces the system pool.
      curl_blob blob{tls_.ca.data(), tls_.ca.size(), CURL_BLOB_COPY};
      curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &blob);
      curl_easy_setopt(c, CURLOPT_CAPATH, nullptr);
    }
    if (!tls_.cert.empty()) {
      curl_blob cert{tls_.cert.data(), tls_.cert.size(), CURL_BLOB_COPY};
      curl_blob key{tls_.key.data(), tls_.key.size(), CURL_BLOB_COPY};
      curl_easy_setopt(c, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(c, CURLOPT_SSLCERTTYPE, "PEM");
      curl_easy_setopt(c, CURLOPT_SSLKEY_BLOB, &key);
      curl_easy_setopt(c, CURLOPT_SSLKEYTYPE, "PEM");
    }
    return Status::Ok();
  }

  // For an https URL: put the server name in the URL (so curl uses it for
  // SNI and verification), connect to the real host, and send the real Host.
  void RewriteForServerName(const std::string& url, std::string* target, Slist* headers,
                            Slist* connect_to) {
    CURLU* u = curl_url();
    if (u == nullptr) return;
    char* scheme = nullptr;
    char* host = nullptr;
    char* port = nullptr;
    char* explicit_port = nullptr;
    if (curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        std::string_view(scheme) == "https" &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK &&
        curl_url_set(u, CURLUPART_HOST, tls_.server_name.c_str(), 0) == CURLUE_OK) {
      char* rewritten = nullptr;
      if (curl_url_get(u, CURLUPART_URL, &rewritten, 0) == CURLUE_OK) {
        *target = rewritten;
        curl_free(rewritten);
        *connect_to =
            Append(nullptr, fmt::format("{}:{}:{}:{}", tls_.server_name, port, host, port));
        std::string host_header = host;
        if (curl_url_get(u, CURLUPART_PORT, &explicit_port, 0) == CURLUE_OK) {
          host_header += ":" + std::string(explicit_port);
        }
        *headers = Append(std::move(*headers), "Host: " + host_header);
      }
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    curl_free(explicit_port);
    curl_url_cleanup(u);
  }

  // "host:port" of a URL (default port filled in, IPv6 in brackets), or "".
  static std::string HostPort(const std::string& url) {
    std::string out;
    CURLU* u = curl_url();
    if (u == nullptr) return out;
    char* host = nullptr;
    char* port = nullptr;
    if (curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
      out = fmt::format("{}:{}", host, port);
    }
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    return out;
  }

  // The part after "Post <url>: " of Go's url.Error for a failed exchange.
  std::string TransportErrorText(CURLcode rc, const std::string& url) {
    std::string detail = error_buffer_[0] != '\0' ? error_buffer_ : curl_easy_strerror(rc);
    switch (rc) {
      case CURLE_OPERATION_TIMEDOUT: {
        // Before the connection (and TLS handshake) was up, Go's transport
        // was still waiting for a connection.
        curl_off_t connected = 0;
        curl_easy_getinfo(curl_, CURLINFO_CONNECT_TIME_T, &connected);
        if (connected > 0 && url.rfind("https:", 0) == 0) {
          curl_easy_getinfo(curl_, CURLINFO_APPCONNECT_TIME_T, &connected);
        }
        if (connected == 0) {
          return "net/http: request canceled while waiting for connection "
                 "(Client.Timeout exceeded while awaiting headers)";
        }
        return "net/http: request canceled (Client.Timeout exceeded while awaiting headers)";
      }
      case CURLE_COULDNT_CONNECT: {
        long os_errno = 0;
        curl_easy_getinfo(curl_, CURLINFO_OS_ERRNO, &os_errno);
        // curl keeps no address after a failed connect: name the URL's
        // host and port (Go names the resolved address, the same for IPs).
        std::string addr = HostPort(url);
        if (os_errno != 0 && !addr.empty()) {
          return fmt::format("dial tcp {}: connect: {}", addr,
                             ErrnoText(static_cast<int>(os_errno)));
        }
        return detail;
      }
      case CURLE_UNSUPPORTED_PROTOCOL: {
        size_t colon = url.find("://");
        std::string scheme = colon == std::string::npos ? "" : url.substr(0, colon);
        return fmt::format("unsupported protocol scheme \"{}\"", scheme);
      }
      case CURLE_TOO_MANY_REDIRECTS:
        return "stopped after 10 redirects";
      default:
        return detail;
    }
  }

  CURL* curl_;
  TlsSettings tls_;
  BodySink body_;
  std::string no_proxy_;
  char error_buffer_[CURL_ERROR_SIZE] = {};
};

// ====================================================================== extender

HttpExtender::HttpExtender(ExtenderConfig config, std::unique_ptr<HttpTransport> transport)
    : config_(std::move(config)), transport_(std::move(transport)) {
  if (config_.http_timeout_ns == 0) config_.http_timeout_ns = kDefaultExtenderTimeoutNs;
  for (const ExtenderManagedResource& r : config_.managed_resources) {
    managed_.push_back(Intern(r.name));
  }
}

HttpExtender::~HttpExtender() = default;

Result<std::unique_ptr<HttpExtender>> HttpExtender::Create(const ExtenderConfig& config) {
  auto transport = HttpTransport::Create(config);
  if (!transport.ok()) return transport.error();
  return std::unique_ptr<HttpExtender>(new HttpExtender(config, std::move(transport).value()));
}

bool HttpExtender::IsInterested(const Pod& pod) const {
  if (managed_.empty()) return true;
  auto managed = [&](const ResourceList& list) {
    for (const ResourceQuantity& q : list)
      for (StrId m : managed_)
        if (q.name == m) return true;
    return false;
  };
  for (const auto* containers : {&pod.spec.containers, &pod.spec.init_containers}) {
    for (const Container& c : *containers) {
      if (managed(c.requests) || managed(c.limits)) return true;
    }
  }
  return false;
}

Result<std::string> HttpExtender::Send(const std::string& verb, const std::string& body) {
  std::string_view prefix = config_.url_prefix;
  while (!prefix.empty() && prefix.back() == '/') prefix.remove_suffix(1);
  std::string url = fmt::format("{}/{}", prefix, verb);
  Result<HttpTransport::Reply> reply = MakeError("");
  {
    std::lock_guard<std::mutex> lock(mu_);
    reply = transport_->Post(url, body);
  }
  if (!reply.ok()) return reply.error();
  if (reply->status != 200) {
    return MakeError(
        fmt::format("Failed {} with extender at URL {}, code {}", verb, url, reply->status));
  }
  return std::move(reply->body);
}

Result<ExtenderFilterResult> HttpExtender::Filter(const Pod& pod, const std::vector<NodeId>& nodes,
                                                  const ClusterState& cluster) {
  ExtenderFilterResult out;
  if (config_.filter_verb.empty()) {
    out.nodes = nodes;
    return out;
  }
  std::string args = EncodeExtenderArgs(pod, nodes, cluster, config_.node_cache_capable);
  auto body = Send(config_.filter_verb, args);
  if (!body.ok()) return body.error();
  auto result = DecodeFilterResult(*body);
  if (!result.ok()) return result.error();
  if (!result->error.empty()) return MakeError(GoSprintfNoArgs(result->error));

  const std::vector<std::string>* names = nullptr;
  if (config_.node_cache_capable && result->node_names) {
    names = &*result->node_names;
  } else if (result->nodes) {
    names = &*result->nodes;
  }
  if (names != nullptr) {
    out.nodes.reserve(names->size());
    for (const std::string& name : *names) {
      NodeId id = cluster.FindNode(name);
      if (id == kNoNode) {
        return MakeError(fmt::format(
            "extender: {} returned node \"{}\" but the node is not found in the cluster",
            config_.url_prefix, name));
      }
      out.nodes.push_back(id);
    }
  }
  for (auto& [name, reason] : result->failed_nodes) {
    NodeId id = cluster.FindNode(name);
    if (id != kNoNode) {
      out.failed.emplace_back(id, std::move(reason));
    } else {
      out.failed_unknown.emplace_back(std::move(name), std::move(reason));
    }
  }
  return out;
}

Result<std::vector<std::pair<NodeId, int64_t>>> HttpExtender::Prioritize(
    const Pod& pod, const std::vector<NodeId>& nodes, const ClusterState& cluster) {
  std::vector<std::pair<NodeId, int64_t>> out;
  if (config_.prioritize_verb.empty()) {
    // Upstream answers every node with 0 (and weight 0).
    out.reserve(nodes.size());
    for (NodeId id : nodes) out.emplace_back(id, 0);
    return out;
  }
  std::string args = EncodeExtenderArgs(pod, nodes, cluster, config_.node_cache_capable);
  auto body = Send(config_.prioritize_verb, args);
  if (!body.ok()) return body.error();
  auto list = DecodeHostPriorityList(*body);
  if (!list.ok()) return list.error();
  out.reserve(list->size());
  for (const WireHostPriority& hp : *list) {
    // Upstream sums scores by host name; names of no feasible node add nothing.
    NodeId id = cluster.FindNode(hp.host);
    if (id != kNoNode) out.emplace_back(id, hp.score);
  }
  return out;
}

Status HttpExtender::Bind(std::string_view pod_name, std::string_view pod_namespace,
                          std::string_view pod_uid, std::string_view node) {
  if (!IsBinder()) return MakeError("Unexpected empty bindVerb in extender");
  auto body = Send(config_.bind_verb, EncodeBindingArgs(pod_name, pod_namespace, pod_uid, node));
  if (!body.ok()) return body.error();
  auto error = DecodeBindingResult(*body);
  if (!error.ok()) return error.error();
  if (!error->empty()) return MakeError(GoSprintfNoArgs(*error));
  return Status::Ok();
}

Result<std::vector<ExtenderNodeVictims>> HttpExtender::ProcessPreemption(
    const Pod& pod, const std::vector<ExtenderNodeVictims>& candidates,
    const ClusterState& cluster) {
  if (config_.preempt_verb.empty()) {
    return MakeError(
        fmt::format("preempt verb is not defined for extender {} but run into ProcessPreemption",
                    config_.url_prefix));
  }
  std::string args = EncodePreemptionArgs(pod, candidates, cluster, config_.node_cache_capable);
  auto body = Send(config_.preempt_verb, args);
  if (!body.ok()) return body.error();
  auto reply = DecodePreemptionResult(*body);
  if (!reply.ok()) return reply.error();
  std::vector<ExtenderNodeVictims> out;
  out.reserve(reply->size());
  for (const WireMetaVictims& entry : *reply) {
    NodeId node = cluster.FindNode(entry.node);
    if (node == kNoNode) {
      return MakeError(fmt::format(
          "extender: {} claims to preempt on node: {} but the node is not found in the cluster",
          config_.url_prefix, entry.node));
    }
    if (entry.nil) {
      return MakeError(fmt::format("extender: {} returned null victims for node: {}",
                                   config_.url_prefix, entry.node));
    }
    ExtenderNodeVictims victims;
    victims.node = node;  // upstream keeps only the pods: no PDB violation count
    for (const WireMetaPod& meta : entry.pods) {
      if (meta.nil) {
        return MakeError(
            fmt::format("extender: {} returned a null pod among the victims on node: {}",
                        config_.url_prefix, entry.node));
      }
      std::optional<PodId> found;
      for (PodId id : cluster.node_info(node).pods) {
        if (cluster.pod(id).pod.meta.uid == meta.uid) {
          found = id;
          break;
        }
      }
      if (!found) {
        return MakeError(fmt::format(
            "extender: {} claims to preempt pod (UID: &{{{}}}) on node: {}, but the pod is not "
            "found on that node",
            config_.url_prefix, meta.uid, entry.node));
      }
      victims.pods.push_back(*found);
    }
    out.push_back(std::move(victims));
  }
  return out;
}

Status HttpExtender::Bind(const Pod& pod, std::string_view node) {
  return Bind(pod.meta.name, Str(pod.meta.ns), pod.meta.uid, node);
}

Result<std::vector<std::unique_ptr<SchedulerExtender>>> MakeHttpExtenders(
    const std::vector<ExtenderConfig>& configs) {
  std::vector<std::unique_ptr<SchedulerExtender>> out;
  out.reserve(configs.size());
  for (const ExtenderConfig& config : configs) {
    auto ext = HttpExtender::Create(config);
    if (!ext.ok()) return ext.error();
    out.push_back(std::move(ext).value());
  }
  return out;
}

}  // namespace ksched
