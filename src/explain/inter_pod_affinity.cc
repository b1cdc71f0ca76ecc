// The three MatchInterPodAffinity failures, with their culprits:
//  - an existing pod's required anti-affinity term matches the pod and that
//    pod runs in the node's topology domain: the pod (namespace/name) and the
//    term;
//  - the pod's own required affinity: the term and the node's topology
//    value, where no pod matching the terms runs (or the node lacks the
//    topology label);
//  - the pod's own required anti-affinity: the term and the pods matching it
//    in the node's domain.
// What depends only on the pod is indexed once per report (AffinityIndex):
// each node then costs a few lookups by (topology key, value). Pods
// nominated to the node that the cycle counted are treated as running there.
#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "explain/explain.h"
#include "predicates/affinity_terms.h"

namespace ksched::explain {

// "app=web in namespace shop, topologyKey zone".
static std::string DescribeTerm(const PodAffinityTerm& term, StrId owner_ns) {
  std::string ns;
  if (term.namespaces.empty()) {
    ns = fmt::format("namespace {}", Str(owner_ns));
  } else {
    ns = fmt::format("namespace{} {}", term.namespaces.size() > 1 ? "s" : "",
                     fmt::join(term.namespaces, ","));
  }
  return fmt::format("{} in {}, topologyKey {}", FormatLabelSelector(term.label_selector), ns,
                     term.topology_key.empty() ? "<empty>" : term.topology_key);
}

struct AffinityIndex {
  // Existing pods' required anti-affinity terms that the pod matches, by the
  // (topology key, value) of the node each such pod runs on.
  struct ExistingTerm {
    std::string pod;   // "ns/name (on node)"
    std::string term;  // DescribeTerm of the declaring pod's term
    StrId key;
  };
  std::vector<ExistingTerm> existing;
  std::unordered_map<uint64_t, std::vector<size_t>> existing_by_pair;
  std::vector<StrId> existing_keys;

  // The pod's own required terms.
  std::vector<PodAffinityTerm> affinity_raw, anti_raw;
  std::vector<AffinityTerm> affinity, anti;
  // Domains holding a pod that matches every affinity term, per term key.
  std::unordered_set<uint64_t> affinity_pairs;
  size_t affinity_matching = 0;  // such pods in the cluster
  // Per anti-affinity term: domain -> the pods matching it there.
  std::vector<std::unordered_map<uint64_t, std::vector<std::string>>> anti_pods;

  void AddExisting(const PodInfo& p, NodeId node, const Pod& incoming,
                   const ClusterState& cluster) {
    const Pod& existing_pod = p.pod;
    if (!existing_pod.spec.affinity || !existing_pod.spec.affinity->pod_anti_affinity) return;
    const Labels& labels = cluster.node(node).meta.labels;
    for (const PodAffinityTerm& t : existing_pod.spec.affinity->pod_anti_affinity->required) {
      AffinityTerm term = CompileAffinityTerm(t, existing_pod.meta.ns, 0);
      if (!term.Matches(incoming)) continue;
      std::optional<StrId> v = labels.Get(term.topology_key);
      if (!v) continue;
      existing_by_pair[TopologyPair(term.topology_key, *v)].push_back(existing.size());
      existing.push_back(ExistingTerm{
          existing_pod.Key() + " (on " + std::string(cluster.node(node).meta.name) + ")",
          DescribeTerm(t, existing_pod.meta.ns), term.topology_key});
      if (std::find(existing_keys.begin(), existing_keys.end(), term.topology_key) ==
          existing_keys.end())
        existing_keys.push_back(term.topology_key);
    }
  }

