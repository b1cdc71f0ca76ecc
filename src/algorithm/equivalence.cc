#include "algorithm/equivalence.h"

#include <algorithm>
#include <cstring>

namespace ksched {
namespace {

// A compact, unambiguous binary encoding: fixed-width integers and
// length-prefixed strings, so distinct inputs never serialise alike.
class KeyWriter {
 public:
  void U32(uint32_t v) { Raw(&v, sizeof v); }
  void I64(int64_t v) { Raw(&v, sizeof v); }
  void Str(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void Bool(bool b) { out_.push_back(b ? '\1' : '\0'); }
  void Strings(const std::vector<std::string>& v) {
    U32(static_cast<uint32_t>(v.size()));
    for (const auto& s : v) Str(s);
  }
  void LabelSet(const Labels& l) {
    U32(static_cast<uint32_t>(l.size()));
    for (const auto& [k, v] : l) {
      U32(k);
      U32(v);
    }
  }
  void Requirements(const std::vector<SelectorRequirement>& reqs) {
    U32(static_cast<uint32_t>(reqs.size()));
    for (const auto& r : reqs) {
      Str(r.key);
      Str(r.op);
      Strings(r.values);
    }
  }
  void Selector(const std::optional<LabelSelector>& s) {
    Bool(s.has_value());
    if (!s) return;
    U32(static_cast<uint32_t>(s->match_labels.size()));
    for (const auto& [k, v] : s->match_labels) {
      Str(k);
      Str(v);
    }
    Requirements(s->match_expressions);
  }
  void Term(const NodeSelectorTerm& t) {
    Requirements(t.match_expressions);
    Requirements(t.match_fields);
  }
  void PodTerms(const std::optional<PodAffinity>& a) {
    Bool(a.has_value());
    if (!a) return;
    U32(static_cast<uint32_t>(a->required.size()));
    for (const auto& t : a->required) PodTerm(t);
    U32(static_cast<uint32_t>(a->preferred.size()));
    for (const auto& w : a->preferred) {
      I64(w.weight);
      PodTerm(w.term);
    }
  }
  void PodTerm(const PodAffinityTerm& t) {
    Selector(t.label_selector);
    Strings(t.namespaces);
    Str(t.topology_key);
  }
  void Resources(const ResourceList& l) {
    U32(static_cast<uint32_t>(l.size()));
    for (const auto& q : l) {
      U32(q.name);
      I64(q.value);
      I64(q.milli);
    }
  }
  void Containers(const std::vector<Container>& cs) {
    U32(static_cast<uint32_t>(cs.size()));
    for (const Container& c : cs) {
      Str(c.image);
      Resources(c.requests);
      Resources(c.limits);
      U32(static_cast<uint32_t>(c.ports.size()));
      for (const auto& p : c.ports) {
        I64(p.container_port);
        I64(p.host_port);
        Str(p.host_ip);
        Str(p.protocol);
      }
    }
  }
  std::string Take() { return std::move(out_); }

 private:
  void Raw(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string out_;
};

}  // namespace

std::vector<StrId> WorkloadSelectorKeys(const ClusterState& cluster) {
  std::vector<StrId> keys;
  auto add_set = [&](const Labels& l) {
    for (const auto& [k, v] : l) keys.push_back(k);
  };
  auto add_selector = [&](const std::optional<LabelSelector>& s) {
    if (!s) return;
    for (const auto& [k, v] : s->match_labels) keys.push_back(Intern(k));
    for (const SelectorRequirement& r : s->match_expressions) keys.push_back(Intern(r.key));
  };
  for (const Service& s : cluster.services()) add_set(s.selector);
  for (const ReplicationController& rc : cluster.replication_controllers()) add_set(rc.selector);
  for (const ReplicaSet& rs : cluster.replica_sets()) add_selector(rs.selector);
  for (const StatefulSet& ss : cluster.stateful_sets()) add_selector(ss.selector);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string EquivalenceKey(const Pod& pod, const std::vector<StrId>* label_keys) {
  KeyWriter w;
  w.U32(pod.meta.ns);
  if (label_keys == nullptr) {
    w.LabelSet(pod.meta.labels);
  } else {
    // Spreading treats a pod without labels specially, so emptiness counts.
    w.Bool(pod.meta.labels.empty());
    Labels kept;
    for (const auto& [k, v] : pod.meta.labels)
      if (std::binary_search(label_keys->begin(), label_keys->end(), k)) kept.Set(k, v);
    w.LabelSet(kept);
  }
  w.U32(static_cast<uint32_t>(pod.meta.owner_references.size()));
  for (const auto& o : pod.meta.owner_references) {
    w.Str(o.kind);
    w.Str(o.name);
    w.Str(o.uid);
    w.Bool(o.controller);
  }
  const PodSpec& s = pod.spec;
  w.Containers(s.containers);
  w.Containers(s.init_containers);
  w.Str(s.node_name);
  w.Bool(s.has_node_selector);
  w.LabelSet(s.node_selector);
  w.Bool(s.affinity.has_value());
  if (s.affinity) {
    const auto& na = s.affinity->node_affinity;
    w.Bool(na.has_value());
    if (na) {
      w.Bool(na->required.has_value());
      if (na->required) {
        w.U32(static_cast<uint32_t>(na->required->terms.size()));
        for (const auto& t : na->required->terms) w.Term(t);
      }
      w.U32(static_cast<uint32_t>(na->preferred.size()));
      for (const auto& p : na->preferred) {
        w.I64(p.weight);
        w.Term(p.preference);
      }
    }
    w.PodTerms(s.affinity->pod_affinity);
    w.PodTerms(s.affinity->pod_anti_affinity);
  }
  w.U32(static_cast<uint32_t>(s.tolerations.size()));
  for (const auto& t : s.tolerations) {
    w.U32(t.key);
    w.Str(t.op);
    w.U32(t.value);
    w.U32(static_cast<uint32_t>(t.effect));
    w.Bool(t.toleration_seconds.has_value());
    w.I64(t.toleration_seconds.value_or(0));
  }
  w.U32(static_cast<uint32_t>(s.volumes.size()));
  for (const auto& v : s.volumes) {
    w.Str(v.name);
    w.U32(static_cast<uint32_t>(v.kind));
    w.Str(v.id);
    w.Bool(v.read_only);
    w.Strings(v.rbd_monitors);
    w.Str(v.rbd_pool);
    w.Str(v.rbd_image);
    w.Str(v.iscsi_iqn);
    w.Str(v.iscsi_target_portal);
    w.I64(v.iscsi_lun);
  }
  w.Bool(s.priority.has_value());
  w.I64(s.priority.value_or(0));
  return w.Take();
}

}  // namespace ksched
