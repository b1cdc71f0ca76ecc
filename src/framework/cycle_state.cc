#include "framework/cycle_state.h"

#include <algorithm>
#include <atomic>

namespace ksched::framework {

namespace {
std::atomic<size_t> next_key{0};
}  // namespace

StateKey StateKey::Register() { return StateKey(next_key++); }

size_t StateKey::Count() { return next_key.load(std::memory_order_relaxed); }

void CycleState::Write(StateKey key, std::unique_ptr<StateData> value) {
  // Sized for every key at the first write: a cycle writes a dozen, and
  // growing one at a time reallocated several times per cycle.
  if (key.index() >= data_.size()) data_.resize(std::max(key.index() + 1, StateKey::Count()));
  data_[key.index()] = std::move(value);
}

void CycleState::Delete(StateKey key) {
  if (key.index() < data_.size()) data_[key.index()].reset();
}

CycleState CycleState::Clone() const {
  CycleState copy;
  copy.data_.resize(data_.size());
  for (size_t i = 0; i < data_.size(); ++i)
    if (data_[i]) copy.data_[i] = data_[i]->Clone();
  copy.skip_filter_ = skip_filter_;
  copy.skip_score_ = skip_score_;
  return copy;
}

}  // namespace ksched::framework
