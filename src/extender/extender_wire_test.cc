#include "extender/extender_wire.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/fixtures.h"

namespace ksched {
namespace extender_wire_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestNode;
using ::ksched::testing::TestPod;
using json = nlohmann::json;

std::string ScanError(std::string_view body) {
  auto r = GoJsonValueLength(body);
  return r.ok() ? "ok" : r.error().message;
}

// ---------------------------------------------------------------- framing

TEST(GoJsonScanTest, FirstValueOnly) {
  EXPECT_EQ(*GoJsonValueLength(R"({"a":1} trailing garbage)"), 7u);
  EXPECT_EQ(*GoJsonValueLength("  [1, 2]]"), 8u);
  EXPECT_EQ(*GoJsonValueLength("123abc"), 3u);
  EXPECT_EQ(*GoJsonValueLength("123"), 3u);
  EXPECT_EQ(*GoJsonValueLength("-1.5e+3"), 7u);
  EXPECT_EQ(*GoJsonValueLength("null}"), 4u);
  EXPECT_EQ(*GoJsonValueLength(R"("a\"b" x)"), 6u);
  EXPECT_EQ(*GoJsonValueLength("{}"), 2u);
  EXPECT_EQ(*GoJsonValueLength("[ ]"), 3u);
}

TEST(GoJsonScanTest, EndOfInput) {
  EXPECT_EQ(ScanError(""), "EOF");
  EXPECT_EQ(ScanError(" \n\t "), "EOF");
  EXPECT_EQ(ScanError("{"), "unexpected EOF");
  EXPECT_EQ(ScanError(R"({"nodes":[)"), "unexpected EOF");
  EXPECT_EQ(ScanError("tru"), "unexpected EOF");
  EXPECT_EQ(ScanError("-"), "unexpected EOF");
  EXPECT_EQ(ScanError("1."), "unexpected EOF");
  EXPECT_EQ(ScanError(R"("abc)"), "unexpected EOF");
  EXPECT_EQ(ScanError("[1"), "unexpected EOF");
}

TEST(GoJsonScanTest, SyntaxErrorsUseGoText) {
  EXPECT_EQ(ScanError("x"), "invalid character 'x' looking for beginning of value");
  EXPECT_EQ(ScanError("<html>"), "invalid character '<' looking for beginning of value");
  EXPECT_EQ(ScanError("nodes"), "invalid character 'o' in literal null (expecting 'u')");
  EXPECT_EQ(ScanError("fals3"), "invalid character '3' in literal false (expecting 'e')");
  EXPECT_EQ(ScanError(R"({"a" 1})"), "invalid character '1' after object key");
  EXPECT_EQ(ScanError(R"({"a":1 "b":2})"), "invalid character '\"' after object key:value pair");
  EXPECT_EQ(ScanError("[1 2]"), "invalid character '2' after array element");
  EXPECT_EQ(ScanError("{1:2}"), "invalid character '1' looking for beginning of object key string");
  EXPECT_EQ(ScanError("{\"a\":1,}"),
            "invalid character '}' looking for beginning of object key string");
  EXPECT_EQ(ScanError("[1,]"), "invalid character ']' looking for beginning of value");
  EXPECT_EQ(ScanError(R"("a\qb")"), "invalid character 'q' in string escape code");
  EXPECT_EQ(ScanError(R"("\u12g4")"), "invalid character 'g' in \\u hexadecimal character escape");
  EXPECT_EQ(ScanError("\"a\nb\""), "invalid character '\\n' in string literal");
  EXPECT_EQ(ScanError("-a"), "invalid character 'a' in numeric literal");
  EXPECT_EQ(ScanError("1.x"), "invalid character 'x' after decimal point in numeric literal");
  EXPECT_EQ(ScanError("1ex"), "invalid character 'x' in exponent of numeric literal");
  EXPECT_EQ(ScanError("'a'"), "invalid character '\\'' looking for beginning of value");
  // A byte shows as the Latin-1 rune of the same number, like Go's quoteChar.
  EXPECT_EQ(ScanError("\xEF\xBB\xBF{}"),
            "invalid character '\xC3\xAF' looking for beginning of value");
  EXPECT_EQ(ScanError(std::string("\x01", 1)),
            "invalid character '\\x01' looking for beginning of value");
  EXPECT_EQ(ScanError("\x7F"), "invalid character '\\u007f' looking for beginning of value");
}

// ---------------------------------------------------------------- filter replies

TEST(DecodeFilterResultTest, NodesVariant) {
  auto r = DecodeFilterResult(R"({"Nodes":{"metadata":{},"items":[
      {"metadata":{"name":"n1","labels":{"a":"b"}},"spec":{},"status":{"allocatable":{"cpu":"1"}}},
      {"metadata":{"name":"n3"}}]},
    "NodeNames":null,"FailedNodes":{"n2":"too hot"},"Error":""})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->nodes.has_value());
  EXPECT_EQ(*r->nodes, (std::vector<std::string>{"n1", "n3"}));
  EXPECT_FALSE(r->node_names.has_value());
  ASSERT_EQ(r->failed_nodes.size(), 1u);
  EXPECT_EQ(r->failed_nodes[0], (std::pair<std::string, std::string>{"n2", "too hot"}));
  EXPECT_EQ(r->error, "");
}

