// The JSON writer must print byte for byte what nlohmann's dump() and dump(2)
// printed before it (every expected file and every script reading ksched's
// output was made with those).
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>

#include "cli/document_writer.h"

namespace ksched {
namespace json_writer_test {

using ojson = nlohmann::ordered_json;

std::string Write(const ojson& value, JsonStyle style) {
  std::string out;
  {
    OutputBuffer buffer(&out);
    auto w = MakeJsonWriter(&buffer, style);
    WriteJsonValue(w.get(), value);
    w->EndDocument();
  }
  return out;
}

// Strings with everything an escaping loop can get wrong: every control
// character, quotes, backslashes, DEL, multi-byte UTF-8 (2, 3 and 4 bytes),
// the byte order mark and line separators.
std::string RandomString(std::mt19937& rng) {
  static const std::vector<std::string> kPieces = {"a",
                                                   "node-0001",
                                                   " ",
                                                   "\"",
                                                   "\\",
                                                   "/",
                                                   "\x7f",
                                                   "\xc3\xa9",
                                                   "\xe2\x82\xac",
                                                   "\xf0\x9d\x84\x9e",
                                                   "\xef\xbb\xbf",
                                                   "\xe2\x80\xa8",
                                                   "\xc2\xa0",
                                                   "\xc2\x85",
                                                   "true",
                                                   "10",
                                                   "#",
                                                   ": ",
                                                   "- ",
                                                   "{}",
                                                   "[]",
                                                   "~",
                                                   "Insufficient cpu"};
  std::string s;
  int n = std::uniform_int_distribution<int>(0, 6)(rng);
  for (int i = 0; i < n; ++i) {
    if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
      s += static_cast<char>(std::uniform_int_distribution<int>(0, 0x1f)(rng));
    } else {
      s += kPieces[std::uniform_int_distribution<size_t>(0, kPieces.size() - 1)(rng)];
    }
  }
  return s;
}

ojson RandomValue(std::mt19937& rng, int depth) {
  int kind = std::uniform_int_distribution<int>(0, depth >= 4 ? 4 : 7)(rng);
  switch (kind) {
    case 0:
      return RandomString(rng);
    case 1:
      return std::uniform_int_distribution<int64_t>(std::numeric_limits<int64_t>::min(),
                                                    std::numeric_limits<int64_t>::max())(rng);
    case 2:
      return std::uniform_int_distribution<int>(-20, 20)(rng);
    case 3:
      return nullptr;
    case 4:
      return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    case 5:
    case 6: {
      ojson o = ojson::object();
      int n = std::uniform_int_distribution<int>(0, 5)(rng);
      for (int i = 0; i < n; ++i) o[RandomString(rng)] = RandomValue(rng, depth + 1);
      return o;
    }
    default: {
      ojson a = ojson::array();
      int n = std::uniform_int_distribution<int>(0, 5)(rng);
      for (int i = 0; i < n; ++i) a.push_back(RandomValue(rng, depth + 1));
      return a;
    }
  }
}

TEST(JsonWriter, PrintsWhatNlohmannPrints) {
  std::mt19937 rng(16);
  for (int i = 0; i < 3000; ++i) {
    ojson v = RandomValue(rng, 0);
    ASSERT_EQ(Write(v, JsonStyle::kCompact), v.dump() + "\n") << v.dump();
    ASSERT_EQ(Write(v, JsonStyle::kIndented), v.dump(2) + "\n") << v.dump();
  }
}

TEST(JsonWriter, EveryControlCharacter) {
  std::string all;
  for (int c = 0; c < 0x20; ++c) all += static_cast<char>(c);
  all += "\x7f\"\\";
  ojson v = {{all, ojson::array({all, std::string(1, '\0')})}};
  EXPECT_EQ(Write(v, JsonStyle::kCompact), v.dump() + "\n");
  EXPECT_EQ(Write(v, JsonStyle::kIndented), v.dump(2) + "\n");
  EXPECT_NE(Write(v, JsonStyle::kCompact).find("\\u001f"), std::string::npos);
}

TEST(JsonWriter, EscapesFoundAtEveryPosition) {
  // Strings are scanned eight bytes at a time: one byte to escape at every
  // position of strings of every length up to three blocks, next to bytes
  // that are close to the special ones (0x1f/0x20, 0x21/0x22/0x23, 0x5b-0x5d,
  // 0x7f, 0x80, 0xff halves of UTF-8).
  for (size_t len = 1; len <= 24; ++len) {
    for (size_t pos = 0; pos < len; ++pos) {
      for (char special : {'"', '\\', '\x01', '\x1f', '\n', ' ', '!', '#', '[', ']', '\x7f'}) {
        std::string s(len, 'a');
        for (size_t i = 0; i < len; ++i) s[i] = "\x20\x21\x23\x5b\x5d\x7e"[i % 6];
        s[pos] = special;
        ojson v = ojson::array({s});
        ASSERT_EQ(Write(v, JsonStyle::kCompact), v.dump() + "\n") << len << " " << pos;
      }
    }
  }
  std::string utf8 = "\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e\xc3\xa9\xe2\x82\xac\"";
  EXPECT_EQ(Write(ojson::array({utf8}), JsonStyle::kCompact), ojson::array({utf8}).dump() + "\n");
}

TEST(JsonWriter, EmptyCollectionsAndExtremeIntegers) {
  ojson v = ojson::object();
  v["a"] = ojson::array();
  v["o"] = ojson::object();
  v["min"] = std::numeric_limits<int64_t>::min();
  v["max"] = std::numeric_limits<int64_t>::max();
  v["big"] = std::numeric_limits<uint64_t>::max();
  v["float"] = 0.1;
  EXPECT_EQ(Write(v, JsonStyle::kCompact), v.dump() + "\n");
  EXPECT_EQ(Write(v, JsonStyle::kIndented), v.dump(2) + "\n");
  EXPECT_EQ(Write(ojson::array(), JsonStyle::kIndented), "[]\n");
}

TEST(JsonWriter, OneLinePerDocument) {
  std::string out;
  {
    OutputBuffer buffer(&out);
    auto w = MakeJsonWriter(&buffer, JsonStyle::kCompact);
    for (int i = 0; i < 3; ++i) {
      w->BeginObject();
      w->Key("step");
      w->Int(i);
      w->EndObject();
      w->EndDocument();
    }
  }
  EXPECT_EQ(out, "{\"step\":0}\n{\"step\":1}\n{\"step\":2}\n");
}

TEST(JsonWriter, LongStringsPassTheBufferBlock) {
  // Longer than OutputBuffer's block, with escapes, so RapidJSON reserves more
  // than a block at once.
  std::string s(200000, 'x');
  for (size_t i = 0; i < s.size(); i += 1000) s[i] = '"';
  ojson v = ojson::array({s, s});
  EXPECT_EQ(Write(v, JsonStyle::kCompact), v.dump() + "\n");
}

}  // namespace json_writer_test
}  // namespace ksched
