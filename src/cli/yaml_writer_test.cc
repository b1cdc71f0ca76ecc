// The YAML writer: yaml-cpp's layout (what ksched printed before), and output
// that a YAML reader turns back into the same values.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "api/yaml_to_json.h"
#include "cli/document_writer.h"
#include "cli/output.h"

namespace ksched {
namespace yaml_writer_test {

using ojson = nlohmann::ordered_json;

TEST(YamlWriter, LayoutOfAScheduleReport) {
  // The layout yaml-cpp 0.7 printed for the same value (captured from it).
  ojson step = ojson::object();
  step["pod"] = "ns/p";
  step["node"] = nullptr;
  step["error"] = "0/3 nodes: \"x\"\n\t\x01 \xc3\xa9 \xc2\xa0 \\";
  step["feasible"] = ojson::array();
  step["failures"] = ojson::object();
  step["scores"] = {{"node-a", 7}, {"node-b.example.com", -3}};
  step["maxNodes"] = {"node-a"};
  step["nested"] = ojson::array({ojson::array({1, 2}), ojson::object({{"a", 1}}), ojson::array()});
  ojson list = ojson::array({step, ojson::object({{"k", ojson::array({"a"})}})});
  EXPECT_EQ(JsonToYaml(list),
            "- pod: \"ns/p\"\n"
            "  node: ~\n"
            "  error: \"0/3 nodes: \\\"x\\\"\\n\\t\\x01 \xc3\xa9 \\xa0 \\\\\"\n"
            "  feasible:\n"
            "    []\n"
            "  failures:\n"
            "    {}\n"
            "  scores:\n"
            "    node-a: 7\n"
            "    node-b.example.com: -3\n"
            "  maxNodes:\n"
            "    - \"node-a\"\n"
            "  nested:\n"
            "    -\n"
            "      - 1\n"
            "      - 2\n"
            "    - a: 1\n"
            "    -\n"
            "      []\n"
            "- k:\n"
            "    - \"a\"\n");
  EXPECT_EQ(JsonToYaml(ojson::array()), "[]\n");
  EXPECT_EQ(JsonToYaml(ojson::object()), "{}\n");
  EXPECT_EQ(JsonToYaml("x"), "\"x\"\n");
  EXPECT_EQ(JsonToYaml(ojson::object({{"k", ojson::array({"a"})}})), "k:\n  - \"a\"\n");
}

TEST(YamlWriter, KeysThatWouldChangeMeaningAreQuoted) {
  // yaml-cpp printed these plain: a reader takes `true:` for a boolean key
  // and `10:` for a number.
  for (const char* key : {"true", "no", "Off", "null", "10", "1e3", "192.168.1.1", "2001-12-14", "",
                          "a b", "x: y", "-x", "#x", "\xc3\xbc", ".inf"}) {
    std::string yaml = JsonToYaml(ojson::object({{key, 1}}));
    EXPECT_EQ(yaml, "\"" + std::string(key) + "\": 1\n") << key;
  }
  for (const char* key : {"node-a2", "NodePreferAvoidPodsPriority", "kubernetes.io/hostname",
                          "ip-10-0-0-1.ec2.internal", "truex", "on_call"}) {
    EXPECT_EQ(JsonToYaml(ojson::object({{key, 1}})), std::string(key) + ": 1\n") << key;
  }
}

std::string RandomText(std::mt19937& rng) {
  static const std::vector<std::string> kPieces = {"a",
                                                   "node-0001",
                                                   " ",
                                                   "\"",
                                                   "\\",
                                                   "'",
                                                   "\x7f",
                                                   "\xc3\xa9",
                                                   "\xe2\x82\xac",
                                                   "\xf0\x9d\x84\x9e",
                                                   "\xef\xbb\xbf",
                                                   "\xe2\x80\xa8",
                                                   "\xe2\x80\xa9",
                                                   "\xc2\xa0",
                                                   "\xc2\x85",
                                                   "\xef\xbf\xbe",
                                                   "true",
                                                   "10",
                                                   "#",
                                                   ": ",
                                                   "- ",
                                                   "? ",
                                                   "{",
                                                   "]",
                                                   "~",
                                                   "&a",
                                                   "*a",
                                                   "!tag",
                                                   "%",
                                                   "@",
                                                   "`",
                                                   "|",
                                                   ">"};
  std::string s;
  int n = std::uniform_int_distribution<int>(0, 5)(rng);
  for (int i = 0; i < n; ++i) {
    if (std::uniform_int_distribution<int>(0, 4)(rng) == 0) {
      s += static_cast<char>(std::uniform_int_distribution<int>(1, 0x1f)(rng));
    } else {
      s += kPieces[std::uniform_int_distribution<size_t>(0, kPieces.size() - 1)(rng)];
    }
  }
  return s;
}

ojson RandomValue(std::mt19937& rng, int depth) {
  int kind = std::uniform_int_distribution<int>(0, depth >= 4 ? 3 : 6)(rng);
  switch (kind) {
    case 0:
      return RandomText(rng);
    case 1:
      return std::uniform_int_distribution<int64_t>(-1000000000000, 1000000000000)(rng);
    case 2:
      return nullptr;
    case 3:
      return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    case 4:
    case 5: {
      ojson o = ojson::object();
      int n = std::uniform_int_distribution<int>(0, 4)(rng);
      for (int i = 0; i < n; ++i) o[RandomText(rng)] = RandomValue(rng, depth + 1);
      return o;
    }
    default: {
      ojson a = ojson::array();
      int n = std::uniform_int_distribution<int>(0, 4)(rng);
      for (int i = 0; i < n; ++i) a.push_back(RandomValue(rng, depth + 1));
      return a;
    }
  }
}

TEST(YamlWriter, ReadsBackAsTheSameValue) {
  std::mt19937 rng(16);
  for (int i = 0; i < 3000; ++i) {
    ojson v = RandomValue(rng, 0);
    std::string yaml = JsonToYaml(v);
    auto json = YamlToJson(yaml, "out.yaml");
    ASSERT_TRUE(json.ok()) << json.error().message << "\n" << yaml;
    EXPECT_EQ(nlohmann::json::parse(*json), nlohmann::json(v)) << yaml;
  }
}

TEST(YamlWriter, KeysLongerThanASimpleKey) {
  std::string key(1500, 'k');
  ojson v = ojson::array({ojson::object({{key, ojson::array({"a"})}, {"b", key}})});
  std::string yaml = JsonToYaml(v);
  EXPECT_EQ(yaml.rfind("- ? \"" + key + "\"\n  :\n    - \"a\"\n  b: \"", 0), 0u) << yaml;
  auto json = YamlToJson(yaml, "out.yaml");
  ASSERT_TRUE(json.ok()) << json.error().message;
  EXPECT_EQ(nlohmann::json::parse(*json), nlohmann::json(v));
}

}  // namespace yaml_writer_test
}  // namespace ksched
