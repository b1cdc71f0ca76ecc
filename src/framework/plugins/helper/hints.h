// What the plugins' v1.35 QueueingHint functions share (upstream's util.As
// and the hint results), so each <plugin>_hints.cc reads as upstream's.
#pragma once

#include "framework/cluster_event.h"

namespace ksched::framework::helper {

// Upstream's util.As: the event's objects as T. False when a side that is
// present is not a T (the hint then answers kError, which queues the pod).
template <typename T>
bool As(const EventObject& old_obj, const EventObject& new_obj, const T** old_out,
        const T** new_out) {
  *old_out = old_obj.As<T>();
  *new_out = new_obj.As<T>();
  return (old_obj.empty() || *old_out != nullptr) && (new_obj.empty() || *new_out != nullptr);
}

inline QueueingHint QueueIf(bool queue) {
  return queue ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

}  // namespace ksched::framework::helper
