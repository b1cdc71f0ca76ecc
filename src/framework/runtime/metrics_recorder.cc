#include "framework/runtime/metrics_recorder.h"

#include <algorithm>

namespace ksched::framework {

MetricsRecorder::MetricsRecorder(MetricsSink* sink, uint64_t seed)
    : sink_(sink), rng_(seed), buffer_(kBufferSize) {}

bool MetricsRecorder::SampleCycle() {
  if (sample_every_ >= 0) return sample_every_ == 1;
  return std::uniform_int_distribution<int>(0, 99)(rng_) < kPluginSamplePercent;
}

void MetricsRecorder::ExtensionPoint(std::string_view point, Code code, std::string_view profile,
                                     double seconds) {
  if (cycle_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
    cycle_points_.push_back({point, code, profile, seconds});
    return;
  }
  sink_->ExtensionPointDuration(point, CodeName(code), profile, seconds);
}

void MetricsRecorder::Plugin(std::string_view plugin, std::string_view point, Code code,
                             double seconds) {
  const size_t at = next_.fetch_add(1, std::memory_order_relaxed);
  if (at >= kBufferSize) return;  // full: dropped, as upstream's channel drops
  buffer_[at] = {plugin, point, code, seconds};
}

size_t MetricsRecorder::Flush() {
  const size_t n = std::min(next_.load(), kBufferSize);
  for (size_t i = 0; i < n; ++i) {
    const PluginSample& s = buffer_[i];
    sink_->PluginExecutionDuration(s.plugin, s.point, CodeName(s.code), s.seconds);
  }
  next_.store(0);
  return n;
}

void MetricsRecorder::BeginCycle() {
  cycle_thread_.store(std::this_thread::get_id());
  cycle_points_.clear();
}

void MetricsRecorder::DiscardCycle() { cycle_points_.clear(); }

void MetricsRecorder::EndCycle() {
  cycle_thread_.store(std::thread::id());
  for (const PointSample& p : cycle_points_)
    sink_->ExtensionPointDuration(p.point, CodeName(p.code), p.profile, p.seconds);
  cycle_points_.clear();
}

}  // namespace ksched::framework