TEST(DecodeFilterResultTest, KeysMatchCaseInsensitively) {
  auto r = DecodeFilterResult(R"({"nodenames":["a","b"],"failedNodes":{"c":"no"},"ERROR":"",)"
                              R"("NODES":{"ITEMS":[{"METADATA":{"NAME":"x"}}]}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r->node_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*r->nodes, (std::vector<std::string>{"x"}));
  EXPECT_EQ(r->failed_nodes.size(), 1u);
}

TEST(DecodeFilterResultTest, GoFoldsKelvinSignAndLongS) {
  // U+017F (long s) folds to 's', U+212A (Kelvin sign) to 'k'.
  auto r = DecodeFilterResult("{\"FailedNode\xC5\xBF\":{\"n\":\"r\"},\"Nodes\":{\"items\":[]}}");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->failed_nodes.size(), 1u);
  // But folding is not general Unicode case folding.
  auto r2 = DecodeFilterResult("{\"\xC3\x89rror\":\"x\"}");
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->error, "");
}

TEST(DecodeFilterResultTest, NullAndAbsent) {
  auto r = DecodeFilterResult("null");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->nodes.has_value());
  EXPECT_FALSE(r->node_names.has_value());
  auto r2 = DecodeFilterResult(R"({"Nodes":null,"NodeNames":[],"FailedNodes":null,"Error":null})");
  ASSERT_TRUE(r2.ok());
  EXPECT_FALSE(r2->nodes.has_value());
  ASSERT_TRUE(r2->node_names.has_value());
  EXPECT_TRUE(r2->node_names->empty());
  auto r3 = DecodeFilterResult(R"({"Nodes":{}})");
  ASSERT_TRUE(r3.ok());
  ASSERT_TRUE(r3->nodes.has_value());
  EXPECT_TRUE(r3->nodes->empty());
  // A null reason is the empty string, as Go stores the zero value.
  auto r4 = DecodeFilterResult(R"({"FailedNodes":{"a":null}})");
  ASSERT_TRUE(r4.ok());
  EXPECT_EQ(r4->failed_nodes[0].second, "");
}

