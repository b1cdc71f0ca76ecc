#include "queue/priority_queue.h"

#include <algorithm>

#include "api/priority_admission.h"
#include "predicates/affinity_terms.h"
#include "queue/events.h"

namespace ksched {

namespace {

// Upstream's isPodUpdated: whether anything but the resourceVersion and the
// status changed (only such a change can make an unschedulable pod fit).
bool PodSpecOrMetaChanged(const Pod& old_pod, const Pod& new_pod) {
  if (!(old_pod.spec == new_pod.spec)) return true;
  if (old_pod.meta.resource_version == new_pod.meta.resource_version)
    return !(old_pod.meta == new_pod.meta);
  ObjectMeta a = old_pod.meta;
  a.resource_version = new_pod.meta.resource_version;
  return !(a == new_pod.meta);
}

}  // namespace

bool PriorityQueue::ActiveLess::operator()(const Entry& a, const Entry& b) const {
  const int32_t pa = PodPriority(*a.pod), pb = PodPriority(*b.pod);
  if (pa != pb) return pa > pb;
  if (a.timestamp != b.timestamp) return a.timestamp < b.timestamp;
  return a.seq < b.seq;
}

PriorityQueue::PriorityQueue(const Clock* clock, Options options)
    : clock_(clock), options_(options) {}

PriorityQueue::Entry PriorityQueue::NewEntry(PodPtr pod) {
  Entry e;
  e.pod = std::move(pod);
  e.timestamp = clock_->Now();
  e.seq = next_seq_++;
  return e;
}

void PriorityQueue::PushActive(Entry e) {
  std::string key = KeyOf(*e.pod);
  EraseActive(key);
  auto it = active_.insert(std::move(e)).first;
  active_index_[key] = it;
  cv_.notify_one();
}

void PriorityQueue::EraseActive(const std::string& key) {
  auto it = active_index_.find(key);
  if (it == active_index_.end()) return;
  active_.erase(it->second);
  active_index_.erase(it);
}

void PriorityQueue::PushBackoff(Entry e) {
  std::string key = KeyOf(*e.pod);
  backoff_[key] = std::move(e);
}

void PriorityQueue::EraseBackoff(const std::string& key) { backoff_.erase(key); }

std::optional<Clock::TimePoint> PriorityQueue::BackoffTime(const std::string& key) const {
  auto it = backoff_state_.find(key);
  if (it == backoff_state_.end()) return std::nullopt;
  std::chrono::nanoseconds d = options_.initial_backoff;
  for (int i = 1; i < it->second.attempts; ++i) {
    d *= 2;
    if (d > options_.max_backoff) {
      d = options_.max_backoff;
      break;
    }
  }
  return it->second.last_update + d;
}

bool PriorityQueue::IsBackingOff(const std::string& key) const {
  std::optional<Clock::TimePoint> t = BackoffTime(key);
  return t && *t > clock_->Now();
}

void PriorityQueue::BackoffPod(const std::string& key) {
  const Clock::TimePoint now = clock_->Now();
  // Forget pods whose last backoff ended long ago: their next one starts
  // from the initial duration again.
  for (auto it = backoff_state_.begin(); it != backoff_state_.end();) {
    if (it->second.last_update + options_.max_backoff < now) {
      it = backoff_state_.erase(it);
    } else {
      ++it;
    }
  }
  std::optional<Clock::TimePoint> t = BackoffTime(key);
  if (!t || *t < now) {
    BackoffState& s = backoff_state_[key];
    s.last_update = now;
    ++s.attempts;
  }
}

void PriorityQueue::CountUnschedulable(const Entry& e, int delta) const {
  if (!options_.on_unschedulable_plugin || e.unschedulable_plugins.empty()) return;
  const std::string& name = e.pod->spec.scheduler_name;
  const std::string_view profile = name.empty() ? std::string_view("default-scheduler") : name;
  for (const std::string& plugin : e.unschedulable_plugins)
    options_.on_unschedulable_plugin(plugin, profile, delta);
}

void PriorityQueue::StartAttemptsLocked(const Pod& pod) {
  auto [it, added] = attempts_.try_emplace(KeyOf(pod));
  if (!added && it->second.uid == pod.meta.uid) return;
  it->second = PodAttempts{pod.meta.uid, Attempts{0, clock_->Now()}};
}

PriorityQueue::Attempts PriorityQueue::AttemptsOf(const Pod& pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = attempts_.find(KeyOf(pod));
  if (it == attempts_.end() || it->second.uid != pod.meta.uid) return Attempts{};
  return it->second.attempts;
}

void PriorityQueue::NotAttempted(const Pod& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = attempts_.find(KeyOf(pod));
  if (it != attempts_.end() && it->second.uid == pod.meta.uid && it->second.attempts.attempts > 0)
    --it->second.attempts.attempts;
}

void PriorityQueue::Add(PodPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key = KeyOf(*pod);
  if (auto it = unschedulable_.find(key); it != unschedulable_.end()) {
    CountUnschedulable(it->second, -1);
    unschedulable_.erase(it);
  }
  if (auto it = backoff_.find(key); it != backoff_.end()) {
    CountUnschedulable(it->second, -1);
    EraseBackoff(key);
  }
  if (auto it = active_index_.find(key); it != active_index_.end())
    CountUnschedulable(*it->second, -1);
  StartAttemptsLocked(*pod);
  nominator_.Add(pod, "");
  PushActive(NewEntry(std::move(pod)));
  Incoming("active", queue_events::kPodAdd);
}

void PriorityQueue::SetClusterEventMap(framework::ClusterEventMap map) {
  std::lock_guard<std::mutex> lock(mu_);
  event_map_ = std::move(map);
}

void PriorityQueue::AddIfNotPresent(PodPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key = KeyOf(*pod);
  if (unschedulable_.count(key) || InActive(key) || backoff_.count(key)) return;
  StartAttemptsLocked(*pod);
  nominator_.Add(pod, "");
  PushActive(NewEntry(std::move(pod)));
}

bool PriorityQueue::AddUnschedulableIfNotPresent(PodPtr pod, int64_t cycle,
                                                 std::vector<std::string> unschedulable_plugins) {
  std::lock_guard<std::mutex> lock(mu_);
  return AddFailedIfNotPresentLocked(std::move(pod), move_request_cycle_ >= cycle,
                                     std::move(unschedulable_plugins));
}

bool PriorityQueue::AddBackoffIfNotPresent(PodPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  return AddFailedIfNotPresentLocked(std::move(pod), /*to_backoff=*/true, {});
}

bool PriorityQueue::AddFailedIfNotPresentLocked(PodPtr pod, bool to_backoff,
                                                std::vector<std::string> unschedulable_plugins) {
  std::string key = KeyOf(*pod);
  if (unschedulable_.count(key) || InActive(key) || backoff_.count(key)) return false;
  BackoffPod(key);
  StartAttemptsLocked(*pod);
  nominator_.Add(pod, "");
  Entry e = NewEntry(std::move(pod));
  e.unschedulable_plugins = std::move(unschedulable_plugins);
  CountUnschedulable(e, +1);
  if (to_backoff) {
    PushBackoff(std::move(e));
    Incoming("backoff", queue_events::kScheduleAttemptFailure);
  } else {
    unschedulable_[key] = std::move(e);
    Incoming("unschedulable", queue_events::kScheduleAttemptFailure);
  }
  return true;
}

void PriorityQueue::Update(const PodPtr& old_pod, PodPtr new_pod) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key = KeyOf(*new_pod);
  if (old_pod) {
    if (auto it = active_index_.find(key); it != active_index_.end()) {
      Entry e = *it->second;
      nominator_.Update(*old_pod, new_pod);
      e.pod = std::move(new_pod);
      PushActive(std::move(e));
      return;
    }
    if (auto it = backoff_.find(key); it != backoff_.end()) {
      nominator_.Update(*old_pod, new_pod);
      if (event_map_) {  // v1.26: updated where it is, still backing off
        it->second.pod = std::move(new_pod);
        return;
      }
      Entry e = std::move(it->second);  // v1.15: back to active
      backoff_.erase(it);
      e.pod = std::move(new_pod);
      PushActive(std::move(e));
      return;
    }
  }
  if (auto it = unschedulable_.find(key); it != unschedulable_.end()) {
    if (old_pod) {
      nominator_.Update(*old_pod, new_pod);
    } else {
      nominator_.Add(new_pod, "");
    }
    Entry e = std::move(it->second);
    // Only a change that could make the pod fit counts: not its status.
    const bool changed = !old_pod || PodSpecOrMetaChanged(*old_pod, *new_pod);
    e.pod = std::move(new_pod);
    if (changed && event_map_) {
      // v1.26: a pod still backing off waits out its backoff.
      unschedulable_.erase(it);
      if (IsBackingOff(key)) {
        PushBackoff(std::move(e));
      } else {
        PushActive(std::move(e));
      }
    } else if (changed) {
      backoff_state_.erase(key);
      unschedulable_.erase(it);
      PushActive(std::move(e));
    } else {
      it->second = std::move(e);
    }
    return;
  }
  StartAttemptsLocked(*new_pod);
  nominator_.Add(new_pod, "");
  PushActive(NewEntry(std::move(new_pod)));
  Incoming("active", queue_events::kPodAdd);
}

