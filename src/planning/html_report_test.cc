#include "planning/html_report.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>

#include "planning/capacity.h"
#include "planning/drain.h"
#include "planning/planning_test_util.h"

namespace ksched::planning {
namespace html_report_test {

using testing::NodeYaml;
using testing::PodYaml;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(RenderHtml, DataCannotEndTheScript) {
  HtmlReport r;
  r.title = "t";
  PodRecord p;
  p.pod = "default/</script><script>alert(1)</script>";
  p.error = "x";
  r.pods.push_back(p);
  std::string html = RenderHtml(r);
  EXPECT_EQ(Count(html, "</script>"), 2u);  // the page's own two
  EXPECT_NE(html.find("\\u003c/script>"), std::string::npos);
  // Self-contained: nothing fetched.
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
}

std::string Chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::string cmd = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) return name;
  }
  return "";
}

std::string RunCapture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  return out;
}

// The drain report of a small cluster, drawn by a real browser: the script
// runs without errors and the page shows the numbers the engine computed.
TEST(RenderHtml, HeadlessBrowserDrawsTheDrainReport) {
  const std::string browser = Chromium();
  if (browser.empty()) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh)";
  const std::string cluster =
      NodeYaml("n1", "2") + NodeYaml("n2", "2") +
      PodYaml("web-1", "1", "n1",
              "    labels: {app: web}\n    ownerReferences: [{apiVersion: apps/v1, kind: "
              "ReplicaSet, name: web, uid: u1, controller: true}]\n") +
      PodYaml("db-1", "1", "n2") +
      PodYaml("big", "3", "n1",
              "    ownerReferences: [{apiVersion: apps/v1, kind: "
              "ReplicaSet, name: big, uid: u2, controller: true}]\n");
  DrainOptions o;
  o.record_details = true;
  auto r = PlanDrain(testing::DecodeYaml(cluster), {"n1"}, testing::DefaultScheduler(), o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  HtmlReport page;
  page.title = "ksched drain n1";
  page.verdict = r->verdict;
  page.verdict_ok = r->safe;
  page.before = r->before;
  page.after = r->after;
  page.marked_nodes = {"n1"};
  page.marked_as = "drained";
  page.priorities = r->priorities;
  for (const EvictedPod& e : r->evicted) page.pods.push_back(e.record);
  page.sections.push_back({"Extra", {"a", "b"}, {{"cell-one", "cell-two"}}});

  const std::string dir = ::testing::TempDir() + "/ksched-html-" + std::to_string(getpid());
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const std::string file = dir + "/report.html";
  std::ofstream(file) << RenderHtml(page);
  const std::string dom =
      RunCapture(browser + " --headless --no-sandbox --disable-gpu --user-data-dir=" + dir +
                 "/profile --virtual-time-budget=5000 --dump-dom file://" + file + " 2>/dev/null");
  ASSERT_FALSE(dom.empty()) << "the browser printed nothing";
  EXPECT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_EQ(dom.find("data-js-error=\"1\""), std::string::npos) << dom;
  EXPECT_NE(dom.find("<div id=\"errors\"></div>"), std::string::npos);
  EXPECT_NE(dom.find(r->verdict), std::string::npos);
  // n1 before: web-1 and big (4 of 2 cores requested); after: nothing.
  EXPECT_NE(dom.find("4 \u2192 0 / 2 (0%)"), std::string::npos) << dom;
  // n2: db-1, then web-1's replacement as well.
  EXPECT_NE(dom.find("1 \u2192 2 / 2 (100%)"), std::string::npos) << dom;
  EXPECT_NE(dom.find("1 \u2192 2 / 110 (2%)"), std::string::npos) << dom;
  EXPECT_NE(dom.find("n1 (drained)"), std::string::npos);
  // The pod that fits nowhere, with upstream's FitError.
  EXPECT_NE(dom.find("Unschedulable (1)"), std::string::npos);
  EXPECT_NE(dom.find("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable."),
            std::string::npos)
      << dom;
  EXPECT_NE(dom.find("Placements (1)"), std::string::npos);
  EXPECT_NE(dom.find("cell-two"), std::string::npos);
  std::system(("rm -rf " + dir).c_str());
}

// Nodes with GPUs get a GPU bar: usage counts every GPU resource.
TEST(RenderHtml, GpuBarsWhenNodesHaveGpus) {
  EXPECT_TRUE(IsGpuResource("nvidia.com/gpu"));
  EXPECT_TRUE(IsGpuResource("amd.com/gpu"));
  EXPECT_TRUE(IsGpuResource("gpu.intel.com/i915"));
  EXPECT_FALSE(IsGpuResource("example.com/gpus"));
  EXPECT_FALSE(IsGpuResource("cpu"));
  const std::string cluster = NodeYaml("cpu-1", "2") + R"(
- apiVersion: v1
  kind: Node
  metadata: {name: gpu-1, labels: {kubernetes.io/hostname: gpu-1}}
  status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110", nvidia.com/gpu: "4"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: train, namespace: default}
  spec:
    containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "3"}, requests: {nvidia.com/gpu: "3"}}}]
)";
  Snapshot snap = testing::SnapshotOf(cluster);
  auto r = PlanCapacity(snap.objects, snap.pending, {}, testing::DefaultScheduler(), {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->after.size(), 2u);
  EXPECT_EQ(r->after[1].name, "gpu-1");
  EXPECT_EQ(r->after[1].gpu_allocatable, 4);
  EXPECT_EQ(r->after[1].gpu, 3);
  EXPECT_EQ(r->before[1].gpu, 0);
  EXPECT_EQ(r->after[0].gpu_allocatable, 0);
  HtmlReport page;
  page.title = "gpus";
  page.before = r->before;
  page.after = r->after;
  const std::string html = RenderHtml(page);
  EXPECT_NE(html.find("[\"gpu-1\",8000,8589934592,110,0,0,0,4,0]"), std::string::npos) << html;
  const std::string browser = Chromium();
  if (browser.empty()) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh)";
  const std::string dir = ::testing::TempDir() + "/ksched-gpu-" + std::to_string(getpid());
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::ofstream(dir + "/gpu.html") << html;
  const std::string dom =
      RunCapture(browser + " --headless --no-sandbox --disable-gpu --user-data-dir=" + dir +
                 "/profile --virtual-time-budget=5000 --dump-dom file://" + dir + "/gpu.html" +
                 " 2>/dev/null");
  EXPECT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("<th>gpu</th>"), std::string::npos) << dom;
  EXPECT_NE(dom.find("0 \u2192 3 / 4 (75%)"), std::string::npos) << dom;
  // Without GPUs, no column.
  HtmlReport plain;
  plain.title = "plain";
  plain.after = {r->after[0]};
  std::ofstream(dir + "/plain.html") << RenderHtml(plain);
  const std::string plain_dom =
      RunCapture(browser + " --headless --no-sandbox --disable-gpu --user-data-dir=" + dir +
                 "/profile --virtual-time-budget=5000 --dump-dom file://" + dir + "/plain.html" +
                 " 2>/dev/null");
  EXPECT_NE(plain_dom.find("data-rendered=\"ok\""), std::string::npos);
  EXPECT_EQ(plain_dom.find("<th>gpu</th>"), std::string::npos);
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace html_report_test
}  // namespace ksched::planning