TEST(DecodeFilterResultTest, RepeatedKeysDecodeIntoTheSameValue) {
  // Maps merge; a later null resets.
  auto r = DecodeFilterResult(R"({"FailedNodes":{"a":"1","b":"2"},"failednodes":{"a":"3"}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->failed_nodes,
            (std::vector<std::pair<std::string, std::string>>{{"a", "3"}, {"b", "2"}}));
  auto r2 = DecodeFilterResult(R"({"FailedNodes":{"a":"1"},"FailedNodes":null})");
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2->failed_nodes.empty());
  // Arrays reuse elements: a null element keeps what was there.
  auto r3 = DecodeFilterResult(R"({"NodeNames":["a","b","c"],"nodeNames":[null,"x"]})");
  ASSERT_TRUE(r3.ok());
  EXPECT_EQ(*r3->node_names, (std::vector<std::string>{"a", "x"}));
  // ... even past the shorter array's length, through the slice capacity.
  auto r4 = DecodeFilterResult(
      R"({"NodeNames":["a","b","c"],"NodeNames":["x"],"NodeNames":[null,null,null]})");
  ASSERT_TRUE(r4.ok());
  EXPECT_EQ(*r4->node_names, (std::vector<std::string>{"x", "b", "c"}));
  // An empty array drops the old elements.
  auto r5 = DecodeFilterResult(R"({"NodeNames":["a"],"NodeNames":[],"NodeNames":[null]})");
  ASSERT_TRUE(r5.ok());
  EXPECT_EQ(*r5->node_names, (std::vector<std::string>{""}));
  // Node items keep their name when a later item has none.
  auto r6 = DecodeFilterResult(
      R"({"Nodes":{"items":[{"metadata":{"name":"n1"}}]},"nodes":{"items":[{"spec":{}}]}})");
  ASSERT_TRUE(r6.ok());
  EXPECT_EQ(*r6->nodes, (std::vector<std::string>{"n1"}));
}

TEST(DecodeFilterResultTest, TypeErrorsUseGoText) {
  auto msg = [](std::string_view body) {
    auto r = DecodeFilterResult(body);
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(msg("[]"),
            "json: cannot unmarshal array into Go value of type api.ExtenderFilterResult");
  EXPECT_EQ(msg(R"({"Error":5})"),
            "json: cannot unmarshal number into Go struct field ExtenderFilterResult.Error of type "
            "string");
  EXPECT_EQ(msg(R"({"NodeNames":"a"})"),
            "json: cannot unmarshal string into Go struct field ExtenderFilterResult.NodeNames of "
            "type []string");
  EXPECT_EQ(msg(R"({"NodeNames":[1]})"),
            "json: cannot unmarshal number into Go struct field ExtenderFilterResult.NodeNames of "
            "type string");
  EXPECT_EQ(msg(R"({"FailedNodes":["a"]})"),
            "json: cannot unmarshal array into Go struct field ExtenderFilterResult.FailedNodes of "
            "type api.FailedNodesMap");
  EXPECT_EQ(msg(R"({"FailedNodes":{"a":true}})"),
            "json: cannot unmarshal bool into Go struct field ExtenderFilterResult.FailedNodes of "
            "type string");
  EXPECT_EQ(msg(R"({"Nodes":{"items":{}}})"),
            "json: cannot unmarshal object into Go struct field NodeList.items of type []v1.Node");
  EXPECT_EQ(msg(R"({"Nodes":{"items":[{"metadata":{"name":7}}]}})"),
            "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string");
  // Fields ksched does not read are not type-checked beyond the JSON syntax.
  EXPECT_EQ(msg(R"({"Nodes":{"items":[{"spec":5}]},"Other":[1e999]})"), "ok");
}

TEST(DecodeFilterResultTest, InvalidUtf8AndSurrogatesBecomeReplacementChar) {
  auto r =
      DecodeFilterResult("{\"FailedNodes\":{\"n\":\"bad \xFF byte \\ud800 x \\ud83d\\ude00\"}}");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->failed_nodes[0].second, "bad \xEF\xBF\xBD byte \xEF\xBF\xBD x \xF0\x9F\x98\x80");
}

// ---------------------------------------------------------------- priorities, binding

TEST(DecodeHostPriorityListTest, Values) {
  auto r = DecodeHostPriorityList(R"([{"Host":"a","Score":3},{"host":"b","score":-2},null])");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].host, "a");
  EXPECT_EQ((*r)[0].score, 3);
  EXPECT_EQ((*r)[1].host, "b");
  EXPECT_EQ((*r)[1].score, -2);
  EXPECT_EQ((*r)[2].host, "");
  auto n = DecodeHostPriorityList("null");
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(n->empty());
}