void PriorityQueue::Delete(const Pod& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key = KeyOf(pod);
  nominator_.Remove(pod);
  if (auto it = attempts_.find(key); it != attempts_.end() && it->second.uid == pod.meta.uid)
    attempts_.erase(it);
  if (auto it = active_index_.find(key); it != active_index_.end()) {
    CountUnschedulable(*it->second, -1);
    EraseActive(key);
    return;
  }
  backoff_state_.erase(key);
  if (auto it = backoff_.find(key); it != backoff_.end()) {
    CountUnschedulable(it->second, -1);
    EraseBackoff(key);
  }
  if (auto it = unschedulable_.find(key); it != unschedulable_.end()) {
    CountUnschedulable(it->second, -1);
    unschedulable_.erase(it);
  }
}

void PriorityQueue::MoveToActiveLocked(const std::vector<std::string>& keys,
                                       const framework::ClusterEvent& event) {
  for (const std::string& key : keys) {
    auto it = unschedulable_.find(key);
    if (it == unschedulable_.end()) continue;
    // Pods no plugin rejected (an error, an extender) move on any event.
    const std::vector<std::string>& plugins = it->second.unschedulable_plugins;
    if (event_map_ && !plugins.empty() && !event_map_->Matches(plugins, event)) continue;
    Entry e = std::move(it->second);
    unschedulable_.erase(it);
    if (IsBackingOff(key)) {
      PushBackoff(std::move(e));
      Incoming("backoff", event.label);
    } else {
      PushActive(std::move(e));
      Incoming("active", event.label);
    }
  }
  move_request_cycle_ = scheduling_cycle_;
  cv_.notify_all();
}

