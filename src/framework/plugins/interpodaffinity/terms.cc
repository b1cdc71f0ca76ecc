#include "framework/plugins/interpodaffinity/terms.h"

#include <optional>

#include "labels/label_selector.h"

namespace ksched::framework::interpodaffinity {
namespace {

const PodAffinity* PodAffinityOf(const Pod& pod) {
  const auto& a = pod.spec.affinity;
  return a && a->pod_affinity ? &*a->pod_affinity : nullptr;
}

const PodAffinity* PodAntiAffinityOf(const Pod& pod) {
  const auto& a = pod.spec.affinity;
  return a && a->pod_anti_affinity ? &*a->pod_anti_affinity : nullptr;
}

// newAffinityTerm: the label selector is parsed before the namespace
// selector, so its error wins.
Result<AffinityTerm> ParseTerm(const Pod& pod, const PodAffinityTerm& term, int32_t weight) {
  AffinityTerm out;
  Result<labels::Selector> sel = labels::FromLabelSelector(term.label_selector);
  if (!sel.ok()) return sel.error();
  out.selector = std::move(sel).value();
  // No namespaces and no namespaceSelector: the pod's own namespace.
  if (term.namespaces.empty() && !term.namespace_selector) {
    out.namespaces.push_back(pod.meta.ns);
  } else {
    for (const std::string& ns : term.namespaces) out.namespaces.push_back(Intern(ns));
    std::sort(out.namespaces.begin(), out.namespaces.end());
    out.namespaces.erase(std::unique(out.namespaces.begin(), out.namespaces.end()),
                         out.namespaces.end());
  }
  Result<labels::Selector> ns_sel = labels::FromLabelSelector(term.namespace_selector);
  if (!ns_sel.ok()) return ns_sel.error();
  out.namespace_selector = std::move(ns_sel).value();
  out.topology_key = Intern(term.topology_key);
  out.weight = weight;
  return out;
}

// getAffinityTerms / getWeightedAffinityTerms: the first error empties the
// whole list. Returns the error message, "" when none.
std::string ParseRequired(const Pod& pod, const std::vector<PodAffinityTerm>& src,
                          std::vector<AffinityTerm>* out) {
  out->reserve(src.size());
  for (const PodAffinityTerm& t : src) {
    Result<AffinityTerm> r = ParseTerm(pod, t, 0);
    if (!r.ok()) {
      out->clear();
      return r.error().message;
    }
    out->push_back(std::move(r).value());
  }
  return "";
}

std::string ParsePreferred(const Pod& pod, const std::vector<WeightedPodAffinityTerm>& src,
                           std::vector<AffinityTerm>* out) {
  out->reserve(src.size());
  for (const WeightedPodAffinityTerm& w : src) {
    Result<AffinityTerm> r = ParseTerm(pod, w.term, w.weight);
    if (!r.ok()) {
      out->clear();
      return r.error().message;
    }
    out->push_back(std::move(r).value());
  }
  return "";
}

// utilerrors.NewAggregate(...).Error(): one message alone, several (all
// distinct here: each names its list) joined by ", " in brackets.
std::string Aggregate(const std::vector<std::string>& messages) {
  if (messages.empty()) return "";
  if (messages.size() == 1) return messages[0];
  std::string out = "[";
  for (size_t i = 0; i < messages.size(); ++i) {
    if (i > 0) out += ", ";
    out += messages[i];
  }
  out += "]";
  return out;
}

}  // namespace

PodTerms ParsePodTerms(const Pod& pod) {
  PodTerms out;
  // Most pods have no pod (anti-)affinity: nothing to parse.
  if (PodAffinityOf(pod) == nullptr && PodAntiAffinityOf(pod) == nullptr) return out;
  static const PodAffinity kNone;
  const PodAffinity& aff = PodAffinityOf(pod) ? *PodAffinityOf(pod) : kNone;
  const PodAffinity& anti = PodAntiAffinityOf(pod) ? *PodAntiAffinityOf(pod) : kNone;
  std::vector<std::string> errors;
  auto note = [&errors](std::string_view list, std::string message) {
    if (message.empty()) return;
    errors.push_back(std::string(list) + ": " + message);
  };
  note("requiredAffinityTerms", ParseRequired(pod, aff.required, &out.required_affinity));
  note("requiredAntiAffinityTerms", ParseRequired(pod, anti.required, &out.required_anti_affinity));
  note("preferredAffinityTerms", ParsePreferred(pod, aff.preferred, &out.preferred_affinity));
  note("preferredAntiAffinityTerms",
       ParsePreferred(pod, anti.preferred, &out.preferred_anti_affinity));
  out.error = Aggregate(errors);
  return out;
}

bool HasPreferredTerms(const Pod& pod) {
  const PodAffinity* aff = PodAffinityOf(pod);
  const PodAffinity* anti = PodAntiAffinityOf(pod);
  return (aff && !aff->preferred.empty()) || (anti && !anti->preferred.empty());
}

bool PodMatchesAllTerms(const std::vector<AffinityTerm>& terms, const Pod& pod) {
  if (terms.empty()) return false;
  static const Labels kNoLabels;
  for (const AffinityTerm& t : terms) {
    if (!t.Matches(pod, kNoLabels)) return false;
  }
  return true;
}

namespace {

// An unambiguous encoding of what ParsePodTerms reads: length-prefixed
// strings, counts before lists, presence flags before optionals.
class SourceKey {
 public:
  void Num(uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void Text(const std::string& s) {
    Num(s.size());
    out_ += s;
  }
  void Selector(const std::optional<LabelSelector>& s) {
    Num(s.has_value());
    if (!s) return;
    Num(s->match_labels.size());
    for (const auto& [k, v] : s->match_labels) {
      Text(k);
      Text(v);
    }
    Num(s->match_expressions.size());
    for (const SelectorRequirement& r : s->match_expressions) {
      Text(r.key);
      Text(r.op);
      Num(r.values.size());
      for (const std::string& v : r.values) Text(v);
    }
  }
  void Term(const PodAffinityTerm& t) {
    Num(t.namespaces.size());
    for (const std::string& ns : t.namespaces) Text(ns);
    Text(t.topology_key);
    Selector(t.label_selector);
    Selector(t.namespace_selector);
  }
  void Affinity(const PodAffinity* a) {
    Num(a != nullptr);
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

uint32_t TermCache::Group(const ClusterState& cluster, PodId id) {
  if (entries_.size() <= id) entries_.resize(static_cast<size_t>(id) + 1);
  Entry& e = entries_[id];
  if (e.cluster_id == cluster.id()) return e.group;
  e.group = GroupOfPod(cluster.pod(id).pod);
  e.cluster_id = cluster.id();
  return e.group;
}

uint32_t TermCache::GroupOfPod(const Pod& pod) {
  SourceKey key;
  // The namespace matters only when a term lists none and has no selector;
  // keying on it always keeps the encoding simple.
  key.Num(pod.meta.ns);
  key.Affinity(PodAffinityOf(pod));
  key.Affinity(PodAntiAffinityOf(pod));
  auto [it, added] =
      group_by_source_.try_emplace(key.Take(), static_cast<uint32_t>(groups_.size()));
  if (added) groups_.push_back(ParsePodTerms(pod));
  return it->second;
}

}  // namespace ksched::framework::interpodaffinity
