// PodTopologySpread's PreFilter state (upstream's filtering.go), exposed for
// tests.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "framework/cycle_state.h"
#include "framework/plugins/podtopologyspread/common.h"

namespace ksched::framework::plugins::podtopologyspread {

// The two domains of a key with the fewest matching pods, as upstream keeps
// them: paths[0] always holds the minimum; paths[1] is only an upper bound of
// the second smallest once AddPod / RemovePod have run.
struct CriticalPaths {
  struct Path {
    StrId value = kEmptyStr;  // the domain's topology value
    int64_t num = std::numeric_limits<int32_t>::max();
  };
  Path paths[2];
  void Update(StrId value, int64_t num);
};

struct PreFilterState final : StateData {
  // Null or empty: the pod has no hard constraints and every node passes.
  std::shared_ptr<const Constraints> constraints;
  std::shared_ptr<const RequiredNodeAffinity> affinity;
  std::vector<uint8_t> self_match;  // by constraint: the pod matches its own selector
  // By key slot:
  std::vector<std::shared_ptr<const TopologyDomains>> domains;
  std::vector<std::vector<int64_t>> counts;  // by domain: matching pods (TpPairToMatchNum)
  std::vector<int64_t> domains_num;          // pairs of the key; -1 when none (MinDomains)
  std::vector<CriticalPaths> paths;

  bool Empty() const { return !constraints || constraints->empty(); }
  // The global minimum of a key for the skew, with minDomains applied; false
  // when upstream would fail to find it (the constraint is then skipped).
  bool MinMatchNum(const Constraint& c, bool min_domains_enabled, int64_t* out) const;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

extern const StateKey kPreFilterStateKey;

}  // namespace ksched::framework::plugins::podtopologyspread
