#include "live/live_scheduler.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/framework_metrics.h"
#include "live/log.h"
#include "preemption/preempt.h"
#include "queue/events.h"
#include "queue/priority_queue_v135.h"

namespace ksched::live {

namespace {

using namespace std::chrono_literals;

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

std::string Ns(const Pod& pod) { return std::string(Str(pod.meta.ns)); }

// The profile that schedules `pod` (its metrics' `profile` label).
std::string Profile(const Pod& pod) {
  return pod.spec.scheduler_name.empty() ? "default-scheduler" : pod.spec.scheduler_name;
}

// The queue's options with its incoming-pods and unschedulable-pods metrics
// (v1.35: and its hints' and in-flight events').
SchedulingQueue::Options QueueOptionsWithMetrics(SchedulingQueue::Options options,
                                                 Metrics* metrics) {
  if (metrics != nullptr && metrics->v126()) {
    options.on_incoming = [metrics](std::string_view queue, std::string_view event) {
      metrics->QueueIncoming(queue, event);
    };
    options.on_unschedulable_plugin = [metrics](std::string_view plugin, std::string_view profile,
                                                int delta) {
      metrics->UnschedulablePods(plugin, profile, delta);
    };
  }
  if (metrics != nullptr && metrics->v135()) {
    options.on_hint = [metrics](std::string_view plugin, std::string_view event,
                                framework::QueueingHint hint, double seconds) {
      metrics->QueueingHint(plugin, event, framework::QueueingHintName(hint), seconds);
    };
    options.on_inflight = [metrics](std::string_view event, int delta) {
      metrics->InFlightEvents(event, delta);
    };
  }
  return options;
}

// The queue of the engine's release: v1.35's with its QueueingHints and the
// engine's PreEnqueue, else v1.26's (or v1.15's).
std::unique_ptr<SchedulingQueue> MakeQueue(Engine* engine, const Clock* clock,
                                           SchedulingQueue::Options options, Metrics* metrics) {
  options = QueueOptionsWithMetrics(std::move(options), metrics);
  if (std::optional<framework::QueueingHintMaps> hints = EngineQueueingHints(engine)) {
    options.hints = std::move(*hints);
    options.pre_enqueue = [engine](const Pod& pod) {
      return engine->PreEnqueue(pod).empty() ? std::string() : LastPreEnqueuePlugin(engine);
    };
    return std::make_unique<PriorityQueueV135>(clock, std::move(options));
  }
  return std::make_unique<PriorityQueue>(clock, std::move(options));
}

// The cache's options for `engine`: its pod counting and, for v1.26, its
// cluster events and node pre-check; for v1.35 the handlers its plugins
// registered for.
LiveCache::Options CacheOptionsFor(const Engine* engine, const LiveOptions& options) {
  LiveCache::Options out;
  out.scheduler_names = options.scheduler_names;
  out.assumed_pod_ttl = options.assumed_pod_ttl;
  out.cache_options = engine->cache_options();
  if (std::optional<framework::QueueingHintMaps> hints = EngineQueueingHints(engine)) {
    out.v135_events = true;
    using framework::EventResource;
    for (const auto& [profile, map] : *hints)
      for (EventResource r :
           {EventResource::kPersistentVolume, EventResource::kPersistentVolumeClaim,
            EventResource::kStorageClass, EventResource::kCSINode, EventResource::kCSIDriver,
            EventResource::kCSIStorageCapacity})
        out.v135_handlers[r] |= map.Actions(r);
    return out;
  }
  out.cluster_events = engine->ClusterEvents();
  if (out.cluster_events) {
    out.node_pre_check = [engine](const Pod& pod, const NodeInfo& node) {
      return engine->PassesNodePreCheck(pod, node);
    };
  }
  return out;
}

}  // namespace

LiveScheduler::LiveScheduler(Engine* engine, SchedulerApi* api, const Clock* clock,
                             Metrics* metrics, LiveOptions options)
    : engine_(engine),
      api_(api),
      clock_(clock),
      metrics_(metrics),
      options_(std::move(options)),
      queue_(MakeQueue(engine, clock, options_.queue, metrics)),
      cache_(clock, queue_.get(), CacheOptionsFor(engine, options_)),
      recorder_(api, options_.scheduler_names.empty() ? std::string("default-scheduler")
                                                      : options_.scheduler_names.front()),
      binders_(std::make_unique<WorkerPool>(options_.bind_workers)),
      writers_(std::make_unique<WorkerPool>(options_.write_workers)),
      v126_(engine->framework()),
      v135_(EngineQueueingHints(engine).has_value()),
      preemptions_(&cache_) {
  if (!v135_) {
    if (std::optional<framework::ClusterEventMap> map = engine->ClusterEvents())
      static_cast<PriorityQueue*>(queue_.get())->SetClusterEventMap(std::move(*map));
  } else if (options_.async_preemption) {
    SetEngineAsyncPreemptions(engine_, &preemptions_);
  }
  if (metrics_ != nullptr && metrics_->v126()) {
    timings_ = std::make_unique<framework::MetricsRecorder>(metrics_);
    if (options_.sample_every_cycle) timings_->SetSampleEvery(true);
    SetFrameworkMetricsRecorder(engine_, timings_.get());
  }
}

LiveScheduler::~LiveScheduler() {
  if (timings_) SetFrameworkMetricsRecorder(engine_, nullptr);
  if (v135_) SetEngineAsyncPreemptions(engine_, nullptr);
  // Workers report into inbox_ and use recorder_: stop them first.
  stop_.store(true);  // waiting PreBinds give up
  pre_binders_.reset();
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
    if (PodPtr pod = cache_.FindPod(n->key)) queue_->DeleteNominatedPodIfExists(*pod);
  } else if (auto* p = std::get_if<PreemptionDone>(&item)) {
    preemptions_.Finish(p->uid);
    if (metrics_ != nullptr) metrics_->PreemptionGoroutine(p->ok, p->seconds);
    // A victim left undeleted must not keep the preemptor waiting for the
    // events of its deletion: back to active at once (upstream's Activate).
    if (!p->ok) {
      if (PodPtr pod = cache_.FindPod(p->key); pod && pod->meta.uid == p->uid)
        queue_->Activate(*pod);
    }
  }
}

