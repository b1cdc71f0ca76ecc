#include "live/self_signed_cert.h"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace ksched::live {

namespace {

std::string OpenSslError() {
  char buf[256] = {};
  ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
  return buf;
}

bool AddExtension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) return false;
  const bool ok = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return ok;
}

}  // namespace

Result<CertKey> SelfSignedCert(const std::string& host) {
  CertKey out;
  out.key.reset(EVP_EC_gen("P-256"));
  if (!out.key) return MakeError("generating the serving key: " + OpenSslError());
  out.cert.reset(X509_new());
  X509* cert = out.cert.get();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), static_cast<long>(std::time(nullptr)));
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 365L * 24 * 3600);
  X509_set_pubkey(cert, out.key.get());
  X509_NAME* name = X509_get_subject_name(cert);
  const std::string cn = fmt::format("localhost@{}", std::time(nullptr));
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  std::string san = "DNS:localhost,IP:127.0.0.1";
  if (!host.empty() && host != "localhost") san += ",DNS:" + host;
  if (!AddExtension(cert, NID_subject_alt_name, san) ||
      !AddExtension(cert, NID_key_usage, "critical,digitalSignature,keyEncipherment") ||
      !AddExtension(cert, NID_ext_key_usage, "serverAuth") ||
      !AddExtension(cert, NID_basic_constraints, "critical,CA:FALSE")) {
    return MakeError("building the serving certificate: " + OpenSslError());
  }
  if (X509_sign(cert, out.key.get(), EVP_sha256()) == 0)
    return MakeError("signing the serving certificate: " + OpenSslError());
  return out;
}

Result<CertKey> LoadCertKey(const std::string& cert_file, const std::string& key_file) {
  CertKey out;
  FILE* f = std::fopen(cert_file.c_str(), "r");
  if (f == nullptr) return MakeError("--tls-cert-file " + cert_file + ": " + std::strerror(errno));
  out.cert.reset(PEM_read_X509(f, nullptr, nullptr, nullptr));
  std::fclose(f);
  if (!out.cert)
    return MakeError("--tls-cert-file " + cert_file + ": not a PEM certificate: " + OpenSslError());
  f = std::fopen(key_file.c_str(), "r");
  if (f == nullptr)
    return MakeError("--tls-private-key-file " + key_file + ": " + std::strerror(errno));
  out.key.reset(PEM_read_PrivateKey(f, nullptr, nullptr, nullptr));
  std::fclose(f);
  if (!out.key)
    return MakeError("--tls-private-key-file " + key_file +
                     ": not a PEM private key: " + OpenSslError());
  if (X509_check_private_key(out.cert.get(), out.key.get()) != 1)
    return MakeError("--tls-private-key-file " + key_file + " does not match --tls-cert-file " +
                     cert_file);
  return out;
}

}  // namespace ksched::live
