#include "api/scenario.h"

#include <simdjson.h>

#include <algorithm>
#include <climits>
#include <utility>

#include "api/decode.h"
#include "api/defaults.h"
#include "api/yaml_to_json.h"

namespace ksched {
namespace {

namespace dom = simdjson::dom;
using simdjson::SUCCESS;

std::string At(std::string_view file, std::string_view field, std::string_view msg) {
  std::string s(file);
  s += ": ";
  s += field;
  s += ": ";
  s += msg;
  return s;
}

const char* TypeName(dom::element e) {
  switch (e.type()) {
    case dom::element_type::ARRAY:
      return "an array";
    case dom::element_type::OBJECT:
      return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
      return "an integer";
    case dom::element_type::DOUBLE:
      return "a number";
    case dom::element_type::STRING:
      return "a string";
    case dom::element_type::BOOL:
      return "a boolean";
    case dom::element_type::NULL_VALUE:
      return "null";
  }
  return "an unknown value";
}

Error WrongType(std::string_view file, std::string_view field, dom::element e,
                std::string_view want) {
  return MakeError(At(file, field, "expected " + std::string(want) + ", got " + TypeName(e)));
}

Status GetString(dom::element e, std::string_view file, std::string_view field, std::string* out) {
  std::string_view s;
  if (e.get(s) != SUCCESS) return WrongType(file, field, e, "a string");
  out->assign(s);
  return Status::Ok();
}

Status GetInt(dom::element e, std::string_view file, std::string_view field, int* out) {
  int64_t v = 0;
  if (e.type() != dom::element_type::INT64 || e.get(v) != SUCCESS) {
    return WrongType(file, field, e, "an integer");
  }
  if (v < INT_MIN || v > INT_MAX) {
    return MakeError(At(file, field, "integer out of range: " + std::to_string(v)));
  }
  *out = static_cast<int>(v);
  return Status::Ok();
}

// Decodes every item of the array `e` with `decode(item, file, where)` and
// appends the results to *out.
template <typename T, typename F>
Status DecodeArray(dom::element e, std::string_view file, std::string_view field,
                   std::vector<T>* out, F decode) {
  if (e.is_null()) return Status::Ok();
  dom::array arr;
  if (e.get(arr) != SUCCESS) return WrongType(file, field, e, "an array");
  out->reserve(out->size() + arr.size());
  size_t i = 0;
  for (dom::element item : arr) {
    std::string where = std::string(field) + "[" + std::to_string(i++) + "]";
    Result<T> r = decode(item, file, where);
    if (!r.ok()) return r.error();
    out->push_back(std::move(r.value()));
  }
  return Status::Ok();
}

// The README's rule: a pod without a uid is identified by its key.
void DefaultUids(std::vector<Pod>* pods) {
  for (Pod& pod : *pods) {
    if (pod.meta.uid.empty()) pod.meta.uid = pod.Key();
  }
}

Status DecodeFeatureGates(dom::element e, std::string_view file,
                          std::vector<std::pair<std::string, bool>>* out) {
  dom::object obj;
  if (e.get(obj) != SUCCESS) return WrongType(file, "featureGates", e, "an object");
  for (dom::key_value_pair kv : obj) {
    bool on = false;
    if (kv.value.get(on) != SUCCESS) {
      return WrongType(file, "featureGates." + std::string(kv.key), kv.value, "a boolean");
    }
    auto same = [&](const auto& g) { return g.first == kv.key; };
    if (auto it = std::find_if(out->begin(), out->end(), same); it != out->end()) {
      it->second = on;
    } else {
      out->emplace_back(std::string(kv.key), on);
    }
  }
  return Status::Ok();
}

Status DecodeCluster(dom::element e, std::string_view file, ObjectSet* out,
                     std::vector<std::string>* unknown) {
  if (e.is_null()) return Status::Ok();
  dom::object obj;
  if (e.get(obj) != SUCCESS) return WrongType(file, "cluster", e, "an object");
  for (dom::key_value_pair kv : obj) {
    std::string field = "cluster." + std::string(kv.key);
    Status s;
    if (kv.key == "nodes") {
      s = DecodeArray(kv.value, file, field, &out->nodes, DecodeNode);
    } else if (kv.key == "pods") {
      s = DecodeArray(kv.value, file, field, &out->pods, DecodePod);
    } else if (kv.key == "services") {
      s = DecodeArray(kv.value, file, field, &out->services, DecodeService);
    } else if (kv.key == "replicationControllers") {
      s = DecodeArray(kv.value, file, field, &out->replication_controllers,
                      DecodeReplicationController);
    } else if (kv.key == "replicaSets") {
      s = DecodeArray(kv.value, file, field, &out->replica_sets, DecodeReplicaSet);
    } else if (kv.key == "statefulSets") {
      s = DecodeArray(kv.value, file, field, &out->stateful_sets, DecodeStatefulSet);
    } else if (kv.key == "persistentVolumes") {
      s = DecodeArray(kv.value, file, field, &out->persistent_volumes, DecodePersistentVolume);
    } else if (kv.key == "persistentVolumeClaims") {
      s = DecodeArray(kv.value, file, field, &out->persistent_volume_claims,
                      DecodePersistentVolumeClaim);
    } else if (kv.key == "storageClasses") {
      s = DecodeArray(kv.value, file, field, &out->storage_classes, DecodeStorageClass);
    } else if (kv.key == "podDisruptionBudgets") {
      s = DecodeArray(kv.value, file, field, &out->pod_disruption_budgets,
                      DecodePodDisruptionBudget);
    } else if (kv.key == "priorityClasses") {
      s = DecodeArray(kv.value, file, field, &out->priority_classes, DecodePriorityClass);
    } else if (kv.key == "namespaces") {
      s = DecodeArray(kv.value, file, field, &out->namespaces, DecodeNamespace);
    } else if (kv.key == "csiNodes") {
      s = DecodeArray(kv.value, file, field, &out->csi_nodes, DecodeCSINode);
    } else if (kv.key == "csiDrivers") {
      s = DecodeArray(kv.value, file, field, &out->csi_drivers, DecodeCSIDriver);
    } else if (kv.key == "deviceClasses") {
      s = DecodeArray(kv.value, file, field, &out->device_classes, DecodeDeviceClass);
    } else if (kv.key == "resourceSlices") {
      s = DecodeArray(kv.value, file, field, &out->resource_slices, DecodeResourceSlice);
    } else if (kv.key == "resourceClaims") {
      s = DecodeArray(kv.value, file, field, &out->resource_claims, DecodeResourceClaim);
    } else if (kv.key == "resourceClaimTemplates") {
      s = DecodeArray(kv.value, file, field, &out->resource_claim_templates,
                      DecodeResourceClaimTemplate);
    } else {
      unknown->push_back(std::move(field));
    }
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Result<Scenario> DecodeScenario(dom::element root, std::string_view file) {
  dom::object obj;
  if (root.get(obj) != SUCCESS) {
    std::string msg = std::string(file) + ": expected a scenario object, got " + TypeName(root);
    if (root.is_array()) {
      msg += " (an array of Kubernetes objects is a snapshot; run: ksched schedule -f " +
             std::string(file) + ")";
    }
    return MakeError(msg);
  }
  // A Kubernetes object or List (a `kubectl get` snapshot) has `kind` and
  // none of the scenario's fields; read as a scenario it would schedule
  // nothing and succeed. Say which command reads it.
  if (dom::element kind; obj.at_key("kind").get(kind) == SUCCESS && kind.is_string()) {
    dom::element unused;
    if (obj.at_key("cluster").get(unused) != SUCCESS &&
        obj.at_key("pending").get(unused) != SUCCESS) {
      return MakeError(std::string(file) + ": this is a Kubernetes " +
                       std::string(kind.get_string().value_unsafe()) +
                       " (kubectl get output), not a ksched scenario (a scenario has \"cluster\" "
                       "and \"pending\"); to schedule a snapshot's pending pods run: ksched "
                       "schedule -f " +
                       std::string(file));
    }
  }
  Scenario sc;
  for (dom::key_value_pair kv : obj) {
    std::string_view k = kv.key;
    dom::element v = kv.value;
    Status s;
    if (v.is_null()) continue;  // null means absent, as everywhere else
    if (k == "name") {
      s = GetString(v, file, k, &sc.name);
    } else if (k == "provider") {
      s = GetString(v, file, k, &sc.provider);
      sc.has_provider = true;
    } else if (k == "policy") {
      if (!v.is_object()) {
        s = WrongType(file, k, v, "an object");
      } else {
        sc.policy_json = simdjson::minify(v);
      }
    } else if (k == "hardPodAffinitySymmetricWeight") {
      s = GetInt(v, file, k, &sc.hard_pod_affinity_symmetric_weight);
      sc.has_hard_weight = true;
    } else if (k == "percentageOfNodesToScore") {
      s = GetInt(v, file, k, &sc.percentage_of_nodes_to_score);
      sc.has_percentage = true;
    } else if (k == "preemption") {
      if (v.get(sc.preemption) != SUCCESS) s = WrongType(file, k, v, "a boolean");
    } else if (k == "features") {
      dom::array arr;
      if (v.get(arr) != SUCCESS) {
        s = WrongType(file, k, v, "an array");
      } else {
        size_t i = 0;
        for (dom::element f : arr) {
          std::string feature;
          s = GetString(f, file, "features[" + std::to_string(i++) + "]", &feature);
          if (!s.ok()) break;
          sc.features.push_back(std::move(feature));
        }
      }
    } else if (k == "schedulerVersion") {
      s = GetString(v, file, k, &sc.scheduler_version);
    } else if (k == "config") {
      if (!v.is_object()) {
        s = WrongType(file, k, v, "an object");
      } else {
        sc.config_json = simdjson::minify(v);
      }
    } else if (k == "featureGates") {
      s = DecodeFeatureGates(v, file, &sc.feature_gates);
    } else if (k == "cluster") {
      s = DecodeCluster(v, file, &sc.cluster, &sc.unknown_fields);
    } else if (k == "pending") {
      s = DecodeArray(v, file, "pending", &sc.pending, DecodePod);
    } else {
      sc.unknown_fields.emplace_back(k);
    }
    if (!s.ok()) return s.error();
  }
  DefaultUids(&sc.cluster.pods);
  DefaultUids(&sc.pending);
  if (sc.scheduler_version.empty() && sc.config_json) {
    sc.scheduler_version = "v1.26";
    sc.scheduler_version_inferred = true;
  }
  if (!sc.scheduler_version.empty()) {
    // The framework's reference harness decodes every budget as policy/v1,
    // whatever apiVersion it names, and stores every object as the v1.26
    // API server's defaulting leaves it.
    for (PodDisruptionBudget& pdb : sc.cluster.pod_disruption_budgets) pdb.policy_v1 = true;
    // The v1.35 harness defaults pods as v1.35 does (SetDefaults_Pod's
    // pod-level requests), under the scenario's PodLevelResources gate.
    ApiServerOptions api = ApiServerOptions::For(ApiRelease::kV126);
    if (sc.scheduler_version == "v1.35") {
      api = ApiServerOptions::For(ApiRelease::kV135);
      for (const auto& [gate, on] : sc.feature_gates)
        if (gate == "PodLevelResources") api.pod_level_resources = on;
    }
    ApplyV126Defaults(&sc.cluster, &sc.pending, api);
  }
  return sc;
}

// `json` must be followed by simdjson's padding.
Result<Scenario> ParsePadded(std::string_view json, std::string_view file) {
  dom::parser parser;
  Result<dom::element> root = ParseJsonPadded(parser, json, file);
  if (!root.ok()) return root.error();
  return DecodeScenario(*root, file);
}

}  // namespace

Result<Scenario> ParseScenario(std::string_view text, std::string_view filename) {
  if (LooksLikeJson(text)) return ParsePadded(simdjson::padded_string(text), filename);
  Result<std::string> json = YamlToJson(text, filename);
  if (!json.ok()) {
    Error e = json.error();
    if (e.message.find("expected a single YAML document") != std::string::npos) {
      e.message +=
          " (a multi-document YAML stream is a snapshot, not a scenario; run: ksched "
          "schedule -f " +
          std::string(filename) + ")";
    }
    return e;
  }
  return ParsePadded(simdjson::padded_string(*json), filename);
}

Result<Scenario> LoadScenario(const std::string& path) {
  // Scenario files run to megabytes: parse them where they lie.
  Result<PaddedFile> file = PaddedFile::Load(path);
  if (!file.ok()) return file.error();
  std::string_view text = file->view();
  if (LooksLikeJson(text)) return ParsePadded(text, path);
  return ParseScenario(text, path);
}

}  // namespace ksched
