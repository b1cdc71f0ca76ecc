// ImageLocalityPriority helpers, exposed for tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ksched {

// The name the container runtime reports for an image reference: ":latest"
// is appended when the reference has no tag. A tag is a ':' after the last
// '/', so "registry:5000/app" gets one and "app@sha256:..." does not.
std::string NormalizedImageName(std::string_view image);

// Maps a summed (spread-scaled) image size onto 0..10: clamped to
// [23 MiB, 1000 MiB], then scaled linearly with integer division.
int64_t ImageLocalityScore(int64_t sum_of_scaled_sizes);

}  // namespace ksched
