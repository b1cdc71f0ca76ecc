#include "framework/runtime/metrics_recorder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "framework/runtime/list_sink_test_util.h"

namespace ksched::framework {
namespace metrics_recorder_test {

TEST(MetricsRecorder, ExtensionPointsOutsideACycleGoStraightToTheSink) {
  ListSink sink;
  MetricsRecorder m(&sink);
  m.ExtensionPoint(extension_points::kPostFilter, Code::kUnschedulable, "default-scheduler", 0.1);
  EXPECT_EQ(sink.points, std::vector<std::string>{"PostFilter Unschedulable default-scheduler"});
}

TEST(MetricsRecorder, ACycleRunAgainReportsItsExtensionPointsOnce) {
  ListSink sink;
  MetricsRecorder m(&sink);
  m.BeginCycle();
  m.ExtensionPoint(extension_points::kPreFilter, Code::kSuccess, "p", 0.1);
  m.Plugin("A", extension_points::kPreFilter, Code::kSuccess, 0.1);
  EXPECT_TRUE(sink.points.empty());  // held until the cycle ends
  m.DiscardCycle();
  m.ExtensionPoint(extension_points::kPreFilter, Code::kSuccess, "p", 0.1);
  m.ExtensionPoint(extension_points::kFilter, Code::kSuccess, "p", 0.1);
  m.Plugin("A", extension_points::kPreFilter, Code::kError, 0.1);
  m.EndCycle();
  EXPECT_EQ(sink.points, (std::vector<std::string>{"PreFilter Success p", "Filter Success p"}));
  EXPECT_TRUE(sink.plugins.empty());  // until the flush
  EXPECT_EQ(m.Flush(), 2u);           // both runs of the plugin
  EXPECT_EQ(sink.plugins, (std::vector<std::string>{"A PreFilter Success", "A PreFilter Error"}));
}

TEST(MetricsRecorder, PluginTimingsBeyondTheBufferAreDroppedUntilTheFlush) {
  ListSink sink;
  MetricsRecorder m(&sink);
  for (size_t i = 0; i < MetricsRecorder::kBufferSize + 5; ++i)
    m.Plugin("F", extension_points::kFilter, Code::kSuccess, 0.001);
  EXPECT_EQ(m.Flush(), MetricsRecorder::kBufferSize);
  EXPECT_EQ(m.Flush(), 0u);
  m.Plugin("F", extension_points::kFilter, Code::kUnschedulable, 0.001);
  EXPECT_EQ(m.Flush(), 1u);
  EXPECT_EQ(sink.plugins.back(), "F Filter Unschedulable");
}

TEST(MetricsRecorder, SamplesATenthOfTheCyclesUnlessTold) {
  ListSink sink;
  MetricsRecorder m(&sink, /*seed=*/7);
  int sampled = 0;
  for (int i = 0; i < 10000; ++i) sampled += m.SampleCycle() ? 1 : 0;
  EXPECT_GT(sampled, 800);
  EXPECT_LT(sampled, 1200);
  m.SetSampleEvery(true);
  EXPECT_TRUE(m.SampleCycle());
  m.SetSampleEvery(false);
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(m.SampleCycle());
}

}  // namespace metrics_recorder_test
}  // namespace ksched::framework
