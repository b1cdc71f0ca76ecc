#include "live/leader_elector.h"

#include <gtest/gtest.h>

namespace ksched::live {
namespace leader_elector_test {

using namespace std::chrono_literals;

// One Lease on a fake server shared by several electors: resourceVersion
// checks as the API server does them, and switches to make calls fail.
class FakeLeaseServer {
 public:
  std::optional<LeaseRecord> lease;
  int64_t next_rv = 1;
  bool down = false;  // every call fails (server unreachable)
  int creates = 0, updates = 0;
};

class FakeStore : public LeaseStore {
 public:
  explicit FakeStore(FakeLeaseServer* server) : s_(server) {}
  Result<std::optional<LeaseRecord>> Get() override {
    if (s_->down) return MakeError("GET lease: connection refused");
    return s_->lease;
  }
  Status Create(const LeaseRecord& l) override {
    if (s_->down) return MakeError("POST lease: connection refused");
    if (s_->lease) return Error{"POST lease: already exists", 409};
    s_->lease = l;
    s_->lease->resource_version = std::to_string(s_->next_rv++);
    ++s_->creates;
    return Status::Ok();
  }
  Status Update(const LeaseRecord& l) override {
    if (s_->down) return MakeError("PUT lease: connection refused");
    if (!s_->lease) return Error{"PUT lease: not found", 404};
    if (l.resource_version != s_->lease->resource_version) return Error{"PUT lease: conflict", 409};
    s_->lease = l;
    s_->lease->resource_version = std::to_string(s_->next_rv++);
    ++s_->updates;
    return Status::Ok();
  }

 private:
  FakeLeaseServer* s_;
};

struct Replica {
  Replica(FakeLeaseServer* server, FakeClock* clock, const std::string& id)
      : store(server), elector(&store, clock, Config(id), [clock] {
          return 1'600'000'000'000'000'000 + clock->Now().time_since_epoch().count();
        }) {}
  static ElectionConfig Config(const std::string& id) {
    ElectionConfig c;
    c.identity = id;
    return c;
  }
  FakeStore store;
  LeaderElector elector;
};

TEST(LeaderElector, CreatesTheLeaseAndLeads) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a");
  EXPECT_FALSE(a.elector.IsLeader());
  a.elector.Step();
  EXPECT_TRUE(a.elector.IsLeader());
  ASSERT_TRUE(server.lease.has_value());
  EXPECT_EQ(server.lease->holder_identity, "a");
  EXPECT_EQ(server.lease->lease_duration_seconds, 15);
  EXPECT_EQ(server.lease->lease_transitions, 0);
  EXPECT_EQ(server.lease->ns, "kube-system");
  EXPECT_EQ(server.lease->name, "kube-scheduler");
  // Renewals keep the acquire time and move the renew time.
  const std::string acquired = server.lease->acquire_time;
  clock.Advance(2s);
  a.elector.Step();
  EXPECT_TRUE(a.elector.IsLeader());
  EXPECT_EQ(server.lease->acquire_time, acquired);
  EXPECT_NE(server.lease->renew_time, acquired);
  EXPECT_EQ(server.lease->lease_transitions, 0);
}

TEST(LeaderElector, StandbyWaitsAFullLeaseDurationOfUnchangedRecord) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a"), b(&server, &clock, "b");
  a.elector.Step();
  b.elector.Step();
  EXPECT_TRUE(a.elector.IsLeader());
  EXPECT_FALSE(b.elector.IsLeader());
  EXPECT_EQ(b.elector.observed_holder(), "a");
  // a dies. b saw the record first at t=0: it may take over once 15 s of an
  // unchanged record have passed on its own clock, not before.
  for (int i = 0; i < 7; ++i) {
    clock.Advance(2s);
    b.elector.Step();
    EXPECT_FALSE(b.elector.IsLeader()) << "t=" << 2 * (i + 1) << "s";
  }
  clock.Advance(2s);  // t = 16 s
  b.elector.Step();
  EXPECT_TRUE(b.elector.IsLeader());
  EXPECT_EQ(server.lease->holder_identity, "b");
  EXPECT_EQ(server.lease->lease_transitions, 1);
}

