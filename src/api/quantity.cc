#include "api/quantity.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace ksched {
namespace {

__extension__ using Uint128 = unsigned __int128;

constexpr int kMaxDigits = 38;  // 10^38 < 2^128 < 10^39
constexpr int64_t kNanoExponent = -9;
constexpr uint64_t kNanoPerUnit = 1'000'000'000;
constexpr uint64_t kInt64Max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());

constexpr std::array<Uint128, kMaxDigits + 1> MakePow10() {
  std::array<Uint128, kMaxDigits + 1> p{};
  p[0] = 1;
  for (int i = 1; i <= kMaxDigits; ++i) p[i] = p[i - 1] * 10;
  return p;
}
constexpr std::array<Uint128, kMaxDigits + 1> kPow10 = MakePow10();

constexpr bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Characters upstream's scanner accepts at the start of a suffix.
constexpr bool IsSuffixLetter(char c) {
  return std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos;
}

// Go converts with wrap-around when an int64 (or an int32 sum) is narrowed to
// int32; upstream relies on that for exponents, so we do the same on purpose.
constexpr int32_t Wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

int DigitCount(Uint128 v) {
  int n = 1;
  while (n <= kMaxDigits && v >= kPow10[n]) ++n;
  return n;
}

// Moves trailing decimal zeros of a non-zero mantissa into the exponent.
void StripTrailingZeros(Uint128* mantissa, int64_t* exponent) {
  while (*mantissa > std::numeric_limits<uint64_t>::max() && *mantissa % 10 == 0) {
    *mantissa /= 10;
    ++*exponent;
  }
  uint64_t small = static_cast<uint64_t>(*mantissa);
  if (small != *mantissa) return;
  while (small % 10 == 0) {
    small /= 10;
    ++*exponent;
  }
  *mantissa = small;
}

std::string Uint128ToString(Uint128 v) {
  if (v <= std::numeric_limits<uint64_t>::max()) return std::to_string(static_cast<uint64_t>(v));
  constexpr uint64_t kChunk = 10'000'000'000'000'000'000ULL;  // 10^19
  std::string low = std::to_string(static_cast<uint64_t>(v % kChunk));
  return Uint128ToString(v / kChunk) + std::string(19 - low.size(), '0') + low;
}

// The digits before and after the decimal point, read as one integer without
// copying them into a buffer.
class DigitSeq {
 public:
  DigitSeq(std::string_view a, std::string_view b) : a_(a), b_(b) {}
  size_t size() const { return a_.size() + b_.size(); }
  int operator[](size_t i) const { return (i < a_.size() ? a_[i] : b_[i - a_.size()]) - '0'; }

 private:
  std::string_view a_, b_;
};

// Decimal value of a parsed quantity: digits * 10^exponent, rounded away from
// zero to a whole number of nano-units (upstream's inf.RoundUp to scale 9).
// Returns false when the result needs more than kMaxDigits significant digits.
bool DecimalFromDigits(const DigitSeq& digits, int64_t exponent, Uint128* mantissa,
                       int64_t* out_exponent) {
  size_t first = 0;
  while (first < digits.size() && digits[first] == 0) ++first;
  if (first == digits.size()) {
    *mantissa = 0;
    *out_exponent = 0;
    return true;
  }
  size_t last = digits.size() - 1;
  while (digits[last] == 0) --last;
  exponent += static_cast<int64_t>(digits.size() - 1 - last);
  const int64_t count = static_cast<int64_t>(last - first + 1);

  int64_t keep = count;
  bool round_up = false;
  if (exponent < kNanoExponent) {
    // The dropped digits end in a non-zero digit, so dropping any rounds up.
    keep = count - (kNanoExponent - exponent);
    round_up = true;
    exponent = kNanoExponent;
  }
  if (keep > kMaxDigits) return false;
  Uint128 m = 0;
  for (int64_t i = 0; i < keep; ++i) m = m * 10 + static_cast<unsigned>(digits[first + i]);
  if (round_up) ++m;  // keep <= 0 means 0 < |value| < 1n: it becomes 1n
  StripTrailingZeros(&m, &exponent);
  *mantissa = m;
  *out_exponent = exponent;
  return true;
}

