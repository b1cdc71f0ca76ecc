// Go's arithmetic semantics, for scores that must equal upstream's bit for bit.
//
// Upstream computes scores with Go int64 and float64. Go integer arithmetic
// wraps on overflow (undefined behaviour for C++ signed integers), and
// converting an out-of-range float64 to int64 yields INT64_MIN on amd64 (also
// undefined in C++). Huge quantities are legal input ("1Ei" of memory times
// 100 overflows), so the scoring code routes every operation that could
// overflow through these helpers.
#pragma once

#include <cstdint>
#include <limits>

namespace ksched::goarith {

inline int64_t Add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t Sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t Mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
// Truncating division; `b` must not be 0. Go defines MinInt64 / -1 as
// MinInt64, where C++ would trap.
inline int64_t Div(int64_t a, int64_t b) { return b == -1 ? Sub(0, a) : a / b; }

// Go's int64(f) as compiled for amd64 (CVTTSD2SQ): truncation toward zero,
// INT64_MIN for NaN and for values outside the int64 range.
inline int64_t FloatToInt64(double f) {
  if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(f);
}

// int32 addition as Go does it (wrapping).
inline int32_t Add32(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

}  // namespace ksched::goarith
