#include "cel/device_selector.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ksched::cel {
namespace device_selector_test {

// A GPU as the DRA vectors describe them.
struct TestDevice {
  TestDevice() {
    memory = *Quantity::Parse("80Gi");
    cores = *Quantity::Parse("108");
    attrs = {
        {"model", Str("a100-80gb")},          {"productName", Str("NVIDIA A100")},
        {"driverVersion", Ver("550.54.15")},  {"healthy", Bool(true)},
        {"migCapable", Bool(false)},          {"index", Int(3)},
        {"nic.example.com/rdma", Bool(true)}, {"nic.example.com/speedGbps", Int(400)},
    };
    caps = {{"memory", &memory}, {"nic.example.com/cores", &cores}};
  }
  DeviceView View() const {
    DeviceView v;
    v.driver = "gpu.example.com";
    v.attributes = attrs;
    v.capacity = caps;
    return v;
  }
  static DeviceAttributeValue Str(std::string_view s) {
    DeviceAttributeValue v;
    v.kind = DeviceAttributeValue::Kind::kString;
    v.string_value = s;
    return v;
  }
  static DeviceAttributeValue Ver(std::string_view s) {
    DeviceAttributeValue v = Str(s);
    v.kind = DeviceAttributeValue::Kind::kVersion;
    return v;
  }
  static DeviceAttributeValue Bool(bool b) {
    DeviceAttributeValue v;
    v.kind = DeviceAttributeValue::Kind::kBool;
    v.bool_value = b;
    return v;
  }
  static DeviceAttributeValue Int(int64_t i) {
    DeviceAttributeValue v;
    v.kind = DeviceAttributeValue::Kind::kInt;
    v.int_value = i;
    return v;
  }
  Quantity memory, cores;
  std::vector<DeviceAttribute> attrs;
  std::vector<DeviceCapacity> caps;
};

// "true", "false", or "error: <text>" (runtime), "compile: <text>".
std::string Eval(std::string_view expr, const TestDevice& d = TestDevice(), Features f = {}) {
  auto p = CompileDeviceSelector(expr, f);
  if (!p.ok()) return "compile: " + p.error().message;
  auto r = (*p)->Matches(d.View());
  if (!r.ok()) return "error: " + r.error().message;
  return *r ? "true" : "false";
}

TEST(DeviceSelector, SharedVectorExpressions) {
  // Every selector of ../shared/dra/*.json, on an a100-80gb GPU.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("migCapable" in device.attributes["gpu.example.com"] && device.attributes["gpu.example.com"].migCapable)",
       "false"},
      {R"(device.attributes["gpu.example.com"].driverVersion.compareTo(semver("535.0.0")) >= 0)",
       "true"},
      {R"(device.attributes["gpu.example.com"].driverVersion.compareTo(semver("550.0.0")) >= 0)",
       "true"},
      {R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("535.0.0")))",
       "true"},
      {R"(device.attributes["gpu.example.com"].healthy)", "true"},
      {R"(device.attributes["gpu.example.com"].model == "a100-40gb")", "false"},
      {R"(device.attributes["gpu.example.com"].model == "a100-80gb")", "true"},
      {R"(device.attributes["gpu.example.com"].model == "h100")", "false"},
      {R"(device.attributes["gpu.example.com"].model == "l4")", "false"},
      {R"(device.attributes["gpu.example.com"].model == "t4")", "false"},
      {R"(device.attributes["gpu.example.com"].productName.startsWith("NVIDIA"))", "true"},
      {R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("24Gi")) >= 0)", "true"},
      {R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0)", "true"},
      {R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0)", "true"},
      {R"(device.driver == "gpu.example.com")", "true"},
      {R"(device.driver == "gpu.example.com" && "migCapable" in device.attributes["gpu.example.com"] && device.attributes["gpu.example.com"].migCapable)",
       "false"},
      {R"(device.driver == "gpu.example.com" && cel.bind(gpu, device.attributes["gpu.example.com"], gpu.healthy && gpu.driverVersion.compareTo(semver("550.0.0")) >= 0))",
       "true"},
      {R"(device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "h100")",
       "false"},
      {R"(device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model in ["a100-40gb", "a100-80gb"])",
       "true"},
      {R"(device.driver == "nic.example.com")", "false"},
      {R"(device.driver == "nic.example.com" && device.attributes["nic.example.com"].rdma && device.attributes["nic.example.com"].speedGbps >= 200)",
       "false"},
      {R"(device.driver == "npu.example.com")", "false"},
  };
  for (const auto& [expr, want] : cases) EXPECT_EQ(Eval(expr), want) << expr;
}

