// Kubernetes resource quantities ("100m", "1.5Gi", "5e-1"), parsed the way
// k8s.io/apimachinery v1.15 resource.ParseQuantity parses them.
//
// The scheduler only ever needs integers out of a quantity (MilliValue for cpu,
// Value for everything else), but those integers depend on upstream's rounding
// rules, so the parser reproduces them exactly:
//   * the grammar is upstream's hand-written scanner, quirks included: "+",
//     "-", ".", "Mi" and "1." are all accepted (the first four mean zero);
//   * a value is rounded away from zero to a whole number of nano-units at parse
//     time ("0.1n" is 1n, "-0.1n" is -1n);
//   * binary-suffixed values ("Ki".."Ei") are capped at 2^63-1 in magnitude,
//     decimal ones are not capped at all ("1e400" is a valid quantity);
//   * the exponent of "e"/"E" is read as an int64 and then truncated to int32, as
//     upstream does, so "1e4294967296" is 1.
// Where upstream's answer is garbage rather than a rule, ksched picks something
// well defined instead; see Value() and String().
//
// Values are kept exactly as sign * mantissa * 10^exponent with a 128-bit
// mantissa, so parsing, comparing and reading never allocate. Quantities that
// would need more than 38 significant digits (e.g. "1234...(40 digits)") are
// rejected with an error rather than approximated.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/result.h"

namespace ksched {

// How the quantity was written; only String() cares.
enum class QuantityFormat : uint8_t {
  kDecimalSI,        // 12M, 500m
  kBinarySI,         // 12Mi
  kDecimalExponent,  // 12e6
};

// Upstream's error texts, reused verbatim so that messages read like kubectl's.
inline constexpr std::string_view kQuantityFormatError =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
inline constexpr std::string_view kQuantityNumericError =
    "unable to parse numeric part of quantity";
inline constexpr std::string_view kQuantitySuffixError = "unable to parse quantity's suffix";

class Quantity {
 public:
  // Zero, DecimalSI (what upstream's zero Quantity{} prints as "0").
  Quantity() = default;

  // Parses a quantity string. Errors carry one of the messages above (or a note
  // that the value has too many significant digits); callers add the context
  // (object, field, the text itself). Runs in time linear in s.size().
  static Result<Quantity> Parse(std::string_view s);

  // value * 10^scale, exactly (e.g. FromScaled(100, -3) is "100m").
  static Quantity FromScaled(int64_t value, int32_t scale,
                             QuantityFormat format = QuantityFormat::kDecimalSI);

  // The value rounded to an integer away from zero: "0.5" -> 1, "-0.5" -> -1,
  // "1.5Ki" -> 1536. Upstream rounds the same way for every ordinary input.
  // Values beyond int64 saturate at INT64_MAX / INT64_MIN; upstream would return
  // 0 or the low 64 bits of the number there, which no caller can use.
  int64_t Value() const;
  // Value * 1000, rounded and saturated like Value(): "100.5m" -> 101,
  // "0.1" -> 100, "5e-1" -> 500.
  int64_t MilliValue() const;
  // Value * 10^-scale, rounded and saturated like Value(). Value() is
  // ScaledValue(0), MilliValue() is ScaledValue(-3) (upstream's Scale convention).
  int64_t ScaledValue(int32_t scale) const;

  // Exact comparison of the values (formats are ignored): -1, 0 or 1.
  int Compare(const Quantity& other) const;
  bool IsZero() const { return mantissa_ == 0; }
  // -1, 0 or 1.
  int Sign() const { return mantissa_ == 0 ? 0 : (negative_ ? -1 : 1); }
  QuantityFormat format() const { return format_; }

  // Canonical form, as upstream's CanonicalizeBytes: the largest suffix that
  // needs no fractional digits, e.g. "1.5" -> "1500m", "1.5Gi" -> "1536Mi",
  // "1e3" -> "1e3", "1000" -> "1k". Two deliberate differences: upstream's
  // String() echoes the input when it is already "nearly" canonical ("+1",
  // "1.001"), and for DecimalSI values of 10^21 and up it drops the suffix
  // ("1000E" prints as "1"); ksched always prints the canonical form and falls
  // back to an exponent ("1e21") so the text keeps its value.
  std::string String() const;

  friend bool operator==(const Quantity& a, const Quantity& b) { return a.Compare(b) == 0; }

 private:
  __extension__ using Uint128 = unsigned __int128;

  // Value is (negative_ ? -1 : 1) * mantissa_ * 10^exponent_.
  // Invariants: mantissa_ < 10^38 and has no trailing decimal zeros;
  // exponent_ >= -9 (nano); zero is mantissa_ == 0, exponent_ == 0, !negative_.
  Uint128 mantissa_ = 0;
  int64_t exponent_ = 0;
  bool negative_ = false;
  QuantityFormat format_ = QuantityFormat::kDecimalSI;
};

}  // namespace ksched
