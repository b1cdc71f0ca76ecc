#include "live/leader_elector.h"

#include <fmt/format.h>

#include <ctime>

namespace ksched::live {

namespace {

int64_t SystemNowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t Nanos(Clock::TimePoint t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

bool SameRecord(const LeaseRecord& a, const LeaseRecord& b) {
  return a.holder_identity == b.holder_identity &&
         a.lease_duration_seconds == b.lease_duration_seconds && a.acquire_time == b.acquire_time &&
         a.renew_time == b.renew_time && a.lease_transitions == b.lease_transitions;
}

std::string FormatMicroTime(int64_t unix_nanos) {
  int64_t secs = unix_nanos / 1'000'000'000;
  int64_t micros = (unix_nanos % 1'000'000'000) / 1000;
  if (micros < 0) {
    micros += 1'000'000;
    --secs;
  }
  std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
}

Status ValidateElectionConfig(const ElectionConfig& c) {
  auto secs = [](std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); };
  if (c.identity.empty()) return MakeError("leader election: the identity is empty");
  if (c.name.empty() || c.ns.empty()) {
    return MakeError(
        "leader election: --leader-elect-resource-namespace and --leader-elect-resource-name must "
        "be set");
  }
  if (c.retry_period <= std::chrono::nanoseconds(0)) {
    return MakeError("--leader-elect-retry-period must be greater than zero");
  }
  if (c.lease_duration <= c.renew_deadline) {
    return MakeError(fmt::format(
        "--leader-elect-lease-duration ({}s) must be greater than --leader-elect-renew-deadline "
        "({}s)",
        secs(c.lease_duration), secs(c.renew_deadline)));
  }
  // client-go: renewDeadline > JitterFactor * retryPeriod, JitterFactor 1.2.
  if (secs(c.renew_deadline) <= 1.2 * secs(c.retry_period)) {
    return MakeError(
        fmt::format("--leader-elect-renew-deadline ({}s) must be greater than 1.2 x "
                    "--leader-elect-retry-period ({}s)",
                    secs(c.renew_deadline), secs(c.retry_period)));
  }
  if (c.lease_duration < std::chrono::seconds(1)) {
    return MakeError(
        "--leader-elect-lease-duration must be at least 1s (the Lease counts seconds)");
  }
  return Status::Ok();
}

LeaderElector::LeaderElector(LeaseStore* store, const Clock* clock, ElectionConfig config,
                             std::function<int64_t()> wall_now)
    : store_(store),
      clock_(clock),
      config_(std::move(config)),
      wall_now_(wall_now ? std::move(wall_now) : std::function<int64_t()>(SystemNowNanos)) {}

std::string LeaderElector::WallNow() const { return FormatMicroTime(wall_now_()); }

bool LeaderElector::IsLeader() const {
  const State s = state_.load();
  if (s != State::kLeader) return false;
  return Nanos(clock_->Now()) < leader_until_.load();
}

std::string LeaderElector::observed_holder() const {
  std::lock_guard<std::mutex> lock(mu_);
  return observed_ ? observed_->holder_identity : std::string();
}

bool LeaderElector::TryAcquireOrRenew(std::string* error) {
  const std::string now = WallNow();
  LeaseRecord record;
  record.ns = config_.ns;
  record.name = config_.name;
  record.holder_identity = config_.identity;
  record.lease_duration_seconds =
      std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration).count();
  record.acquire_time = now;
  record.renew_time = now;

  Result<std::optional<LeaseRecord>> got = store_->Get();
  if (!got.ok()) {
    *error = got.error().message;
    return false;
  }
  if (!got->has_value()) {
    if (Status s = store_->Create(record); !s.ok()) {
      *error = s.error().message;
      return false;
    }
    std::lock_guard<std::mutex> lock(mu_);
    observed_ = record;
    observed_time_ = clock_->Now();
    return true;
  }
  const LeaseRecord& old = **got;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!observed_ || !SameRecord(*observed_, old)) {
      observed_ = old;
      observed_time_ = clock_->Now();
    }
    if (!old.holder_identity.empty() && old.holder_identity != config_.identity &&
        observed_time_ + config_.lease_duration > clock_->Now()) {
      *error = fmt::format("the lease is held by {} and has not expired", old.holder_identity);
      return false;
    }
  }
  // Holding it already (by the record, as client-go's IsLeader reads it):
  // keep the acquire time and the transition count.
  if (old.holder_identity == config_.identity) {
    record.acquire_time = old.acquire_time;
    record.lease_transitions = old.lease_transitions;
  } else {
    record.lease_transitions = old.lease_transitions + 1;
  }
  record.resource_version = old.resource_version;
  if (Status s = store_->Update(record); !s.ok()) {
    *error = s.error().message;
    return false;
  }
  std::lock_guard<std::mutex> lock(mu_);
  observed_ = record;
  observed_time_ = clock_->Now();
  return true;
}

Clock::TimePoint LeaderElector::Step() {
  const State s = state_.load();
  const Clock::TimePoint start = clock_->Now();
  if (s == State::kLost || s == State::kReleased) return start + config_.retry_period;
  std::string error;
  const bool held = TryAcquireOrRenew(&error);
  if (held) {
    last_renew_start_ = start;
    leader_until_.store(Nanos(start + config_.renew_deadline));
    if (s == State::kCandidate) state_.store(State::kLeader);
  } else if (s == State::kLeader && clock_->Now() >= last_renew_start_ + config_.renew_deadline) {
    // client-go: failed to renew within the renew deadline: stop leading.
    leader_until_.store(0);
    state_.store(State::kLost);
  }
  std::lock_guard<std::mutex> lock(mu_);
  last_error_ = held ? "" : error;
  return clock_->Now() + config_.retry_period;
}

Result<LeaderElector::ReleaseOutcome> LeaderElector::Release() {
  const State s = state_.load();
  if (s != State::kLeader) {
    if (s == State::kCandidate) state_.store(State::kReleased);
    return ReleaseOutcome::kNotHeld;
  }
  leader_until_.store(0);
  state_.store(State::kReleased);
  Result<std::optional<LeaseRecord>> got = store_->Get();
  if (!got.ok()) return got.error();
  if (!got->has_value()) return ReleaseOutcome::kTakenOver;  // deleted meanwhile
  const LeaseRecord& old = **got;
  if (old.holder_identity != config_.identity) return ReleaseOutcome::kTakenOver;
  LeaseRecord record;
  record.ns = config_.ns;
  record.name = config_.name;
  record.holder_identity = "";
  // As later client-go releases write it: a one-second lease renewed now,
  // naming nobody, so any candidate may take it at once.
  record.lease_duration_seconds = 1;
  record.acquire_time = WallNow();
  record.renew_time = record.acquire_time;
  record.lease_transitions = old.lease_transitions;
  record.resource_version = old.resource_version;
  if (Status st = store_->Update(record); !st.ok()) return st.error();
  std::lock_guard<std::mutex> lock(mu_);
  observed_ = record;
  observed_time_ = clock_->Now();
  return ReleaseOutcome::kReleased;
}

}  // namespace ksched::live

namespace ksched::live {
std::string LeaderElector::last_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_error_;
}
}  // namespace ksched::live