TEST(DeviceSelector, AttributesAndDomains) {
  EXPECT_EQ(
      Eval(
          R"(device.attributes["nic.example.com"].rdma && device.attributes["nic.example.com"].speedGbps >= 200)"),
      "true");
  // Unknown domains are empty maps; missing keys in them are errors.
  EXPECT_EQ(Eval(R"(size(device.attributes["other.example.com"]) == 0)"), "true");
  EXPECT_EQ(Eval(R"(device.attributes["other.example.com"].model == "x")"),
            "error: no such key: model");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].nosuch)"), "error: no such key: nosuch");
  EXPECT_EQ(Eval(R"("x" in device.attributes["gpu.example.com"])"), "false");
  EXPECT_EQ(Eval(R"("model" in device.attributes["gpu.example.com"])"), "true");
  EXPECT_EQ(Eval(R"("gpu.example.com" in device.attributes)"), "true");
  EXPECT_EQ(Eval(R"("other" in device.attributes)"), "false");
  EXPECT_EQ(Eval(R"(has(device.attributes["gpu.example.com"].model))"), "true");
  EXPECT_EQ(Eval(R"(has(device.attributes["gpu.example.com"].nosuch))"), "false");
  // Field selection on the outer map uses the default-returning look-up.
  EXPECT_EQ(Eval(R"(has(device.attributes.anything))"), "true");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].index + 1 == 4)"), "true");
  EXPECT_EQ(Eval(R"(size(device.attributes) == 2)"), "true");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].all(k, k.size() > 0))"), "true");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].exists(k, k == "healthy"))"), "true");
  EXPECT_EQ(Eval(R"(device.capacity["nic.example.com"].cores.isInteger())"), "true");
  EXPECT_EQ(Eval(R"(device.capacity["gpu.example.com"].memory.asInteger() == 85899345920)"),
            "true");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].driverVersion.major() == 550)"), "true");
}

