// Standard base64 (RFC 4648 with padding), as Go's encoding/json reads []byte
// fields such as a kubeconfig's certificate-authority-data.
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace ksched {

// Decodes `in`; `what` names the field in the error ("illegal base64 data at
// input byte N", as Go says it). Whitespace is not skipped (Go's
// StdEncoding skips only \r and \n, which are removed first here).
Result<std::string> DecodeBase64Std(std::string_view in, std::string_view what);

}  // namespace ksched
