// Semantic versions as github.com/blang/semver/v4 parses and orders them
// (the library behind the Kubernetes CEL semver() function and DRA's
// version attributes), without allocating: a parsed version keeps views
// into its text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ksched::cel {

struct SemverParts {
  uint64_t major = 0, minor = 0, patch = 0;
  std::string_view pre;  // the prerelease identifiers, dot-separated ("" if none)
};

// semver.Parse: false with blang's error text when s is not a version.
bool ParseSemver(std::string_view s, SemverParts& out, std::string* error);
// Version.Compare: -1, 0 or 1 (build metadata ignored).
int CompareSemver(const SemverParts& a, const SemverParts& b);
// The Kubernetes library's normalizeAndParse: drops a leading "v", pads
// "1" and "1.2" with ".0", strips leading zeros, then parses. Returns the
// normalized text in *normalized.
bool NormalizeSemver(std::string_view s, std::string* normalized, std::string* error);

}  // namespace ksched::cel
