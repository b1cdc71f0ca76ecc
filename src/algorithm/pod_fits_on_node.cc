#include "algorithm/pod_fits_on_node.h"

#include <algorithm>

#include "algorithm/generic_scheduler.h"
#include "api/priority_admission.h"

namespace ksched {

Result<CyclePredicates> CyclePredicates::Prepare(const SchedulerConfig& config,
                                                 const PodToSchedule& target,
                                                 const ClusterState& cluster) {
  CyclePredicates c;
  c.config_ = &config;
  c.target_ = &target;
  c.cluster_ = &cluster;
  const size_t np = config.predicates.size();
  c.states_.resize(np);
  c.copy_roots_.resize(np);
  c.active_.assign(np, 1);
  c.is_copy_.assign(np, 0);
  for (size_t p = 0; p < np; ++p) {
    const Predicate& pred = *config.predicates[p].predicate;
    auto state = pred.Prepare(target, cluster);
    if (!state.ok()) return state.error();
    c.states_[p] = std::shared_ptr<PredicateState>(std::move(state).value());
    c.active_[p] = pred.AlwaysPasses(c.states_[p].get()) ? 0 : 1;
  }
  c.prefix_end_ = np;
  for (size_t p = 0; p < np; ++p) {
    if (c.active_[p] && !config.predicates[p].predicate->NodeLocal()) {
      c.prefix_end_ = p;
      break;
    }
  }
  return c;
}

void CyclePredicates::PrepareCopies() {
  for (size_t p = 0; p < states_.size(); ++p) {
    if (copy_roots_[p] || is_copy_[p]) continue;
    copy_roots_[p] = config_->predicates[p].predicate->CopyState(*target_, states_[p].get());
  }
}

CyclePredicates CyclePredicates::Copy() const {
  CyclePredicates c = *this;
  for (size_t p = 0; p < states_.size(); ++p) {
    const Predicate& pred = *config_->predicates[p].predicate;
    const PredicateState* from = is_copy_[p] ? states_[p].get() : copy_roots_[p].get();
    std::unique_ptr<PredicateState> copy;
    if (from != nullptr) {
      copy = pred.CopyState(*target_, from);
    } else if (!is_copy_[p]) {
      copy = pred.CopyState(*target_, states_[p].get());  // PrepareCopies() was not called
    }
    if (!copy) continue;  // the state does not depend on other pods: share it
    c.states_[p] = std::shared_ptr<PredicateState>(std::move(copy));
    c.is_copy_[p] = 1;
    c.copy_roots_[p] = nullptr;
    c.active_[p] = pred.AlwaysPasses(c.states_[p].get()) ? 0 : 1;
  }
  return c;
}

void CyclePredicates::AddPod(PodId pod, const NodeInfo& node) {
  for (size_t p = 0; p < states_.size(); ++p) {
    if (!is_copy_[p]) continue;
    const Predicate& pred = *config_->predicates[p].predicate;
    pred.AddPod(*target_, states_[p].get(), pod, node);
    active_[p] = pred.AlwaysPasses(states_[p].get()) ? 0 : 1;
  }
}

void CyclePredicates::RemovePod(PodId pod) {
  for (size_t p = 0; p < states_.size(); ++p) {
    if (!is_copy_[p]) continue;
    const Predicate& pred = *config_->predicates[p].predicate;
    pred.RemovePod(*target_, states_[p].get(), pod);
    active_[p] = pred.AlwaysPasses(states_[p].get()) ? 0 : 1;
  }
}

bool CyclePredicates::Run(size_t from, size_t to, const NodeInfo& node, ReasonList* reasons,
                          uint16_t* first_failed, bool check_all) const {
  bool fits = true;
  for (size_t p = from; p < to; ++p) {
    if (!active_[p]) continue;
    if (!config_->predicates[p].predicate->Check(*target_, states_[p].get(), node, reasons)) {
      if (fits) *first_failed = static_cast<uint16_t>(p);
      fits = false;
      if (!check_all) break;
    }
  }
  return fits;
}

CycleNominations::CycleNominations(const NominatedPods* nominated, const Pod& pod,
                                   const ClusterState& cluster) {
  if (nominated == nullptr || nominated->empty()) return;
  const int32_t priority = PodPriority(pod);
  for (const auto& [node_name, entries] : nominated->by_node()) {
    NodeId node = cluster.FindNode(node_name);
    if (node == kNoNode) continue;
    std::vector<PodId> pods;
    for (const NominatedPods::Entry& e : entries) {
      if (e.priority >= priority && e.uid != pod.meta.uid) pods.push_back(e.pod);
    }
    if (!pods.empty()) nodes_.emplace_back(node, std::move(pods));
  }
  std::sort(nodes_.begin(), nodes_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
}

const std::vector<PodId>* CycleNominations::ForNode(NodeId node) const {
  if (nodes_.empty()) return nullptr;
  auto it = std::lower_bound(nodes_.begin(), nodes_.end(), node,
                             [](const auto& e, NodeId n) { return e.first < n; });
  return it != nodes_.end() && it->first == node ? &it->second : nullptr;
}

bool PodFitsOnNode(const CyclePredicates& predicates, const NodeInfo& node,
                   const CycleNominations& nominations, ReasonList* reasons, uint16_t* first_failed,
                   bool check_all) {
  const size_t n = predicates.size();
  if (const std::vector<PodId>* added = nominations.ForNode(node.id)) {
    NodeInfo with = node;
    CyclePredicates with_predicates = predicates.Copy();
    for (PodId p : *added) {
      with.AddPod(p, predicates.cluster().pod(p));
      with_predicates.AddPod(p, with);
    }
    if (!with_predicates.Run(0, n, with, reasons, first_failed, check_all)) return false;
  }
  return predicates.Run(0, n, node, reasons, first_failed, check_all);
}

}  // namespace ksched
