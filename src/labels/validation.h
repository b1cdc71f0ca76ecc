// Syntax checks for label keys and values, with apimachinery's wording.
//
// Selectors compiled from pod specs are validated when they are compiled, not
// when the input is decoded (see api/types.h), and the error text ends up in
// the scheduler's output. Users compare that text with what kube-scheduler
// v1.15 prints, so every message here reproduces upstream's byte for byte,
// including its odd spacing ("'MyName',  or 'my.name'").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/go_quote.h"
#include "util/result.h"

namespace ksched::labels {

// Longest name part of a qualified name and longest label value.
inline constexpr size_t kQualifiedNameMaxLength = 63;
inline constexpr size_t kLabelValueMaxLength = 63;
inline constexpr size_t kDNS1123LabelMaxLength = 63;
inline constexpr size_t kDNS1123SubdomainMaxLength = 253;

// validation.IsQualifiedName: "[prefix/]name" where prefix is a DNS-1123
// subdomain and name is 1..63 of [-A-Za-z0-9_.] starting and ending with an
// alphanumeric. Returns the problems found; empty means valid.
std::vector<std::string> IsQualifiedName(std::string_view value);

// validation.IsValidLabelValue: empty, or a name part as above (max 63).
std::vector<std::string> IsValidLabelValue(std::string_view value);

// validation.IsDNS1123Label / IsDNS1123Subdomain (lower case only).
std::vector<std::string> IsDNS1123Label(std::string_view value);
std::vector<std::string> IsDNS1123Subdomain(std::string_view value);

// labels' validateLabelKey / validateLabelValue: the problems above joined
// into one error naming the offending key (and value).
Status ValidateLabelKey(std::string_view key);
Status ValidateLabelValue(std::string_view key, std::string_view value);

// Go's strconv.ParseInt(s, 10, 64): optional '+' or '-', then one or more
// ASCII digits, nothing else (no spaces, no underscores), within int64 range.
std::optional<int64_t> ParseInt64(std::string_view s);

// Go's %q, used by the messages above (util/go_quote.h).
using ::ksched::GoQuote;

}  // namespace ksched::labels
