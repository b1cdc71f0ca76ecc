// End-to-end checks of the what-if commands on the bundled example:
// capacity for workloads, --add-node, drain and -o html.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_run.h"

namespace {

using namespace ksched::cli_testing;

TEST(PlanningCli, CapacityForADeploymentAfterThePendingPods) {
  CommandRun r = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                        Example("web-deployment.yaml") + " -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pending"]["scheduledFirst"], true);
  EXPECT_EQ(j["pending"]["count"], 5);
  EXPECT_EQ(j["pending"]["unscheduled"], 2);
  auto w = j["workloads"][0];
  EXPECT_EQ(w["workload"], "Deployment shop/api");
  EXPECT_EQ(w["requested"], 6);  // spec.replicas
  EXPECT_EQ(w["count"], 6);
  // =max: until one does not fit.
  CommandRun fill = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                           Example("web-deployment.yaml") + "=max -o json");
  ASSERT_EQ(fill.status, 0) << fill.err;
  auto f = nlohmann::json::parse(fill.out)["workloads"][0];
  EXPECT_TRUE(f["requested"].is_null());
  EXPECT_GT(f["count"].get<int>(), 6);
  EXPECT_NE(f["stopReason"].get<std::string>().find("0/5 nodes are available"), std::string::npos);
  // The table says what happened to the pending pods.
  CommandRun table =
      Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-deployment.yaml") +
             "=2 --pod " + Example("web-pod.yaml") + "=1 --ignore-pending");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("Pending pods: left out (--ignore-pending; the snapshot has 5)"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("Deployment shop/api: 2 of 2 requested copies fit."), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("Pod shop/web-7d9f: 1 of 1 requested copy fit."), std::string::npos)
      << table.out;
}

TEST(PlanningCli, CapacityExitsOneWhenNotOneCopyFits) {
  std::string huge = WriteTemp("huge.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: huge}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "100"}}}]}
)");
  CommandRun r = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + huge);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("Pod default/huge: 0 more copies fit."), std::string::npos) << r.out;
  CommandRun bad = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + huge + "=0");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("the count after '='"), std::string::npos) << bad.err;
  EXPECT_TRUE(bad.out.empty());
}

TEST(PlanningCli, AddNodeForScheduleAndCapacity) {
  CommandRun s = Ksched("schedule -f " + Example("cluster.yaml") + " --add-node " +
                        Example("node-template.yaml") + " -o json");
  ASSERT_EQ(s.status, 0) << s.err;
  auto j = nlohmann::json::parse(s.out);
  // One 8-core node takes report-builder (6 cores) and gives the web pod a
  // host of its own.
  EXPECT_EQ(j[0]["template"], "node-c");
  EXPECT_EQ(j[0]["nodes"], 1);
  CommandRun c =
      Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-deployment.yaml") +
             "=40 --add-node " + Example("node-template.yaml") + "=10");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("node-c"), std::string::npos) << c.out;
  std::string tiny = WriteTemp("tiny.yaml", R"(apiVersion: v1
kind: Node
metadata: {name: tiny}
status: {allocatable: {cpu: 100m, memory: 1Gi, pods: "110"}}
)");
  CommandRun none = Ksched("schedule -f " + Example("cluster.yaml") + " --add-node " + tiny + "=4");
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.out.find("none up to 4"), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("even with 4 nodes added, shop/"), std::string::npos) << none.out;
  CommandRun unbounded = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                                Example("web-pod.yaml") + " --add-node " + tiny);
  EXPECT_EQ(unbounded.status, 2);
  EXPECT_NE(unbounded.err.find("needs a count"), std::string::npos) << unbounded.err;
}

TEST(PlanningCli, DrainVerdictAndExitStatus) {
  CommandRun ok = Ksched("drain -f " + Example("cluster.yaml") + " node-a1");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out.rfind("safe to drain: 1 pod evicted, all rescheduled", 0), 0u) << ok.out;
  CommandRun j = Ksched("drain -f " + Example("cluster.yaml") + " node-a1 node-a2 node-b1 -o json");
  auto d = nlohmann::json::parse(j.out);
  EXPECT_EQ(d["nodes"].size(), 3u);
  EXPECT_EQ(j.status, d["safe"].get<bool>() ? 0 : 1);
  EXPECT_FALSE(d["verdict"].get<std::string>().empty());
  CommandRun missing = Ksched("drain -f " + Example("cluster.yaml") + " nope");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("node \"nope\" is not in the snapshot"), std::string::npos);
}

TEST(PlanningCli, HtmlReportsAreOnePage) {
  for (const std::string& cmd :
       {"schedule -f " + Example("cluster.yaml"),
        "capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-deployment.yaml"),
        "drain -f " + Example("cluster.yaml") + " node-a1"}) {
    CommandRun r = Ksched(cmd + " -o html");
    EXPECT_NE(r.status, 2) << cmd << r.err;
    EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u) << cmd;
    EXPECT_NE(r.out.find("id=\"ksched-data\""), std::string::npos) << cmd;
    EXPECT_NE(r.out.find("</html>"), std::string::npos) << cmd;
  }
}

// The HTML page's placements are `schedule`'s: the same loop decides both.
TEST(PlanningCli, HtmlScheduleAgreesWithJson) {
  CommandRun json = Ksched("schedule -f " + Example("cluster.yaml") + " -o json");
  CommandRun html = Ksched("schedule -f " + Example("cluster.yaml") + " -o html");
  ASSERT_EQ(json.status, html.status);
  const std::string open = "id=\"ksched-data\">";
  size_t begin = html.out.find(open);
  ASSERT_NE(begin, std::string::npos);
  begin += open.size();
  size_t end = html.out.find("</script>", begin);
  auto data = nlohmann::json::parse(html.out.substr(begin, end - begin));
  std::map<std::string, std::string> from_html;
  for (const auto& p : data["pods"]) from_html[p["pod"]] = p["node"];
  size_t compared = 0;
  std::map<std::string, std::string> from_json;
  for (const auto& step : nlohmann::json::parse(json.out)) {
    if (step.contains("skipped")) continue;
    from_json[step["pod"]] = step["node"].is_null() ? "" : step["node"].get<std::string>();
  }
  for (const auto& [pod, node] : from_json) {
    EXPECT_EQ(from_html[pod], node) << pod;
    ++compared;
  }
  EXPECT_EQ(compared, 5u);
  EXPECT_EQ(from_html.size(), 5u);
}

TEST(PlanningCli, HelpHasExamples) {
  for (const char* cmd : {"capacity", "drain", "schedule"}) {
    CommandRun r = Ksched(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.out.find("example"), std::string::npos) << cmd;
    EXPECT_NE(r.out.find("html"), std::string::npos) << cmd;
  }
}

}  // namespace
