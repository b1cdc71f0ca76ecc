#include "cli/framework_step_writer.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/pod_claims.h"

namespace ksched {
namespace {

using framework::CycleResult;

// Indices [0, n) ordered by the name of node_of(i). Feasible lists hold
// each node once: with many nodes, their name ranks (0..N-1) are marked in
// one pass and read back in order.
template <typename NodeOf>
std::vector<size_t> ByName(size_t n, const ClusterState& cluster, NodeOf node_of) {
  const std::vector<uint32_t>& rank = cluster.name_rank();
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  if (n < 64) {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return rank[node_of(a)] < rank[node_of(b)]; });
    return order;
  }
  std::vector<uint32_t> at_rank(rank.size(), UINT32_MAX);
  for (size_t i = 0; i < n; ++i) {
    uint32_t& slot = at_rank[rank[node_of(i)]];
    if (slot != UINT32_MAX) {  // a node twice: keep the stable sort's order
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return rank[node_of(a)] < rank[node_of(b)]; });
      return order;
    }
    slot = static_cast<uint32_t>(i);
  }
  size_t k = 0;
  for (uint32_t i : at_rank)
    if (i != UINT32_MAX) order[k++] = i;
  return order;
}

// Per node of the cluster, whether its name is written as it is in JSON
// (checked once per ClusterState and thread).
const std::vector<uint8_t>& PlainNames(const ClusterState& cluster) {
  thread_local uint64_t cluster_id = ~uint64_t{0};
  thread_local std::vector<uint8_t> plain;
  if (cluster_id != cluster.id() || plain.size() != cluster.num_nodes()) {
    cluster_id = cluster.id();
    plain.assign(cluster.num_nodes(), 0);
    for (NodeId id = 0; id < cluster.num_nodes(); ++id)
      plain[id] = !JsonNeedsEscape(cluster.node(id).meta.name);
  }
  return plain;
}

void WriteStrings(DocumentWriter* w, const std::vector<std::string>& values) {
  w->BeginArray();
  for (const std::string& v : values) w->String(v);
  w->EndArray();
}

// Every failing node (cluster nodes and names only extenders know), by name.
struct Failure {
  std::string_view node;
  const framework::Status* status;
  bool plain = false;  // the name needs no JSON escape
};
std::vector<Failure> SortedFailures(const CycleResult& r, const ClusterState& cluster) {
  std::vector<Failure> out;
  out.reserve(r.failures.size() + r.unknown_failures.size());
  const std::vector<uint8_t>& plain = PlainNames(cluster);
  if (r.unknown_failures.empty()) {
    // Cluster nodes only: their name ranks order them.
    for (size_t i :
         ByName(r.failures.size(), cluster, [&](size_t i) { return r.failures[i].node; })) {
      const auto& f = r.failures[i];
      out.push_back({cluster.node(f.node).meta.name, &f.status, plain[f.node] != 0});
    }
    return out;
  }
  for (const auto& f : r.failures)
    out.push_back({cluster.node(f.node).meta.name, &f.status, plain[f.node] != 0});
  for (const auto& [name, status] : r.unknown_failures) out.push_back({name, &status});
  std::stable_sort(out.begin(), out.end(),
                   [](const Failure& a, const Failure& b) { return a.node < b.node; });
  return out;
}

