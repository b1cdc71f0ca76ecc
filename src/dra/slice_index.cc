#include "dra/slice_index.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ksched::dra {
namespace {

uint64_t PoolKey(StrId driver, StrId pool) { return uint64_t{driver} << 32 | pool; }

cel::DeviceAttributeValue::Kind CelKind(DeviceAttribute::Kind k) {
  switch (k) {
    case DeviceAttribute::Kind::kInt:
      return cel::DeviceAttributeValue::Kind::kInt;
    case DeviceAttribute::Kind::kBool:
      return cel::DeviceAttributeValue::Kind::kBool;
    case DeviceAttribute::Kind::kString:
      return cel::DeviceAttributeValue::Kind::kString;
    case DeviceAttribute::Kind::kVersion:
      return cel::DeviceAttributeValue::Kind::kVersion;
    case DeviceAttribute::Kind::kNone:
      break;
  }
  return cel::DeviceAttributeValue::Kind::kNone;
}

const std::vector<uint32_t>& NoIndices() {
  static const std::vector<uint32_t> none;
  return none;
}

}  // namespace

std::string Pool::Id() const {
  std::string s(Str(driver));
  s += '/';
  s += Str(pool);
  return s;
}

CompiledNodeSelection CompileNodeSelection(const NodeSelector& selector) {
  // nodeaffinity.NewNodeSelector leaves out empty terms and refuses the
  // whole selector when a term does not parse.
  NodeSelector kept;
  for (const NodeSelectorTerm& t : selector.terms)
    if (!t.match_expressions.empty() || !t.match_fields.empty()) kept.terms.push_back(t);
  CompiledNodeSelection out;
  out.terms = labels::CompiledNodeSelectorTerms::Compile(kept);
  for (size_t i = 0; i < out.terms.size(); ++i) {
    if (!out.terms.TermError(i).empty()) {
      if (!out.error.empty()) out.error += ", ";
      out.error += out.terms.TermError(i);
    }
  }
  return out;
}

bool NodeMatches(const Node& node, const std::optional<std::string>& node_name,
                 const std::optional<bool>& all_nodes, const CompiledNodeSelection* selector,
                 std::string* error) {
  if (node_name && !node_name->empty()) return node.meta.name == *node_name;
  if (all_nodes.value_or(false)) return true;
  if (selector != nullptr) {
    if (!selector->error.empty()) {
      *error = "failed to parse node selector: " + selector->error;
      return false;
    }
    return selector->terms.Matches(node.meta.labels, node.meta.name);
  }
  return false;
}

SliceIndex::SliceIndex(const DraState& state) : state_(&state) {
  const std::vector<ResourceSlice>& slices = state.slices();
  slices_.resize(slices.size());
  for (uint32_t i = 0; i < slices.size(); ++i) {
    const ResourceSlice& s = slices[i];
    SliceData& d = slices_[i];
    d.driver = Intern(s.driver);
    d.pool = Intern(s.pool.name);
    if (s.node_selector) d.node_selector = CompileNodeSelection(*s.node_selector);
    d.devices.reserve(s.devices.size());
    d.data.resize(s.devices.size());
    for (size_t j = 0; j < s.devices.size(); ++j) {
      const Device& dev = s.devices[j];
      d.devices.push_back(Intern(dev.name));
      DeviceData& dd = d.data[j];
      dd.attributes.reserve(dev.attributes.size());
      for (const DeviceAttribute& a : dev.attributes) {
        cel::DeviceAttribute ca;
        ca.name = a.name;
        ca.value.kind = CelKind(a.kind);
        ca.value.int_value = a.int_value;
        ca.value.bool_value = a.bool_value;
        ca.value.string_value = a.string_value;
        dd.attributes.push_back(ca);
      }
      dd.capacity.reserve(dev.capacity.size());
      for (const DeviceCapacity& c : dev.capacity) dd.capacity.push_back({c.name, &c.value});
      if (dev.node_selector) dd.node_selector = CompileNodeSelection(*dev.node_selector);
    }
    by_pool_[PoolKey(d.driver, d.pool)].push_back(i);
  }
}

cel::DeviceView SliceIndex::View(uint32_t slice, uint32_t device) const {
  const DeviceData& d = slices_[slice].data[device];
  cel::DeviceView v;
  v.driver = state_->slices()[slice].driver;
  v.attributes = d.attributes;
  v.capacity = d.capacity;
  return v;
}

bool SliceIndex::SliceMatches(uint32_t slice, const Node& node, std::string* error) const {
  const ResourceSlice& s = state_->slices()[slice];
  const auto& sel = slices_[slice].node_selector;
  return NodeMatches(node, s.node_name, s.all_nodes, sel ? &*sel : nullptr, error);
}

bool SliceIndex::DeviceMatches(uint32_t slice, uint32_t device, const Node& node,
                               std::string* error) const {
  const Device& d = state_->slices()[slice].devices[device];
  const auto& sel = slices_[slice].data[device].node_selector;
  return NodeMatches(node, d.node_name, d.all_nodes, sel ? &*sel : nullptr, error);
}

const std::vector<uint32_t>& SliceIndex::SlicesOfPool(StrId driver, StrId pool) const {
  auto it = by_pool_.find(PoolKey(driver, pool));
  return it == by_pool_.end() ? NoIndices() : it->second;
}