// ceil(0.<frac> * 2^shift * 10^9) for shift <= 60: the nano-units that the
// fractional digits contribute to a binary-suffixed value. Multiplies the digit
// string by 2^shift from its least significant end, so it needs no buffer; the
// carry never exceeds 2^shift, so digit * 2^shift + carry fits in 64 bits.
Uint128 FractionNanos(std::string_view frac, int shift) {
  const size_t len = std::max<size_t>(frac.size(), 9);
  uint64_t carry = 0;
  uint64_t nanos = 0;
  uint64_t place = 1;
  bool below_nano = false;
  for (size_t j = len; j-- > 0;) {
    const uint64_t digit = j < frac.size() ? static_cast<uint64_t>(frac[j] - '0') : 0;
    const uint64_t t = (digit << shift) + carry;
    const uint64_t out = t % 10;
    carry = t / 10;
    if (j >= 9) {
      below_nano |= out != 0;
    } else {
      nanos += out * place;
      place *= 10;
    }
  }
  return static_cast<Uint128>(carry) * kNanoPerUnit + nanos + (below_nano ? 1 : 0);
}

// strconv.ParseInt(s, 10, 64): optional sign, at least one digit, in range.
bool ParseGoInt64(std::string_view s, int64_t* out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  const uint64_t limit = negative ? kInt64Max + 1 : kInt64Max;
  uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return false;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

struct Suffix {
  bool binary;  // exponent is a power of 2, else of 10
  int32_t exponent;
  QuantityFormat format;
};

bool InterpretSuffix(std::string_view s, Suffix* out) {
  using F = QuantityFormat;
  if (s.empty()) {
    *out = {false, 0, F::kDecimalSI};
    return true;
  }
  if (s.size() == 1) {
    // Single-letter SI prefixes, listed with their powers of ten.
    constexpr std::string_view kLetters = "numkMGTPE";
    constexpr int32_t kExponents[] = {-9, -6, -3, 3, 6, 9, 12, 15, 18};
    const size_t i = kLetters.find(s[0]);
    if (i == std::string_view::npos) return false;
    *out = {false, kExponents[i], F::kDecimalSI};
    return true;
  }
  if (s.size() == 2 && s[1] == 'i') {
    constexpr std::string_view kBinary = "KMGTPE";
    const size_t i = kBinary.find(s[0]);
    if (i != std::string_view::npos) {
      *out = {true, static_cast<int32_t>(10 * (i + 1)), F::kBinarySI};
      return true;
    }
  }
  if (s[0] == 'e' || s[0] == 'E') {
    int64_t e;
    if (!ParseGoInt64(s.substr(1), &e)) return false;
    *out = {false, Wrap32(e), F::kDecimalExponent};
    return true;
  }
  return false;
}

Error FormatError() { return MakeError(std::string(kQuantityFormatError)); }
Error NumericError() { return MakeError(std::string(kQuantityNumericError)); }
Error SuffixError() { return MakeError(std::string(kQuantitySuffixError)); }
Error TooPreciseError() {
  return MakeError("quantity has more than 38 significant digits, which cannot be represented");
}

}  // namespace

