// Where the framework's timings go (upstream's FrameworkExtensionPointDuration
// and PluginExecutionDuration, pkg/scheduler/framework/runtime). Nothing is
// timed unless a front end gives the framework a recorder (`ksched run`
// does; schedule, capacity, drain, replay and bench do not).
//
// Extension points are timed on every cycle and reported at once. A plugin
// is timed only on the cycles SampleCycle() picks (10 %, as upstream); its
// timings go into a fixed buffer of kBufferSize that Flush() hands to the
// sink (the live scheduler flushes it every second, as upstream's recorder
// goroutine does), and timings that find the buffer full are dropped.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <random>
#include <string_view>
#include <thread>
#include <vector>

#include "framework/status.h"

namespace ksched::framework {

// Upstream's extension point labels.
namespace extension_points {
inline constexpr std::string_view kPreEnqueue = "PreEnqueue";
inline constexpr std::string_view kPreFilter = "PreFilter";
inline constexpr std::string_view kPreFilterExtensionAddPod = "PreFilterExtensionAddPod";
inline constexpr std::string_view kPreFilterExtensionRemovePod = "PreFilterExtensionRemovePod";
inline constexpr std::string_view kFilter = "Filter";
inline constexpr std::string_view kPostFilter = "PostFilter";
inline constexpr std::string_view kPreScore = "PreScore";
inline constexpr std::string_view kScore = "Score";
inline constexpr std::string_view kScoreExtensionNormalize = "ScoreExtensionNormalize";
inline constexpr std::string_view kReserve = "Reserve";
inline constexpr std::string_view kUnreserve = "Unreserve";
inline constexpr std::string_view kPermit = "Permit";
inline constexpr std::string_view kPreBind = "PreBind";
inline constexpr std::string_view kBind = "Bind";
inline constexpr std::string_view kPostBind = "PostBind";
}  // namespace extension_points

// Receives the timings (the live scheduler's Prometheus metrics). Called
// from the scheduling thread and, for binding extension points, from binder
// threads: implementations must be thread-safe.
class MetricsSink {
 public:
  virtual ~MetricsSink() = default;
  virtual void ExtensionPointDuration(std::string_view point, std::string_view status,
                                      std::string_view profile, double seconds) = 0;
  virtual void PluginExecutionDuration(std::string_view plugin, std::string_view point,
                                       std::string_view status, double seconds) = 0;
};

class MetricsRecorder {
 public:
  static constexpr int kPluginSamplePercent = 10;  // upstream's pluginMetricsSamplePercent
  static constexpr size_t kBufferSize = 1000;      // upstream's recorder buffer

  explicit MetricsRecorder(MetricsSink* sink, uint64_t seed = std::random_device{}());

  // Whether the cycle about to run times its plugins (scheduling thread).
  bool SampleCycle();
  // Forces every cycle (true) or none (false) to be sampled; for tests.
  void SetSampleEvery(bool every) { sample_every_ = every ? 1 : 0; }

  // An extension point's run (any thread); `profile` is the profile's
  // schedulerName. Made on the thread between BeginCycle() and EndCycle(),
  // the observation waits for the cycle's end, and DiscardCycle() drops it
  // (a cycle the scheduler runs again in full: each extension point counts
  // once per cycle, as upstream's). Plugin timings are never dropped: each
  // is a run of the plugin.
  void ExtensionPoint(std::string_view point, Code code, std::string_view profile, double seconds);
  // One plugin's run on a sampled cycle (the cycle's worker threads; never
  // blocks). `plugin` must outlive the next Flush() (plugin names do).
  void Plugin(std::string_view plugin, std::string_view point, Code code, double seconds);
  // Hands the buffered plugin timings to the sink and empties the buffer.
  // Call from the scheduling thread between cycles. Returns how many.
  size_t Flush();

  void BeginCycle();
  void DiscardCycle();
  void EndCycle();

 private:
  struct PluginSample {
    std::string_view plugin, point;
    Code code;
    double seconds;
  };
  struct PointSample {
    std::string_view point;
    Code code;
    std::string_view profile;
    double seconds;
  };
  MetricsSink* sink_;
  std::mt19937_64 rng_;
  int sample_every_ = -1;  // -1: sample at random
  std::vector<PluginSample> buffer_;
  std::atomic<size_t> next_{0};
  std::atomic<std::thread::id> cycle_thread_{};
  std::vector<PointSample> cycle_points_;
};

}  // namespace ksched::framework