  void AddForOwnTerms(const PodInfo& p, NodeId node, const ClusterState& cluster) {
    const Labels& labels = cluster.node(node).meta.labels;
    if (!affinity.empty() && PodMatchesAllTerms(p.pod, affinity)) {
      ++affinity_matching;
      for (const AffinityTerm& t : affinity)
        if (std::optional<StrId> v = labels.Get(t.topology_key))
          affinity_pairs.insert(TopologyPair(t.topology_key, *v));
    }
    for (size_t i = 0; i < anti.size(); ++i) {
      if (!anti[i].Matches(p.pod)) continue;
      if (std::optional<StrId> v = labels.Get(anti[i].topology_key))
        anti_pods[i][TopologyPair(anti[i].topology_key, *v)].push_back(
            p.pod.Key() + " (on " + std::string(cluster.node(node).meta.name) + ")");
    }
  }
};

// Defined here, where AffinityIndex is complete.
PodExplainer::PodExplainer(const Pod& pod, const ClusterState& cluster,
                           const NominatedPods* nominated, const framework::CycleResult* cycle)
    : pod_(pod), cluster_(cluster), nominated_(nominated), cycle_(cycle) {}

PodExplainer::~PodExplainer() = default;

const AffinityIndex& PodExplainer::affinity() const {
  if (affinity_) return *affinity_;
  affinity_ = std::make_unique<AffinityIndex>();
  AffinityIndex& x = *affinity_;
  if (pod_.spec.affinity && pod_.spec.affinity->pod_affinity)
    x.affinity_raw = pod_.spec.affinity->pod_affinity->required;
  if (pod_.spec.affinity && pod_.spec.affinity->pod_anti_affinity)
    x.anti_raw = pod_.spec.affinity->pod_anti_affinity->required;
  for (const PodAffinityTerm& t : x.affinity_raw)
    x.affinity.push_back(CompileAffinityTerm(t, pod_.meta.ns, 0));
  for (const PodAffinityTerm& t : x.anti_raw)
    x.anti.push_back(CompileAffinityTerm(t, pod_.meta.ns, 0));
  x.anti_pods.resize(x.anti.size());
  for (PodId id : cluster_.pods_with_affinity()) {
    const PodInfo& p = cluster_.pod(id);
    if (p.live && p.node != kNoNode) x.AddExisting(p, p.node, pod_, cluster_);
  }
  if (!x.affinity.empty() || !x.anti.empty()) {
    for (PodId id = 0; id < cluster_.num_pods(); ++id) {
      const PodInfo& p = cluster_.pod(id);
      if (p.live && p.node != kNoNode) x.AddForOwnTerms(p, p.node, cluster_);
    }
  }
  return x;
}

namespace {

std::string DomainText(const Labels& labels, StrId key) {
  std::optional<StrId> v = labels.Get(key);
  return v ? fmt::format("{}={}", Str(key), Str(*v)) : fmt::format("no label {}", Str(key));
}

// The first 20 names, for JSON: a domain can hold thousands of pods.
nlohmann::ordered_json CappedPodNames(const std::vector<std::string>& names) {
  constexpr size_t kMax = 20;
  return std::vector<std::string>(
      names.begin(), names.begin() + static_cast<ptrdiff_t>(std::min(kMax, names.size())));
}

// The index as it would be with the node's nominated pods running there.
AffinityIndex WithNominated(const NodeContext& c, const AffinityIndex& base) {
  AffinityIndex x = base;
  for (PodId id : c.NominatedHere()) {
    const PodInfo& p = c.cluster.pod(id);
    x.AddExisting(p, c.node, c.pod, c.cluster);
    x.AddForOwnTerms(p, c.node, c.cluster);
  }
  return x;
}

const AffinityIndex& IndexFor(const NodeContext& c, std::optional<AffinityIndex>* local) {
  if (c.NominatedHere().empty()) return c.explainer->affinity();
  local->emplace(WithNominated(c, c.explainer->affinity()));
  return **local;
}

}  // namespace

void ExplainExistingAntiAffinity(const NodeContext& c, std::string_view reason,
                                 std::vector<Cause>* out) {
  std::optional<AffinityIndex> local;
  const AffinityIndex& x = IndexFor(c, &local);
  const Labels& here = c.node_object().meta.labels;
  // One cause per (term, domain), naming every pod that declares it.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (StrId key : x.existing_keys) {
    std::optional<StrId> v = here.Get(key);
    if (!v) continue;
    auto it = x.existing_by_pair.find(TopologyPair(key, *v));
    if (it == x.existing_by_pair.end()) continue;
    for (size_t e : it->second) {
      const AffinityIndex::ExistingTerm& t = x.existing[e];
      auto g = std::find_if(groups.begin(), groups.end(),
                            [&](const auto& gr) { return gr.first == t.term; });
      if (g == groups.end()) {
        groups.emplace_back(t.term, std::vector<std::string>());
        g = groups.end() - 1;
      }
      g->second.push_back(t.pod);
    }
  }
  for (const auto& [term, pods] : groups) {
    Cause cause;
    cause.reason = reason;
    cause.kind = "existingPodAntiAffinity";
    cause.message = fmt::format("{} {} required anti-affinity against pods matching {}",
                                JoinLimited(pods), pods.size() > 1 ? "have" : "has", term);
    cause.details["pods"] = CappedPodNames(pods);
    cause.details["podCount"] = pods.size();
    cause.details["term"] = term;
    out->push_back(std::move(cause));
  }
}

