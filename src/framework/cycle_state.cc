#include "framework/cycle_state.h"

#include <atomic>

namespace ksched::framework {

StateKey StateKey::Register() {
  static std::atomic<size_t> next{0};
  return StateKey(next++);
}

void CycleState::Write(StateKey key, std::unique_ptr<StateData> value) {
  if (key.index() >= data_.size()) data_.resize(key.index() + 1);
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
  return copy;
}

}  // namespace ksched::framework
