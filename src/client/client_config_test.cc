#include "client/client_config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ksched::client {
namespace client_config_test {

namespace fs = std::filesystem;

// "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" in base64.
constexpr char kCaPem[] = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
constexpr char kCaB64[] =
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=";

class KubeconfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ksched-kubeconfig-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  fs::path dir_;
};

std::string TwoContexts() {
  std::string yaml = R"(apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://10.0.0.1:6443/
    certificate-authority-data: CA_B64
- name: dev
  cluster:
    server: https://dev.example:443
    insecure-skip-tls-verify: true
users:
- name: sched
  user:
    token: s3cr3t-token
- name: certuser
  user:
    client-certificate: certs/client.crt
    client-key: certs/client.key
contexts:
- name: prod-ctx
  context: {cluster: prod, user: sched}
- name: dev-ctx
  context: {cluster: dev, user: certuser}
current-context: prod-ctx
)";
  // (Built by replacement: GCC 12 misreports `std::string + char* + literal` as out of bounds.)
  yaml.replace(yaml.find("CA_B64"), 6, kCaB64);
  return yaml;
}

TEST_F(KubeconfigTest, CurrentContextPicksClusterAndUser) {
  std::string path = Write("config", TwoContexts());
  auto c = LoadKubeconfig(path);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->server, "https://10.0.0.1:6443");  // trailing slash dropped
  EXPECT_EQ(c->ca_pem, kCaPem);
  EXPECT_FALSE(c->insecure_skip_tls_verify);
  EXPECT_EQ(c->bearer_token, "s3cr3t-token");
  EXPECT_TRUE(c->client_cert_pem.empty());
  EXPECT_EQ(c->ca_origin, "certificate-authority-data");
}

TEST_F(KubeconfigTest, ContextOverrideAndRelativeCertFiles) {
  std::string path = Write("config", TwoContexts());
  fs::create_directories(dir_ / "certs");
  Write("certs/client.crt", "CERT");
  Write("certs/client.key", "KEY");
  auto c = LoadKubeconfig(path, "dev-ctx");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->server, "https://dev.example:443");
  EXPECT_TRUE(c->insecure_skip_tls_verify);
  EXPECT_TRUE(c->ca_pem.empty());
  EXPECT_EQ(c->client_cert_pem, "CERT");
  EXPECT_EQ(c->client_key_pem, "KEY");
  EXPECT_TRUE(c->bearer_token.empty());
}