void ExplainPodAffinity(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  std::optional<AffinityIndex> local;
  const AffinityIndex& x = IndexFor(c, &local);
  const Labels& here = c.node_object().meta.labels;
  for (size_t i = 0; i < x.affinity.size(); ++i) {
    const AffinityTerm& term = x.affinity[i];
    const std::string text = DescribeTerm(x.affinity_raw[i], c.pod.meta.ns);
    Cause cause;
    cause.reason = reason;
    cause.kind = "podAffinity";
    cause.details["term"] = text;
    std::optional<StrId> v = here.Get(term.topology_key);
    if (!term.valid()) {
      cause.message = fmt::format("required affinity term {} is invalid: {}", i + 1, *term.error);
    } else if (!v) {
      cause.message = fmt::format("required affinity term {} ({}): the node has no label {}", i + 1,
                                  text, Str(term.topology_key));
    } else {
      if (x.affinity_pairs.count(TopologyPair(term.topology_key, *v)) != 0) continue;
      cause.message =
          fmt::format("required affinity term {} ({}): no pod matching {} runs in {}", i + 1, text,
                      x.affinity.size() > 1 ? "all required affinity terms" : "it",
                      DomainText(here, term.topology_key));
      if (x.affinity_matching == 0) cause.message += " (nor anywhere in the cluster)";
      cause.details["domain"] = DomainText(here, term.topology_key);
      cause.details["matchingPodsInCluster"] = x.affinity_matching;
    }
    out->push_back(std::move(cause));
  }
}

void ExplainPodAntiAffinity(const NodeContext& c, std::string_view reason,
                            std::vector<Cause>* out) {
  std::optional<AffinityIndex> local;
  const AffinityIndex& x = IndexFor(c, &local);
  const Labels& here = c.node_object().meta.labels;
  for (size_t i = 0; i < x.anti.size(); ++i) {
    const AffinityTerm& term = x.anti[i];
    const std::string text = DescribeTerm(x.anti_raw[i], c.pod.meta.ns);
    Cause cause;
    cause.reason = reason;
    cause.kind = "podAntiAffinity";
    cause.details["term"] = text;
    if (!term.valid()) {
      cause.message =
          fmt::format("required anti-affinity term {} is invalid: {}", i + 1, *term.error);
      out->push_back(std::move(cause));
      continue;
    }
    std::optional<StrId> v = here.Get(term.topology_key);
    if (!v) continue;
    auto it = x.anti_pods[i].find(TopologyPair(term.topology_key, *v));
    if (it == x.anti_pods[i].end()) continue;
    const std::vector<std::string>& pods = it->second;
    cause.message = fmt::format("required anti-affinity term {} ({}): {} already {} in {}", i + 1,
                                text, JoinLimited(pods), pods.size() > 1 ? "run" : "runs",
                                DomainText(here, term.topology_key));
    cause.details["domain"] = DomainText(here, term.topology_key);
    cause.details["pods"] = CappedPodNames(pods);
    cause.details["podCount"] = pods.size();
    out->push_back(std::move(cause));
  }
}

}  // namespace ksched::explain
