#include "preemption/victim_order.h"

#include <limits>

#include "api/priority_admission.h"

namespace ksched {

bool MoreImportantPod(const Pod& a, const Pod& b) {
  const int32_t pa = PodPriority(a), pb = PodPriority(b);
  if (pa != pb) return pa > pb;
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  const int64_t sa = a.start_time.value_or(kNever), sb = b.start_time.value_or(kNever);
  if (sa != sb) return sa < sb;
  const std::string_view na = Str(a.meta.ns), nb = Str(b.meta.ns);
  if (na != nb) return na < nb;
  return a.meta.name < b.meta.name;
}

}  // namespace ksched