Result<Quantity> Quantity::Parse(std::string_view s) {
  const size_t n = s.size();
  if (n == 0) return FormatError();
  // Upstream measures digit counts in int32; longer strings are not quantities.
  if (n > static_cast<size_t>(std::numeric_limits<int32_t>::max())) return FormatError();

  // Scan: [sign] zeros* digits* [. digits*] [suffix letters*] [sign] digits*
  size_t pos = 0;
  bool negative = false;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    ++pos;
  }
  const size_t zeros_begin = pos;
  while (pos < n && s[pos] == '0') ++pos;
  if (pos == n) return Quantity();  // "0", "-000", and also a lone "+" or "-"
  const size_t leading_zeros = pos - zeros_begin;
  const size_t num_begin = pos;
  while (pos < n && IsDigit(s[pos])) ++pos;
  const std::string_view num = s.substr(num_begin, pos - num_begin);  // no leading zeros
  std::string_view frac;
  if (pos < n && s[pos] == '.') {
    const size_t frac_begin = ++pos;
    while (pos < n && IsDigit(s[pos])) ++pos;
    frac = s.substr(frac_begin, pos - frac_begin);
  }
  const bool has_digit = leading_zeros + num.size() + frac.size() > 0;
  const size_t suffix_begin = pos;
  while (pos < n && IsSuffixLetter(s[pos])) ++pos;
  if (pos < n && (s[pos] == '+' || s[pos] == '-')) ++pos;
  while (pos < n && IsDigit(s[pos])) ++pos;
  if (pos != n) return FormatError();

  Suffix suffix;
  if (!InterpretSuffix(s.substr(suffix_begin), &suffix)) return SuffixError();

  Quantity q;
  q.format_ = suffix.format;
  // Upstream sizes its int64 fast path by the digit count, with an empty
  // integer part counted as the one digit "0".
  const int64_t num_len = std::max<int64_t>(static_cast<int64_t>(num.size()), 1);
  const int64_t frac_len = static_cast<int64_t>(frac.size());

  if (!suffix.binary) {
    // Upstream takes an int64 fast path when the digits fit in 18 and the scale
    // is at least nano; the slow path re-parses the number text with inf.Dec,
    // which rejects text without any digit ("-.e-10"). Both give the same value
    // except that the exponents wrap differently at the int32 boundary.
    const int32_t fast_scale = Wrap32(int64_t{suffix.exponent} - frac_len);
    int64_t exponent = fast_scale;
    if (num_len + frac_len > 18 || fast_scale < kNanoExponent) {
      if (!has_digit) return NumericError();
      exponent = -int64_t{Wrap32(frac_len - int64_t{suffix.exponent})};
    }
    if (!DecimalFromDigits(DigitSeq(num, frac), exponent, &q.mantissa_, &q.exponent_)) {
      return TooPreciseError();
    }
  } else {
    const int shift = suffix.exponent;  // 10, 20, ..., 60
    // Pi and Ei (and big integer parts) always take upstream's slow path, where
    // digit-less text such as "Pi" is a numeric error; "Ki".."Ti" mean zero.
    const bool fast_path_possible = frac.empty() && 14 - num_len - shift * 3 / 10 >= 0;
    if (!has_digit && !fast_path_possible) return NumericError();

    // value = <num>.<frac> * 2^shift, rounded up to nano, capped at 2^63-1.
    bool capped = num.size() > 19;  // >= 10^19 > 2^63 even before the shift
    Uint128 nanos = 0;
    if (!capped) {
      uint64_t int_part = 0;
      for (char c : num) int_part = int_part * 10 + static_cast<uint64_t>(c - '0');
      const Uint128 whole = static_cast<Uint128>(int_part) << shift;
      capped = whole > kInt64Max;
      if (!capped && frac.empty()) {
        // The common "128Mi": a whole number, no nano arithmetic needed.
        q.mantissa_ = whole;
        if (whole != 0) StripTrailingZeros(&q.mantissa_, &q.exponent_);
      } else if (!capped) {
        nanos = whole * kNanoPerUnit + FractionNanos(frac, shift);
        capped = nanos > static_cast<Uint128>(kInt64Max) * kNanoPerUnit;
      }
    }
    if (capped) {
      q.mantissa_ = kInt64Max;
      q.exponent_ = 0;
    } else if (nanos != 0) {
      // Upstream prints 0 < |value| < 1 in DecimalSI ("0.5Ki" is 512 but
      // ".000000001Ki" is "1024n").
      if (nanos < kNanoPerUnit) q.format_ = QuantityFormat::kDecimalSI;
      q.mantissa_ = nanos;
      q.exponent_ = kNanoExponent;
      StripTrailingZeros(&q.mantissa_, &q.exponent_);
    }
  }
  q.negative_ = negative && q.mantissa_ != 0;
  return q;
}

Quantity Quantity::FromScaled(int64_t value, int32_t scale, QuantityFormat format) {
  Quantity q;
  q.format_ = format;
  if (value == 0) return q;
  q.negative_ = value < 0;
  Uint128 m = value < 0 ? static_cast<Uint128>(0 - static_cast<uint64_t>(value))
                        : static_cast<Uint128>(value);
  int64_t e = scale;
  if (e < kNanoExponent) {  // keep the nano invariant, rounding away from zero
    const int64_t drop = kNanoExponent - e;
    m = drop > kMaxDigits ? 1 : m / kPow10[drop] + (m % kPow10[drop] != 0 ? 1 : 0);
    e = kNanoExponent;
  }
  StripTrailingZeros(&m, &e);
  q.mantissa_ = m;
  q.exponent_ = e;
  return q;
}

