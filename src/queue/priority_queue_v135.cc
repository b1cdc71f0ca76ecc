#include "queue/priority_queue_v135.h"

#include <algorithm>

#include "api/priority_admission.h"
#include "cache/resource.h"

namespace ksched {

namespace {

using framework::ClusterEvent;
using framework::EventObject;
using framework::EventResource;
using framework::QueueingHint;

// The queue's own event labels (upstream's framework/events.go).
constexpr std::string_view kScheduleAttemptFailure = "ScheduleAttemptFailure";
constexpr std::string_view kBackoffComplete = "BackoffComplete";
constexpr std::string_view kPopFromBackoffQ = "PopFromBackoffQ";
constexpr std::string_view kForceActivate = "ForceActivate";
constexpr std::string_view kPodPopped = "PodPopped";  // scheduler_inflight_events

const ClusterEvent& UnscheduledPodAdd() {
  static const ClusterEvent e =
      framework::MakeClusterEvent(EventResource::kUnschedulablePod, framework::kAdd);
  return e;
}
const ClusterEvent& UnscheduledPodUpdate() {
  static const ClusterEvent e =
      framework::MakeClusterEvent(EventResource::kUnschedulablePod, framework::kUpdate);
  return e;
}
const ClusterEvent& AssignedPodAdd() {
  static const ClusterEvent e =
      framework::MakeClusterEvent(EventResource::kAssignedPod, framework::kAdd);
  return e;
}
const ClusterEvent& UnschedulableTimeout() {
  static const ClusterEvent e{EventResource::kWildCard, framework::kAll, "UnschedulableTimeout"};
  return e;
}
const ClusterEvent& ForceActivateEvent() {
  static const ClusterEvent e{EventResource::kWildCard, framework::kAll,
                              std::string(kForceActivate)};
  return e;
}

bool Has(const std::vector<std::string>& sorted, std::string_view s) {
  return std::binary_search(sorted.begin(), sorted.end(), s);
}

void InsertSorted(std::vector<std::string>* v, const std::string& s) {
  auto it = std::lower_bound(v->begin(), v->end(), s);
  if (it == v->end() || *it != s) v->insert(it, s);
}

const std::string& ProfileOf(const Pod& pod) {
  static const std::string kDefault = "default-scheduler";
  return pod.spec.scheduler_name.empty() ? kDefault : pod.spec.scheduler_name;
}

// extractPodScaleDown: some request of the old version is gone or smaller.
bool ScaledDown(const Pod& new_pod, const Pod& old_pod) {
  const PodRequestOptions options{/*use_status_resources=*/true, /*pod_level_resources=*/true};
  const ResourceList after = PodRequestsV135(new_pod, options);
  for (const ResourceQuantity& before : PodRequestsV135(old_pod, options)) {
    auto it = std::find_if(after.begin(), after.end(),
                           [&](const ResourceQuantity& q) { return q.name == before.name; });
    if (it == after.end() || before.milli > it->milli) return true;
  }
  return false;
}

}  // namespace

std::vector<ClusterEvent> PodSchedulingPropertiesChange(const Pod& new_pod, const Pod& old_pod) {
  const EventResource r = new_pod.spec.node_name.empty() ? EventResource::kUnschedulablePod
                                                         : EventResource::kAssignedPod;
  std::vector<ClusterEvent> events;
  auto add = [&](uint32_t action) { events.push_back(framework::MakeClusterEvent(r, action)); };
  if (!(new_pod.meta.labels == old_pod.meta.labels)) add(framework::kUpdatePodLabel);
  if (ScaledDown(new_pod, old_pod)) add(framework::kUpdatePodScaleDown);
  if (new_pod.spec.scheduling_gates.empty() && !old_pod.spec.scheduling_gates.empty())
    add(framework::kUpdatePodSchedulingGatesEliminated);
  // Tolerations can be added, never changed or removed: the count tells.
  if (new_pod.spec.tolerations.size() != old_pod.spec.tolerations.size())
    add(framework::kUpdatePodToleration);
  // DynamicResourceAllocation is GA (locked on) in v1.35.
  if (!(new_pod.resource_claim_statuses == old_pod.resource_claim_statuses))
    add(framework::kUpdatePodGeneratedResourceClaim);
  if (events.empty()) add(framework::kUpdate);
  return events;
}

bool PriorityQueueV135::ActiveLess::operator()(const Info* a, const Info* b) const {
  const int32_t pa = PodPriority(*a->pod), pb = PodPriority(*b->pod);
  if (pa != pb) return pa > pb;
  if (a->timestamp != b->timestamp) return a->timestamp < b->timestamp;
  return a->seq < b->seq;
}

bool PriorityQueueV135::BackoffLess::operator()(const Info* a, const Info* b) const {
  const Clock::TimePoint ea = a->backoff_expiration.value_or(Clock::TimePoint::min());
  const Clock::TimePoint eb = b->backoff_expiration.value_or(Clock::TimePoint::min());
  if (ea != eb) return ea < eb;
  // lessBackoffCompletedWithPriority: one window's pods in active's order.
  if (with_priority) return ActiveLess()(a, b);
  return a->seq < b->seq;
}

PriorityQueueV135::PriorityQueueV135(const Clock* clock, Options options)
    : clock_(clock),
      options_(std::move(options)),
      backoff_(BackoffLess{this, options_.pop_from_backoff}),
      error_backoff_(BackoffLess{this, false}) {
  for (const auto& [profile, map] : options_.hints)
    for (const framework::QueueingHintMap::Entry& e : map.entries())
      for (const auto& fn : e.fns) plugin_events_[fn.plugin].push_back(e.event);
}

std::unique_ptr<PriorityQueueV135::Info> PriorityQueueV135::NewInfo(PodPtr pod) {
  auto info = std::make_unique<Info>();
  info->pod = std::move(pod);
  info->timestamp = clock_->Now();
  info->seq = next_seq_++;
  return info;
}

PriorityQueueV135::Info* PriorityQueueV135::Find(const std::string& key) const {
  auto it = queued_.find(key);
  return it == queued_.end() ? nullptr : it->second.get();
}

std::unique_ptr<PriorityQueueV135::Info> PriorityQueueV135::Detach(const std::string& key) {
  auto it = queued_.find(key);
  if (it == queued_.end()) return nullptr;
  std::unique_ptr<Info> info = std::move(it->second);
  queued_.erase(it);
  switch (info->part) {
    case Part::kActive:
      active_.erase(info.get());
      break;
    case Part::kBackoff:
      backoff_.erase(info.get());
      break;
    case Part::kErrorBackoff:
      error_backoff_.erase(info.get());
      break;
    case Part::kUnschedulable:
      unschedulable_.erase(key);
      break;
    case Part::kNone:
      break;
  }
  info->part = Part::kNone;
  return info;
}

void PriorityQueueV135::Attach(std::unique_ptr<Info> info, Part part, std::string_view event) {
  const std::string key = KeyOf(*info->pod);
  Info* p = info.get();
  p->part = part;
  queued_[key] = std::move(info);
  const char* name = "";
  switch (part) {
    case Part::kActive:
      active_.insert(p);
      name = "active";
      cv_.notify_one();
      break;
    case Part::kBackoff:
    case Part::kErrorBackoff:
      p->backoff_expiration = BackoffTime(*p);
      (part == Part::kBackoff ? backoff_ : error_backoff_).insert(p);
      name = "backoff";
      if (part == Part::kBackoff && options_.pop_from_backoff) cv_.notify_one();
      break;
    case Part::kUnschedulable:
      unschedulable_[key] = p;
      name = "unschedulable";
      break;
    case Part::kNone:
      return;
  }
  if (options_.on_incoming) options_.on_incoming(name, event);
}

void PriorityQueueV135::CountPlugins(const Info& info, int delta) const {
  if (!options_.on_unschedulable_plugin) return;
  for (const std::string& p : info.unschedulable_plugins)
    options_.on_unschedulable_plugin(p, ProfileOf(*info.pod), delta);
  for (const std::string& p : info.pending_plugins)
    if (!Has(info.unschedulable_plugins, p))
      options_.on_unschedulable_plugin(p, ProfileOf(*info.pod), delta);
}

Clock::TimePoint PriorityQueueV135::AlignToWindow(Clock::TimePoint t) const {
  if (!options_.pop_from_backoff) return t;
  // backoffQOrderingWindowDuration: one second.
  return std::chrono::time_point_cast<Clock::TimePoint::duration>(
      std::chrono::floor<std::chrono::seconds>(t));
}

std::chrono::nanoseconds PriorityQueueV135::BackoffDuration(int count) const {
  if (count <= 0) return std::chrono::nanoseconds(0);
  const int shift = count - 1;
  // initial << shift, unless that passes max.
  if (shift >= 62 ||
      options_.initial_backoff > std::chrono::nanoseconds(options_.max_backoff.count() >> shift))
    return options_.max_backoff;
  return options_.initial_backoff * (int64_t{1} << shift);
}

Clock::TimePoint PriorityQueueV135::BackoffTime(const Info& info) const {
  if (options_.max_backoff.count() == 0) return Clock::TimePoint::min();  // backoff disabled
  // The count of consecutive errors when the last attempt failed with one.
  const int count =
      info.consecutive_errors > 0 ? info.consecutive_errors : info.unschedulable_count;
  if (count == 0) return Clock::TimePoint::min();  // never attempted: no backoff
  if (info.backoff_expiration) return *info.backoff_expiration;
  return AlignToWindow(info.timestamp + BackoffDuration(count));
}

bool PriorityQueueV135::IsBackingOff(const Info& info) const {
  const Clock::TimePoint t = BackoffTime(info);
  if (t == Clock::TimePoint::min()) return false;
  // Still backing off within the current window.
  return !(t < AlignToWindow(clock_->Now()));
}

void PriorityQueueV135::RunPreEnqueue(Info* info) const {
  if (!options_.pre_enqueue) {
    info->gating_plugin.clear();
    return;
  }
  const std::string plugin = options_.pre_enqueue(*info->pod);
  if (plugin.empty()) {
    info->gating_plugin.clear();
    return;
  }
  if (!Has(info->unschedulable_plugins, plugin)) {
    InsertSorted(&info->unschedulable_plugins, plugin);
    if (options_.on_unschedulable_plugin)
      options_.on_unschedulable_plugin(plugin, ProfileOf(*info->pod), 1);
  }
  info->gating_plugin = plugin;
  auto it = plugin_events_.find(plugin);
  info->gating_plugin_events =
      it == plugin_events_.end() ? std::vector<ClusterEvent>() : it->second;
}

bool PriorityQueueV135::MoveToActive(std::unique_ptr<Info> info, std::string_view event,
                                     bool from_backoff) {
  // With PopFromBackoffQ the plugins ran when it entered backoff.
  if (!(options_.pop_from_backoff && from_backoff)) RunPreEnqueue(info.get());
  if (info->Gated()) {
    Attach(std::move(info), Part::kUnschedulable, event);
    return false;
  }
  if (!info->initial_attempt) info->initial_attempt = clock_->Now();
  const bool nominate = event == UnscheduledPodAdd().label || event == UnscheduledPodUpdate().label;
  PodPtr pod = info->pod;
  Attach(std::move(info), Part::kActive, event);
  if (nominate) nominator_.Add(pod, "");
  return true;
}

bool PriorityQueueV135::MoveToBackoff(std::unique_ptr<Info> info, std::string_view event) {
  if (options_.pop_from_backoff) {
    RunPreEnqueue(info.get());
    if (info->Gated()) {
      Attach(std::move(info), Part::kUnschedulable, event);
      return false;
    }
  }
  // A pod no plugin rejected failed with an error: the error backoff.
  const bool error = info->unschedulable_plugins.empty() && info->pending_plugins.empty();
  Attach(std::move(info), error ? Part::kErrorBackoff : Part::kBackoff, event);
  return true;
}

PriorityQueueV135::Part PriorityQueueV135::Requeue(std::unique_ptr<Info> info, Strategy strategy,
                                                   std::string_view event) {
  if (strategy == Strategy::kSkip) {
    Attach(std::move(info), Part::kUnschedulable, event);
    return Part::kUnschedulable;
  }
  if (strategy == Strategy::kAfterBackoff && IsBackingOff(*info)) {
    const bool error = info->unschedulable_plugins.empty() && info->pending_plugins.empty();
    return MoveToBackoff(std::move(info), event) ? (error ? Part::kErrorBackoff : Part::kBackoff)
                                                 : Part::kUnschedulable;
  }
  return MoveToActive(std::move(info), event, false) ? Part::kActive : Part::kUnschedulable;
}

bool PriorityQueueV135::Interested(const ClusterEvent& event) const {
  if (event.IsWildCard()) return true;
  for (const auto& [profile, map] : options_.hints)
    if (map.Interested(event)) return true;
  return false;
}

PriorityQueueV135::Strategy PriorityQueueV135::WorthRequeuing(const Info& info,
                                                              const ClusterEvent& event,
                                                              const EventObject& old_obj,
                                                              const EventObject& new_obj) const {
  if (info.unschedulable_plugins.empty() && info.pending_plugins.empty())
    return Strategy::kAfterBackoff;  // an error: worth another try
  if (event.IsWildCard()) {
    // A wildcard event for one pod (ForceActivate) moves that pod only.
    if (!new_obj.empty()) {
      const Pod* p = new_obj.As<Pod>();
      if (p == nullptr || p->meta.uid != info.pod->meta.uid) return Strategy::kSkip;
    }
    return Strategy::kAfterBackoff;
  }
  auto map = options_.hints.find(ProfileOf(*info.pod));
  if (map == options_.hints.end()) return Strategy::kAfterBackoff;
  Strategy strategy = Strategy::kSkip;
  for (const framework::QueueingHintMap::Entry& e : map->second.entries()) {
    if (!framework::MatchClusterEvents(e.event, event)) continue;
    for (const framework::QueueingHintMap::Function& fn : e.fns) {
      const bool pending = Has(info.pending_plugins, fn.plugin);
      if (!pending && !Has(info.unschedulable_plugins, fn.plugin)) continue;
      QueueingHint hint = QueueingHint::kQueue;
      if (fn.fn) {
        const auto start = std::chrono::steady_clock::now();
        hint = fn.fn(*info.pod, old_obj, new_obj);
        if (options_.on_hint) {
          options_.on_hint(
              fn.plugin, event.label, hint,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
      }
      // A hint that could not read its objects queues the pod.
      if (hint == QueueingHint::kQueueSkip) continue;
      if (pending) return Strategy::kImmediately;
      if (info.pending_plugins.empty()) return Strategy::kAfterBackoff;
      strategy = Strategy::kAfterBackoff;
    }
  }
  return strategy;
}

void PriorityQueueV135::MovePods(const std::vector<std::string>& keys, const ClusterEvent& event,
                                 const EventObject& old_obj, const EventObject& new_obj) {
  if (!Interested(event)) return;
  for (const std::string& key : keys) {
    Info* info = Find(key);
    if (info == nullptr || info->part != Part::kUnschedulable) continue;
    if (info->Gated()) {
      // Only the gating plugin's events can let a gated pod through.
      bool match = false;
      for (const ClusterEvent& e : info->gating_plugin_events)
        match |= framework::MatchClusterEvents(e, event);
      if (!match) continue;
    }
    const Strategy s = WorthRequeuing(*info, event, old_obj, new_obj);
    if (s == Strategy::kSkip) continue;
    Requeue(Detach(key), s, event.label);
  }
  // Pods in flight will be judged against this event when they come back.
  if (!in_flight_pods_.empty()) RecordInFlight(event, old_obj, new_obj);
  cv_.notify_all();
}

void PriorityQueueV135::RecordInFlight(const ClusterEvent& event, const EventObject& old_obj,
                                       const EventObject& new_obj) {
  in_flight_.push_back(EventRecord{event, old_obj, new_obj});
  if (options_.on_inflight) options_.on_inflight(event.label, 1);
}

PriorityQueueV135::Strategy PriorityQueueV135::InFlightHint(const Info& info) const {
  // determineSchedulingHintForInFlightPod.
  if (info.unschedulable_plugins.empty() && info.pending_plugins.empty())
    return Strategy::kAfterBackoff;
  auto marker = in_flight_pods_.find(info.pod->meta.uid);
  if (marker == in_flight_pods_.end()) return Strategy::kAfterBackoff;  // a bug upstream logs
  Strategy strategy = Strategy::kSkip;
  for (auto it = std::next(marker->second); it != in_flight_.end(); ++it) {
    const auto* e = std::get_if<EventRecord>(&*it);
    if (e == nullptr) continue;  // another pod in flight
    switch (WorthRequeuing(info, e->event, e->old_obj, e->new_obj)) {
      case Strategy::kSkip:
        continue;
      case Strategy::kImmediately:
        return Strategy::kImmediately;
      case Strategy::kAfterBackoff:
        strategy = Strategy::kAfterBackoff;
        if (info.pending_plugins.empty()) return strategy;
    }
  }
  return strategy;
}

void PriorityQueueV135::DoneLocked(const std::string& uid) {
  auto it = in_flight_pods_.find(uid);
  if (it == in_flight_pods_.end()) return;
  in_flight_.erase(it->second);
  in_flight_pods_.erase(it);
  if (options_.on_inflight) options_.on_inflight(kPodPopped, -1);
  // Events older than every pod still in flight are no longer needed.
  while (!in_flight_.empty()) {
    const auto* e = std::get_if<EventRecord>(&in_flight_.front());
    if (e == nullptr) break;
    if (options_.on_inflight) options_.on_inflight(e->event.label, -1);
    in_flight_.pop_front();
  }
}

void PriorityQueueV135::Done(const std::string& uid) {
  std::lock_guard<std::mutex> lock(mu_);
  DoneLocked(uid);
}

void PriorityQueueV135::Add(PodPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = KeyOf(*pod);
  // A pod the queue holds already (a relist) starts over.
  if (std::unique_ptr<Info> old = Detach(key)) CountPlugins(*old, -1);
  popped_.erase(key);
  MoveToActive(NewInfo(std::move(pod)), UnscheduledPodAdd().label, false);
}

bool PriorityQueueV135::AddUnschedulableIfNotPresent(PodPtr pod, int64_t /*cycle*/,
                                                     std::vector<std::string> plugins) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = KeyOf(*pod);
  const std::string uid = pod->meta.uid;
  if (Find(key) != nullptr) {
    DoneLocked(uid);
    return false;
  }
  std::unique_ptr<Info> info;
  if (auto it = popped_.find(key); it != popped_.end() && it->second->pod->meta.uid == uid) {
    info = std::move(it->second);
    popped_.erase(it);
  } else {
    info = NewInfo(pod);
  }
  info->pod = std::move(pod);
  std::sort(plugins.begin(), plugins.end());
  plugins.erase(std::unique(plugins.begin(), plugins.end()), plugins.end());
  info->unschedulable_plugins = std::move(plugins);
  info->pending_plugins.clear();
  if (info->unschedulable_plugins.empty() && info->pending_plugins.empty()) {
    ++info->consecutive_errors;  // back because of an error, not a verdict
  } else {
    ++info->unschedulable_count;
    info->consecutive_errors = 0;
  }
  info->timestamp = clock_->Now();
  info->backoff_expiration.reset();
  CountPlugins(*info, +1);
  const Strategy s = InFlightHint(*info);
  Requeue(std::move(info), s, kScheduleAttemptFailure);
  DoneLocked(uid);
  return true;
}

bool PriorityQueueV135::AddBackoffIfNotPresent(PodPtr pod) {
  return AddUnschedulableIfNotPresent(std::move(pod), SchedulingCycle(), {});
}

void PriorityQueueV135::Update(const PodPtr& old_pod, PodPtr new_pod) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = KeyOf(*new_pod);
  std::vector<ClusterEvent> events;
  if (old_pod) events = PodSchedulingPropertiesChange(*new_pod, *old_pod);
  // A pod in flight comes back with the informer's latest version; its
  // update is judged then.
  if (old_pod && in_flight_pods_.count(new_pod->meta.uid)) {
    for (const ClusterEvent& e : events)
      RecordInFlight(e, EventObject(old_pod), EventObject(new_pod));
    return;
  }
  Info* info = Find(key);
  if (info != nullptr && old_pod &&
      (info->part == Part::kActive || info->part == Part::kBackoff ||
       info->part == Part::kErrorBackoff)) {
    // Updated where it is (the sets' order does not read the pod's spec but
    // its priority, which cannot change).
    nominator_.Update(*old_pod, new_pod);
    info->pod = std::move(new_pod);
    return;
  }
  if (info != nullptr && info->part == Part::kUnschedulable) {
    if (old_pod) {
      nominator_.Update(*old_pod, new_pod);
    } else {
      nominator_.Add(new_pod, "");
    }
    info->pod = new_pod;
    for (const ClusterEvent& e : events) {
      const Strategy s = WorthRequeuing(*info, e, EventObject(old_pod), EventObject(new_pod));
      if (s == Strategy::kSkip) continue;
      const Part part = Requeue(Detach(key), s, e.label);
      if (part == Part::kActive || (options_.pop_from_backoff && part == Part::kBackoff)) break;
      info = Find(key);
      if (info == nullptr || info->part != Part::kUnschedulable) break;
    }
    return;
  }
  if (info == nullptr) {
    popped_.erase(key);
    MoveToActive(NewInfo(std::move(new_pod)), UnscheduledPodUpdate().label, false);
  }
}

void PriorityQueueV135::Delete(const Pod& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = KeyOf(pod);
  nominator_.Remove(pod);
  if (auto it = popped_.find(key); it != popped_.end() && it->second->pod->meta.uid == pod.meta.uid)
    popped_.erase(it);
  if (std::unique_ptr<Info> info = Detach(key)) CountPlugins(*info, -1);
}

void PriorityQueueV135::MoveAllToActive(const ClusterEvent& event, const EventObject& old_obj,
                                        const EventObject& new_obj, const PreEnqueueCheck& check) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!Interested(event)) return;
  std::vector<std::string> keys;
  keys.reserve(unschedulable_.size());
  for (const auto& [key, info] : unschedulable_)
    if (!check || check(*info->pod)) keys.push_back(key);
  MovePods(keys, event, old_obj, new_obj);
}

