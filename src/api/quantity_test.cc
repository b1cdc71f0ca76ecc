#include "api/quantity.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace ksched {
namespace quantity_test {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
using F = QuantityFormat;

Quantity MustParse(std::string_view s) {
  Result<Quantity> r = Quantity::Parse(s);
  EXPECT_TRUE(r.ok()) << "'" << s << "': " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : Quantity();
}

std::string ParseError(std::string_view s) {
  Result<Quantity> r = Quantity::Parse(s);
  return r.ok() ? "parsed as " + r->String() : r.error().message;
}

// The parse table of upstream's TestQuantityParse: input, value as
// mantissa * 10^exponent, and the format the quantity remembers.
struct ParseCase {
  const char* in;
  int64_t mantissa;
  int32_t exponent;
  F format;
};

const ParseCase kParseCases[] = {
    {"0", 0, 0, F::kDecimalSI},
    {"0n", 0, 0, F::kDecimalSI},
    {"0u", 0, 0, F::kDecimalSI},
    {"0m", 0, 0, F::kDecimalSI},
    {"0Ki", 0, 0, F::kBinarySI},
    {"0k", 0, 0, F::kDecimalSI},
    {"0Mi", 0, 0, F::kBinarySI},
    {"0M", 0, 0, F::kDecimalSI},
    {"0Gi", 0, 0, F::kBinarySI},
    {"0G", 0, 0, F::kDecimalSI},
    {"0Ti", 0, 0, F::kBinarySI},
    {"0T", 0, 0, F::kDecimalSI},
    {"1", 1, 0, F::kDecimalSI},
    // Binary suffixes.
    {"1Ki", 1024, 0, F::kBinarySI},
    {"8Ki", 8 * 1024, 0, F::kBinarySI},
    {"7Mi", 7 * 1024 * 1024, 0, F::kBinarySI},
    {"6Gi", 6LL << 30, 0, F::kBinarySI},
    {"5Ti", 5LL << 40, 0, F::kBinarySI},
    {"4Pi", 4LL << 50, 0, F::kBinarySI},
    {"3Ei", 3LL << 60, 0, F::kBinarySI},
    {"10Ti", 10LL << 40, 0, F::kBinarySI},
    {"100Ti", 100LL << 40, 0, F::kBinarySI},
    // Decimal suffixes.
    {"5n", 5, -9, F::kDecimalSI},
    {"4u", 4, -6, F::kDecimalSI},
    {"3m", 3, -3, F::kDecimalSI},
    {"9", 9, 0, F::kDecimalSI},
    {"8k", 8, 3, F::kDecimalSI},
    {"50k", 5, 4, F::kDecimalSI},
    {"7M", 7, 6, F::kDecimalSI},
    {"6G", 6, 9, F::kDecimalSI},
    {"5T", 5, 12, F::kDecimalSI},
    {"40T", 4, 13, F::kDecimalSI},
    {"300T", 3, 14, F::kDecimalSI},
    {"2P", 2, 15, F::kDecimalSI},
    {"1E", 1, 18, F::kDecimalSI},
    // Decimal exponents.
    {"1E-3", 1, -3, F::kDecimalExponent},
    {"1e3", 1, 3, F::kDecimalExponent},
    {"1E6", 1, 6, F::kDecimalExponent},
    {"1e9", 1, 9, F::kDecimalExponent},
    {"1E12", 1, 12, F::kDecimalExponent},
    {"1e15", 1, 15, F::kDecimalExponent},
    {"1E18", 1, 18, F::kDecimalExponent},
    {"1e14", 1, 14, F::kDecimalExponent},
    {"1e13", 1, 13, F::kDecimalExponent},
    {"100.035k", 100035, 0, F::kDecimalSI},
    // Things that look like floating point.
    {"0.001", 1, -3, F::kDecimalSI},
    {"0.0005k", 5, -1, F::kDecimalSI},
    {"0.005", 5, -3, F::kDecimalSI},
    {"0.05", 5, -2, F::kDecimalSI},
    {"0.5", 5, -1, F::kDecimalSI},
    {"0.00050k", 5, -1, F::kDecimalSI},
    {"0.00500", 5, -3, F::kDecimalSI},
    {"0.05000", 5, -2, F::kDecimalSI},
    {"0.50000", 5, -1, F::kDecimalSI},
    {"0.5e0", 5, -1, F::kDecimalExponent},
    {"0.5e-1", 5, -2, F::kDecimalExponent},
    {"0.5e-2", 5, -3, F::kDecimalExponent},
    {"10.035M", 10035, 3, F::kDecimalSI},
    {"1.2e3", 12, 2, F::kDecimalExponent},
    {"1.3E+6", 13, 5, F::kDecimalExponent},
    {"1.40e9", 14, 8, F::kDecimalExponent},
    {"1.53E12", 153, 10, F::kDecimalExponent},
    {"1.6e15", 16, 14, F::kDecimalExponent},
    {"1.7E18", 17, 17, F::kDecimalExponent},
    {"9.01", 901, -2, F::kDecimalSI},
    {"8.1k", 81, 2, F::kDecimalSI},
    {"7.123456M", 7123456, 0, F::kDecimalSI},
    {"6.987654321G", 6987654321, 0, F::kDecimalSI},
    {"5.444T", 5444, 9, F::kDecimalSI},
    {"40.1T", 401, 11, F::kDecimalSI},
    {"300.2T", 3002, 11, F::kDecimalSI},
    {"2.5P", 25, 14, F::kDecimalSI},
    {"1.01E", 101, 16, F::kDecimalSI},
    // Rounded up to whole nano-units, or capped (binary only).
    {"3.001n", 4, -9, F::kDecimalSI},
    {"1.1E-9", 2, -9, F::kDecimalExponent},
    {"0.0000000001", 1, -9, F::kDecimalSI},
    {"0.0000000005", 1, -9, F::kDecimalSI},
    {"0.00000000050", 1, -9, F::kDecimalSI},
    {"0.5e-9", 1, -9, F::kDecimalExponent},
    {"0.9n", 1, -9, F::kDecimalSI},
    {"0.00000012345", 124, -9, F::kDecimalSI},
    {"0.00000012354", 124, -9, F::kDecimalSI},
    {"9Ei", kMax, 0, F::kBinarySI},
    {"9223372036854775807Ki", kMax, 0, F::kBinarySI},
    {"12E", 12, 18, F::kDecimalSI},
    // Fractional binary values.
    {"100.035Ki", 10243584, -2, F::kBinarySI},
    {"0.5Mi", 512 * 1024, 0, F::kBinarySI},
    {"0.05Gi", 536870912, -1, F::kBinarySI},
    {"0.025Ti", 274877906944, -1, F::kBinarySI},
    // "Things written by trolls", as upstream's table calls them.
    {"0.000000000001Ki", 2, -9, F::kDecimalSI},  // rounds up, and below 1 turns DecimalSI
    {".001", 1, -3, F::kDecimalSI},
    {".0001k", 100, -3, F::kDecimalSI},
    {"1.", 1, 0, F::kDecimalSI},
    {"1.G", 1, 9, F::kDecimalSI},
};

TEST(QuantityTest, ParsesUpstreamTable) {
  for (const ParseCase& c : kParseCases) {
    const Quantity want = Quantity::FromScaled(c.mantissa, c.exponent);
    for (const std::string prefix : {"", "+", "-"}) {
      const std::string in = prefix + c.in;
      SCOPED_TRACE(in);
      const Quantity got = MustParse(in);
      const Quantity expected =
          prefix == "-" ? Quantity::FromScaled(-c.mantissa, c.exponent) : want;
      EXPECT_EQ(got.Compare(expected), 0) << got.String() << " vs " << expected.String();
      EXPECT_EQ(got.format(), c.format);
    }
  }
}

TEST(QuantityTest, CanonicalStrings) {
  struct Case {
    const char* in;
    const char* want;
  };
  const Case cases[] = {
      // upstream TestQuantityParseEmit
      {"1Ki", "1Ki"},
      {"1Mi", "1Mi"},
      {"1Gi", "1Gi"},
      {"1024Mi", "1Gi"},
      {"1000M", "1G"},
      {".001Ki", "1024m"},
      {".000001Ki", "1024u"},
      {".000000001Ki", "1024n"},
      {".000000000001Ki", "2n"},
      // more
      {"0", "0"},
      {"-0", "0"},
      {"0Ki", "0"},
      {"1.5", "1500m"},
      {"1.5Gi", "1536Mi"},
      {"1.1Ki", "1126400m"},  // fractional binary prints as DecimalSI
      {"1.5Ki", "1536"},
      {"1023", "1023"},
      {"1023Ki", "1023Ki"},
      {"1025Ki", "1025Ki"},
      {"100m", "100m"},
      {"0.1", "100m"},
      {"1000m", "1"},
      {"1e3", "1e3"},
      {"1000", "1k"},
      {"3e8", "300e6"},
      {"5e-1", "500e-3"},
      {"1e100", "10e99"},
      {"+1", "1"},         // upstream echoes "+1" here
      {"1.001", "1001m"},  // upstream echoes "1.001" here
      {"99999999999999999999Ei", "9223372036854775807"},
      {"1000E", "1e21"},  // upstream drops the suffix and prints "1"
      {"123456789012345678901234567890", "123456789012345678901234567890"},
      {"12345678901234567890123456789.012345678", "12345678901234567890123456789012345678n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    const Quantity q = MustParse(c.in);
    EXPECT_EQ(q.String(), c.want);
    // The canonical form parses back to the same value, and negation just adds a sign.
    EXPECT_EQ(MustParse(q.String()).Compare(q), 0);
    if (!q.IsZero() && c.in[0] != '+') {
      EXPECT_EQ(MustParse(std::string("-") + c.in).String(), std::string("-") + c.want);
    }
  }
}

TEST(QuantityTest, StringOfScaledValues) {
  // From upstream TestQuantityString, built with FromScaled instead of inf.Dec.
  struct Case {
    int64_t value;
    int32_t scale;
    F format;
    const char* want;
  };
  const Case cases[] = {
      {1LL << 30, 0, F::kBinarySI, "1Gi"},
      {300LL << 20, 0, F::kBinarySI, "300Mi"},
      {6 * 1024, 0, F::kBinarySI, "6Ki"},
      {1001LL << 30, 0, F::kBinarySI, "1001Gi"},
      {1LL << 40, 0, F::kBinarySI, "1Ti"},
      {5, 0, F::kBinarySI, "5"},
      {500, -3, F::kBinarySI, "500m"},
      {1, 9, F::kDecimalSI, "1G"},
      {1000, 6, F::kDecimalSI, "1G"},
      {1000000, 3, F::kDecimalSI, "1G"},
      {1000000000, 0, F::kDecimalSI, "1G"},
      {1, -3, F::kDecimalSI, "1m"},
      {80, -3, F::kDecimalSI, "80m"},
      {1080, -3, F::kDecimalSI, "1080m"},
      {108, -2, F::kDecimalSI, "1080m"},
      {10800, -4, F::kDecimalSI, "1080m"},
      {300, 6, F::kDecimalSI, "300M"},
      {1, 12, F::kDecimalSI, "1T"},
      {1234567, 6, F::kDecimalSI, "1234567M"},
      {1234567, -3, F::kBinarySI, "1234567m"},
      {3, 3, F::kDecimalSI, "3k"},
      {1025, 0, F::kBinarySI, "1025"},
      {0, 0, F::kDecimalSI, "0"},
      {0, 0, F::kBinarySI, "0"},
      {1, 9, F::kDecimalExponent, "1e9"},
      {1, -3, F::kDecimalExponent, "1e-3"},
      {1, -9, F::kDecimalExponent, "1e-9"},
      {80, -3, F::kDecimalExponent, "80e-3"},
      {300, 6, F::kDecimalExponent, "300e6"},
      {1, 12, F::kDecimalExponent, "1e12"},
      {1, 3, F::kDecimalExponent, "1e3"},
      {3, 3, F::kDecimalExponent, "3e3"},
      {0, 0, F::kDecimalExponent, "0"},
      {1, -9, F::kDecimalSI, "1n"},
      {80, -9, F::kDecimalSI, "80n"},
      {1080, -9, F::kDecimalSI, "1080n"},
      {108, -8, F::kDecimalSI, "1080n"},
      {10800, -10, F::kDecimalSI, "1080n"},
      {1, -6, F::kDecimalSI, "1u"},
      {80, -6, F::kDecimalSI, "80u"},
      {1080, -6, F::kDecimalSI, "1080u"},
      {kMin, 0, F::kBinarySI, "-8Ei"},
  };
  for (const Case& c : cases) {
    const Quantity q = Quantity::FromScaled(c.value, c.scale, c.format);
    EXPECT_EQ(q.String(), c.want) << c.value << "e" << c.scale;
    if (c.value != 0 && c.value != kMin) {
      EXPECT_EQ(Quantity::FromScaled(-c.value, c.scale, c.format).String(),
                std::string("-") + c.want);
    }
  }
}

TEST(QuantityTest, ValueAndMilliValueRoundUp) {
  struct Case {
    const char* in;
    int64_t value;
    int64_t milli;
  };
  const Case cases[] = {
      {"0", 0, 0},
      {"1", 1, 1000},
      {"100m", 1, 100},
      {"100.5m", 1, 101},
      {"0.1", 1, 100},
      {"0.5", 1, 500},
      {"5e-1", 1, 500},
      {"1n", 1, 1},
      {"1.5", 2, 1500},
      {"1.5Ki", 1536, 1536000},
      {"1.1Ki", 1127, 1126400},
      {"0.5Gi", 536870912, 536870912000},
      {"128Mi", 134217728, 134217728000},
      {"1G", 1000000000, 1000000000000},
      {"1e9", 1000000000, 1000000000000},
      {"3e8", 300000000, 300000000000},
      {"500k", 500000, 500000000},
      {"1E3", 1000, 1000000},
      {".5", 1, 500},
      {"0.000000000001Ki", 1, 1},
      {"8Ei", kMax, kMax},  // 2^63 is capped to 2^63-1 as upstream
      {"9223372036854775807", kMax, kMax},
      {"9223372036854775.807", 9223372036854776, kMax},
      // Negative values round away from zero, as upstream's int64 path does.
      {"-1.5", -2, -1500},
      {"-0.5", -1, -500},
      {"-100.5m", -1, -101},
      {"-0.0001", -1, -1},
      {"-1.1Ki", -1127, -1126400},
      {"-1n", -1, -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    const Quantity q = MustParse(c.in);
    EXPECT_EQ(q.Value(), c.value);
    EXPECT_EQ(q.MilliValue(), c.milli);
  }
}

TEST(QuantityTest, ValueSaturatesInsteadOfOverflowing) {
  struct Case {
    const char* in;
    int64_t value;
    int64_t milli;
  };
  const Case cases[] = {
      {"9223372036854775808", kMax, kMax},
      {"9223372036854775.808", 9223372036854776, kMax},
      {"-9223372036854775808", kMin, kMin},
      {"-9223372036854775809", kMin, kMin},
      {"-9223372036854775.808", -9223372036854776, kMin},
      {"-9223372036854775.809", -9223372036854776, kMin},
      {"100000000000000000000", kMax, kMax},  // upstream: the low 64 bits
      {"1e19", kMax, kMax},                   // upstream: 0
      {"1e400", kMax, kMax},
      {"-1e400", kMin, kMin},
      {"1E", 1000000000000000000, kMax},
      {"99999999999999999999Ei", kMax, kMax},
      {"-99999999999999999999Ei", -kMax, kMin},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    const Quantity q = MustParse(c.in);
    EXPECT_EQ(q.Value(), c.value);
    EXPECT_EQ(q.MilliValue(), c.milli);
  }
}

TEST(QuantityTest, ScaledValue) {
  // upstream TestScaledValue: 1 at one scale read at another rounds up.
  const int32_t scales[] = {-9, -6, -3, 0};
  for (int32_t from : scales) {
    for (int32_t to : scales) {
      const int64_t want = from >= to ? Quantity::FromScaled(1, from - to).Value() : 1;
      EXPECT_EQ(Quantity::FromScaled(1, from).ScaledValue(to), want) << from << "->" << to;
    }
  }
  EXPECT_EQ(MustParse("1.5G").ScaledValue(9), 2);
  EXPECT_EQ(MustParse("1.5G").ScaledValue(6), 1500);
  EXPECT_EQ(MustParse("1").ScaledValue(-9), 1000000000);
  EXPECT_EQ(MustParse("1").ScaledValue(-30), kMax);
  EXPECT_EQ(MustParse("1n").ScaledValue(std::numeric_limits<int32_t>::max()), 1);
  EXPECT_EQ(MustParse("1n").ScaledValue(std::numeric_limits<int32_t>::min()), kMax);
}

TEST(QuantityTest, RejectsMalformedInput) {
  const std::string format(kQuantityFormatError);
  const std::string suffix(kQuantitySuffixError);
  const std::string numeric(kQuantityNumericError);
  struct Case {
    const char* in;
    const std::string& want;
  };
  const Case cases[] = {
      {"", format},
      {"1.1.1", format},
      {"1.1.M", format},
      {"1+1.0M", format},
      {"0.1mi", suffix},
      {"0.1am", format},
      {"aoeu", format},
      {".5i", suffix},
      {"1i", suffix},
      {"-3.01i", suffix},
      {"-3.01e-", suffix},
      {" 1", format},
      {"1 ", format},
      {"--1", suffix},
      {"1Qi", format},
      {"1e", suffix},
      {"1e+", suffix},
      {"1ee5", suffix},
      {"1eM", suffix},
      {"1k-5", suffix},
      {"1m5", suffix},
      {"1KI", format},  // "I" is not a suffix letter at all
      {"1e5m", format},
      {"Non-Numeric", format},
      {"1e9223372036854775808", suffix},  // exponent must fit in int64
      // Digit-less text that upstream's slow path hands to inf.Dec.
      {"Pi", numeric},
      {"Ei", numeric},
      {"-.Ei", numeric},
      {"e-10", numeric},
      {"-.e-10", numeric},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ParseError(c.in), c.want) << "'" << c.in << "'";
  }
}

TEST(QuantityTest, AcceptsUpstreamQuirks) {
  // Upstream's scanner accepts these and, having no digits, they mean zero.
  for (const char* in : {"+", "-", ".", "+.", "-.", "00", "-000", "Ki", "Mi", "-Gi", "Ti", ".Ki",
                         "e-9", "n", "k", "E"}) {
    const Quantity q = MustParse(in);
    EXPECT_TRUE(q.IsZero()) << in;
    EXPECT_EQ(q.String(), "0") << in;
  }
  EXPECT_EQ(MustParse("Mi").format(), F::kBinarySI);
  EXPECT_EQ(MustParse("1.").Value(), 1);
  EXPECT_EQ(MustParse("1.Ki").Value(), 1024);
  // The exponent is read as an int64 and truncated to int32.
  EXPECT_EQ(MustParse("1e4294967296").Value(), 1);
  EXPECT_EQ(MustParse("1e4294967297").Value(), 10);
  EXPECT_EQ(MustParse("1e-9223372036854775808").Value(), 1);
  EXPECT_EQ(MustParse("1e+0003").Value(), 1000);
  // And the exponent minus the fraction length wraps in int32 too.
  EXPECT_EQ(MustParse("1.5e-2147483648").String(), "150e2147483646");
}

TEST(QuantityTest, RejectsTooManySignificantDigits) {
  const std::string digits38(38, '7');
  EXPECT_TRUE(Quantity::Parse(digits38).ok());
  EXPECT_TRUE(Quantity::Parse(digits38 + "000000000000").ok());  // trailing zeros are free
  EXPECT_TRUE(Quantity::Parse(digits38 + "1").ok() == false);
  // Digits below a nano-unit do not count: they are rounded away at parse time.
  EXPECT_EQ(MustParse("1." + std::string(100, '3')).String(), "1333333334n");
  EXPECT_FALSE(Quantity::Parse(std::string(30, '9') + ".123456789").ok());
  // Binary values are capped before precision can matter.
  EXPECT_EQ(MustParse(std::string(100, '9') + "." + std::string(100, '9') + "Ki").Value(), kMax);
}

TEST(QuantityTest, HugeInputsAreLinearAndSafe) {
  const auto start = std::chrono::steady_clock::now();
  std::mt19937 rng(42);
  std::string random_digits;
  for (int i = 0; i < 10000; ++i) random_digits += static_cast<char>('1' + rng() % 9);

  EXPECT_EQ(MustParse("1" + std::string(10000, '0')).Value(), kMax);
  EXPECT_EQ(MustParse("1" + std::string(10000, '0')).String(), "10e9999");
  EXPECT_FALSE(Quantity::Parse(random_digits).ok());
  EXPECT_EQ(MustParse("0." + std::string(9999, '0') + "1").String(), "1n");
  EXPECT_EQ(MustParse("0." + random_digits + "Ei").Value(),
            MustParse("0." + random_digits.substr(0, 40) + "Ei").Value());
  EXPECT_EQ(MustParse(random_digits + "Ki").Value(), kMax);
  EXPECT_EQ(MustParse("-" + random_digits + "Ki").Value(), -kMax);
  EXPECT_EQ(MustParse(std::string(10000, '0') + "5m").MilliValue(), 5);
  // A megabyte of digits on either side of the point, then a sub-nano exponent.
  const std::string big = std::string(1 << 20, '0') + "1." + std::string(1 << 20, '0') + "5e-3";
  EXPECT_EQ(MustParse(big).String(), "1000001e-9");
  // 0.999...9 * 2^60 rounds up to exactly 2^60 nano-wise.
  EXPECT_EQ(MustParse("." + std::string(1 << 20, '9') + "Ei").String(), "1Ei");
  EXPECT_EQ(ParseError(std::string(1 << 20, '1') + "x"), std::string(kQuantityFormatError));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(QuantityTest, CompareIsExact) {
  struct Case {
    const char* a;
    const char* b;
    int want;
  };
  const Case cases[] = {
      {"0", "0", 0},
      {"100m", "50m", 1},
      {"50m", "100m", -1},
      {"10000T", "100Gi", 1},
      {"0", "-0", 0},
      {"0Ki", "0m", 0},
      {"1", "1000m", 0},
      {"1k", "1e3", 0},
      {"1Ki", "1024", 0},
      {"1.024k", "1Ki", 0},
      {"1Ki", "1.025k", -1},
      {"-1", "1", -1},
      {"-2", "-1", -1},
      {"-1", "-1000m", 0},
      {"-1.5", "-1.4", -1},
      {"1n", "0", 1},
      {"-1n", "0", -1},
      {"0.1n", "1n", 0},  // rounded up at parse time
      {"1e400", "1e399", 1},
      {"1e400", "9e399", 1},
      {"-1e400", "-9e399", -1},
      {"99999999999999999999999999999999999999", "1e38", -1},
      {"99999999999999999999999999999999999999", "99999999999999999999999999999999999998", 1},
      {"12345678901234567890123456789012345678", "1234567890123456789012345678901234567.8e1", 0},
      {"8Ei", "9223372036854775807", 0},  // capped
      {"9223372036854775808", "8Ei", 1},  // decimal is not capped
  };
  for (const Case& c : cases) {
    const Quantity a = MustParse(c.a);
    const Quantity b = MustParse(c.b);
    EXPECT_EQ(a.Compare(b), c.want) << c.a << " vs " << c.b;
    EXPECT_EQ(b.Compare(a), -c.want) << c.b << " vs " << c.a;
  }
  EXPECT_TRUE(MustParse("1") == MustParse("1000m"));
}

TEST(QuantityTest, CompareMatchesNanoArithmetic) {
  // Random values small enough to hold as int64 nano-units, written in many
  // ways; Compare must agree with comparing the nano counts.
  std::mt19937_64 rng(7);
  const char* suffixes[] = {"n", "u", "m", "", "k", "M", "G"};
  const int64_t nanos_per[] = {
      1, 1000, 1000000, 1000000000, 1000000000000LL, 1000000000000000LL, 1000000000000000000LL};
  auto random_quantity = [&](int64_t* nanos) {
    const int s = static_cast<int>(rng() % 7);
    const int64_t limit = std::numeric_limits<int64_t>::max() / nanos_per[s];
    int64_t v = static_cast<int64_t>(rng() % static_cast<uint64_t>(std::min<int64_t>(limit, 2000)));
    if (rng() % 2) v = -v;
    *nanos = v * nanos_per[s];
    return std::to_string(v) + suffixes[s];
  };
  for (int i = 0; i < 20000; ++i) {
    int64_t na, nb;
    const std::string a = random_quantity(&na);
    const std::string b = random_quantity(&nb);
    const int want = na < nb ? -1 : (na > nb ? 1 : 0);
    ASSERT_EQ(MustParse(a).Compare(MustParse(b)), want) << a << " vs " << b;
  }
}

TEST(QuantityTest, FromScaled) {
  EXPECT_EQ(Quantity::FromScaled(100, -3).String(), "100m");
  EXPECT_EQ(Quantity::FromScaled(100, -3).MilliValue(), 100);
  EXPECT_EQ(Quantity::FromScaled(5, -12).String(), "1n");  // rounded up to nano
  EXPECT_EQ(Quantity::FromScaled(-5, -12).String(), "-1n");
  EXPECT_EQ(Quantity::FromScaled(kMin, 0).Value(), kMin);
  EXPECT_EQ(Quantity::FromScaled(kMin, 0).String(), "-9223372036854775808");
  EXPECT_EQ(Quantity::FromScaled(1024, 0, F::kBinarySI).String(), "1Ki");
  EXPECT_EQ(Quantity().String(), "0");
  EXPECT_EQ(Quantity().Value(), 0);
  EXPECT_EQ(Quantity().format(), F::kDecimalSI);
}

}  // namespace quantity_test
}  // namespace ksched
