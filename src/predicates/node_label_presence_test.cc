#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace node_label_presence_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

std::string Fitting(const std::vector<std::string>& labels, bool presence) {
  static const ClusterState c = TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a","retiring":""}}},
    {"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b","rack":"r1"}}},
    {"kind":"Node","metadata":{"name":"n3"}}]})");
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}})");
  auto p = NewNodeLabelPredicate(labels, presence);
  std::string out;
  for (const char* n : {"n1", "n2", "n3"}) {
    auto r = RunCheck(*p, pod, c, n);
    if (r.fits) {
      out += out.empty() ? "" : ",";
      out += n;
    } else {
      EXPECT_THAT(r.reasons, ElementsAre("node(s) didn't have the requested labels"));
    }
  }
  return out;
}

TEST(CheckNodeLabelPresence, Presence) {
  EXPECT_EQ(Fitting({"zone"}, true), "n1,n2");
  EXPECT_EQ(Fitting({"zone", "rack"}, true), "n2");
  // A label with an empty value is present.
  EXPECT_EQ(Fitting({"retiring"}, true), "n1");
  EXPECT_EQ(Fitting({"never-seen-label"}, true), "");
  EXPECT_EQ(Fitting({}, true), "n1,n2,n3");
}

TEST(CheckNodeLabelPresence, Absence) {
  EXPECT_EQ(Fitting({"retiring"}, false), "n2,n3");
  EXPECT_EQ(Fitting({"retiring", "rack"}, false), "n3");
  EXPECT_EQ(Fitting({"never-seen-label"}, false), "n1,n2,n3");
  EXPECT_EQ(Fitting({}, false), "n1,n2,n3");
}

}  // namespace node_label_presence_test
}  // namespace ksched