void PriorityQueueV135::MoveAllToActive() {
  static const ClusterEvent kWildCard{EventResource::kWildCard, framework::kAll, "WildCardEvent"};
  MoveAllToActive(kWildCard, {}, {}, {});
}

void PriorityQueueV135::AssignedPodAdded(const Pod& pod) {
  MoveAllToActive(AssignedPodAdd(), {}, EventObject(std::make_shared<const Pod>(pod)), {});
}

void PriorityQueueV135::AssignedPodUpdated(const Pod& pod) {
  static const ClusterEvent e =
      framework::MakeClusterEvent(EventResource::kAssignedPod, framework::kUpdate);
  MoveAllToActive(e, {}, EventObject(std::make_shared<const Pod>(pod)), {});
}

void PriorityQueueV135::FlushBackoffCompleted() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::unique_ptr<Info>> done;
  for (auto* set : {&backoff_, &error_backoff_}) {
    while (!set->empty() && !IsBackingOff(**set->begin()))
      done.push_back(Detach(KeyOf(*(*set->begin())->pod)));
  }
  for (std::unique_ptr<Info>& info : done) MoveToActive(std::move(info), kBackoffComplete, true);
}

void PriorityQueueV135::FlushUnschedulableLeftover() {
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::TimePoint now = clock_->Now();
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_)
    if (now - info->timestamp > options_.unschedulable_timeout) keys.push_back(key);
  if (!keys.empty()) MovePods(keys, UnschedulableTimeout(), {}, {});
}

