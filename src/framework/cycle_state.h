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

class Plugin;

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
  // A deep copy (every StateData cloned, the skipped plugins kept).
  CycleState Clone() const;

  // The plugins whose PreFilter returned Skip this cycle (v1.27+; upstream's
  // SkipFilterPlugins): their Filter and PreFilter extensions do not run.
  // And those whose PreScore returned Skip (SkipScorePlugins): their Score
  // and NormalizeScore do not run and the cycle does not list them. A
  // cycle skips a handful at most: lists, not sets.
  void SkipFilter(const Plugin* plugin) { skip_filter_.push_back(plugin); }
  void SkipScore(const Plugin* plugin) { skip_score_.push_back(plugin); }
  bool SkipsFilter(const Plugin* plugin) const { return Has(skip_filter_, plugin); }
  bool SkipsScore(const Plugin* plugin) const { return Has(skip_score_, plugin); }
  bool any_filter_skipped() const { return !skip_filter_.empty(); }
  bool any_score_skipped() const { return !skip_score_.empty(); }

 private:
  static bool Has(const std::vector<const Plugin*>& v, const Plugin* p) {
    for (const Plugin* q : v)
      if (q == p) return true;
    return false;
  }

  std::vector<std::unique_ptr<StateData>> data_;
  std::vector<const Plugin*> skip_filter_;
  std::vector<const Plugin*> skip_score_;
};

}  // namespace ksched::framework