int64_t Quantity::ScaledValue(int32_t scale) const {
  if (mantissa_ == 0) return 0;
  const Uint128 limit = negative_ ? Uint128{kInt64Max} + 1 : Uint128{kInt64Max};
  const int64_t e = exponent_ - scale;
  Uint128 magnitude;
  if (mantissa_ <= std::numeric_limits<uint64_t>::max() && e >= -19 && e <= 19) {
    // Fast path for everything a pod spec normally holds.
    const uint64_t m = static_cast<uint64_t>(mantissa_);
    const uint64_t p = static_cast<uint64_t>(kPow10[e < 0 ? -e : e]);
    if (e >= 0) {
      uint64_t product;
      magnitude = __builtin_mul_overflow(m, p, &product) ? limit : Uint128{product};
    } else {
      magnitude = m / p + (m % p != 0 ? 1 : 0);
    }
  } else if (e >= 0) {
    magnitude = mantissa_;
    for (int64_t i = 0; i < e && magnitude <= limit; ++i) magnitude *= 10;
  } else if (e < -kMaxDigits) {
    magnitude = 1;  // 0 < |value| < 1 after scaling: rounds away from zero
  } else {
    const Uint128 p = kPow10[-e];
    magnitude = mantissa_ / p + (mantissa_ % p != 0 ? 1 : 0);
  }
  if (magnitude > limit) magnitude = limit;
  if (!negative_) return static_cast<int64_t>(magnitude);
  return -static_cast<int64_t>(magnitude - 1) - 1;  // reaches INT64_MIN without overflow
}

int64_t Quantity::Value() const { return ScaledValue(0); }

int64_t Quantity::MilliValue() const { return ScaledValue(-3); }

int Quantity::Compare(const Quantity& other) const {
  const int sa = Sign();
  const int sb = other.Sign();
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  // Same sign: compare magnitudes, then flip for negatives. Normalized
  // mantissas make the position of the leading digit decide most cases.
  const int64_t top_a = DigitCount(mantissa_) + exponent_;
  const int64_t top_b = DigitCount(other.mantissa_) + other.exponent_;
  int magnitude_cmp;
  if (top_a != top_b) {
    magnitude_cmp = top_a < top_b ? -1 : 1;
  } else {
    // Equal leading positions: align to the smaller exponent; the shift is at
    // most 37 digits and the aligned value has at most 38, so nothing overflows.
    Uint128 a = mantissa_;
    Uint128 b = other.mantissa_;
    if (exponent_ > other.exponent_) {
      a *= kPow10[exponent_ - other.exponent_];
    } else {
      b *= kPow10[other.exponent_ - exponent_];
    }
    magnitude_cmp = a < b ? -1 : (a > b ? 1 : 0);
  }
  return sa < 0 ? -magnitude_cmp : magnitude_cmp;
}

std::string Quantity::String() const {
  if (mantissa_ == 0) return "0";
  std::string out = negative_ ? "-" : "";
  const int digits = DigitCount(mantissa_);

  if (format_ == QuantityFormat::kBinarySI && exponent_ >= 0 && digits + exponent_ <= kMaxDigits &&
      mantissa_ * kPow10[exponent_] >= 1024) {
    // A whole number of at least 1Ki: largest power-of-1024 suffix that divides
    // it. Smaller or fractional values fall through to DecimalSI, as upstream.
    Uint128 v = mantissa_ * kPow10[exponent_];
    int power = 0;
    while (v >= 1024 && v % 1024 == 0 && power < 6) {
      v /= 1024;
      ++power;
    }
    static constexpr std::array<std::string_view, 7> kBinarySuffixes = {"",   "Ki", "Mi", "Gi",
                                                                        "Ti", "Pi", "Ei"};
    out += Uint128ToString(v);
    out += kBinarySuffixes[power];
    return out;
  }

  // Decimal: lower the exponent to a multiple of 3 by appending zeros.
  const int64_t pad = ((exponent_ % 3) + 3) % 3;
  const int64_t e = exponent_ - pad;
  out += Uint128ToString(mantissa_);
  out.append(static_cast<size_t>(pad), '0');
  if (format_ != QuantityFormat::kDecimalExponent && e >= -9 && e <= 18) {
    static constexpr std::array<std::string_view, 10> kDecimalSuffixes = {"n", "u", "m", "",  "k",
                                                                          "M", "G", "T", "P", "E"};
    out += kDecimalSuffixes[(e + 9) / 3];
  } else if (e != 0) {
    out += 'e';
    out += std::to_string(e);
  }
  return out;
}

}  // namespace ksched
