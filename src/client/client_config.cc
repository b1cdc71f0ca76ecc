#include "client/client_config.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "api/yaml_to_json.h"
#include "util/base64.h"

namespace ksched::client {
namespace {

using nlohmann::json;

Result<std::string> ReadFile(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return MakeError(std::string(what) + ": cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return MakeError(std::string(what) + ": cannot read " + path);
  return ss.str();
}

std::string Dirname(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// A path in a kubeconfig is relative to the file's directory (client-go's
// ResolvePaths).
std::string ResolvePath(const std::string& dir, const std::string& p) {
  if (p.empty() || p[0] == '/') return p;
  return dir + "/" + p;
}

std::string TrimSpace(std::string s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, e - b + 1);
}

// A string field of `obj` ("" when absent or null); an error when it has another type.
Result<std::string> StringField(const json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::string();
  if (!it->is_string()) return MakeError(where + ": " + key + ": must be a string");
  return it->get<std::string>();
}

Result<bool> BoolField(const json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return false;
  if (!it->is_boolean()) return MakeError(where + ": " + key + ": must be true or false");
  return it->get<bool>();
}

// The entry of a named list (clusters, users, contexts) called `name`; its
// inner object (`inner`: "cluster", "user", "context").
Result<const json*> FindNamed(const json& root, const char* list, const char* inner,
                              const std::string& name, const std::string& file) {
  auto it = root.find(list);
  if (it == root.end() || it->is_null()) {
    return MakeError(file + ": no " + std::string(list) + " (looking for \"" + name + "\")");
  }
  if (!it->is_array()) return MakeError(file + ": " + list + ": must be a list");
  for (size_t i = 0; i < it->size(); ++i) {
    const json& entry = (*it)[i];
    if (!entry.is_object()) continue;
    auto n = entry.find("name");
    if (n == entry.end() || !n->is_string() || n->get<std::string>() != name) continue;
    auto body = entry.find(inner);
    if (body == entry.end() || !body->is_object()) {
      return MakeError(file + ": " + list + "[" + std::to_string(i) + "] (\"" + name +
                       "\"): has no " + inner + " object");
    }
    return &*body;
  }
  return MakeError(file + ": " + std::string(inner) + " \"" + name + "\" not found in " + list);
}

// data (base64) wins over file, as client-go's dataFromSliceOrFile.
Result<std::string> DataOrFile(const json& obj, const char* data_key, const char* file_key,
                               const std::string& where, const std::string& dir,
                               std::string* origin) {
  auto data = StringField(obj, data_key, where);
  if (!data.ok()) return data.error();
  if (!data->empty()) {
    auto decoded = DecodeBase64Std(*data, where + ": " + data_key);
    if (!decoded.ok()) return decoded.error();
    if (origin) *origin = data_key;
    return std::move(decoded).value();
  }
  auto file = StringField(obj, file_key, where);
  if (!file.ok()) return file.error();
  if (file->empty()) return std::string();
  std::string path = ResolvePath(dir, *file);
  if (origin) *origin = "file " + path;
  return ReadFile(path, where + ": " + file_key);
}

std::string TrimTrailingSlashes(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

std::string ClientConfig::Describe() const {
  std::string out = origin.empty() ? std::string("config") : origin;
  out += ": server " + server;
  if (insecure_skip_tls_verify) {
    out += ", TLS not verified (insecure-skip-tls-verify)";
  } else if (!ca_pem.empty()) {
    out += ", CA from " + ca_origin;
  } else {
    out += ", system CAs";
  }
  if (!client_cert_pem.empty()) out += ", client certificate";
  if (!bearer_token.empty()) {
    out += token_file.empty() ? ", bearer token" : ", bearer token from " + token_file;
  }
  if (!username.empty()) out += ", basic auth as \"" + username + "\"";
  if (client_cert_pem.empty() && bearer_token.empty() && username.empty()) out += ", anonymous";
  return out;
}

Result<ClientConfig> LoadKubeconfig(const std::string& path, std::string_view context_override) {
  auto text = ReadFile(path, "kubeconfig");
  if (!text.ok()) return text.error();
  auto as_json = YamlToJson(*text, path);
  if (!as_json.ok()) return as_json.error();
  json root = json::parse(*as_json, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) {
    return MakeError(path +
                     ": not a kubeconfig (expected a mapping with clusters, users, "
                     "contexts)");
  }
  const std::string dir = Dirname(path);

  std::string context_name(context_override);
  if (context_name.empty()) {
    auto cur = StringField(root, "current-context", path);
    if (!cur.ok()) return cur.error();
    context_name = *cur;
  }
  if (context_name.empty()) {
    return MakeError(path + ": no current-context (set one, or pass a context)");
  }
  auto ctx = FindNamed(root, "contexts", "context", context_name, path);
  if (!ctx.ok()) return ctx.error();
  const std::string ctx_where = path + ": context \"" + context_name + "\"";
  auto cluster_name = StringField(**ctx, "cluster", ctx_where);
  if (!cluster_name.ok()) return cluster_name.error();
  auto user_name = StringField(**ctx, "user", ctx_where);
  if (!user_name.ok()) return user_name.error();
  if (cluster_name->empty()) return MakeError(ctx_where + ": names no cluster");

  ClientConfig c;
  c.origin = "kubeconfig " + path + ", context " + context_name;

  auto cluster = FindNamed(root, "clusters", "cluster", *cluster_name, path);
  if (!cluster.ok()) return cluster.error();
  const std::string cw = path + ": cluster \"" + *cluster_name + "\"";
  auto server = StringField(**cluster, "server", cw);
  if (!server.ok()) return server.error();
  if (server->empty()) return MakeError(cw + ": server is empty");
  c.server = TrimTrailingSlashes(*server);
  if (c.server.rfind("https://", 0) != 0 && c.server.rfind("http://", 0) != 0) {
    // kubectl accepts "host:port" and means https.
    c.server = "https://" + c.server;
  }
  auto insecure = BoolField(**cluster, "insecure-skip-tls-verify", cw);
  if (!insecure.ok()) return insecure.error();
  c.insecure_skip_tls_verify = *insecure;
  auto ca = DataOrFile(**cluster, "certificate-authority-data", "certificate-authority", cw, dir,
                       &c.ca_origin);
  if (!ca.ok()) return ca.error();
  c.ca_pem = std::move(*ca);
  if (c.insecure_skip_tls_verify && !c.ca_pem.empty()) {
    return MakeError(cw +
                     ": certificate-authority together with insecure-skip-tls-verify: "
                     "specifying a root certificates file with the insecure flag is not allowed");
  }
  if (!c.ca_pem.empty() && c.ca_pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
    return MakeError(cw + ": " + c.ca_origin + " holds no PEM certificate");
  }

  if (!user_name->empty()) {
    auto user = FindNamed(root, "users", "user", *user_name, path);
    if (!user.ok()) return user.error();
    const std::string uw = path + ": user \"" + *user_name + "\"";
    for (const char* plugin : {"exec", "auth-provider"}) {
      auto it = (*user)->find(plugin);
      if (it != (*user)->end() && !it->is_null()) {
        return MakeError(uw + ": " + plugin +
                         " credential plugins are not supported by ksched; use a token, "
                         "tokenFile or client certificate");
      }
    }
    auto cert =
        DataOrFile(**user, "client-certificate-data", "client-certificate", uw, dir, nullptr);
    if (!cert.ok()) return cert.error();
    auto key = DataOrFile(**user, "client-key-data", "client-key", uw, dir, nullptr);
    if (!key.ok()) return key.error();
    if (cert->empty() != key->empty()) {
      return MakeError(uw + ": a client certificate needs both " +
                       (cert->empty() ? "client-certificate(-data)" : "client-key(-data)"));
    }
    c.client_cert_pem = std::move(*cert);
    c.client_key_pem = std::move(*key);
    auto token = StringField(**user, "token", uw);
    if (!token.ok()) return token.error();
    c.bearer_token = *token;
    auto token_file = StringField(**user, "tokenFile", uw);
    if (!token_file.ok()) return token_file.error();
    if (c.bearer_token.empty() && !token_file->empty()) {
      c.token_file = ResolvePath(dir, *token_file);
      auto t = ReadFile(c.token_file, uw + ": tokenFile");
      if (!t.ok()) return t.error();
      c.bearer_token = TrimSpace(*t);
    }
    auto username = StringField(**user, "username", uw);
    if (!username.ok()) return username.error();
    auto password = StringField(**user, "password", uw);
    if (!password.ok()) return password.error();
    c.username = *username;
    c.password = *password;
  }
  return c;
}

Result<ClientConfig> InClusterConfig(const std::string& root) {
  const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
  const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
  if (host == nullptr || *host == '\0' || port == nullptr || *port == '\0') {
    return MakeError(
        "in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set "
        "(not running in a pod? pass --kubeconfig)");
  }
  ClientConfig c;
  c.origin = "in-cluster config";
  std::string h = host;
  if (h.find(':') != std::string::npos && h.front() != '[') h = "[" + h + "]";  // IPv6
  c.server = "https://" + h + ":" + port;
  c.token_file = root + "/token";
  auto token = ReadFile(c.token_file, "in-cluster config: service-account token");
  if (!token.ok()) return token.error();
  c.bearer_token = TrimSpace(*token);
  if (c.bearer_token.empty()) {
    return MakeError("in-cluster config: service-account token " + c.token_file + " is empty");
  }
  auto ca = ReadFile(root + "/ca.crt", "in-cluster config: CA");
  if (!ca.ok()) return ca.error();
  c.ca_pem = std::move(*ca);
  c.ca_origin = "file " + root + "/ca.crt";
  return c;
}

Result<ClientConfig> ResolveConfig(const std::string& kubeconfig, std::string_view context) {
  if (!kubeconfig.empty()) return LoadKubeconfig(kubeconfig, context);
  if (const char* env = std::getenv("KUBECONFIG"); env != nullptr && *env != '\0') {
    std::string list = env;
    std::string first = list.substr(0, list.find(':'));
    if (!first.empty()) return LoadKubeconfig(first, context);
  }
  if (const char* host = std::getenv("KUBERNETES_SERVICE_HOST"); host != nullptr && *host) {
    return InClusterConfig();
  }
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    return MakeError("no kubeconfig: pass --kubeconfig (HOME is not set, no in-cluster config)");
  }
  return LoadKubeconfig(std::string(home) + "/.kube/config", context);
}

}  // namespace ksched::client