void WriteScores(DocumentWriter* w, const CycleResult& r, const ClusterState& cluster,
                 const std::vector<size_t>& by_name) {
  const std::vector<NodeId>& feasible = r.feasible;
  auto name = [&](NodeId id) -> std::string_view { return cluster.node(id).meta.name; };
  const std::vector<uint8_t>& plain = PlainNames(cluster);
  auto per_node = [&](auto value) {
    w->BeginObject();
    for (size_t i : by_name) {
      const NodeId id = feasible[i];
      if (plain[id]) {
        w->PlainKey(name(id));
      } else {
        w->Key(name(id));
      }
      w->Int(value(i));
    }
    w->EndObject();
  };
  w->Key("scores");
  per_node([&](size_t i) { return r.totals[i]; });

  const framework::Framework* fwk = r.framework;
  const size_t np = r.plugin_scores.num_nodes == 0 ? 0 : fwk->num_score_plugins();
  if (np > 0) {
    // A plugin listed twice (upstream's MultiPoint reordering can do that)
    // is one key of the harness's map.
    std::vector<size_t> plugins(np);
    for (size_t p = 0; p < np; ++p) plugins[p] = p;
    std::stable_sort(plugins.begin(), plugins.end(), [&](size_t a, size_t b) {
      return fwk->ScorePluginName(a) < fwk->ScorePluginName(b);
    });
    w->Key("plugins");
    w->BeginObject();
    const std::vector<uint8_t>& skipped = r.plugin_scores.skipped;
    for (size_t k = 0; k < plugins.size(); ++k) {
      size_t p = plugins[k];
      if (k + 1 < plugins.size() && fwk->ScorePluginName(plugins[k + 1]) == fwk->ScorePluginName(p))
        continue;
      // v1.35: a plugin whose PreScore returned Skip did not score.
      if (p < skipped.size() && skipped[p]) continue;
      w->Key(fwk->ScorePluginName(p));
      per_node([&](size_t i) { return r.plugin_scores.At(p, i); });
    }
    w->EndObject();
  }
  if (!r.extender_scores.empty()) {
    w->Key("extenders");
    per_node([&](size_t i) { return r.extender_scores[i]; });
  }
  w->Key("maxNodes");
  w->BeginArray();
  for (NodeId id : r.max_nodes) w->String(name(id));
  w->EndArray();
}

