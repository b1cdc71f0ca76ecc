// Where the API server is and who ksched is to it: a kubeconfig file read as
// kubectl reads it, or the in-cluster service-account configuration.
//
// kubeconfig: the current context (or `context` when given) picks a cluster
// and a user. From the cluster: `server`, `certificate-authority-data`
// (base64 PEM; wins over the file) or `certificate-authority` (a path,
// relative to the kubeconfig's directory), `insecure-skip-tls-verify` (only
// honoured when the file says true; together with a CA it is an error, as in
// client-go). From the user: `client-certificate-data` / `client-certificate`
// and `client-key-data` / `client-key` (data wins over file), `token` or
// `tokenFile` (token wins), `username`/`password` (basic auth). `exec` and
// `auth-provider` plugins are not supported and say so.
//
// In-cluster: the service-account token and CA under
// /var/run/secrets/kubernetes.io/serviceaccount/ and the server at
// https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT.
//
// Secrets (token, password, client key) are held here only; Describe() and
// every error message leave them out.
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace ksched::client {

struct ClientConfig {
  std::string server;     // "https://host:port" (no trailing slash)
  std::string ca_pem;     // CA bundle (PEM); empty = the system's roots
  std::string ca_origin;  // "file /path" or "certificate-authority-data" (messages)
  bool insecure_skip_tls_verify = false;
  std::string client_cert_pem;  // client certificate (PEM), with client_key_pem
  std::string client_key_pem;   // secret
  std::string bearer_token;     // secret
  std::string token_file;       // where bearer_token came from (re-read on 401)
  std::string username;         // basic auth
  std::string password;         // secret
  std::string origin;           // "kubeconfig FILE, context NAME" or "in-cluster config"

  // Client-side rate limit of requests (token bucket). qps <= 0: unlimited.
  // Watches count once per (re)connection.
  double qps = 1000;
  int burst = 1000;
  std::string user_agent = "ksched";
  int64_t request_timeout_ms = 60'000;  // non-watch requests
  int64_t connect_timeout_ms = 10'000;

  // One line for logs: origin, server, how the server is verified, how the
  // client authenticates (never the secret itself).
  std::string Describe() const;
};

// Reads `path` as kubectl does (see above). `context` overrides current-context.
Result<ClientConfig> LoadKubeconfig(const std::string& path, std::string_view context = {});

// In-cluster config. `root` replaces /var/run/secrets/kubernetes.io/serviceaccount
// (tests); host and port come from KUBERNETES_SERVICE_HOST / _PORT.
Result<ClientConfig> InClusterConfig(
    const std::string& root = "/var/run/secrets/kubernetes.io/serviceaccount");

// kubectl's order: `kubeconfig` when not empty, else $KUBECONFIG (its first
// file), else in-cluster when KUBERNETES_SERVICE_HOST is set, else
// ~/.kube/config.
Result<ClientConfig> ResolveConfig(const std::string& kubeconfig, std::string_view context = {});

}  // namespace ksched::client