TEST(DecodeHostPriorityListTest, Errors) {
  auto msg = [](std::string_view body) {
    auto r = DecodeHostPriorityList(body);
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(msg(R"({"Host":"a"})"),
            "json: cannot unmarshal object into Go value of type api.HostPriorityList");
  EXPECT_EQ(msg(R"(["a"])"),
            "json: cannot unmarshal string into Go value of type api.HostPriority");
  EXPECT_EQ(
      msg(R"([{"Host":"a","Score":1.5}])"),
      "json: cannot unmarshal number 1.5 into Go struct field HostPriority.Score of type int");
  EXPECT_EQ(
      msg(R"([{"Host":"a","Score":1e2}])"),
      "json: cannot unmarshal number 1e2 into Go struct field HostPriority.Score of type int");
  EXPECT_EQ(msg(R"([{"Host":"a","Score":9223372036854775808}])"),
            "json: cannot unmarshal number 9223372036854775808 into Go struct field "
            "HostPriority.Score of type int");
  EXPECT_EQ(msg(R"([{"Host":"a","Score":"1"}])"),
            "json: cannot unmarshal string into Go struct field HostPriority.Score of type int");
  EXPECT_EQ(msg(""), "EOF");
  // Beyond a double: Go still names the literal.
  EXPECT_EQ(msg(R"([{"Host":"a","Score":-1e999}])"),
            "json: cannot unmarshal number -1e999 into Go struct field HostPriority.Score of type "
            "int");
}

TEST(DecodeHostPriorityListTest, HugeNumbersElsewhereAreSkipped) {
  auto r = DecodeHostPriorityList(
      R"([{"Host":"a","Score":1,"x":1e999,"y":[2e400,3]},{"Host":"b","Score":2,"z":1e5}])");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].score, 1);
  EXPECT_EQ((*r)[1].host, "b");
  EXPECT_EQ((*r)[1].score, 2);
}

TEST(DecodeBindingResultTest, Error) {
  EXPECT_EQ(*DecodeBindingResult(R"({"Error":""})"), "");
  EXPECT_EQ(*DecodeBindingResult(R"({"error":"no"})"), "no");
  EXPECT_EQ(*DecodeBindingResult("{}"), "");
  EXPECT_FALSE(DecodeBindingResult(R"({"Error":[]})").ok());
}

TEST(GoSprintfNoArgsTest, VerbsWithoutOperands) {
  EXPECT_EQ(GoSprintfNoArgs("plain text"), "plain text");
  EXPECT_EQ(GoSprintfNoArgs("disk 100% full"), "disk 100%!f(MISSING)ull");
  EXPECT_EQ(GoSprintfNoArgs("50%%"), "50%");
  EXPECT_EQ(GoSprintfNoArgs("%d nodes"), "%!d(MISSING) nodes");
  EXPECT_EQ(GoSprintfNoArgs("%-08.3f"), "%!f(MISSING)");
  EXPECT_EQ(GoSprintfNoArgs("ends with %"), "ends with %!(NOVERB)");
  EXPECT_EQ(GoSprintfNoArgs("%[1]d"), "%!d(BADINDEX)");
  EXPECT_EQ(GoSprintfNoArgs("%*d"), "%!(BADWIDTH)%!d(MISSING)");
  EXPECT_EQ(GoSprintfNoArgs("%.*d"), "%!(BADPREC)%!d(MISSING)");
  EXPECT_EQ(GoSprintfNoArgs("%\xC3\xA9"), "%!\xC3\xA9(MISSING)");
  EXPECT_EQ(GoSprintfNoArgs("%."), "%!.(MISSING)");
}

// ---------------------------------------------------------------- requests

