#include "live/self_signed_cert.h"

#include <gtest/gtest.h>
#include <openssl/x509v3.h>

namespace ksched::live {
namespace self_signed_cert_test {

TEST(SelfSignedCert, CoversLocalhostAndTheHost) {
  auto ck = SelfSignedCert("node-1");
  ASSERT_TRUE(ck.ok()) << ck.error().message;
  X509* cert = ck->cert.get();
  EXPECT_EQ(X509_check_private_key(cert, ck->key.get()), 1);
  EXPECT_EQ(X509_check_host(cert, "localhost", 0, 0, nullptr), 1);
  EXPECT_EQ(X509_check_host(cert, "node-1", 0, 0, nullptr), 1);
  EXPECT_EQ(X509_check_ip_asc(cert, "127.0.0.1", 0), 1);
  EXPECT_EQ(X509_check_host(cert, "elsewhere", 0, 0, nullptr), 0);
}

TEST(SelfSignedCert, MissingFilesSayWhy) {
  auto ck = LoadCertKey("/nonexistent/tls.crt", "/nonexistent/tls.key");
  ASSERT_FALSE(ck.ok());
  EXPECT_EQ(ck.error().message, "--tls-cert-file /nonexistent/tls.crt: No such file or directory");
}

}  // namespace self_signed_cert_test
}  // namespace ksched::live