void WriteNodeSelector(DocumentWriter* w, const NodeSelector& ns) {
  auto requirements = [&](const char* key, const std::vector<SelectorRequirement>& reqs) {
    if (reqs.empty()) return;  // omitempty
    w->Key(key);
    w->BeginArray();
    for (const SelectorRequirement& r : reqs) {
      w->BeginObject();
      w->Key("key");
      w->String(r.key);
      w->Key("operator");
      w->String(r.op);
      if (!r.values.empty()) {
        w->Key("values");
        WriteStrings(w, r.values);
      }
      w->EndObject();
    }
    w->EndArray();
  };
  w->BeginObject();
  w->Key("nodeSelectorTerms");
  w->BeginArray();
  for (const NodeSelectorTerm& t : ns.terms) {
    w->BeginObject();
    requirements("matchExpressions", t.match_expressions);
    requirements("matchFields", t.match_fields);
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

// ../shared/dra/README.md's `allocations`: every allocated claim of a
// placed pod as PreBind left it, by "namespace/claim" (sorted).
void WriteAllocations(DocumentWriter* w, const Pod& pod, const ClusterState& cluster) {
  const DraState& dra = cluster.dra();
  std::vector<const ResourceClaim*> claims;
  for (uint32_t i : dra::PodClaimIndices(pod, dra)) {
    const ResourceClaim& c = dra.claim(i);
    if (c.allocation && std::find(claims.begin(), claims.end(), &c) == claims.end())
      claims.push_back(&c);
  }
  if (claims.empty()) return;
  std::sort(claims.begin(), claims.end(),
            [](const ResourceClaim* a, const ResourceClaim* b) { return a->Key() < b->Key(); });
  w->Key("allocations");
  w->BeginObject();
  for (const ResourceClaim* c : claims) {
    w->Key(c->Key());
    w->BeginObject();
    w->Key("devices");
    w->BeginArray();
    for (const DeviceRequestAllocationResult& d : c->allocation->results) {
      w->BeginObject();
      w->Key("request");
      w->String(d.request);
      w->Key("driver");
      w->String(d.driver);
      w->Key("pool");
      w->String(d.pool);
      w->Key("device");
      w->String(d.device);
      if (d.AdminAccess()) {
        w->Key("adminAccess");
        w->Literal("true");
      }
      w->EndObject();
    }
    w->EndArray();
    w->Key("nodeSelector");
    if (c->allocation->node_selector) {
      WriteNodeSelector(w, *c->allocation->node_selector);
    } else {
      w->Null();
    }
    w->EndObject();
  }
  w->EndObject();
}

// The line of a pod the queue's PreEnqueue plugins hold (v1.35).
void WritePreEnqueueStep(DocumentWriter* w, const Pod& pod, const framework::Status& rejection) {
  w->BeginObject();
  w->Key("pod");
  w->String(pod.Key());
  w->Key("node");
  w->Null();
  w->Key("preEnqueue");
  w->BeginObject();
  w->Key("plugin");
  w->String(rejection.failed_plugin());
  w->Key("message");
  w->String(rejection.Message());
  w->EndObject();
  w->EndObject();
}

}  // namespace

void WriteFrameworkStep(DocumentWriter* w, const Pod& pod, const CycleResult& r,
                        const ClusterState& cluster,
                        const std::function<void(DocumentWriter*)>& extra_fields) {
  if (r.pre_enqueue) {
    WritePreEnqueueStep(w, pod, *r.pre_enqueue);
    return;
  }
  w->BeginObject();
  w->Key("pod");
  w->String(pod.Key());
  w->Key("node");
  if (r.chosen == kNoNode) {
    w->Null();
    w->Key("error");
    w->String(r.error);
  } else {
    w->String(cluster.node(r.chosen).meta.name);
  }

  // Feasible nodes by name, for the list and for each score map.
  const std::vector<size_t> by_name =
      ByName(r.feasible.size(), cluster, [&](size_t i) { return r.feasible[i]; });
  const std::vector<uint8_t>& plain = PlainNames(cluster);
  w->Key("feasible");
  w->BeginArray();
  for (size_t i : by_name) {
    const NodeId id = r.feasible[i];
    if (plain[id]) {
      w->PlainString(cluster.node(id).meta.name);
    } else {
      w->String(cluster.node(id).meta.name);
    }
  }
  w->EndArray();

  const std::vector<Failure> failures = SortedFailures(r, cluster);
  w->Key("failures");
  w->BeginObject();
  for (const Failure& f : failures) {
    if (f.plain) {
      w->PlainKey(f.node);
    } else {
      w->Key(f.node);
    }
    WriteStrings(w, f.status->reasons());
  }
  w->EndObject();
  bool any_plugin = false;
  for (const Failure& f : failures) any_plugin = any_plugin || !f.status->failed_plugin().empty();
  if (any_plugin) {
    w->Key("failedPlugins");
    w->BeginObject();
    for (const Failure& f : failures) {
      if (f.status->failed_plugin().empty()) continue;
      if (f.plain) {
        w->PlainKey(f.node);
      } else {
        w->Key(f.node);
      }
      w->String(f.status->failed_plugin());
    }
    w->EndObject();
  }

  if (r.chosen != kNoNode && r.feasible.size() >= 2 && r.scored)
    WriteScores(w, r, cluster, by_name);
  if (r.chosen != kNoNode && !pod.spec.resource_claims.empty()) WriteAllocations(w, pod, cluster);
  if (extra_fields) extra_fields(w);
  w->EndObject();
}

void WriteFrameworkPreemptionField(DocumentWriter* w, const FrameworkPreemption& preemption) {
  w->Key("preemption");
  if (!preemption.nominated) {
    w->Null();
    return;
  }
  w->BeginObject();
  w->Key("node");
  w->String(preemption.node);
  w->Key("victims");
  w->BeginArray();
  for (const std::string& v : preemption.victims) w->String(v);
  w->EndArray();
  w->Key("nominatedPodsToClear");
  w->BeginArray();
  for (const std::string& p : preemption.nominated_pods_to_clear) w->String(p);
  w->EndArray();
  w->EndObject();
}

std::string FrameworkStepToJson(const Pod& pod, const CycleResult& result,
                                const ClusterState& cluster,
                                const FrameworkPreemption* preemption) {
  std::string out;
  {
    OutputBuffer buffer(&out);
    auto w = MakeJsonWriter(&buffer, JsonStyle::kCompact);
    WriteFrameworkStep(w.get(), pod, result, cluster, [&](DocumentWriter* dw) {
      if (preemption != nullptr) WriteFrameworkPreemptionField(dw, *preemption);
    });
  }
  return out;
}

}  // namespace ksched
