// Timestamps as Kubernetes writes them (metav1.Time: RFC 3339, e.g.
// "2020-03-01T00:08:32Z" or "2020-03-01T01:08:32.5+01:00").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ksched {

// Nanoseconds since the Unix epoch, or nullopt when `text` is not an RFC 3339
// date-time as Go's time.Parse(time.RFC3339, ...) accepts it: a 'T' between
// date and time, optional fractional seconds, and 'Z' or a +hh:mm / -hh:mm
// offset. Out-of-range fields (month 13, February 30, hour 24) are rejected.
std::optional<int64_t> ParseRfc3339(std::string_view text);

// The inverse for whole seconds, in UTC: "2020-03-01T00:08:32Z" (fractions
// are dropped, as metav1.Time marshals them).
std::string FormatRfc3339(int64_t unix_nanos);

}  // namespace ksched