Result<std::shared_ptr<const std::vector<Pool>>> SliceIndex::PoolsFor(
    const Node& node, const Features& features) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = pools_by_node_.find(node.meta.name);
    if (it != pools_by_node_.end()) return it->second;
  }
  Result<std::vector<Pool>> pools = GatherPools(node, features);
  if (!pools.ok()) return pools.error();
  auto shared = std::make_shared<const std::vector<Pool>>(std::move(pools).value());
  std::lock_guard<std::mutex> lock(mu_);
  pools_by_node_.emplace(node.meta.name, shared);
  return shared;
}

// incubating.GatherPools. The candidates are the slices naming this node
// and every slice not tied to one node, merged back into the lister's
// (name) order: the others cannot match.
Result<std::vector<Pool>> SliceIndex::GatherPools(const Node& node,
                                                  const Features& features) const {
  const std::vector<ResourceSlice>& all = state_->slices();
  const std::vector<uint32_t>& on_node = state_->SlicesOnNode(node.meta.name);
  const std::vector<uint32_t>& other = state_->slices_not_on_one_node();
  std::vector<uint32_t> candidates;
  candidates.reserve(on_node.size() + other.size());
  std::merge(on_node.begin(), on_node.end(), other.begin(), other.end(),
             std::back_inserter(candidates));

  // Pool -> its slices of the newest generation seen, in candidate order.
  std::map<uint64_t, std::vector<uint32_t>> pools;
  auto add = [&](uint32_t i) {
    std::vector<uint32_t>& list = pools[PoolKey(slices_[i].driver, slices_[i].pool)];
    if (list.empty()) {
      list.push_back(i);
      return;
    }
    const int64_t have = all[list.front()].pool.generation;
    const int64_t gen = all[i].pool.generation;
    if (gen < have) return;  // out-dated
    if (gen > have) list.clear();
    list.push_back(i);
  };
  for (uint32_t i : candidates) {
    const ResourceSlice& s = all[i];
    if (!features.partitionable_devices &&
        (s.per_device_node_selection.has_value() || !s.shared_counters.empty()))
      continue;
    if (!s.shared_counters.empty()) {
      add(i);
    } else if ((s.node_name && !s.node_name->empty()) || s.all_nodes.value_or(false) ||
               s.node_selector.has_value()) {
      std::string err;
      bool match = SliceMatches(i, node, &err);
      if (!err.empty())
        return MakeError("failed to perform node selection for slice " + s.meta.name + ": " + err);
      if (match) add(i);
    } else if (s.per_device_node_selection.value_or(false)) {
      for (uint32_t j = 0; j < s.devices.size(); ++j) {
        std::string err;
        bool match = DeviceMatches(i, j, node, &err);
        if (!err.empty())
          return MakeError("failed to perform node selection for device " + s.devices[j].name +
                           " in slice " + s.meta.name + ": " + err);
        if (match) {
          add(i);
          break;
        }
      }
    }
    // Else nothing known was set: some later extension, skipped.
  }

  auto build = [&](Pool* p, const std::vector<uint32_t>& slices) {
    // buildPool without partitionable devices: device names must be unique
    // in the pool's slices for the node.
    std::vector<uint32_t> device_slices;
    for (uint32_t i : slices) {
      if (features.partitionable_devices && !all[i].shared_counters.empty()) continue;
      device_slices.push_back(i);
    }
    std::vector<StrId> names;
    for (uint32_t i : device_slices)
      names.insert(names.end(), slices_[i].devices.begin(), slices_[i].devices.end());
    std::vector<StrId> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    if (dup != sorted.end()) {
      // The first repeated name in walk order, as upstream's loop finds it.
      std::vector<StrId> seen;
      for (StrId n : names) {
        if (std::find(seen.begin(), seen.end(), n) != seen.end()) {
          p->invalid = true;
          p->invalid_reason = "duplicate device name " + std::string(Str(n));
          return;
        }
        seen.push_back(n);
      }
    }
    p->slices = std::move(device_slices);
  };

  std::vector<Pool> result;
  result.reserve(pools.size());
  for (auto& [key, slices] : pools) {
    Pool p;
    p.driver = slices_[slices.front()].driver;
    p.pool = slices_[slices.front()].pool;
    const ResourcePool& first = all[slices.front()].pool;
    if (static_cast<int64_t>(slices.size()) == first.resource_slice_count) {
      build(&p, slices);
      result.push_back(std::move(p));
      continue;
    }
    // checkSlicesInPool: a newer generation elsewhere makes this one
    // obsolete (the pool is left out); else the pool is complete when all
    // its slices of this generation, for any node, are there.
    bool obsolete = false;
    int64_t count = 0;
    for (uint32_t i : SlicesOfPool(p.driver, p.pool)) {
      if (all[i].pool.generation == first.generation) {
        ++count;
      } else if (all[i].pool.generation > first.generation) {
        obsolete = true;
        break;
      }
    }
    if (obsolete) continue;
    if (count != first.resource_slice_count) {
      p.incomplete = true;
      result.push_back(std::move(p));
      continue;
    }
    build(&p, slices);
    result.push_back(std::move(p));
  }
  // refsched135 sorts GatherPools' map-ordered result by driver, then pool.
  std::stable_sort(result.begin(), result.end(), [](const Pool& a, const Pool& b) {
    if (a.driver != b.driver) return Str(a.driver) < Str(b.driver);
    return Str(a.pool) < Str(b.pool);
  });
  return result;
}

}  // namespace ksched::dra