void PriorityQueue::MoveAllToActive(const framework::ClusterEvent& event,
                                    const framework::EventObject&, const framework::EventObject&,
                                    const PreEnqueueCheck& check) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> keys;
  keys.reserve(unschedulable_.size());
  for (const auto& [key, e] : unschedulable_)
    if (!check || check(*e.pod)) keys.push_back(key);
  MoveToActiveLocked(keys, event);
}

void PriorityQueue::MoveAllToActive() { MoveAllToActive(queue_events::kWildCard); }

void PriorityQueue::AssignedPodAdded(const Pod& pod) {
  AssignedPodChanged(pod, queue_events::kAssignedPodAdd);
}

void PriorityQueue::AssignedPodUpdated(const Pod& pod) {
  AssignedPodChanged(pod, queue_events::kAssignedPodUpdate);
}

void PriorityQueue::AssignedPodChanged(const Pod& pod, const framework::ClusterEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  // Unschedulable pods with a required pod-affinity term that `pod` matches.
  std::vector<std::string> keys;
  for (const auto& [key, e] : unschedulable_) {
    const Pod& up = *e.pod;
    if (!up.spec.affinity || !up.spec.affinity->pod_affinity) continue;
    for (const PodAffinityTerm& t : up.spec.affinity->pod_affinity->required) {
      if (CompileAffinityTerm(t, up.meta.ns, 0).Matches(pod)) {
        keys.push_back(key);
        break;
      }
    }
  }
  // Upstream records a move request here even when nothing moved.
  MoveToActiveLocked(keys, event);
}

void PriorityQueue::FlushBackoffCompleted() {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::TimePoint now = clock_->Now();
  for (auto it = backoff_.begin(); it != backoff_.end();) {
    std::optional<Clock::TimePoint> t = BackoffTime(it->first);
    if (t && *t > now) {
      ++it;
      continue;
    }
    Entry e = std::move(it->second);
    it = backoff_.erase(it);
    PushActive(std::move(e));
    Incoming("active", queue_events::kBackoffComplete);
  }
}

void PriorityQueue::FlushUnschedulableLeftover() {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::TimePoint now = clock_->Now();
  std::vector<std::string> keys;
  for (const auto& [key, e] : unschedulable_) {
    if (now - e.timestamp > options_.unschedulable_timeout) keys.push_back(key);
  }
  if (!keys.empty()) MoveToActiveLocked(keys, queue_events::kUnschedulableTimeout);
}

PriorityQueue::PodPtr PriorityQueue::PopLocked() {
  if (active_.empty()) return nullptr;
  Entry e = *active_.begin();
  const std::string key = KeyOf(*e.pod);
  active_index_.erase(key);
  active_.erase(active_.begin());
  ++scheduling_cycle_;
  if (auto it = attempts_.find(key); it != attempts_.end() && it->second.uid == e.pod->meta.uid)
    ++it->second.attempts.attempts;
  CountUnschedulable(e, -1);
  return e.pod;
}

PriorityQueue::PodPtr PriorityQueue::Pop() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return closed_ || !active_.empty(); });
  return PopLocked();
}

PriorityQueue::PodPtr PriorityQueue::TryPop() {
  std::lock_guard<std::mutex> lock(mu_);
  return PopLocked();
}

void PriorityQueue::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
  cv_.notify_all();
}

int64_t PriorityQueue::SchedulingCycle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return scheduling_cycle_;
}

void PriorityQueue::UpdateNominatedPodForNode(PodPtr pod, const std::string& node) {
  std::lock_guard<std::mutex> lock(mu_);
  nominator_.Add(pod, node);
}

void PriorityQueue::DeleteNominatedPodIfExists(const Pod& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  nominator_.Remove(pod);
}

std::vector<std::pair<std::string, PriorityQueue::PodPtr>> PriorityQueue::NominatedPods() const {
  std::lock_guard<std::mutex> lock(mu_);
  return nominator_.List();
}

PriorityQueue::Sizes PriorityQueue::sizes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return Sizes{active_.size(), backoff_.size(), unschedulable_.size(), 0};
}

}  // namespace ksched