TEST(LeaderElector, RenewalsKeepTheStandbyOut) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a"), b(&server, &clock, "b");
  a.elector.Step();
  for (int i = 0; i < 30; ++i) {
    clock.Advance(2s);
    a.elector.Step();
    b.elector.Step();
    EXPECT_TRUE(a.elector.IsLeader());
    EXPECT_FALSE(b.elector.IsLeader());
  }
  EXPECT_EQ(server.lease->holder_identity, "a");
}

TEST(LeaderElector, LeaderThatCannotRenewStopsBeforeTheLeaseExpires) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a"), b(&server, &clock, "b");
  a.elector.Step();  // t=0: a leads
  b.elector.Step();  // b observes a's record at t=0
  server.down = true;
  // Even without any further Step() (its thread stuck in a request), a
  // stops counting itself leader at the renew deadline (10 s)...
  clock.Advance(9s);
  EXPECT_TRUE(a.elector.IsLeader());
  clock.Advance(1s);
  EXPECT_FALSE(a.elector.IsLeader());
  // ...and its next Step() records the loss for good.
  a.elector.Step();
  EXPECT_EQ(a.elector.state(), LeaderElector::State::kLost);
  server.down = false;
  clock.Advance(2s);
  a.elector.Step();
  EXPECT_FALSE(a.elector.IsLeader());
  // The standby gets it only after the full lease duration (15 s), after
  // the old leader stopped (10 s).
  clock.Advance(4s);  // t = 16 s
  b.elector.Step();
  EXPECT_TRUE(b.elector.IsLeader());
}

TEST(LeaderElector, ShortOutageWithinTheRenewDeadlineKeepsLeadership) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a");
  a.elector.Step();
  server.down = true;
  for (int i = 0; i < 4; ++i) {
    clock.Advance(2s);
    a.elector.Step();
  }
  EXPECT_TRUE(a.elector.IsLeader());  // t = 8 s < 10 s
  EXPECT_FALSE(a.elector.last_error().empty());
  server.down = false;
  clock.Advance(1s);
  a.elector.Step();
  EXPECT_TRUE(a.elector.IsLeader());
  clock.Advance(9s);  // 9 s after the last renewal
  EXPECT_TRUE(a.elector.IsLeader());
  EXPECT_EQ(a.elector.state(), LeaderElector::State::kLeader);
}

TEST(LeaderElector, ConflictingCandidatesOneWins) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a"), b(&server, &clock, "b");
  // An expired lease held by a dead replica; both candidates saw it long ago.
  server.lease = LeaseRecord{"kube-system", "kube-scheduler", "dead", 15, "x", "x", 4, "7"};
  a.elector.Step();
  b.elector.Step();
  EXPECT_FALSE(a.elector.IsLeader());
  EXPECT_FALSE(b.elector.IsLeader());
  clock.Advance(16s);
  // Both read rv 7; a writes first, b's write of rv 7 conflicts.
  FakeLeaseServer snapshot = server;
  a.elector.Step();
  EXPECT_TRUE(a.elector.IsLeader());
  EXPECT_EQ(server.lease->lease_transitions, 5);
  // b now reads a's fresh record: held and not expired.
  b.elector.Step();
  EXPECT_FALSE(b.elector.IsLeader());
  EXPECT_EQ(b.elector.observed_holder(), "a");
  (void)snapshot;
}

TEST(LeaderElector, StaleWriteIsAConflict) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a");
  a.elector.Step();
  // Someone else rewrote the lease between our read and write: simulate by
  // a store whose Get returns an old resourceVersion.
  class StaleStore : public FakeStore {
   public:
    using FakeStore::FakeStore;
    Result<std::optional<LeaseRecord>> Get() override {
      auto r = FakeStore::Get();
      if (r.ok() && r->has_value()) (*r)->resource_version = "0";
      return r;
    }
  };
  StaleStore stale(&server);
  LeaderElector c(&stale, &clock, Replica::Config("a"));
  c.Step();
  EXPECT_FALSE(c.IsLeader());
  EXPECT_NE(c.last_error().find("conflict"), std::string::npos);
}

