// Leader election on a coordination.k8s.io/v1 Lease, as client-go's
// leaderelection package (v1.15) runs it for kube-scheduler.
//
// The contract, in client-go's terms:
//   - A candidate tries every retry period (tryAcquireOrRenew): it reads the
//     Lease; if none exists it creates one naming itself; if another holder
//     is named and the record has not changed for a lease duration *as
//     observed locally* (the other candidates' clocks are never compared),
//     it takes the lease over (transitions + 1). Writes carry the
//     resourceVersion read, so of two racing candidates one gets a conflict.
//   - The leader renews every retry period. If no renewal succeeded within
//     the renew deadline, it has lost (client-go stops leading then, and
//     kube-scheduler exits).
//   - IsLeader() is true only until the start of the last successful
//     renewal plus the renew deadline: the scheduling thread checks it
//     before every cycle, so a leader whose renewals hang stops scheduling
//     before its lease (lease duration > renew deadline) can expire for the
//     others, even if the thread running Step() is stuck in a request.
//   - Release() (client-go's ReleaseOnCancel) writes the record with an empty
//     holder so a standby acquires at its next retry instead of waiting a
//     lease duration.
//
// Step() performs at most one round of requests and never sleeps; a thread
// (RunElection) calls it at the times it returns. Tests drive it with a
// FakeClock and a fake LeaseStore.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "client/cluster_client.h"
#include "queue/clock.h"
#include "util/result.h"

namespace ksched::live {

using client::LeaseRecord;

// The election record, as client-go compares it (resourceVersion aside).
bool SameRecord(const LeaseRecord& a, const LeaseRecord& b);

// The three Lease calls. Implemented over the cluster client in run.cc and
// by a fake in the tests.
class LeaseStore {
 public:
  virtual ~LeaseStore() = default;
  // The Lease, or nullopt when it does not exist (404).
  virtual Result<std::optional<LeaseRecord>> Get() = 0;
  virtual Status Create(const LeaseRecord& lease) = 0;
  // Fails (409) when lease.resource_version is no longer current.
  virtual Status Update(const LeaseRecord& lease) = 0;
};

struct ElectionConfig {
  std::string identity;  // this replica (hostname + "_" + a random suffix)
  std::string ns = "kube-system";
  std::string name = "kube-scheduler";
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);
};

// Checks upstream's rules: lease duration > renew deadline > retry period
// (times client-go's JitterFactor 1.2), all positive.
Status ValidateElectionConfig(const ElectionConfig& config);

class LeaderElector {
 public:
  enum class State { kCandidate, kLeader, kLost, kReleased };

  // `wall_now` gives the wall-clock time written into acquire/renew times
  // (Unix nanoseconds); by default the system clock.
  LeaderElector(LeaseStore* store, const Clock* clock, ElectionConfig config,
                std::function<int64_t()> wall_now = {});

  // One round: as a candidate, try to acquire; as the leader, try to renew
  // (and move to kLost once the renew deadline has passed since the last
  // success). Returns when to call it next.
  Clock::TimePoint Step();

  // True while this replica may schedule (see the header comment).
  bool IsLeader() const;
  State state() const { return state_.load(); }
  // The holder named in the last record read ("" when unknown).
  std::string observed_holder() const;
  // Why the last Step() did not hold the lease ("" when it did).
  std::string last_error() const;

  // What Release() did.
  enum class ReleaseOutcome {
    kReleased,   // the record now names no holder: a standby may take it at once
    kNotHeld,    // this replica did not lead (a candidate, or it had lost)
    kTakenOver,  // the record already named another holder
  };
  // Gives the lease up if held (an update naming no holder) and stops
  // leading, whatever the outcome. Idempotent.
  Result<ReleaseOutcome> Release();

 private:
  // client-go's tryAcquireOrRenew: true when this replica holds the lease
  // afterwards. `error` gets the reason it does not.
  bool TryAcquireOrRenew(std::string* error);
  std::string WallNow() const;

  LeaseStore* store_;
  const Clock* clock_;
  ElectionConfig config_;
  std::function<int64_t()> wall_now_;

  std::atomic<State> state_{State::kCandidate};
  // Steady-clock nanoseconds until which IsLeader() holds.
  std::atomic<int64_t> leader_until_{0};
  Clock::TimePoint last_renew_start_{};

  mutable std::mutex mu_;
  std::optional<LeaseRecord> observed_;  // the last record read or written
  Clock::TimePoint observed_time_{};     // when it last changed, locally
  std::string last_error_;
};

// Formats Unix nanoseconds as metav1.MicroTime does: 2006-01-02T15:04:05.000000Z.
std::string FormatMicroTime(int64_t unix_nanos);

}  // namespace ksched::live
