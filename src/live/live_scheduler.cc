#include "live/live_scheduler.h"

#include <fmt/format.h>

#include "live/log.h"
#include "preemption/preempt.h"

namespace ksched::live {

namespace {

using namespace std::chrono_literals;

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

std::string Ns(const Pod& pod) { return std::string(Str(pod.meta.ns)); }

}  // namespace

LiveScheduler::LiveScheduler(GenericScheduler* engine, SchedulerApi* api, const Clock* clock,
                             Metrics* metrics, LiveOptions options)
    : engine_(engine),
      api_(api),
      clock_(clock),
      metrics_(metrics),
      options_(std::move(options)),
      queue_(clock, options_.queue),
      cache_(clock, &queue_, LiveCache::Options{options_.scheduler_name, options_.assumed_pod_ttl}),
      recorder_(api, options_.scheduler_name),
      binders_(std::make_unique<WorkerPool>(options_.bind_workers)),
      writers_(std::make_unique<WorkerPool>(options_.write_workers)) {}

LiveScheduler::~LiveScheduler() {
  // Workers report into inbox_ and use recorder_: stop them first.
  binders_.reset();
  writers_.reset();
}

void LiveScheduler::Stop() {
  stop_.store(true);
  inbox_.Wake();
}

void LiveScheduler::Apply(InboxItem item) {
  if (auto* e = std::get_if<client::WatchEvent>(&item)) {
    if (Status s = cache_.Apply(*e); !s.ok()) {
      Log('W', fmt::format("ignoring {} {} event: {}", client::ResourceName(e->resource),
                           client::WatchEventTypeName(e->type), s.error().message));
    }
  } else if (auto* b = std::get_if<BindOutcome>(&item)) {
    OnBindOutcome(*b);
  } else if (auto* n = std::get_if<NominationFailed>(&item)) {
    if (PodPtr pod = cache_.FindPod(n->key)) queue_.DeleteNominatedPodIfExists(*pod);
  }
}

void LiveScheduler::DrainInbox() {
  std::vector<InboxItem> items;
  inbox_.Drain(&items);
  for (InboxItem& item : items) Apply(std::move(item));
}

void LiveScheduler::Periodic() {
  const Clock::TimePoint now = clock_->Now();
  if (now - last_backoff_flush_ >= 1s) {
    last_backoff_flush_ = now;
    queue_.FlushBackoffCompleted();
  }
  if (now - last_unschedulable_flush_ >= 30s) {
    last_unschedulable_flush_ = now;
    queue_.FlushUnschedulableLeftover();
  }
  if (now - last_expiry_ >= 1s) {
    last_expiry_ = now;
    for (const std::string& key : cache_.ExpireAssumedPods()) {
      Log('W',
          fmt::format("assumed pod {} expired: its binding was never confirmed by the watch", key));
    }
  }
}

void LiveScheduler::UpdateGauges() {
  if (metrics_ == nullptr) return;
  PriorityQueue::Sizes s = queue_.sizes();
  metrics_->pending_active->Set(static_cast<double>(s.active));
  metrics_->pending_backoff->Set(static_cast<double>(s.backoff));
  metrics_->pending_unschedulable->Set(static_cast<double>(s.unschedulable));
  metrics_->cache_nodes->Set(static_cast<double>(cache_.num_nodes()));
  metrics_->cache_pods->Set(static_cast<double>(cache_.num_pods()));
  metrics_->cache_assumed->Set(static_cast<double>(cache_.num_assumed()));
  const double dropped = static_cast<double>(recorder_.dropped());
  if (dropped > metrics_->events_dropped->Value()) {
    metrics_->events_dropped->Increment(dropped - metrics_->events_dropped->Value());
  }
}

void LiveScheduler::Run(const std::function<bool()>& may_schedule) {
  Clock::TimePoint last_gauges{};
  while (!stop_.load()) {
    DrainInbox();
    Periodic();
    const bool leader = may_schedule();
    if (metrics_ != nullptr) metrics_->leader->Set(leader ? 1 : 0);
    if (clock_->Now() - last_gauges >= 1s) {
      last_gauges = clock_->Now();
      UpdateGauges();
    }
    if (!leader || !cache_.HasSynced()) {
      inbox_.Wait(100ms);
      continue;
    }
    PriorityQueue::PodPtr pod = queue_.TryPop();
    if (!pod) {
      inbox_.Wait(250ms);
      continue;
    }
    ScheduleOne(std::move(pod));
  }
  WaitForBindings();
  UpdateGauges();
}

size_t LiveScheduler::RunOnce(bool schedule) {
  DrainInbox();
  Periodic();
  size_t n = 0;
  if (!schedule || !cache_.HasSynced()) return 0;
  while (PriorityQueue::PodPtr pod = queue_.TryPop()) {
    ScheduleOne(std::move(pod));
    ++n;
  }
  return n;
}

void LiveScheduler::WaitForBindings() {
  // Binders report to the inbox and may queue victim deletions' events:
  // wait for both pools, then apply what they reported.
  for (int round = 0; round < 2; ++round) {
    binders_->WaitIdle();
    writers_->WaitIdle();
    DrainInbox();
  }
  recorder_.Flush();
}

void LiveScheduler::RecordFailure(const PodPtr& pod, const std::string& reason,
                                  const std::string& message) {
  recorder_.Record(*pod, "Warning", "FailedScheduling", message);
  std::string written = reason + '\n' + message;
  auto [it, added] = condition_written_.try_emplace(pod->Key());
  if (!added && it->second == written) return;  // unchanged: upstream writes nothing
  it->second = std::move(written);
  writers_->Submit([this, ns = Ns(*pod), name = pod->meta.name, reason, message] {
    Status s = api_->SetPodScheduledCondition(ns, name, "False", reason, message);
    if (!s.ok()) {
      Log('W', fmt::format("PodScheduled condition of {}/{} not written: {}", ns, name,
                           s.error().message));
    }
  });
}

void LiveScheduler::Requeue(const PodPtr& pod, int64_t cycle) {
  // Upstream's error func re-reads the pod and queues it as unschedulable
  // when it is still pending; the cache is our fresh read.
  const std::string key = pod->Key();
  PodPtr current = cache_.FindPod(key);
  if (current && current->spec.node_name.empty() && !cache_.IsAssumed(key) &&
      current->meta.uid == pod->meta.uid) {
    queue_.AddUnschedulableIfNotPresent(pod, cycle);
  }
}

void LiveScheduler::Preempt(const PodPtr& pod, const ScheduleResult& result, PodPtr* requeue) {
  const auto start = std::chrono::steady_clock::now();
  ClusterState& state = cache_.state();
  PreemptionResult p = ksched::Preempt(*pod, result, state, engine_->config(), &cache_.nominated(),
                                       state.pod_disruption_budgets());
  if (metrics_ != nullptr) {
    metrics_->preemption_attempts->Increment();
    metrics_->preemption_evaluation_duration->Observe(
        Seconds(std::chrono::steady_clock::now() - start));
  }
  if (!p.error.empty()) {
    Log('E', fmt::format("preemption for {} failed: {}", pod->Key(), p.error));
    return;
  }
  if (p.node != kNoNode) {
    const std::string node = state.node(p.node).meta.name;
    auto nominated = std::make_shared<Pod>(*pod);
    nominated->nominated_node_name = node;
    queue_.UpdateNominatedPodForNode(nominated, node);
    *requeue = nominated;
    std::vector<PodPtr> victims;
    std::string names;
    for (PodId v : p.victims) {
      victims.push_back(std::make_shared<const Pod>(state.pod(v).pod));
      names += (names.empty() ? "" : ", ") + victims.back()->Key();
    }
    Log('I', fmt::format("preempting for {} on node {}: deleting {}", pod->Key(), node,
                         names.empty() ? "no pods" : names));
    if (metrics_ != nullptr) metrics_->preemption_victims->Set(static_cast<double>(victims.size()));
    writers_->Submit([this, preemptor = *requeue, node, victims = std::move(victims)] {
      const std::string ns = Ns(*preemptor);
      Status s = api_->SetNominatedNodeName(ns, preemptor->meta.name, node);
      if (!s.ok()) {
        Log('E', fmt::format("cannot set nominatedNodeName of {}: {}", preemptor->Key(),
                             s.error().message));
        inbox_.Push(NominationFailed{preemptor->Key()});
        return;
      }
      for (const PodPtr& v : victims) {
        if (Status d = api_->DeletePod(Ns(*v), v->meta.name, v->meta.uid); !d.ok()) {
          Log('E', fmt::format("preempting pod {}: {}", v->Key(), d.error().message));
          return;
        }
        recorder_.Record(*v, "Normal", "Preempted",
                         fmt::format("by {} on node {}", preemptor->Key(), node));
      }
    });
  }
  for (const PreemptionResult::PodRef& ref : p.nominated_pods_to_clear) {
    const size_t slash = ref.key.find('/');
    if (slash == std::string::npos) continue;
    writers_->Submit([this, ns = ref.key.substr(0, slash), name = ref.key.substr(slash + 1)] {
      if (Status s = api_->SetNominatedNodeName(ns, name, ""); !s.ok()) {
        Log('W', fmt::format("cannot clear nominatedNodeName of {}/{}: {}", ns, name,
                             s.error().message));
      }
    });
  }
}

void LiveScheduler::ScheduleOne(PriorityQueue::PodPtr popped) {
  const std::string key = popped->Key();
  PodPtr pod = cache_.FindPod(key);
  if (!pod || pod->meta.uid != popped->meta.uid || !pod->spec.node_name.empty() ||
      cache_.IsAssumed(key)) {
    condition_written_.erase(key);
    return;  // deleted, recreated or bound since it was queued
  }
  if (pod->meta.has_deletion_timestamp) {
    recorder_.Record(*pod, "Warning", "FailedScheduling",
                     fmt::format("skip schedule deleting pod: {}", key));
    return;
  }
  // A nomination made by this scheduler may not be back from the watch yet.
  if (pod->nominated_node_name.empty() && !popped->nominated_node_name.empty()) {
    auto copy = std::make_shared<Pod>(*pod);
    copy->nominated_node_name = popped->nominated_node_name;
    pod = std::move(copy);
  }
  const auto start = std::chrono::steady_clock::now();
  cache_.Prepare();
  const int64_t cycle = queue_.SchedulingCycle();
  ++cycles_;
  ScheduleResult r = engine_->Schedule(*pod, cache_.state(), cache_.tree(),
                                       /*record_details=*/false, &cache_.nominated());
  const double algorithm_seconds = Seconds(std::chrono::steady_clock::now() - start);

  if (r.chosen != kNoNode) {
    const std::string node = cache_.state().node(r.chosen).meta.name;
    if (metrics_ != nullptr) metrics_->algorithm_duration->Observe(algorithm_seconds);
    if (Status s = cache_.AssumePod(*pod, node); !s.ok()) {
      Log('E', fmt::format("assuming {} on {}: {}", key, node, s.error().message));
      if (metrics_ != nullptr) metrics_->attempts_error->Increment();
      RecordFailure(pod, "SchedulerError", "AssumePod failed: " + s.error().message);
      Requeue(pod, cycle);
      return;
    }
    queue_.DeleteNominatedPodIfExists(*pod);
    binders_->Submit([this, ns = Ns(*pod), name = pod->meta.name, uid = pod->meta.uid, key, node,
                      start] {
      const auto t0 = std::chrono::steady_clock::now();
      Status s = api_->BindPod(ns, name, uid, node);
      BindOutcome o{key, node, std::move(s), start, Seconds(std::chrono::steady_clock::now() - t0)};
      inbox_.Push(std::move(o));
    });
    return;
  }

  if (!r.fit_error) {
    Log('E', fmt::format("error scheduling {}: {}", key, r.error));
    if (metrics_ != nullptr) metrics_->attempts_error->Increment();
    RecordFailure(pod, "Unschedulable", r.error);
    Requeue(pod, cycle);
    return;
  }
  Log('I', fmt::format("unschedulable {}: {}", key, r.error));
  if (metrics_ != nullptr) metrics_->attempts_unschedulable->Increment();
  RecordFailure(pod, "Unschedulable", r.error);
  PodPtr requeue = pod;
  if (!options_.disable_preemption) Preempt(pod, r, &requeue);
  Requeue(requeue, cycle);
}

void LiveScheduler::OnBindOutcome(const BindOutcome& o) {
  const auto now = std::chrono::steady_clock::now();
  if (o.status.ok()) {
    cache_.FinishBinding(o.key);
    bound_.fetch_add(1);
    condition_written_.erase(o.key);
    if (metrics_ != nullptr) {
      metrics_->attempts_scheduled->Increment();
      metrics_->binding_duration->Observe(o.bind_seconds);
      metrics_->e2e_duration->Observe(Seconds(now - o.cycle_start));
    }
    if (options_.log_decisions) {
      Log('I', fmt::format("bound {} to {} ({:.1f} ms after its cycle began)", o.key, o.node,
                           1000 * Seconds(now - o.cycle_start)));
    }
    if (PodPtr pod = cache_.FindPod(o.key)) {
      recorder_.Record(*pod, "Normal", "Scheduled",
                       fmt::format("Successfully assigned {} to {}", o.key, o.node));
    }
    return;
  }
  cache_.ForgetPod(o.key);
  if (metrics_ != nullptr) {
    metrics_->attempts_error->Increment();
    metrics_->e2e_duration->Observe(Seconds(now - o.cycle_start));
  }
  Log('E', fmt::format("binding {} to {} failed: {}", o.key, o.node, o.status.error().message));
  if (PodPtr pod = cache_.FindPod(o.key)) {
    RecordFailure(pod, "SchedulerError", "Binding rejected: " + o.status.error().message);
    Requeue(pod, queue_.SchedulingCycle());
  }
}

}  // namespace ksched::live
