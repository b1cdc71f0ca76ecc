// What the unknown-field check adds to decoding a snapshot: 10,000 pods of
// a current cluster's shape (labels, owner, resources, a port, tolerations,
// affinity, status with podIPs and conditions), decoded with DecodeObjects
// (which runs the check) and walked by FindUnknownFields alone. Measured on
// the 2-core machine: the walk takes ~7 ms of the ~70 ms decode (~0.7 us a
// pod; a binary search per key instead of the hash took ~11 ms). On the
// minimal pods of a perf-to-list.py snapshot (100,000 pods, 5,000 nodes),
// `schedule`'s load runs 2.78 G instructions against 2.37 G before the
// check, defaults and validation (callgrind): the walk is about half of it.
// Folding the known-key test into the decoder's own field loops would save
// most of the walk's traversal.
#include <benchmark/benchmark.h>

#include <string>

#include "api/decode.h"
#include "api/unknown_fields.h"
#include "api/version_skew.h"

namespace ksched {
namespace {

const std::string& Snapshot() {
  static const std::string text = [] {
    std::string s = R"({"apiVersion":"v1","kind":"List","items":[)";
    for (int i = 0; i < 10000; ++i) {
      if (i > 0) s += ",";
      std::string n = std::to_string(i);
      s += R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-)" + n +
           R"(","namespace":"shop","uid":"u-)" + n +
           R"(","labels":{"app":"web","pod-template-hash":"7d9f"},
  "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d9f",
    "uid":"rs","controller":true,"blockOwnerDeletion":true}],
  "creationTimestamp":"2026-11-20T10:00:00Z","resourceVersion":"123"},
 "spec":{"containers":[{"name":"main","image":"nginx:1.25","imagePullPolicy":"IfNotPresent",
   "resources":{"requests":{"cpu":"250m","memory":"256Mi"},"limits":{"memory":"512Mi"}},
   "ports":[{"containerPort":8080,"protocol":"TCP","name":"http"}],
   "volumeMounts":[{"name":"token","mountPath":"/var/run/secrets","readOnly":true}],
   "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
  "nodeName":"node-)" +
           std::to_string(i % 500) +
           R"(","schedulerName":"default-scheduler","restartPolicy":"Always",
  "dnsPolicy":"ClusterFirst","securityContext":{},"serviceAccountName":"default",
  "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",
    "tolerationSeconds":300}],
  "affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":50,
    "podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"web"}},
    "topologyKey":"kubernetes.io/hostname"}}]}},
  "volumes":[{"name":"token","secret":{"secretName":"default-token","defaultMode":420}}]},
 "status":{"phase":"Running","podIP":"10.0.0.1","podIPs":[{"ip":"10.0.0.1"}],
  "qosClass":"Burstable","startTime":"2026-11-20T10:00:01Z",
  "conditions":[{"type":"Ready","status":"True","lastTransitionTime":null}]}})";
    }
    return s + "]}";
  }();
  return text;
}

void BM_DecodeSnapshot(benchmark::State& state) {
  for (auto _ : state) {
    ObjectSet set;
    Status s = DecodeObjects(Snapshot(), "bench.json", &set);
    if (!s.ok()) state.SkipWithError(s.error().message.c_str());
    benchmark::DoNotOptimize(set.pods.data());
  }
  state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_DecodeSnapshot)->Unit(benchmark::kMillisecond);

void BM_FindUnknownFieldsOnly(benchmark::State& state) {
  simdjson::dom::parser parser;
  auto root = ParseJson(parser, Snapshot(), "bench.json");
  if (!root.ok()) {
    state.SkipWithError(root.error().message.c_str());
    return;
  }
  simdjson::dom::array items = (*root)["items"].get_array().value();
  std::vector<FoundField> found;
  for (auto _ : state) {
    for (simdjson::dom::element pod : items) {
      found.clear();
      FindUnknownFields(pod, "Pod", &found, IsSkewField);
    }
    benchmark::DoNotOptimize(found.data());
  }
  state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_FindUnknownFieldsOnly)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ksched
