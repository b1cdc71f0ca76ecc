#include "framework/status.h"

#include <gtest/gtest.h>

#include "framework/cycle_state.h"

namespace ksched::framework {
namespace status_test {

TEST(Status, MessageJoinsReasons) {
  Status s(Code::kUnschedulable, std::vector<std::string>{"a", "b"});
  EXPECT_EQ(s.Message(), "a, b");
  EXPECT_TRUE(s.IsUnschedulable());
  EXPECT_FALSE(Status().IsUnschedulable());
  EXPECT_EQ(CodeName(Code::kUnschedulableAndUnresolvable), "UnschedulableAndUnresolvable");
}

struct Counter : StateData {
  int n = 0;
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<Counter>(*this); }
};

TEST(CycleState, CloneIsDeep) {
  static const StateKey key = StateKey::Register();
  CycleState state;
  EXPECT_EQ(state.Read(key), nullptr);
  auto c = std::make_unique<Counter>();
  c->n = 1;
  state.Write(key, std::move(c));
  CycleState copy = state.Clone();
  copy.ReadAs<Counter>(key)->n = 2;
  EXPECT_EQ(state.ReadAs<Counter>(key)->n, 1);
  state.Delete(key);
  EXPECT_EQ(state.Read(key), nullptr);
}

// The first write sizes the state for every key registered so far; a key
// registered later still grows it.
TEST(CycleState, KeysRegisteredAfterAWriteStillFit) {
  static const StateKey first = StateKey::Register();
  EXPECT_GT(StateKey::Count(), first.index());
  CycleState state;
  state.Write(first, std::make_unique<Counter>());
  const StateKey later = StateKey::Register();
  EXPECT_EQ(state.Read(later), nullptr);
  auto c = std::make_unique<Counter>();
  c->n = 3;
  state.Write(later, std::move(c));
  EXPECT_EQ(state.ReadAs<Counter>(later)->n, 3);
  EXPECT_NE(state.Read(first), nullptr);
}

}  // namespace status_test
}  // namespace ksched::framework
