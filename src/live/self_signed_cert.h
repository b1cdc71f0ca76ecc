// The serving certificate of the secure port when none is given, as
// kube-scheduler makes one in memory (--cert-dir unset): a self-signed
// certificate for localhost, 127.0.0.1 and the host's name, valid a year,
// on a fresh P-256 key.
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>
#include <string>

#include "util/result.h"

namespace ksched::live {

struct X509Deleter {
  void operator()(X509* x) const { X509_free(x); }
};
struct PkeyDeleter {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};

struct CertKey {
  std::unique_ptr<X509, X509Deleter> cert;
  std::unique_ptr<EVP_PKEY, PkeyDeleter> key;
};

// `host`: the name to add beside localhost (the host name).
Result<CertKey> SelfSignedCert(const std::string& host);

// The certificate and key PEM files of --tls-cert-file/--tls-private-key-file.
Result<CertKey> LoadCertKey(const std::string& cert_file, const std::string& key_file);

}  // namespace ksched::live