TEST(ExtenderWireTest, PodJsonIsGoShaped) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"ns","uid":"u1",
      "labels":{"b":"2","a":"1"},"annotations":{"x":"<&>"}},
    "spec":{"containers":[{"name":"c","image":"nginx",
      "ports":[{"containerPort":80,"hostPort":8080}],
      "resources":{"requests":{"cpu":"100m","memory":"1Gi"},"limits":{"example.com/foo":"1"}}}],
      "nodeSelector":{"disk":"ssd"},
      "tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}]}})");
  EXPECT_EQ(PodToJson(pod),
            R"({"metadata":{"name":"p","namespace":"ns","uid":"u1","creationTimestamp":null,)"
            R"("labels":{"a":"1","b":"2"},"annotations":{"x":"\u003c\u0026\u003e"}},)"
            R"("spec":{"containers":[{"name":"c","image":"nginx",)"
            R"("ports":[{"hostPort":8080,"containerPort":80,"protocol":"TCP"}],)"
            R"("resources":{"limits":{"example.com/foo":"1"},)"
            R"("requests":{"cpu":"100m","memory":"1073741824"}}}],)"
            R"("nodeSelector":{"disk":"ssd"},)"
            R"("tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}]},)"
            R"("status":{}})");
}

TEST(ExtenderWireTest, NodeJsonCarriesWhatExtendersRead) {
  Node node = TestNode(R"({"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},
    "spec":{"unschedulable":true,"taints":[{"key":"t","value":"v","effect":"NoExecute"}]},
    "status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"},
      "images":[{"names":["nginx:1.17"],"sizeBytes":1000}]}})");
  json j = json::parse(NodeToJson(node));
  EXPECT_EQ(j["metadata"]["name"], "n1");
  EXPECT_EQ(j["metadata"]["labels"]["zone"], "a");
  EXPECT_EQ(j["spec"]["unschedulable"], true);
  EXPECT_EQ(j["spec"]["taints"][0], json::parse(R"({"key":"t","value":"v","effect":"NoExecute"})"));
  EXPECT_EQ(j["status"]["allocatable"],
            json::parse(R"({"cpu":"4","memory":"8589934592","pods":"110"})"));
  EXPECT_EQ(j["status"]["images"][0]["names"][0], "nginx:1.17");
}

TEST(ExtenderWireTest, StringsAreEscapedLikeGo) {
  Node node;
  node.meta.name = "a\"b\\c\n\t\x01<>&\xE2\x80\xA8\xFF\x7F\xC3\xA9";
  EXPECT_EQ(NodeToJson(node),
            R"({"metadata":{"name":"a\"b\\c\n\t\u0001\u003c\u003e\u0026\u2028\ufffd)"
            "\x7F\xC3\xA9"
            R"(","creationTimestamp":null},"spec":{},"status":{}})");
}

TEST(ExtenderWireTest, ExtenderArgs) {
  ClusterState cluster = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1"}},
      {"kind":"Node","metadata":{"name":"n2"}}]})");
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"containers":[{"name":"c"}]}})");
  std::vector<NodeId> nodes = {cluster.FindNode("n2"), cluster.FindNode("n1")};

  json full = json::parse(EncodeExtenderArgs(pod, nodes, cluster, false));
  EXPECT_EQ(full["Pod"]["metadata"]["name"], "p");
  EXPECT_EQ(full["Nodes"]["metadata"], json::object());
  ASSERT_EQ(full["Nodes"]["items"].size(), 2u);
  EXPECT_EQ(full["Nodes"]["items"][0]["metadata"]["name"], "n2");
  EXPECT_TRUE(full["NodeNames"].is_null());

  json names = json::parse(EncodeExtenderArgs(pod, nodes, cluster, true));
  EXPECT_TRUE(names["Nodes"].is_null());
  EXPECT_EQ(names["NodeNames"], json::parse(R"(["n2","n1"])"));

  json none = json::parse(EncodeExtenderArgs(pod, {}, cluster, false));
  EXPECT_TRUE(none["Nodes"]["items"].is_null());
  EXPECT_EQ(json::parse(EncodeExtenderArgs(pod, {}, cluster, true))["NodeNames"], json::array());
}