TEST(DeviceSelector, CompileErrors) {
  EXPECT_EQ(Eval("x"),
            "compile: compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in "
            "container '')\n | x\n | ^");
  EXPECT_EQ(Eval("device.driver == 1"),
            "compile: compilation failed: ERROR: <input>:1:15: found no matching overload for "
            "'_==_' applied to "
            "'(string, int)'\n | device.driver == 1\n | ..............^");
  EXPECT_EQ(Eval("device.foo"),
            "compile: compilation failed: ERROR: <input>:1:7: undefined field 'foo'\n | "
            "device.foo\n | ......^");
  EXPECT_EQ(Eval("1 + 2"), "compile: must evaluate to bool or the unknown type, not int");
  EXPECT_EQ(Eval("device.driver"),
            "compile: must evaluate to bool or the unknown type, not string");
  EXPECT_EQ(Eval("dyn(true)"), "compile: must evaluate to bool or the unknown type, not dyn");
  EXPECT_EQ(Eval("device.allowMultipleAllocations"),
            "compile: compilation failed: ERROR: <input>:1:7: undefined field "
            "'allowMultipleAllocations'\n"
            " | device.allowMultipleAllocations\n | ......^");
  Features cc;
  cc.consumable_capacity = true;
  EXPECT_EQ(Eval("!device.allowMultipleAllocations", TestDevice(), cc), "true");
  EXPECT_EQ(
      Eval("[1, 'a'].size() == 2"),
      "compile: compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n"
      " | [1, 'a'].size() == 2\n | ....^");
  EXPECT_EQ(Eval("device.driver.foo()"),
            "compile: compilation failed: ERROR: <input>:1:18: undeclared reference to 'foo' (in "
            "container '')\n"
            " | device.driver.foo()\n | .................^");
  EXPECT_EQ(Eval("device.driver.startsWith(1)"),
            "compile: compilation failed: ERROR: <input>:1:25: found no matching overload for "
            "'startsWith' applied "
            "to 'string.(int)'\n | device.driver.startsWith(1)\n | ........................^");
  EXPECT_EQ(
      Eval("if"),
      "compile: compilation failed: ERROR: <input>:1:1: reserved identifier: if\n | if\n | ^");
  EXPECT_EQ(Eval("[1].all(1, true)"),
            "compile: compilation failed: ERROR: <input>:1:9: argument must be a simple name\n"
            " | [1].all(1, true)\n | ........^");
  EXPECT_EQ(Eval("has(x)"),
            "compile: compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | "
            "has(x)\n | ....^");
  EXPECT_EQ(Eval("1 +"),
            "compile: compilation failed: ERROR: <input>:1:4: Syntax error: mismatched input "
            "'<EOF>' expecting "
            "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, "
            "STRING, "
            "BYTES, IDENTIFIER}\n | 1 +\n | ...^");
  EXPECT_EQ(Eval("9223372036854775808 > 0"),
            "compile: compilation failed: ERROR: <input>:1:1: invalid int literal\n | "
            "9223372036854775808 > 0\n | ^");
  EXPECT_EQ(Eval("-9223372036854775808 < 0"), "true");
  EXPECT_EQ(Eval("device.attributes['x'].y.z()"),
            "compile: compilation failed: ERROR: <input>:1:27: undeclared reference to 'z' (in "
            "container '')\n"
            " | device.attributes['x'].y.z()\n | ..........................^");
}

TEST(DeviceSelector, RuntimeSemantics) {
  // && and || are commutative over errors.
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].nosuch || true)"), "true");
  EXPECT_EQ(Eval(R"(true || device.attributes["gpu.example.com"].nosuch)"), "true");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].nosuch && false)"), "false");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].nosuch && true)"),
            "error: no such key: nosuch");
  EXPECT_EQ(Eval(R"(device.attributes["gpu.example.com"].model && true)"),
            "error: no such overload");
  EXPECT_EQ(Eval("9223372036854775807 + 1 > 0"), "error: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 / -1 > 0"), "error: integer overflow");
  EXPECT_EQ(Eval("1 / 0 > 0"), "error: division by zero");
  EXPECT_EQ(Eval("1 % 0 > 0"), "error: modulus by zero");
  EXPECT_EQ(Eval("18446744073709551615u + 1u > 0u"), "error: unsigned integer overflow");
  EXPECT_EQ(Eval("1.0 / 0.0 > 1.0"), "true");
  EXPECT_EQ(Eval("1 < 1.5 && 2u > 1 && 1.0 == dyn(1)"), "true");
  EXPECT_EQ(Eval("dyn(1) == 'a'"), "false");
  EXPECT_EQ(Eval("{'a': 1}['b'] == 1"), "error: no such key: b");
  EXPECT_EQ(Eval("[1, 2][2] == 1"), "error: index out of bounds: 2");
  EXPECT_EQ(Eval("[1, 2, 3].exists_one(x, x > 2)"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].map(x, x * 2) == [2, 4, 6]"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].filter(x, x % 2 == 1) == [1, 3]"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].map(x, x > 1, x * 10) == [20, 30]"), "true");
  EXPECT_EQ(Eval("[0, 1].all(x, 1 / x > 0)"), "error: division by zero");
  EXPECT_EQ(Eval("[0, 1].exists(x, 1 / x > 0)"), "true");
  EXPECT_EQ(Eval("{'a': 1, 'b': 2}.all(k, v, v > 0 && k.size() == 1)"), "true");
  EXPECT_EQ(Eval("[1, 2].transformList(i, v, v * i) == [0, 2]"), "true");
  EXPECT_EQ(Eval("{'a': 1}.transformMap(k, v, v + 1) == {'a': 2}"), "true");
  EXPECT_EQ(Eval("'a' in ['a', 'b'] && !('c' in ['a', 'b']) && 2 in {2: 'x'}"), "true");
  EXPECT_EQ(Eval("type(1) == int && type('a') == string"), "true");
  EXPECT_EQ(
      Eval("int('12') == 12 && uint(3) == 3u && double('1.5') == 1.5 && string(1.5) == '1.5'"),
      "true");
  EXPECT_EQ(Eval("string(1e21) == '1e+21' && string(123456.0) == '123456' && string(1234567.0) == "
                 "'1.234567e+06'"),
            "true");
  EXPECT_EQ(Eval("int('x') == 1"), "error: type conversion error from 'string' to 'int'");
  EXPECT_EQ(Eval("int(1e19) == 1"), "error: integer overflow");
  EXPECT_EQ(Eval("b'\\x00\\xff'.size() == 2 && '\\u00ff'.size() == 1 && r'\\n'.size() == 2"),
            "true");
  EXPECT_EQ(Eval("'''a\nb'''.size() == 3"), "true");
  EXPECT_EQ(Eval("optional.of(1).orValue(2) == 1 && !optional.none().hasValue()"), "true");
  EXPECT_EQ(Eval("device.attributes[?'gpu.example.com'].hasValue()"), "true");
  EXPECT_EQ(Eval("device.attributes['gpu.example.com'].?nosuch.orValue(true)"), "true");
  EXPECT_EQ(Eval("[1, ?optional.none(), ?optional.of(2)] == [1, 2]"), "true");
  EXPECT_EQ(Eval("dyn(1) ? true : false"), "error: no such overload");
}