bool PriorityQueueV135::CanPopLocked() const {
  return !active_.empty() || (options_.pop_from_backoff && !backoff_.empty());
}

PriorityQueueV135::PodPtr PriorityQueueV135::PopLocked() {
  while (CanPopLocked()) {
    std::unique_ptr<Info> info;
    if (!active_.empty()) {
      info = Detach(KeyOf(*(*active_.begin())->pod));
    } else {
      // Nothing active: the head of backoff, its backoff over or not.
      info = Detach(KeyOf(*(*backoff_.begin())->pod));
      if (options_.on_incoming) options_.on_incoming("active", kPopFromBackoffQ);
    }
    ++info->attempts;
    const std::string& uid = info->pod->meta.uid;
    if (in_flight_pods_.count(uid)) continue;  // tracked twice: dropped, as upstream
    in_flight_.push_back(uid);
    in_flight_pods_[uid] = std::prev(in_flight_.end());
    if (options_.on_inflight) options_.on_inflight(kPodPopped, 1);
    ++scheduling_cycle_;
    CountPlugins(*info, -1);
    info->unschedulable_plugins.clear();
    info->pending_plugins.clear();
    info->gating_plugin.clear();
    info->gating_plugin_events.clear();
    PodPtr pod = info->pod;
    popped_[KeyOf(*pod)] = std::move(info);
    return pod;
  }
  return nullptr;
}