void LiveScheduler::DrainInbox() {
  std::vector<InboxItem> items;
  inbox_.Drain(&items);
  for (InboxItem& item : items) Apply(std::move(item));
  cache_.FlushNodeMoves();
  if (!synced_.load() && cache_.HasSynced()) synced_.store(true);
}

void LiveScheduler::Periodic() {
  const Clock::TimePoint now = clock_->Now();
  if (v135_) {
    // v1.35 flushes backoff on whole seconds, the windows its expirations
    // are truncated to.
    const int64_t window = std::chrono::floor<std::chrono::seconds>(now.time_since_epoch()).count();
    if (window != last_backoff_window_) {
      last_backoff_window_ = window;
      queue_->FlushBackoffCompleted();
    }
  } else if (now - last_backoff_flush_ >= 1s) {
    last_backoff_flush_ = now;
    queue_->FlushBackoffCompleted();
  }
  if (now - last_unschedulable_flush_ >= 30s) {
    last_unschedulable_flush_ = now;
    queue_->FlushUnschedulableLeftover();
  }
  if (timings_ && now - last_metrics_flush_ >= 1s) {
    last_metrics_flush_ = now;
    timings_->Flush();  // sampled plugin timings, as upstream's recorder each second
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
  SchedulingQueue::Sizes s = queue_->sizes();
  size_t gated = s.gated;  // the v1.35 queue counts its gated pods itself
  if (!v135_) {
    // Gated pods wait in the unschedulable part; forget the ones gone.
    for (auto it = gated_.begin(); it != gated_.end();) {
      PodPtr pod = cache_.FindPod(it->first);
      if (pod && pod->spec.node_name.empty()) {
        ++it;
        continue;
      }
      metrics_->UnschedulablePods(it->second.plugin, it->second.profile, -1);
      it = gated_.erase(it);
    }
    gated = std::min(gated_.size(), s.unschedulable);
  }
  metrics_->PendingPods(s.active, s.backoff, s.unschedulable - gated, gated);
  metrics_->CacheSize(cache_.num_nodes(), cache_.num_pods(), cache_.num_assumed());
  const double dropped = static_cast<double>(recorder_.dropped());
  if (dropped > metrics_->events_dropped->Value()) {
    metrics_->events_dropped->Increment(dropped - metrics_->events_dropped->Value());
  }
}

void LiveScheduler::Run(const std::function<bool()>& may_schedule,
                        const std::function<void()>& stopped_scheduling) {
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
    SchedulingQueue::PodPtr pod = queue_->TryPop();
    if (!pod) {
      inbox_.Wait(250ms);
      continue;
    }
    ScheduleOne(std::move(pod));
  }
  if (metrics_ != nullptr) metrics_->leader->Set(0);
  if (stopped_scheduling) stopped_scheduling();
  FlushForShutdown();
  UpdateGauges();
  if (timings_) timings_->Flush();
}