TEST_F(KubeconfigTest, InsecureOnlyWhenTheFileSaysSo) {
  std::string path = Write("config", R"(
clusters: [{name: c, cluster: {server: "https://h:1", insecure-skip-tls-verify: false}}]
users: [{name: u, user: {}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)");
  auto c = LoadKubeconfig(path);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_FALSE(c->insecure_skip_tls_verify);
  EXPECT_NE(c->Describe().find("system CAs"), std::string::npos);
  EXPECT_NE(c->Describe().find("anonymous"), std::string::npos);
}

TEST_F(KubeconfigTest, CaFileAndTokenFileRelativeToTheKubeconfig) {
  Write("ca.crt", kCaPem);
  Write("token", "  tok-from-file\n");
  std::string path = Write("config", R"(
clusters: [{name: c, cluster: {server: "https://h:1", certificate-authority: ca.crt}}]
users: [{name: u, user: {tokenFile: token}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)");
  auto c = LoadKubeconfig(path);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->ca_pem, kCaPem);
  EXPECT_EQ(c->bearer_token, "tok-from-file");
  EXPECT_EQ(c->token_file, (dir_ / "token").string());
  EXPECT_EQ(c->ca_origin, "file " + (dir_ / "ca.crt").string());
}

TEST_F(KubeconfigTest, TokenWinsOverTokenFileAndDataOverFile) {
  std::string path = Write("config", std::string(R"(
clusters: [{name: c, cluster: {server: "https://h:1", certificate-authority: missing.crt,
  certificate-authority-data: )") + kCaB64 +
                                         R"(}}]
users: [{name: u, user: {token: inline, tokenFile: missing-token}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)");
  auto c = LoadKubeconfig(path);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->bearer_token, "inline");
  EXPECT_EQ(c->ca_pem, kCaPem);
}

TEST_F(KubeconfigTest, DescribeNeverShowsSecrets) {
  std::string path = Write("config", TwoContexts());
  auto c = LoadKubeconfig(path);
  ASSERT_TRUE(c.ok());
  c->client_key_pem = "PRIVATE-KEY-BYTES";
  c->password = "hunter2";
  std::string d = c->Describe();
  EXPECT_EQ(d.find("s3cr3t"), std::string::npos) << d;
  EXPECT_EQ(d.find("PRIVATE-KEY"), std::string::npos) << d;
  EXPECT_EQ(d.find("hunter2"), std::string::npos) << d;
  EXPECT_NE(d.find("bearer token"), std::string::npos) << d;
  EXPECT_NE(d.find("https://10.0.0.1:6443"), std::string::npos) << d;
}

TEST_F(KubeconfigTest, ErrorsNameTheFileAndTheEntryButNoSecret) {
  struct Case {
    std::string yaml;
    std::string want;
  };
  std::vector<Case> cases = {
      {"current-context: x\ncontexts: []\n", "context \"x\" not found in contexts"},
      {"clusters: []\n", "no current-context"},
      {"current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
       "clusters: [{name: c, cluster: {server: ''}}]\n",
       "cluster \"c\": server is empty"},
      {"current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
       "clusters: [{name: c, cluster: {server: 'https://h', certificate-authority-data: '!!'}}]\n",
       "certificate-authority-data: illegal base64"},
      {"current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
       "clusters: [{name: c, cluster: {server: 'https://h', insecure-skip-tls-verify: true, "
       "certificate-authority-data: " +
           std::string(kCaB64) + "}}]\n",
       "not allowed"},
      {"current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
       "clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
       "users: [{name: u, user: {token: s3cr3t, exec: {command: aws}}}]\n",
       "exec credential plugins are not supported"},
      {"current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
       "clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
       "users: [{name: u, user: {client-certificate-data: Q0VSVA==}}]\n",
       "needs both client-key"},
      {"current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
       "clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
       "users: [{name: u, user: {tokenFile: /nonexistent/ksched-token}}]\n",
       "tokenFile: cannot read /nonexistent/ksched-token"},
      {"- a\n- b\n", "not a kubeconfig"},
      {"current-context: [x]\n", "current-context: must be a string"},
  };
  for (const Case& c : cases) {
    std::string path = Write("config", c.yaml);
    auto r = LoadKubeconfig(path);
    ASSERT_FALSE(r.ok()) << c.yaml;
    EXPECT_NE(r.error().message.find(c.want), std::string::npos)
        << r.error().message << "\nwant: " << c.want;
    EXPECT_NE(r.error().message.find(path), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find("s3cr3t"), std::string::npos) << r.error().message;
  }
}

TEST_F(KubeconfigTest, MissingFile) {
  auto r = LoadKubeconfig((dir_ / "nope").string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("cannot read"), std::string::npos);
  EXPECT_NE(r.error().message.find(": No such file or directory"), std::string::npos)
      << r.error().message;
}

class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~EnvGuard() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST_F(KubeconfigTest, InClusterConfig) {
  Write("token", "sa-token\n");
  Write("ca.crt", kCaPem);
  {
    EnvGuard h("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    EnvGuard p("KUBERNETES_SERVICE_PORT", "443");
    auto c = InClusterConfig(dir_.string());
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->server, "https://10.96.0.1:443");
    EXPECT_EQ(c->bearer_token, "sa-token");
    EXPECT_EQ(c->ca_pem, kCaPem);
    EXPECT_EQ(c->token_file, (dir_ / "token").string());
    EXPECT_EQ(c->Describe().find("sa-token"), std::string::npos);
  }
  {
    EnvGuard h("KUBERNETES_SERVICE_HOST", "fd00::1");
    EnvGuard p("KUBERNETES_SERVICE_PORT", "6443");
    auto c = InClusterConfig(dir_.string());
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->server, "https://[fd00::1]:6443");
  }
  {
    EnvGuard h("KUBERNETES_SERVICE_HOST", nullptr);
    auto c = InClusterConfig(dir_.string());
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("KUBERNETES_SERVICE_HOST"), std::string::npos);
  }
  {
    EnvGuard h("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    EnvGuard p("KUBERNETES_SERVICE_PORT", "443");
    auto c = InClusterConfig((dir_ / "missing").string());
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("service-account token"), std::string::npos);
  }
}

TEST_F(KubeconfigTest, ResolveConfigOrder) {
  std::string path = Write("config", TwoContexts());
  EnvGuard k("KUBECONFIG", (path + ":/nonexistent").c_str());
  auto c = ResolveConfig("");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->server, "https://10.0.0.1:6443");
  auto explicit_missing = ResolveConfig((dir_ / "other").string());
  EXPECT_FALSE(explicit_missing.ok());
}

}  // namespace client_config_test
}  // namespace ksched::client