PriorityQueueV135::PodPtr PriorityQueueV135::Pop() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return closed_ || CanPopLocked(); });
  return PopLocked();
}

PriorityQueueV135::PodPtr PriorityQueueV135::TryPop() {
  std::lock_guard<std::mutex> lock(mu_);
  return PopLocked();
}

void PriorityQueueV135::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
  std::vector<std::string> uids;
  for (const auto& [uid, it] : in_flight_pods_) uids.push_back(uid);
  for (const std::string& uid : uids) DoneLocked(uid);
  cv_.notify_all();
}

int64_t PriorityQueueV135::SchedulingCycle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return scheduling_cycle_;
}

void PriorityQueueV135::Activate(const Pod& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = KeyOf(pod);
  Info* info = Find(key);
  if (info != nullptr && info->part == Part::kUnschedulable) {
    MoveToActive(Detach(key), kForceActivate, false);
    return;
  }
  if (info != nullptr && (info->part == Part::kBackoff || info->part == Part::kErrorBackoff)) {
    MoveToActive(Detach(key), kForceActivate, true);
    return;
  }
  // In flight: queued again when it comes back.
  if (in_flight_pods_.count(pod.meta.uid))
    RecordInFlight(ForceActivateEvent(), {}, EventObject(std::make_shared<const Pod>(pod)));
}

