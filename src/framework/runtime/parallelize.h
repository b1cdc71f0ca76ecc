// Upstream's parallelize.Parallelizer, made deterministic: body(begin, end)
// runs over [0, n) in chunks on oneTBB's workers when the range is large
// enough to pay for it, else inline. Every chunk writes only its own indices,
// so results never depend on the thread count or on timing.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <cstddef>

namespace ksched::framework {

template <typename F>
void ParallelFor(size_t n, F&& body, size_t grain = 64) {
  // One worker allowed (bench --threads 1): no tasks to split and steal.
  if (n < 2 * grain ||
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism) <= 1) {
    body(size_t{0}, n);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, grain),
                    [&](const tbb::blocked_range<size_t>& r) { body(r.begin(), r.end()); });
}

}  // namespace ksched::framework