TEST(DeviceSelector, Libraries) {
  EXPECT_EQ(Eval("'Hello'.lowerAscii() == 'hello' && 'a,b'.split(',') == ['a', 'b'] && ' x "
                 "'.trim() == 'x'"),
            "true");
  EXPECT_EQ(Eval("'hello'.substring(1, 3) == 'el' && 'hello'.indexOf('l') == 2 && "
                 "'hello'.lastIndexOf('l') == 3"),
            "true");
  EXPECT_EQ(Eval("'hello'.charAt(1) == 'e' && 'aaa'.replace('a', 'b', 2) == 'bba' && ['a', "
                 "'b'].join('-') == 'a-b'"),
            "true");
  EXPECT_EQ(Eval("'hello'.substring(4, 2) == ''"),
            "error: invalid substring range. start: 4, end: 2");
  EXPECT_EQ(Eval("'hello'.substring(9) == ''"), "error: index out of range: 9");
  EXPECT_EQ(Eval("strings.quote('a\"b') == '\"a\\\\\"b\"'"), "true");
  EXPECT_EQ(Eval("'abc'.matches('^a.c$') && 'x123y'.find('[0-9]+') == '123' && "
                 "'a1b2'.findAll('[0-9]') == ['1', '2']"),
            "true");
  EXPECT_EQ(Eval("[3, 1, 2].sort() == [1, 2, 3] && [1, 2, 3].sum() == 6 && [1, 5, 2].max() == 5 && "
                 "[1, 2].isSorted()"),
            "true");
  EXPECT_EQ(Eval("lists.range(3) == [0, 1, 2] && [1, 1, 2].distinct() == [1, 2] && [[1], "
                 "[2]].flatten() == [1, 2]"),
            "true");
  EXPECT_EQ(Eval("[1, 2, 3].slice(1, 3) == [2, 3] && [1, 2].reverse() == [2, 1] && [1, "
                 "2].indexOf(2) == 1"),
            "true");
  EXPECT_EQ(Eval("sets.contains([1, 2], [2]) && sets.intersects([1], [1, 3]) && "
                 "sets.equivalent([1, 2], [2, 1])"),
            "true");
  EXPECT_EQ(Eval("quantity('1').add(quantity('500m')) == quantity('1500m') && "
                 "quantity('2Gi').sub(1).isGreaterThan(quantity('2G'))"),
            "true");
  EXPECT_EQ(Eval("quantity('1.5').isInteger() == false && quantity('1.5').asApproximateFloat() == "
                 "1.5 && sign(quantity('-1')) == -1"),
            "true");
  EXPECT_EQ(Eval("quantity('1.5').asInteger() == 1"), "error: cannot convert value to integer");
  EXPECT_EQ(Eval("isQuantity('1Gi') && !isQuantity('1 Gi')"), "true");
  EXPECT_EQ(Eval("quantity('abc') == quantity('1')"),
            "error: quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(Eval("semver('1.2.3-alpha.1').isLessThan(semver('1.2.3')) && semver('v1.2', true) == "
                 "semver('1.2.0')"),
            "true");
  EXPECT_EQ(Eval("semver('1.2.3-alpha.10').compareTo(semver('1.2.3-alpha.9')) == 1 && "
                 "semver('1.2.3+build') == semver('1.2.3')"),
            "true");
  EXPECT_EQ(Eval("isSemver('1.2.3') && !isSemver('1.2') && isSemver('01.2', true)"), "true");
  EXPECT_EQ(Eval("semver('1.2') == semver('1.2.0')"), "error: No Major.Minor.Patch elements found");
  EXPECT_EQ(Eval("semver('1.02.0') == semver('1.2.0')"),
            "error: Minor number must not contain leading zeroes \"02\"");
  EXPECT_EQ(
      Eval("quantity('1') == 1"),
      "compile: compilation failed: ERROR: <input>:1:15: found no matching overload for "
      "'_==_' applied to '(kubernetes.Quantity, int)'\n | quantity('1') == 1\n | ..............^");
  EXPECT_EQ(Eval("url('https://x')"),
            "compile: compilation failed: ERROR: <input>:1:4: undeclared reference to 'url' (in "
            "container '')\n | url('https://x')\n | ...^");
}