void PriorityQueueV135::UpdateNominatedPodForNode(PodPtr pod, const std::string& node) {
  std::lock_guard<std::mutex> lock(mu_);
  nominator_.Add(pod, node);
}

void PriorityQueueV135::DeleteNominatedPodIfExists(const Pod& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  nominator_.Remove(pod);
}

std::vector<std::pair<std::string, PriorityQueueV135::PodPtr>> PriorityQueueV135::NominatedPods()
    const {
  std::lock_guard<std::mutex> lock(mu_);
  return nominator_.List();
}

PriorityQueueV135::Sizes PriorityQueueV135::sizes() const {
  std::lock_guard<std::mutex> lock(mu_);
  Sizes s;
  s.active = active_.size();
  s.backoff = backoff_.size() + error_backoff_.size();
  s.unschedulable = unschedulable_.size();
  for (const auto& [key, info] : unschedulable_) s.gated += info->Gated() ? 1 : 0;
  return s;
}

PriorityQueueV135::Attempts PriorityQueueV135::AttemptsOf(const Pod& pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = KeyOf(pod);
  const Info* info = Find(key);
  if (info == nullptr) {
    auto it = popped_.find(key);
    if (it != popped_.end()) info = it->second.get();
  }
  if (info == nullptr || info->pod->meta.uid != pod.meta.uid) return Attempts{};
  return Attempts{info->attempts, info->initial_attempt.value_or(info->timestamp)};
}

std::optional<Clock::TimePoint> PriorityQueueV135::BackoffExpiration(const Pod& pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Info* info = Find(KeyOf(pod));
  if (info == nullptr) return std::nullopt;
  const Clock::TimePoint t = BackoffTime(*info);
  if (t == Clock::TimePoint::min()) return std::nullopt;
  return t;
}

std::string PriorityQueueV135::PartOf(const Pod& pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Info* info = Find(KeyOf(pod));
  if (info == nullptr) return in_flight_pods_.count(pod.meta.uid) ? "inFlight" : "";
  switch (info->part) {
    case Part::kActive:
      return "active";
    case Part::kBackoff:
      return "backoff";
    case Part::kErrorBackoff:
      return "errorBackoff";
    case Part::kUnschedulable:
      return info->Gated() ? "gated" : "unschedulable";
    case Part::kNone:
      break;
  }
  return "";
}

size_t PriorityQueueV135::InFlightEvents() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_flight_.size() - in_flight_pods_.size();
}

}  // namespace ksched