void LiveScheduler::FlushForShutdown() {
  const auto t0 = std::chrono::steady_clock::now();
  const auto deadline = t0 + options_.shutdown_flush_timeout;
  std::vector<WorkerPool*> pools = {binders_.get(), writers_.get()};
  if (pre_binders_ != nullptr) pools.push_back(pre_binders_.get());
  size_t writes = 0;
  for (WorkerPool* p : pools) writes += p->pending();
  const size_t events = recorder_.queued();
  if (writes + events > 0) {
    Log('I', fmt::format("flushing {} queued bindings and API writes and {} events (up to {}s)",
                         writes, events,
                         std::chrono::duration<double>(options_.shutdown_flush_timeout).count()));
  }
  // Binders report to the inbox and may queue victim deletions' events:
  // wait for the pools, apply what they reported, twice.
  bool done = true;
  for (int round = 0; round < 2 && done; ++round) {
    for (WorkerPool* p : pools) done = p->WaitIdleUntil(deadline) && done;
    DrainInbox();
  }
  done = done && recorder_.FlushUntil(deadline);
  const double took = Seconds(std::chrono::steady_clock::now() - t0);
  if (done) {
    if (writes + events > 0) Log('I', fmt::format("flushed in {:.1f}s", took));
    return;
  }
  size_t dropped = 0;
  for (WorkerPool* p : pools) dropped += p->DropQueued();
  const size_t dropped_events = recorder_.DropQueued();
  Log('W', fmt::format("gave up flushing after {:.1f}s: dropped {} queued bindings and API "
                       "writes and {} events (the next leader schedules those pods again)",
                       took, dropped, dropped_events));
  for (WorkerPool* p : pools) p->WaitIdle();  // the running ones (each has a request timeout)
  DrainInbox();
}

size_t LiveScheduler::RunOnce(bool schedule) {
  DrainInbox();
  Periodic();
  size_t n = 0;
  if (!schedule || !cache_.HasSynced()) return 0;
  while (SchedulingQueue::PodPtr pod = queue_->TryPop()) {
    ScheduleOne(std::move(pod));
    ++n;
  }
  UpdateGauges();
  if (timings_) timings_->Flush();
  return n;
}