TEST(LeaderElector, ReleaseLetsTheStandbyTakeOverAtOnce) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a"), b(&server, &clock, "b");
  a.elector.Step();
  b.elector.Step();
  clock.Advance(2s);
  auto released = a.elector.Release();
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(*released, LeaderElector::ReleaseOutcome::kReleased);
  EXPECT_FALSE(a.elector.IsLeader());
  EXPECT_EQ(a.elector.state(), LeaderElector::State::kReleased);
  EXPECT_EQ(server.lease->holder_identity, "");
  EXPECT_EQ(server.lease->lease_transitions, 0);
  b.elector.Step();  // 2 s later, not 15 s
  EXPECT_TRUE(b.elector.IsLeader());
  EXPECT_EQ(server.lease->holder_identity, "b");
  EXPECT_EQ(server.lease->lease_transitions, 1);
  // A released elector never leads again and releasing twice is harmless.
  clock.Advance(20s);
  a.elector.Step();
  EXPECT_FALSE(a.elector.IsLeader());
  auto again = a.elector.Release();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, LeaderElector::ReleaseOutcome::kNotHeld);
  EXPECT_EQ(server.lease->holder_identity, "b");
}

TEST(LeaderElector, ReleaseDoesNotClobberANewHolder) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a");
  a.elector.Step();
  server.lease->holder_identity = "b";  // taken over meanwhile
  auto released = a.elector.Release();
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(*released, LeaderElector::ReleaseOutcome::kTakenOver);
  EXPECT_EQ(server.lease->holder_identity, "b");
}

// Release says what it did: a standby that never led and a leader that lost
// release nothing (run.cc logs "lease released" only for kReleased).
TEST(LeaderElector, ReleaseWithoutTheLeaseReleasesNothing) {
  FakeLeaseServer server;
  FakeClock clock;
  Replica a(&server, &clock, "a"), b(&server, &clock, "b");
  a.elector.Step();
  b.elector.Step();  // a standby
  auto standby = b.elector.Release();
  ASSERT_TRUE(standby.ok());
  EXPECT_EQ(*standby, LeaderElector::ReleaseOutcome::kNotHeld);
  EXPECT_EQ(server.lease->holder_identity, "a");
  server.down = true;
  clock.Advance(11s);
  a.elector.Step();  // lost: could not renew within the renew deadline
  ASSERT_EQ(a.elector.state(), LeaderElector::State::kLost);
  server.down = false;
  auto lost = a.elector.Release();
  ASSERT_TRUE(lost.ok());
  EXPECT_EQ(*lost, LeaderElector::ReleaseOutcome::kNotHeld);
  EXPECT_EQ(server.lease->holder_identity, "a");  // untouched: it expires for the others
  // The API server unreachable while releasing: an error, not "released".
  Replica c(&server, &clock, "c");
  server.lease.reset();
  c.elector.Step();
  ASSERT_TRUE(c.elector.IsLeader());
  server.down = true;
  EXPECT_FALSE(c.elector.Release().ok());
  EXPECT_FALSE(c.elector.IsLeader());
}

TEST(LeaderElector, ValidatesDurations) {
  ElectionConfig c;
  c.identity = "x";
  EXPECT_TRUE(ValidateElectionConfig(c).ok());
  c.renew_deadline = 15s;
  EXPECT_FALSE(ValidateElectionConfig(c).ok());
  c.renew_deadline = 2s;
  EXPECT_FALSE(ValidateElectionConfig(c).ok());  // not > 1.2 x retry
  c.renew_deadline = 10s;
  c.retry_period = 0s;
  EXPECT_FALSE(ValidateElectionConfig(c).ok());
}

TEST(LeaderElector, MicroTimeFormat) {
  EXPECT_EQ(FormatMicroTime(1'600'000'000'123'456'789), "2020-09-13T12:26:40.123456Z");
}

}  // namespace leader_elector_test
}  // namespace ksched::live