TEST(ExtenderWireTest, PreemptionArgs) {
  ClusterState cluster = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1"}},
      {"kind":"Node","metadata":{"name":"n2"}},
      {"kind":"Pod","metadata":{"name":"v","namespace":"default","uid":"u-v"},
       "spec":{"nodeName":"n2","containers":[{"name":"c"}]}}]})");
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"containers":[{"name":"c"}]}})");
  std::vector<ExtenderNodeVictims> victims = {{cluster.FindNode("n2"), {0}, 1},
                                              {cluster.FindNode("n1"), {}, 0}};
  json full = json::parse(EncodePreemptionArgs(pod, victims, cluster, false));
  EXPECT_EQ(full["Pod"]["metadata"]["name"], "p");
  EXPECT_TRUE(full["NodeNameToMetaVictims"].is_null());
  EXPECT_TRUE(full["NodeNameToVictims"]["n1"]["Pods"].is_null()) << "a nil slice";
  EXPECT_EQ(full["NodeNameToVictims"]["n2"]["Pods"][0]["metadata"]["name"], "v");
  EXPECT_EQ(full["NodeNameToVictims"]["n2"]["NumPDBViolations"], 1);

  // Keys sorted as Go writes a map; victims by UID for a node cache.
  EXPECT_EQ(
      EncodePreemptionArgs(pod, victims, cluster, true)
          .substr(EncodePreemptionArgs(pod, victims, cluster, true).find("\"NodeNameToVictims\"")),
      R"("NodeNameToVictims":null,"NodeNameToMetaVictims":{"n1":{"Pods":null,)"
      R"("NumPDBViolations":0},"n2":{"Pods":[{"UID":"u-v"}],"NumPDBViolations":1}}})");
}

TEST(DecodePreemptionResultTest, Values) {
  auto r = DecodePreemptionResult(R"({"nodeNameToMetaVictims":{
      "n2":{"pods":[{"uid":"a"},{"UID":"b"}],"numPDBViolations":3},
      "n1":{"Pods":[]},"n3":null}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].node, "n2");
  ASSERT_EQ((*r)[0].pods.size(), 2u);
  EXPECT_EQ((*r)[0].pods[1].uid, "b");
  EXPECT_EQ((*r)[1].node, "n1");
  EXPECT_FALSE((*r)[1].nil);
  EXPECT_TRUE((*r)[1].pods.empty());
  EXPECT_TRUE((*r)[2].nil);

  auto empty = DecodePreemptionResult("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(DecodePreemptionResultTest, RepeatedKeysFollowGo) {
  // A repeated node key starts from a new value; a repeated Pods key reuses
  // the slice, so an element left empty keeps the earlier UID.
  auto r = DecodePreemptionResult(R"({"NodeNameToMetaVictims":{
      "n1":{"Pods":[{"UID":"old"}]},
      "n1":{"Pods":[{"UID":"x"},{"UID":"y"}],"Pods":[{},null]}}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  ASSERT_EQ((*r)[0].pods.size(), 2u);
  EXPECT_EQ((*r)[0].pods[0].uid, "x");
  EXPECT_FALSE((*r)[0].pods[0].nil);
  EXPECT_TRUE((*r)[0].pods[1].nil);
}

TEST(DecodePreemptionResultTest, TypeErrorsUseGoText) {
  EXPECT_EQ(DecodePreemptionResult(R"({"NodeNameToMetaVictims":[]})").error().message,
            "json: cannot unmarshal array into Go struct field "
            "ExtenderPreemptionResult.NodeNameToMetaVictims of type map[string]*api.MetaVictims");
  EXPECT_EQ(DecodePreemptionResult(R"({"NodeNameToMetaVictims":{"n":{"Pods":[{"UID":1}]}}})")
                .error()
                .message,
            "json: cannot unmarshal number into Go struct field MetaPod.UID of type string");
  EXPECT_EQ(
      DecodePreemptionResult(R"({"NodeNameToMetaVictims":{"n":{"NumPDBViolations":"1"}}})")
          .error()
          .message,
      "json: cannot unmarshal string into Go struct field MetaVictims.NumPDBViolations of type "
      "int");
}

TEST(ExtenderWireTest, BindingArgs) {
  EXPECT_EQ(EncodeBindingArgs("p", "ns", "uid-1", "n1"),
            R"({"PodName":"p","PodNamespace":"ns","PodUID":"uid-1","Node":"n1"})");
}

}  // namespace extender_wire_test
}  // namespace ksched
