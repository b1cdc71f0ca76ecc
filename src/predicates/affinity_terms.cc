#include "predicates/affinity_terms.h"

#include <algorithm>

#include "labels/label_selector.h"

namespace ksched {
namespace {

const std::optional<PodAffinity>& PodAffinityOf(const Pod& pod) {
  static const std::optional<PodAffinity> kNone;
  return pod.spec.affinity ? pod.spec.affinity->pod_affinity : kNone;
}

const std::optional<PodAffinity>& PodAntiAffinityOf(const Pod& pod) {
  static const std::optional<PodAffinity> kNone;
  return pod.spec.affinity ? pod.spec.affinity->pod_anti_affinity : kNone;
}

void CompileList(const PodAffinity& src, StrId ns, std::vector<AffinityTerm>* required,
                 std::vector<AffinityTerm>* preferred) {
  required->reserve(src.required.size());
  for (const PodAffinityTerm& t : src.required) required->push_back(CompileAffinityTerm(t, ns, 0));
  preferred->reserve(src.preferred.size());
  for (const WeightedPodAffinityTerm& w : src.preferred) {
    preferred->push_back(CompileAffinityTerm(w.term, ns, w.weight));
  }
}

}  // namespace

AffinityTerm CompileAffinityTerm(const PodAffinityTerm& term, StrId owner_namespace,
                                 int32_t weight) {
  AffinityTerm out;
  if (term.namespaces.empty()) {
    out.namespaces.push_back(owner_namespace);
  } else {
    // Interned (not just looked up) so that a namespace first seen later
    // still gets the same id.
    for (const std::string& ns : term.namespaces) out.namespaces.push_back(Intern(ns));
    std::sort(out.namespaces.begin(), out.namespaces.end());
    out.namespaces.erase(std::unique(out.namespaces.begin(), out.namespaces.end()),
                         out.namespaces.end());
  }
  Result<labels::Selector> sel = labels::FromLabelSelector(term.label_selector);
  if (sel.ok()) {
    out.selector = std::move(sel).value();
  } else {
    out.selector = labels::Selector::Nothing();
    out.error = sel.error().message;
  }
  out.topology_key = term.topology_key.empty() ? kEmptyStr : Intern(term.topology_key);
  out.weight = weight;
  return out;
}

CompiledPodAffinity CompilePodAffinity(const Pod& pod) {
  CompiledPodAffinity out;
  const std::optional<PodAffinity>& aff = PodAffinityOf(pod);
  const std::optional<PodAffinity>& anti = PodAntiAffinityOf(pod);
  out.has_affinity = aff.has_value();
  out.has_anti_affinity = anti.has_value();
  if (aff) CompileList(*aff, pod.meta.ns, &out.required_affinity, &out.preferred_affinity);
  if (anti) {
    CompileList(*anti, pod.meta.ns, &out.required_anti_affinity, &out.preferred_anti_affinity);
  }
  return out;
}

const std::string* FirstTermError(const std::vector<AffinityTerm>& terms) {
  for (const AffinityTerm& t : terms) {
    if (t.error) return &*t.error;
  }
  return nullptr;
}

bool PodMatchesAllTerms(const Pod& pod, const std::vector<AffinityTerm>& terms) {
  if (terms.empty() || FirstTermError(terms) != nullptr) return false;
  for (const AffinityTerm& t : terms) {
    if (!t.Matches(pod)) return false;
  }
  return true;
}

std::string PodDisplayName(const Pod& pod) {
  std::string s(Str(pod.meta.ns));
  s += '/';
  s += pod.meta.name;
  return s;
}

namespace {

// An unambiguous encoding of what CompilePodAffinity reads: length-prefixed
// strings, counts before lists.
class SourceKey {
 public:
  void Num(uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void Text(const std::string& s) {
    Num(s.size());
    out_ += s;
  }
  void Term(const PodAffinityTerm& t) {
    Num(t.namespaces.size());
    for (const std::string& ns : t.namespaces) Text(ns);
    Text(t.topology_key);
    Num(t.label_selector.has_value());
    if (!t.label_selector) return;
    Num(t.label_selector->match_labels.size());
    for (const auto& [k, v] : t.label_selector->match_labels) {
      Text(k);
      Text(v);
    }
    Num(t.label_selector->match_expressions.size());
    for (const SelectorRequirement& r : t.label_selector->match_expressions) {
      Text(r.key);
      Text(r.op);
      Num(r.values.size());
      for (const std::string& v : r.values) Text(v);
    }
  }
  void Affinity(const std::optional<PodAffinity>& a) {
    Num(a.has_value());
    if (!a) return;
    Num(a->required.size());
    for (const PodAffinityTerm& t : a->required) Term(t);
    Num(a->preferred.size());
    for (const WeightedPodAffinityTerm& w : a->preferred) {
      Num(static_cast<uint64_t>(static_cast<int64_t>(w.weight)));
      Term(w.term);
    }
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

}  // namespace

uint32_t PodAffinityCache::Group(const ClusterState& cluster, PodId id) {
  if (entries_.size() <= id) entries_.resize(static_cast<size_t>(id) + 1);
  Entry& e = entries_[id];
  // A PodId names one pod for the life of a ClusterState (pods are only
  // added, never changed), and ClusterState ids are never reused.
  if (e.cluster_id == cluster.id()) return e.group;
  e.group = GroupOfPod(cluster.pod(id).pod);
  e.cluster_id = cluster.id();
  return e.group;
}

uint32_t PodAffinityCache::GroupOfPod(const Pod& pod) {
  SourceKey key;
  key.Num(pod.meta.ns);
  key.Affinity(PodAffinityOf(pod));
  key.Affinity(PodAntiAffinityOf(pod));
  auto [it, added] = group_by_source_.emplace(key.Take(), static_cast<uint32_t>(shared_.size()));
  if (added) {
    shared_.push_back(CompilePodAffinity(pod));
    const CompiledPodAffinity& c = shared_.back();
    if (FirstTermError(c.required_affinity) || FirstTermError(c.required_anti_affinity) ||
        FirstTermError(c.preferred_affinity) || FirstTermError(c.preferred_anti_affinity)) {
      any_invalid_ = true;
    }
  }
  return it->second;
}

}  // namespace ksched