void LiveScheduler::WaitForBindings() {
  // Binders report to the inbox and may queue victim deletions' events:
  // wait for both pools, then apply what they reported.
  for (int round = 0; round < 2; ++round) {
    if (pre_binders_ != nullptr) pre_binders_->WaitIdle();
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

void LiveScheduler::Requeue(const PodPtr& pod, int64_t cycle,
                            std::vector<std::string> unschedulable_plugins, bool to_backoff) {
  // Upstream's error func re-reads the pod and queues it as unschedulable
  // when it is still pending; the cache is our fresh read.
  const std::string key = pod->Key();
  PodPtr current = cache_.FindPod(key);
  if (current && current->spec.node_name.empty() && !cache_.IsAssumed(key) &&
      current->meta.uid == pod->meta.uid) {
    if (to_backoff) {
      queue_->AddBackoffIfNotPresent(pod);
    } else {
      queue_->AddUnschedulableIfNotPresent(pod, cycle, std::move(unschedulable_plugins));
    }
    return;
  }
  // Not queued again: its attempt is over all the same (v1.35's Done).
  queue_->Done(pod->meta.uid);
}

std::string LiveScheduler::Preempt(const PodPtr& pod, const ScheduleResult& result,
                                   PodPtr* requeue) {
  const auto start = std::chrono::steady_clock::now();
  ClusterState& state = cache_.state();
  std::string post_filter_message;
  PreemptionResult p = engine_->Preempt(*pod, result, state, &cache_.nominated(), PreemptOptions(),
                                        &post_filter_message);
  if (metrics_ != nullptr)
    metrics_->Preemption(Seconds(std::chrono::steady_clock::now() - start), p.victims.size());
  if (!p.error.empty()) {
    Log('E', fmt::format("preemption for {} failed: {}", pod->Key(), p.error));
    return post_filter_message;
  }
  if (p.node != kNoNode) {
    const std::string node = state.node(p.node).meta.name;
    auto nominated = std::make_shared<Pod>(*pod);
    nominated->nominated_node_name = node;
    queue_->UpdateNominatedPodForNode(nominated, node);
    *requeue = nominated;
    std::vector<PodPtr> victims;
    std::string names;
    for (PodId v : p.victims) {
      victims.push_back(std::make_shared<const Pod>(state.pod(v).pod));
      names += (names.empty() ? "" : ", ") + victims.back()->Key();
    }
    Log('I', fmt::format("preempting for {} on node {}: deleting {}", pod->Key(), node,
                         names.empty() ? "no pods" : names));
    if (v135_) {
      PreemptAsync(*requeue, node, std::move(victims), std::move(p.nominated_pods_to_clear));
      return post_filter_message;
    }
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
        if (options_.disruption_target_condition) {
          Status c = api_->SetDisruptionTarget(
              Ns(*v), v->meta.name, "PreemptionByKubeScheduler",
              "Kube-scheduler: preempting to accommodate a higher priority pod: " +
                  preemptor->Key());
          if (!c.ok()) {
            Log('E',
                fmt::format("preparing the preemption of {}: {}", v->Key(), c.error().message));
            return;
          }
        }
        if (Status d = api_->DeletePod(Ns(*v), v->meta.name, v->meta.uid); !d.ok()) {
          Log('E', fmt::format("preempting pod {}: {}", v->Key(), d.error().message));
          return;
        }
        // v1.26 says "Preempted by NS/NAME on node N", v1.15 "by NS/NAME on node N".
        recorder_.Record(
            *v, "Normal", "Preempted",
            fmt::format("{}by {} on node {}", v126_ ? "Preempted " : "", preemptor->Key(), node),
            preemptor->spec.scheduler_name);
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
  return post_filter_message;
}

void LiveScheduler::PreemptAsync(const PodPtr& preemptor, const std::string& node,
                                 std::vector<PodPtr> victims,
                                 std::vector<PreemptionResult::PodRef> to_clear) {
  // The nomination, as v1.35's failure handler writes it with the condition.
  writers_->Submit([this, preemptor, node] {
    if (Status s = api_->SetNominatedNodeName(Ns(*preemptor), preemptor->meta.name, node);
        !s.ok()) {
      Log('E', fmt::format("cannot set nominatedNodeName of {}: {}", preemptor->Key(),
                           s.error().message));
      inbox_.Push(NominationFailed{preemptor->Key()});
    }
  });
  // A victim already terminating needs no call.
  victims.erase(std::remove_if(victims.begin(), victims.end(),
                               [](const PodPtr& v) { return v->meta.has_deletion_timestamp; }),
                victims.end());
  const bool async = options_.async_preemption;
  if (async && !victims.empty()) preemptions_.Start(preemptor->meta.uid, victims.back());
  auto work = [this, preemptor, node, victims = std::move(victims), to_clear = std::move(to_clear),
               async] {
    const auto start = std::chrono::steady_clock::now();
    bool ok = true;
    // Lower-priority pods nominated to the node lose their nomination first.
    for (const PreemptionResult::PodRef& ref : to_clear) {
      const size_t slash = ref.key.find('/');
      if (slash == std::string::npos) continue;
      if (Status s =
              api_->SetNominatedNodeName(ref.key.substr(0, slash), ref.key.substr(slash + 1), "");
          !s.ok()) {
        Log('W',
            fmt::format("cannot clear nominatedNodeName of {}: {}", ref.key, s.error().message));
        ok = false;
      }
    }
    for (const PodPtr& v : victims) {
      // v1.35's PreemptPod: DisruptionTarget (PreemptionByScheduler), the
      // deletion, then the Preempted event naming the preemptor's uid.
      if (options_.disruption_target_condition) {
        Status c = api_->SetDisruptionTarget(
            Ns(*v), v->meta.name, "PreemptionByScheduler",
            Profile(*preemptor) + ": preempting to accommodate a higher priority pod");
        if (!c.ok() && c.error().http_code != 404) {
          Log('E', fmt::format("preparing the preemption of {}: {}", v->Key(), c.error().message));
          ok = false;
          break;
        }
      }
      if (Status d = api_->DeletePod(Ns(*v), v->meta.name, v->meta.uid);
          !d.ok() && d.error().http_code != 404) {
        Log('E', fmt::format("preempting pod {}: {}", v->Key(), d.error().message));
        ok = false;
        break;
      }
      recorder_.Record(*v, "Normal", "Preempted",
                       fmt::format("Preempted by pod {} on node {}", preemptor->meta.uid, node),
                       preemptor->spec.scheduler_name);
    }
    if (async) {
      inbox_.Push(PreemptionDone{preemptor->meta.uid, preemptor->Key(), ok,
                                 Seconds(std::chrono::steady_clock::now() - start)});
    }
  };
  writers_->Submit(std::move(work));
}

bool LiveScheduler::RunningPreemptions::IsPodRunningPreemption(std::string_view pod_uid) const {
  auto it = last_victim_.find(std::string(pod_uid));
  if (it == last_victim_.end()) return false;
  // The last victim gone, or being deleted: done (the events of its
  // deletion may come before the writer's word).
  PodPtr now = cache_->FindPod(it->second->Key());
  return now != nullptr && now->meta.uid == it->second->meta.uid &&
         !now->meta.has_deletion_timestamp;
}

void LiveScheduler::RunningPreemptions::Start(const std::string& uid, const PodPtr& last_victim) {
  last_victim_[uid] = last_victim;
}

void LiveScheduler::RunningPreemptions::Finish(const std::string& uid) { last_victim_.erase(uid); }

void LiveScheduler::Gate(const std::string& key, const Pod& pod) {
  if (gated_.count(key)) return;
  Gated g{LastPreEnqueuePlugin(engine_), Profile(pod)};
  if (metrics_ != nullptr && !g.plugin.empty()) metrics_->UnschedulablePods(g.plugin, g.profile, 1);
  gated_.emplace(key, std::move(g));
}

void LiveScheduler::Ungate(const std::string& key) {
  auto it = gated_.find(key);
  if (it == gated_.end()) return;
  if (metrics_ != nullptr && !it->second.plugin.empty())
    metrics_->UnschedulablePods(it->second.plugin, it->second.profile, -1);
  gated_.erase(it);
}

void LiveScheduler::ScheduleOne(PriorityQueue::PodPtr popped) {
  const std::string key = popped->Key();
  PodPtr pod = cache_.FindPod(key);
  if (!pod || pod->meta.uid != popped->meta.uid || !pod->spec.node_name.empty() ||
      cache_.IsAssumed(key)) {
    condition_written_.erase(key);
    queue_->Done(popped->meta.uid);
    return;  // deleted, recreated or bound since it was queued
  }
  if (pod->meta.has_deletion_timestamp) {
    recorder_.Record(*pod, "Warning", "FailedScheduling",
                     fmt::format("skip schedule deleting pod: {}", key));
    queue_->Done(popped->meta.uid);
    return;
  }
  // A nomination made by this scheduler may not be back from the watch yet.
  if (pod->nominated_node_name.empty() && !popped->nominated_node_name.empty()) {
    auto copy = std::make_shared<Pod>(*pod);
    copy->nominated_node_name = popped->nominated_node_name;
    pod = std::move(copy);
  }
  // v1.26's PreEnqueue: a gated pod waits without an attempt; the update
  // that lifts its gates moves it (PriorityQueue::Update). (v1.35's queue
  // runs PreEnqueue itself before a pod can be popped.)
  if (std::string waiting = v135_ ? std::string() : engine_->PreEnqueue(*pod); !waiting.empty()) {
    queue_->NotAttempted(*pod);
    queue_->AddUnschedulableIfNotPresent(pod, queue_->SchedulingCycle());
    Gate(key, *pod);
    return;
  }
  Ungate(key);
  const auto start = std::chrono::steady_clock::now();
  cache_.Prepare();
  const int64_t cycle = queue_->SchedulingCycle();
  ++cycles_;
  ScheduleResult r = engine_->Schedule(*pod, cache_.state(), cache_.tree(),
                                       /*record_details=*/false, &cache_.nominated());
  const double algorithm_seconds = Seconds(std::chrono::steady_clock::now() - start);

  if (r.chosen != kNoNode) {
    const std::string node = cache_.state().node(r.chosen).meta.name;
    if (metrics_ != nullptr) metrics_->algorithm_duration->Observe(algorithm_seconds);
    if (Status s = cache_.AssumePod(*pod, node); !s.ok()) {
      Log('E', fmt::format("assuming {} on {}: {}", key, node, s.error().message));
      if (metrics_ != nullptr) metrics_->Attempt("error", Profile(*pod), algorithm_seconds);
      RecordFailure(pod, "SchedulerError", "AssumePod failed: " + s.error().message);
      Requeue(pod, cycle);
      return;
    }
    Result<std::unique_ptr<Reservation>> reserved =
        engine_->Reserve(*pod, r.chosen, cache_.state());
    if (!reserved.ok()) {  // already unreserved by the engine
      cache_.ForgetPod(key);
      Log('E', fmt::format("reserving {} on {}: {}", key, node, reserved.error().message));
      if (metrics_ != nullptr) metrics_->Attempt("error", Profile(*pod), algorithm_seconds);
      RecordFailure(pod, "SchedulerError", reserved.error().message);
      Requeue(pod, cycle);
      return;
    }
    queue_->DeleteNominatedPodIfExists(*pod);
    // v1.35: the attempt is over for the queue once Permit passed (Done
    // before PreBind); a failing binding comes back as an error.
    queue_->Done(pod->meta.uid);
    // PreBind may wait (VolumeBinding: up to bindTimeoutSeconds), so it runs
    // on the binder, with what Reserve captured, never on this thread.
    std::shared_ptr<Reservation> reservation = std::move(*reserved);
    WorkerPool* pool = binders_.get();
    if (reservation != nullptr && reservation->has_pre_bind_work()) {
      if (pre_binders_ == nullptr)
        pre_binders_ = std::make_unique<WorkerPool>(options_.pre_bind_workers);
      pool = pre_binders_.get();
    }
    if (metrics_ != nullptr) metrics_->BindingsInFlight(1);
    recorder_.BindingStarted();
    pool->Submit([this, ns = Ns(*pod), name = pod->meta.name, uid = pod->meta.uid, key, node, start,
                  profile = Profile(*pod), attempts = queue_->AttemptsOf(*pod), reservation] {
      const auto t0 = std::chrono::steady_clock::now();
      BindOutcome o{key, node, Status::Ok(), start, 0, profile, attempts, reservation};
      if (reservation != nullptr && reservation->has_pre_bind_work()) {
        o.status = reservation->PreBind(api_->prebind_api(), stop_);
        o.pre_bind_failed = !o.status.ok();
        if (metrics_ != nullptr && v126_)
          metrics_->ExtensionPointDuration("PreBind", o.status.ok() ? "Success" : "Error", profile,
                                           Seconds(std::chrono::steady_clock::now() - t0));
      }
      if (o.status.ok()) {
        const auto b0 = std::chrono::steady_clock::now();
        o.status = api_->BindPod(ns, name, uid, node);
        // DefaultBinder's call, timed as upstream's Bind extension point.
        if (metrics_ != nullptr && v126_)
          metrics_->ExtensionPointDuration("Bind", o.status.ok() ? "Success" : "Error", profile,
                                           Seconds(std::chrono::steady_clock::now() - b0));
      }
      o.bind_seconds = Seconds(std::chrono::steady_clock::now() - t0);
      recorder_.BindingFinished();
      inbox_.Push(std::move(o));
    });
    return;
  }

  if (!r.fit_error) {
    Log('E', fmt::format("error scheduling {}: {}", key, r.error));
    if (metrics_ != nullptr) metrics_->Attempt("error", Profile(*pod), algorithm_seconds);
    // v1.35 words an error's reason as such (handleSchedulingFailure).
    RecordFailure(pod, v135_ ? "SchedulerError" : "Unschedulable", r.error);
    Requeue(pod, cycle);
    return;
  }
  PodPtr requeue = pod;
  std::string message = r.error;
  if (!options_.disable_preemption) {
    // v1.26's FitError message ends with PostFilter's ("preemption: ...").
    std::string post_filter = Preempt(pod, r, &requeue);
    message = engine_->WithPostFilterMessage(message, post_filter);
  }
  if (metrics_ != nullptr) {
    metrics_->Attempt("unschedulable", Profile(*pod),
                      Seconds(std::chrono::steady_clock::now() - start));
  }
  Log('I', r.unschedulable_plugins.empty()
               ? fmt::format("unschedulable {}: {}", key, message)
               : fmt::format("unschedulable {}: {} (rejected by {})", key, message,
                             fmt::join(r.unschedulable_plugins, ", ")));
  RecordFailure(pod, "Unschedulable", message);
  Requeue(requeue, cycle, std::move(r.unschedulable_plugins));
}

void LiveScheduler::OnBindOutcome(const BindOutcome& o) {
  const auto now = std::chrono::steady_clock::now();
  if (metrics_ != nullptr) metrics_->BindingsInFlight(-1);
  if (o.status.ok()) {
    cache_.FinishBinding(o.key);
    bound_.fetch_add(1);
    condition_written_.erase(o.key);
    if (metrics_ != nullptr) {
      metrics_->Attempt("scheduled", o.profile, Seconds(now - o.cycle_start));
      if (o.attempts.attempts > 0) {
        metrics_->PodScheduled(o.attempts.attempts, Seconds(clock_->Now() - o.attempts.initial));
      }
      if (metrics_->binding_duration != nullptr)
        metrics_->binding_duration->Observe(o.bind_seconds);
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
  HandleBindingCycleError(o);
}

void LiveScheduler::HandleBindingCycleError(const BindOutcome& o) {
  if (o.reservation != nullptr) engine_->Unreserve(o.reservation.get());
  if (v135_) {
    HandleBindingCycleErrorV135(o);
    return;
  }
  const bool forgotten = cache_.ForgetPod(o.key);
  // v1.26: the forgotten pod's room is free again, as if an assigned pod
  // had been deleted, so the pods waiting for room move; and the move
  // request makes the requeue below send this pod to backoff, one backoff
  // from its next attempt. (Upstream defers the move past the requeue, and
  // keeps this pod out of it, only when the status is Unschedulable, which
  // a Permit plugin gives; PreBind and Bind here only fail with errors.)
  if (forgotten && v126_) queue_->MoveAllToActive(queue_events::kAssignedPodDelete);
  Log('E', fmt::format("binding {} to {} failed: {}", o.key, o.node, o.status.error().message));
  if (metrics_ != nullptr) {
    metrics_->Attempt("error", o.profile,
                      Seconds(std::chrono::steady_clock::now() - o.cycle_start));
  }
  PodPtr pod = cache_.FindPod(o.key);
  if (!pod) return;
  RecordFailure(pod, "SchedulerError",
                o.pre_bind_failed ? o.status.error().message
                                  : "Binding rejected: " + o.status.error().message);
  // v1.15's error func re-reads the pod from the API server, retrying until
  // the server answers, and only then requeues it with the cycle of the
  // failure; after an outage the informers have usually relisted by then,
  // and their updates are move requests, so the pod goes to backoff. Our
  // re-read is the cache, at once, before any such move: the pod goes to
  // backoff directly, never to the unschedulable pool for want of a move
  // that no cluster change will make.
  Requeue(pod, queue_->SchedulingCycle(), {}, /*to_backoff=*/!v126_);
}

void LiveScheduler::HandleBindingCycleErrorV135(const BindOutcome& o) {
  PodPtr pod = cache_.FindPod(o.key);
  // The room the assumed pod held is free again: AssignedPodDelete with the
  // pod as it was assumed (the hints read its node), at once since a failed
  // PreBind or Bind is an error, not a rejection.
  if (cache_.ForgetPod(o.key) && pod) {
    auto assumed = std::make_shared<Pod>(*pod);
    assumed->spec.node_name = o.node;
    queue_->MoveAllToActive(
        framework::MakeClusterEvent(framework::EventResource::kAssignedPod, framework::kDelete),
        framework::EventObject(PodPtr(assumed)), {}, {});
  }
  Log('E', fmt::format("binding {} to {} failed: {}", o.key, o.node, o.status.error().message));
  if (metrics_ != nullptr) {
    metrics_->Attempt("error", o.profile,
                      Seconds(std::chrono::steady_clock::now() - o.cycle_start));
  }
  if (!pod) return;
  // Upstream's RunBindPlugins wraps the binder's error.
  RecordFailure(pod, "SchedulerError",
                o.pre_bind_failed
                    ? o.status.error().message
                    : "running Bind plugin \"DefaultBinder\": " + o.status.error().message);
  // No plugin rejected it: the queue backs it off by its consecutive errors.
  Requeue(pod, queue_->SchedulingCycle());
}

}  // namespace ksched::live
