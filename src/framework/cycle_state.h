// framework.CycleState: what a plugin computes once per scheduling cycle
// (in PreFilter or PreScore) and reads again for every node.
//
// Keys are small integers handed out once per plugin state type
// (StateKey::Register), so a Read is an index into a short vector instead of a
// map lookup with a string hash: it runs once per node per plugin. Preemption
// clones the state to try removing pods on one node without touching the
// cycle's own copy; every StateData must therefore implement Clone().
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace ksched::framework {

class StateData {
 public:
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
};

// A key for one kind of state; create one per plugin as a static:
//   static const StateKey kPreFilterKey = StateKey::Register();
class StateKey {
 public:
  static StateKey Register();
  // Keys registered so far (plugins register theirs as statics, before any
  // cycle runs).
  static size_t Count();
  size_t index() const { return index_; }

 private:
  explicit StateKey(size_t index) : index_(index) {}
  size_t index_;
};

class CycleState {
 public:
  CycleState() = default;
  CycleState(const CycleState&) = delete;
  CycleState& operator=(const CycleState&) = delete;
  CycleState(CycleState&&) = default;
  CycleState& operator=(CycleState&&) = default;

  // nullptr when nothing was written under `key`.
  StateData* Read(StateKey key) const {
    return key.index() < data_.size() ? data_[key.index()].get() : nullptr;
  }
  // Typed read; nullptr when absent (a plugin then returns upstream's
  // "error reading ... from cycleState" Error status).
  template <typename T>
  T* ReadAs(StateKey key) const {
    return static_cast<T*>(Read(key));
  }
  void Write(StateKey key, std::unique_ptr<StateData> value);
  void Delete(StateKey key);
  // A deep copy (every StateData cloned).
  CycleState Clone() const;

 private:
  std::vector<std::unique_ptr<StateData>> data_;
};

}  // namespace ksched::framework