TEST(DeviceSelector, BadAttributesAndCost) {
  TestDevice d;
  d.attrs.push_back({"bad", TestDevice::Ver("1.0")});
  EXPECT_EQ(Eval("true", d),
            "error: attribute bad: parse semantic version: No Major.Minor.Patch elements found");
  TestDevice none;
  none.attrs.push_back({"empty", DeviceAttributeValue{}});
  EXPECT_EQ(Eval("true", none), "error: attribute empty: unsupported attribute value");
  EXPECT_EQ(Eval("lists.range(1000).all(i, lists.range(1000).all(j, i + j >= 0))"),
            "error: operation cancelled: actual cost limit exceeded");
  EXPECT_EQ(Eval("lists.range(100).all(i, lists.range(100).all(j, i + j >= 0))"), "true");
  auto p = CompileDeviceSelector("device.driver == 'gpu.example.com'");
  ASSERT_TRUE(p.ok());
  uint64_t cost = 0;
  ASSERT_TRUE((*p)->Matches(TestDevice().View(), &cost).ok());
  EXPECT_GT(cost, 0u);
}

TEST(DeviceSelector, DeepNestingIsAnErrorNotACrash) {
  std::string deep(300, '(');
  deep += "true";
  deep += std::string(300, ')');
  EXPECT_EQ(
      Eval(deep),
      "compile: compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250");
  std::string chain = "1";
  for (int i = 0; i < 300; ++i) chain += " + 1";
  chain += " > 0";
  EXPECT_EQ(Eval(chain),
            "compile: compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded");
  std::string ors = "false";
  for (int i = 0; i < 1000; ++i) ors += " || false";
  EXPECT_EQ(Eval(ors), "false");
}

TEST(SelectorCache, CompilesOnce) {
  SelectorCache cache(2);
  auto a = cache.GetOrCompile("device.driver == 'a'");
  auto b = cache.GetOrCompile("device.driver == 'a'");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_FALSE(cache.GetOrCompile("x").ok());
  EXPECT_TRUE(cache.GetOrCompile("true").ok());
  EXPECT_TRUE(cache.GetOrCompile("false").ok());
  auto c = cache.GetOrCompile("device.driver == 'a'");
  EXPECT_NE(a->get(), c->get());  // evicted and compiled again
}

}  // namespace device_selector_test
}  // namespace ksched::cel
