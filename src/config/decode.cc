#include "config/decode.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "api/decode.h"
#include "api/yaml_to_json.h"
#include "util/base64.h"
#include "util/go_quote.h"

namespace ksched::config {
namespace {

namespace dom = simdjson::dom;
using simdjson::SUCCESS;

// The kinds of the scheme upstream registers: the configuration and the args
// of in-tree plugins (<Plugin>Args), with the first release that has each.
struct ArgsKind {
  std::string_view plugin;
  SchedulerVersion first;
};
constexpr std::array<ArgsKind, 8> kArgsPlugins = {{
    {"DefaultPreemption", SchedulerVersion::kV126},
    {"DynamicResources", SchedulerVersion::kV135},
    {"InterPodAffinity", SchedulerVersion::kV126},
    {"NodeAffinity", SchedulerVersion::kV126},
    {"NodeResourcesBalancedAllocation", SchedulerVersion::kV126},
    {"NodeResourcesFit", SchedulerVersion::kV126},
    {"PodTopologySpread", SchedulerVersion::kV126},
    {"VolumeBinding", SchedulerVersion::kV126},
}};
constexpr std::string_view kConfigKind = "KubeSchedulerConfiguration";
// Where upstream's scheme is created (runtime.NewScheme names it by its call
// site); its errors name it. v1.35's is the reference harness's text (the
// scheduler vendored under k8s.io/kubernetes); v1.26's that of the harness
// built inside the kubernetes tree.
std::string_view SchemeName(SchedulerVersion v) {
  if (v >= SchedulerVersion::kV135)
    return "k8s.io/kubernetes/pkg/scheduler/apis/config/scheme/scheme.go:29";
  return "pkg/scheduler/apis/config/scheme/scheme.go:31";
}
// The type upstream's meta factory decodes apiVersion and kind into.
constexpr std::string_view kFindKindType =
    "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
    "\"json:\\\"kind,omitempty\\\"\" }";

// How Go's encoding/json names a JSON value in "cannot unmarshal X".
std::string ValueWord(dom::element e) {
  switch (e.type()) {
    case dom::element_type::ARRAY:
      return "array";
    case dom::element_type::OBJECT:
      return "object";
    case dom::element_type::STRING:
      return "string";
    case dom::element_type::BOOL:
      return "bool";
    case dom::element_type::NULL_VALUE:
      return "null";
    default:
      return "number";
  }
}

// Walks one JSON document into Go-shaped structs, collecting errors the way
// sigs.k8s.io/json's strict decoder does: the first wrong type is saved and
// decoding goes on; an error from a type's own UnmarshalJSON (durations)
// stops it; unknown and duplicate fields are strict errors, deduplicated.
class Walker {
 public:
  Walker(std::string_view pkg, SchedulerVersion version)
      : pkg_(pkg), v135_(version >= SchedulerVersion::kV135) {}

  bool v135() const { return v135_; }

  bool stopped() const { return !fatal_.empty(); }
  // The error to report, or "" when the document decoded cleanly
  // (strict findings aside).
  const std::string& Error() const { return fatal_.empty() ? type_error_ : fatal_; }
  const std::vector<std::string>& StrictErrors() const { return strict_; }

  std::string Type(std::string_view name) const {
    return std::string(pkg_) + "." + std::string(name);
  }

  // ---------------------------------------------------------- errors

  void TypeError(dom::element e, std::string_view go_type, std::string value = {}) {
    if (!type_error_.empty()) return;
    type_error_ = TypeErrorText(e, go_type, std::move(value));
  }
  // "json: cannot unmarshal X into Go struct field S.a.b of type T" (or "Go
  // value of type T" at the top).
  std::string TypeErrorText(dom::element e, std::string_view go_type, std::string value = {}) {
    if (value.empty()) value = ValueWord(e);
    std::string msg = "json: cannot unmarshal " + value + " into Go ";
    if (struct_.empty() && fields_.empty()) {
      msg += "value of type ";
    } else {
      msg += "struct field ";
      msg += struct_;
      msg += '.';
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i > 0) msg += '.';
        msg += fields_[i];
      }
      msg += " of type ";
    }
    msg += go_type;
    return msg;
  }
  void Fatal(std::string msg) {
    if (fatal_.empty()) fatal_ = std::move(msg);
  }
  void SaveError(std::string msg) {
    if (type_error_.empty()) type_error_ = std::move(msg);
  }
  // Records "<what> field \"path\"" (at position `at`, by default last).
  void Strict(std::string_view what, size_t at = SIZE_MAX) {
    constexpr size_t kMaxStrict = 100;  // upstream keeps at most 100
    std::string msg = std::string(what) + " field " + GoQuote(path_);
    if (strict_.size() >= kMaxStrict) return;
    if (std::find(strict_.begin(), strict_.end(), msg) != strict_.end()) return;
    strict_.insert(strict_.begin() + static_cast<std::ptrdiff_t>(std::min(at, strict_.size())),
                   std::move(msg));
  }

  // ---------------------------------------------------------- containers

  // Calls field(key, value) for each member of an object, which returns false
  // for a key the struct does not have. `go_type` names the struct for a
  // wrong JSON type; `struct_name` is how Go names it in field errors.
  template <class F>
  void Object(dom::element e, std::string_view struct_name, std::string_view go_type, F&& field) {
    if (e.is_null() || stopped()) return;
    dom::object obj;
    if (e.get_object().get(obj) != SUCCESS) {
      TypeError(e, go_type);
      return;
    }
    std::vector<std::string_view> seen;
    for (dom::key_value_pair kv : obj) {
      if (stopped()) return;
      std::string_view key = kv.key;
      const bool dup = std::find(seen.begin(), seen.end(), key) != seen.end();
      if (!dup) seen.push_back(key);
      const size_t path_len = path_.size();
      if (!path_.empty()) path_ += '.';
      path_ += key;
      fields_.push_back(key);
      std::string_view outer = struct_;
      struct_ = struct_name;
      // Go reports a repeated known field before anything found in its value.
      const size_t strict_before = strict_.size();
      if (!field(key, kv.value))
        Strict("unknown");
      else if (dup)
        Strict("duplicate", strict_before);
      struct_ = outer;
      fields_.pop_back();
      path_.resize(path_len);
    }
  }

  // Calls item(element) for each element of an array (null: none).
  template <class F>
  void Array(dom::element e, std::string_view go_type, F&& item) {
    if (e.is_null() || stopped()) return;
    dom::array arr;
    if (e.get_array().get(arr) != SUCCESS) {
      TypeError(e, go_type);
      return;
    }
    size_t i = 0;
    for (dom::element v : arr) {
      if (stopped()) return;
      const size_t path_len = path_.size();
      path_ += '[';
      path_ += std::to_string(i);
      path_ += ']';
      item(v);
      path_.resize(path_len);
      ++i;
    }
  }

  // A map[string]string: keys are strict-path segments, duplicates reported.
  void StringMap(dom::element e, std::vector<std::pair<std::string, std::string>>* out) {
    out->clear();
    if (e.is_null() || stopped()) return;
    dom::object obj;
    if (e.get_object().get(obj) != SUCCESS) {
      TypeError(e, "map[string]string");
      return;
    }
    for (dom::key_value_pair kv : obj) {
      std::string_view key = kv.key;
      auto it =
          std::find_if(out->begin(), out->end(), [&](const auto& p) { return p.first == key; });
      const size_t path_len = path_.size();
      path_ += '.';
      path_ += key;
      if (it != out->end()) Strict("duplicate");
      path_.resize(path_len);
      std::string value;
      if (!kv.value.is_null()) {
        std::string_view s;
        if (kv.value.get_string().get(s) != SUCCESS)
          TypeError(kv.value, "string");
        else
          value = s;
      }
      if (it != out->end())
        it->second = std::move(value);
      else
        out->emplace_back(std::string(key), std::move(value));
    }
  }

  template <class T, class F>
  void List(dom::element e, std::string_view go_type, std::vector<T>* out, F&& decode) {
    out->clear();
    Array(e, go_type, [&](dom::element v) {
      out->emplace_back();
      decode(v, &out->back());
    });
  }

  // ---------------------------------------------------------- scalars

  void String(dom::element e, std::string* out, std::string_view go_type = "string") {
    if (e.is_null()) return;
    std::string_view s;
    if (e.get_string().get(s) != SUCCESS) return TypeError(e, go_type);
    out->assign(s);
  }
  void Strings(dom::element e, std::vector<std::string>* out) {
    List(e, "[]string", out, [&](dom::element v, std::string* s) { String(v, s); });
  }
  void Bool(dom::element e, bool* out) {
    if (e.is_null()) return;
    if (e.get_bool().get(*out) != SUCCESS) TypeError(e, "bool");
  }
  template <class Int>
  void Integer(dom::element e, Int* out, std::string_view go_type) {
    switch (e.type()) {
      case dom::element_type::NULL_VALUE:
        return;
      case dom::element_type::INT64: {
        int64_t v = e.get_int64().value_unsafe();
        if (v < std::numeric_limits<Int>::min() || v > std::numeric_limits<Int>::max())
          return TypeError(e, go_type, "number " + std::to_string(v));
        *out = static_cast<Int>(v);
        return;
      }
      case dom::element_type::UINT64:
      case dom::element_type::DOUBLE:
        return TypeError(e, go_type, "number " + simdjson::to_string(e));
      default:
        return TypeError(e, go_type);
    }
  }
  template <class Int>
  void OptInteger(dom::element e, std::optional<Int>* out, std::string_view go_type) {
    if (e.is_null()) {
      out->reset();
      return;
    }
    Int v = 0;
    std::string before = type_error_;
    Integer(e, &v, go_type);
    if (type_error_ == before) *out = v;
  }
  void Float32(dom::element e, float* out) {
    double v = 0;
    switch (e.type()) {
      case dom::element_type::NULL_VALUE:
        return;
      case dom::element_type::INT64:
        v = static_cast<double>(e.get_int64().value_unsafe());
        break;
      case dom::element_type::UINT64:
        v = static_cast<double>(e.get_uint64().value_unsafe());
        break;
      case dom::element_type::DOUBLE:
        v = e.get_double().value_unsafe();
        break;
      default:
        return TypeError(e, "float32");
    }
    if (std::fabs(v) > std::numeric_limits<float>::max())
      return TypeError(e, "float32", "number " + simdjson::to_string(e));
    *out = static_cast<float>(v);
  }
  // metav1.Duration: a string for time.ParseDuration; its UnmarshalJSON's
  // errors stop the decoding (null reads as "").
  void Duration(dom::element e, int64_t* out) {
    std::string_view s;
    if (!e.is_null() && e.get_string().get(s) != SUCCESS) {
      // v1.35's encoding/json adds the field's context to the type error
      // UnmarshalJSON returns; v1.26's (Go 1.19) did not.
      if (v135_)
        Fatal(TypeErrorText(e, "string"));
      else
        Fatal("json: cannot unmarshal " + ValueWord(e) + " into Go value of type string");
      return;
    }
    auto ns = ParseGoDurationOrError(s);
    if (!ns.ok()) return Fatal(ns.error().message);
    *out = *ns;
  }
  // *metav1.Duration: null leaves it nil.
  void OptDuration(dom::element e, std::optional<int64_t>* out) {
    if (e.is_null()) {
      out->reset();
      return;
    }
    int64_t ns = 0;
    Duration(e, &ns);
    if (!stopped()) *out = ns;
  }
  // []byte: base64 text.
  void Bytes(dom::element e, std::string* out) {
    if (e.is_null()) {
      out->clear();
      return;
    }
    std::string_view s;
    if (e.get_string().get(s) != SUCCESS) return TypeError(e, "[]uint8");
    auto decoded = DecodeBase64Std(s, "x");
    if (!decoded.ok()) {
      // DecodeBase64Std says "x: illegal base64 data ..."; Go says the rest.
      SaveError(decoded.error().message.substr(3));
      return;
    }
    *out = std::move(*decoded);
  }

 private:
  std::string_view pkg_;
  bool v135_;
  std::string path_;                      // strict path: profiles[0].plugins
  std::vector<std::string_view> fields_;  // Go's field stack: profiles, plugins
  std::string_view struct_;               // the innermost struct being filled
  std::string type_error_, fatal_;
  std::vector<std::string> strict_;
};

// ------------------------------------------------------------ core/v1 types

void DecodeLabelSelectorRequirement(Walker& w, dom::element e, SelectorRequirement* out) {
  w.Object(e, "LabelSelectorRequirement", "v1.LabelSelectorRequirement",
           [&](std::string_view k, dom::element v) {
             if (k == "key") return w.String(v, &out->key), true;
             if (k == "operator") return w.String(v, &out->op, "v1.LabelSelectorOperator"), true;
             if (k == "values") return w.Strings(v, &out->values), true;
             return false;
           });
}

void DecodeLabelSelector(Walker& w, dom::element e, std::optional<LabelSelector>* out) {
  if (e.is_null()) {
    out->reset();
    return;
  }
  if (!*out) out->emplace();
  LabelSelector& sel = **out;
  w.Object(e, "LabelSelector", "v1.LabelSelector", [&](std::string_view k, dom::element v) {
    if (k == "matchLabels") return w.StringMap(v, &sel.match_labels), true;
    if (k == "matchExpressions") {
      w.List(
          v, "[]v1.LabelSelectorRequirement", &sel.match_expressions,
          [&](dom::element x, SelectorRequirement* r) { DecodeLabelSelectorRequirement(w, x, r); });
      return true;
    }
    return false;
  });
}

void DecodeTopologySpreadConstraint(Walker& w, dom::element e, TopologySpreadConstraint* out) {
  w.Object(e, "TopologySpreadConstraint", "v1.TopologySpreadConstraint",
           [&](std::string_view k, dom::element v) {
             if (k == "maxSkew") return w.Integer(v, &out->max_skew, "int32"), true;
             if (k == "topologyKey") return w.String(v, &out->topology_key), true;
             if (k == "whenUnsatisfiable")
               return w.String(v, &out->when_unsatisfiable, "v1.UnsatisfiableConstraintAction"),
                      true;
             if (k == "labelSelector") return DecodeLabelSelector(w, v, &out->label_selector), true;
             if (k == "minDomains") return w.OptInteger(v, &out->min_domains, "int32"), true;
             if (k == "nodeAffinityPolicy") {
               out->node_affinity_policy.clear();
               return w.String(v, &out->node_affinity_policy, "v1.NodeInclusionPolicy"), true;
             }
             if (k == "nodeTaintsPolicy") {
               out->node_taints_policy.clear();
               return w.String(v, &out->node_taints_policy, "v1.NodeInclusionPolicy"), true;
             }
             if (k == "matchLabelKeys") return w.Strings(v, &out->match_label_keys), true;
             return false;
           });
}

void DecodeNodeSelectorRequirement(Walker& w, dom::element e, SelectorRequirement* out) {
  w.Object(e, "NodeSelectorRequirement", "v1.NodeSelectorRequirement",
           [&](std::string_view k, dom::element v) {
             if (k == "key") return w.String(v, &out->key), true;
             if (k == "operator") return w.String(v, &out->op, "v1.NodeSelectorOperator"), true;
             if (k == "values") return w.Strings(v, &out->values), true;
             return false;
           });
}

void DecodeNodeSelectorTerm(Walker& w, dom::element e, NodeSelectorTerm* out) {
  w.Object(e, "NodeSelectorTerm", "v1.NodeSelectorTerm", [&](std::string_view k, dom::element v) {
    auto reqs = [&](std::vector<SelectorRequirement>* list) {
      w.List(v, "[]v1.NodeSelectorRequirement", list, [&](dom::element x, SelectorRequirement* r) {
        DecodeNodeSelectorRequirement(w, x, r);
      });
      return true;
    };
    if (k == "matchExpressions") return reqs(&out->match_expressions);
    if (k == "matchFields") return reqs(&out->match_fields);
    return false;
  });
}

void DecodeNodeAffinity(Walker& w, dom::element e, std::optional<NodeAffinity>* out) {
  if (e.is_null()) {
    out->reset();
    return;
  }
  if (!*out) out->emplace();
  NodeAffinity& na = **out;
  w.Object(e, "NodeAffinity", "v1.NodeAffinity", [&](std::string_view k, dom::element v) {
    if (k == "requiredDuringSchedulingIgnoredDuringExecution") {
      if (v.is_null()) {
        na.required.reset();
        return true;
      }
      if (!na.required) na.required.emplace();
      w.Object(v, "NodeSelector", "v1.NodeSelector", [&](std::string_view k2, dom::element v2) {
        if (k2 != "nodeSelectorTerms") return false;
        w.List(v2, "[]v1.NodeSelectorTerm", &na.required->terms,
               [&](dom::element x, NodeSelectorTerm* t) { DecodeNodeSelectorTerm(w, x, t); });
        return true;
      });
      return true;
    }
    if (k == "preferredDuringSchedulingIgnoredDuringExecution") {
      w.List(v, "[]v1.PreferredSchedulingTerm", &na.preferred,
             [&](dom::element x, PreferredSchedulingTerm* t) {
               w.Object(x, "PreferredSchedulingTerm", "v1.PreferredSchedulingTerm",
                        [&](std::string_view k2, dom::element v2) {
                          if (k2 == "weight") return w.Integer(v2, &t->weight, "int32"), true;
                          if (k2 == "preference")
                            return DecodeNodeSelectorTerm(w, v2, &t->preference), true;
                          return false;
                        });
             });
      return true;
    }
    return false;
  });
}

// ------------------------------------------------------------ plugin args

bool TypeMetaField(Walker& w, std::string_view k, dom::element v) {
  std::string ignored;
  if (k == "apiVersion" || k == "kind") return w.String(v, &ignored), true;
  return false;
}

void DecodeResourceSpec(Walker& w, dom::element e, ResourceSpec* out) {
  w.Object(e, "ResourceSpec", w.Type("ResourceSpec"), [&](std::string_view k, dom::element v) {
    if (k == "name") return w.String(v, &out->name), true;
    if (k == "weight") return w.Integer(v, &out->weight, "int64"), true;
    return false;
  });
}

void DecodeResources(Walker& w, dom::element e, std::vector<ResourceSpec>* out) {
  w.List(e, "[]" + w.Type("ResourceSpec"), out,
         [&](dom::element x, ResourceSpec* r) { DecodeResourceSpec(w, x, r); });
}

void DecodeShape(Walker& w, dom::element e, std::vector<UtilizationShapePoint>* out) {
  w.List(e, "[]" + w.Type("UtilizationShapePoint"), out,
         [&](dom::element x, UtilizationShapePoint* p) {
           w.Object(x, "UtilizationShapePoint", w.Type("UtilizationShapePoint"),
                    [&](std::string_view k, dom::element v) {
                      if (k == "utilization") return w.Integer(v, &p->utilization, "int32"), true;
                      if (k == "score") return w.Integer(v, &p->score, "int32"), true;
                      return false;
                    });
         });
}

void DecodeArgs(Walker& w, dom::element e, NodeResourcesFitArgs* out) {
  w.Object(e, "NodeResourcesFitArgs", w.Type("NodeResourcesFitArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "ignoredResources") return w.Strings(v, &out->ignored_resources), true;
             if (k == "ignoredResourceGroups")
               return w.Strings(v, &out->ignored_resource_groups), true;
             if (k == "scoringStrategy") {
               // A given strategy starts empty: upstream defaults only an
               // absent one, so `{}` has no type and fails validation.
               if (v.is_null()) {
                 out->scoring_strategy = ScoringStrategy{};
                 return true;
               }
               ScoringStrategy& s = out->scoring_strategy;
               s = ScoringStrategy{};
               s.type.clear();
               w.Object(v, "ScoringStrategy", w.Type("ScoringStrategy"),
                        [&](std::string_view k2, dom::element v2) {
                          if (k2 == "type")
                            return w.String(v2, &s.type, w.Type("ScoringStrategyType")), true;
                          if (k2 == "resources") return DecodeResources(w, v2, &s.resources), true;
                          if (k2 == "requestedToCapacityRatio") {
                            s.has_requested_to_capacity_ratio = !v2.is_null();
                            s.requested_to_capacity_ratio = {};
                            w.Object(v2, "RequestedToCapacityRatioParam",
                                     w.Type("RequestedToCapacityRatioParam"),
                                     [&](std::string_view k3, dom::element v3) {
                                       if (k3 != "shape") return false;
                                       DecodeShape(w, v3, &s.requested_to_capacity_ratio.shape);
                                       return true;
                                     });
                            return true;
                          }
                          return false;
                        });
               return true;
             }
             return TypeMetaField(w, k, v);
           });
}

void DecodeArgs(Walker& w, dom::element e, NodeResourcesBalancedAllocationArgs* out) {
  w.Object(e, "NodeResourcesBalancedAllocationArgs", w.Type("NodeResourcesBalancedAllocationArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "resources") return DecodeResources(w, v, &out->resources), true;
             return TypeMetaField(w, k, v);
           });
}

void DecodeArgs(Walker& w, dom::element e, PodTopologySpreadArgs* out) {
  w.Object(e, "PodTopologySpreadArgs", w.Type("PodTopologySpreadArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "defaultConstraints") {
               w.List(v, "[]v1.TopologySpreadConstraint", &out->default_constraints,
                      [&](dom::element x, TopologySpreadConstraint* c) {
                        DecodeTopologySpreadConstraint(w, x, c);
                      });
               return true;
             }
             if (k == "defaultingType")
               return w.String(v, &out->defaulting_type,
                               w.Type("PodTopologySpreadConstraintsDefaulting")),
                      true;
             return TypeMetaField(w, k, v);
           });
}

void DecodeArgs(Walker& w, dom::element e, NodeAffinityArgs* out) {
  w.Object(e, "NodeAffinityArgs", w.Type("NodeAffinityArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "addedAffinity") return DecodeNodeAffinity(w, v, &out->added_affinity), true;
             return TypeMetaField(w, k, v);
           });
}

void DecodeArgs(Walker& w, dom::element e, InterPodAffinityArgs* out) {
  w.Object(e, "InterPodAffinityArgs", w.Type("InterPodAffinityArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "hardPodAffinityWeight") {
               // null: the pointer stays nil and defaulting gives 1.
               if (v.is_null()) out->hard_pod_affinity_weight = 1;
               return w.Integer(v, &out->hard_pod_affinity_weight, "int32"), true;
             }
             // Not in v1.26's API.
             if (k == "ignorePreferredTermsOfExistingPods" && w.v135()) {
               if (v.is_null()) out->ignore_preferred_terms_of_existing_pods = false;
               return w.Bool(v, &out->ignore_preferred_terms_of_existing_pods), true;
             }
             return TypeMetaField(w, k, v);
           });
}

void DecodeArgs(Walker& w, dom::element e, DynamicResourcesArgs* out) {
  w.Object(e, "DynamicResourcesArgs", w.Type("DynamicResourcesArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "filterTimeout") return w.OptDuration(v, &out->filter_timeout_ns), true;
             if (k == "bindingTimeout") return w.OptDuration(v, &out->binding_timeout_ns), true;
             return TypeMetaField(w, k, v);
           });
}

void DecodeArgs(Walker& w, dom::element e, DefaultPreemptionArgs* out) {
  w.Object(e, "DefaultPreemptionArgs", w.Type("DefaultPreemptionArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "minCandidateNodesPercentage") {
               if (v.is_null()) out->min_candidate_nodes_percentage = 10;
               return w.Integer(v, &out->min_candidate_nodes_percentage, "int32"), true;
             }
             if (k == "minCandidateNodesAbsolute") {
               if (v.is_null()) out->min_candidate_nodes_absolute = 100;
               return w.Integer(v, &out->min_candidate_nodes_absolute, "int32"), true;
             }
             return TypeMetaField(w, k, v);
           });
}

void DecodeArgs(Walker& w, dom::element e, VolumeBindingArgs* out) {
  w.Object(e, "VolumeBindingArgs", w.Type("VolumeBindingArgs"),
           [&](std::string_view k, dom::element v) {
             if (k == "bindTimeoutSeconds") {
               if (v.is_null()) out->bind_timeout_seconds = 600;
               return w.Integer(v, &out->bind_timeout_seconds, "int64"), true;
             }
             if (k == "shape") return DecodeShape(w, v, &out->shape), true;
             return TypeMetaField(w, k, v);
           });
}

std::string JoinStrict(const std::vector<std::string>& errs) {
  std::string s = "strict decoding error: ";
  for (size_t i = 0; i < errs.size(); ++i) {
    if (i > 0) s += ", ";
    s += errs[i];
  }
  return s;
}

// Reads apiVersion and kind as upstream's meta factory does (before the
// strict decode): wrong types are its json errors.
struct TypeMeta {
  std::string api_version, kind;
};
Result<TypeMeta> ReadTypeMeta(dom::element e) {
  TypeMeta tm;
  if (e.is_null()) return tm;
  dom::object obj;
  if (e.get_object().get(obj) != SUCCESS)
    return MakeError("couldn't get version/kind; json parse error: json: cannot unmarshal " +
                     ValueWord(e) + " into Go value of type " + std::string(kFindKindType));
  for (dom::key_value_pair kv : obj) {
    std::string* out = kv.key == "apiVersion" ? &tm.api_version
                       : kv.key == "kind"     ? &tm.kind
                                              : nullptr;
    if (out == nullptr || kv.value.is_null()) continue;
    std::string_view s;
    if (kv.value.get_string().get(s) != SUCCESS)
      return MakeError("couldn't get version/kind; json parse error: json: cannot unmarshal " +
                       ValueWord(kv.value) + " into Go struct field ." + std::string(kv.key) +
                       " of type string");
    out->assign(s);
  }
  return tm;
}

// Decodes the args of pluginConfig[j] of profile i when the plugin has an
// args kind (upstream's decodeNestedObjects). A wrong type is returned as the
// error; strict findings are appended to *strict.
Status DecodePluginArgs(dom::element args, bool present, const std::string& where,
                        std::string_view pkg, SchedulerVersion version, PluginConfig* pc,
                        std::vector<std::string>* strict) {
  pc->args = EmptyArgsFor(pc->name, version);
  if (std::holds_alternative<std::monostate>(pc->args)) return Status::Ok();
  const std::string prefix = where + ": decoding args for plugin " + pc->name + ": ";
  if (!present || args.is_null()) return Status::Ok();
  auto tm = ReadTypeMeta(args);
  if (!tm.ok()) return MakeError(prefix + tm.error().message);
  const std::string want_kind = pc->name + "Args";
  if (!tm->kind.empty() && tm->kind != want_kind) {
    std::string group(tm->api_version.substr(0, tm->api_version.find('/')));
    if (tm->api_version.find('/') == std::string::npos) group.clear();
    if (group.empty()) group = std::string(kGroup);
    return MakeError(where + ": args for plugin " + pc->name + " were not of type " + want_kind +
                     "." + std::string(kGroup) + ", got " + tm->kind + "." + group);
  }
  Walker w(pkg, version);
  std::visit(
      [&](auto& a) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(a)>, std::monostate>)
          DecodeArgs(w, args, &a);
      },
      pc->args);
  if (!w.Error().empty()) return MakeError(prefix + w.Error());
  if (!w.StrictErrors().empty()) {
    // upstream wraps "decoding args for plugin P: <strict>" in a strict
    // decoding error of its own; v1.35 prints that wrapper's prefix.
    std::string inner =
        "decoding args for plugin " + pc->name + ": " + JoinStrict(w.StrictErrors());
    if (w.v135()) inner = "strict decoding error: " + inner;
    strict->push_back(where + ": " + inner);
  }
  return Status::Ok();
}

// ------------------------------------------------------------ configuration

class ConfigDecoder {
 public:
  ConfigDecoder(std::string_view pkg, bool v1, SchedulerVersion version)
      : w_(pkg, version), v1_(v1) {}

  Walker& walker() { return w_; }

  void Decode(dom::element e, DecodedConfiguration* out) {
    KubeSchedulerConfiguration& c = out->config;
    w_.Object(e, "KubeSchedulerConfiguration", w_.Type("KubeSchedulerConfiguration"),
              [&](std::string_view k, dom::element v) {
                if (k == "apiVersion" || k == "kind") return TypeMetaField(w_, k, v);
                if (k == "parallelism") {
                  if (v.is_null()) c.parallelism = 16;
                  return w_.Integer(v, &c.parallelism, "int32"), true;
                }
                if (k == "leaderElection") return LeaderElection(v, &c.leader_election), true;
                if (k == "clientConnection") return ClientConnection(v, &c.client_connection), true;
                if (k == "enableProfiling") {
                  if (v.is_null()) c.enable_profiling = true;
                  return w_.Bool(v, &c.enable_profiling), true;
                }
                if (k == "enableContentionProfiling") {
                  out->enable_contention_profiling_set = !v.is_null();
                  return w_.Bool(v, &c.enable_contention_profiling), true;
                }
                // Not in v1.26's API.
                if (k == "delayCacheUntilActive" && w_.v135()) {
                  if (v.is_null()) c.delay_cache_until_active = false;
                  return w_.Bool(v, &c.delay_cache_until_active), true;
                }
                if (k == "percentageOfNodesToScore")
                  return w_.OptInteger(v, &c.percentage_of_nodes_to_score, "int32"), true;
                if (k == "podInitialBackoffSeconds") {
                  if (v.is_null()) c.pod_initial_backoff_seconds = 1;
                  return w_.Integer(v, &c.pod_initial_backoff_seconds, "int64"), true;
                }
                if (k == "podMaxBackoffSeconds") {
                  if (v.is_null()) c.pod_max_backoff_seconds = 10;
                  return w_.Integer(v, &c.pod_max_backoff_seconds, "int64"), true;
                }
                if (k == "profiles") {
                  c.profiles.clear();
                  raw_args_.clear();
                  out->scheduler_name_set.clear();
                  w_.Array(v, "[]" + w_.Type("KubeSchedulerProfile"), [&](dom::element x) {
                    c.profiles.emplace_back();
                    raw_args_.emplace_back();
                    bool name_set = false;
                    Profile(x, &c.profiles.back(), &name_set, &raw_args_.back());
                    out->scheduler_name_set.push_back(name_set);
                  });
                  return true;
                }
                if (k == "extenders") {
                  w_.List(v, "[]" + w_.Type("Extender"), &c.extenders,
                          [&](dom::element x, config::Extender* ext) { Extender(x, ext); });
                  return true;
                }
                return false;
              });
  }

  // Each profile's pluginConfig args as given: (present, element).
  using RawArgs = std::vector<std::pair<bool, dom::element>>;
  const std::vector<RawArgs>& raw_args() const { return raw_args_; }

 private:
  void LeaderElection(dom::element e, config::LeaderElection* out) {
    w_.Object(e, "LeaderElectionConfiguration", "v1alpha1.LeaderElectionConfiguration",
              [&](std::string_view k, dom::element v) {
                if (k == "leaderElect") {
                  if (v.is_null()) out->leader_elect = true;
                  return w_.Bool(v, &out->leader_elect), true;
                }
                if (k == "leaseDuration") return w_.Duration(v, &out->lease_duration_ns), true;
                if (k == "renewDeadline") return w_.Duration(v, &out->renew_deadline_ns), true;
                if (k == "retryPeriod") return w_.Duration(v, &out->retry_period_ns), true;
                if (k == "resourceLock") return w_.String(v, &out->resource_lock), true;
                if (k == "resourceName") return w_.String(v, &out->resource_name), true;
                if (k == "resourceNamespace") return w_.String(v, &out->resource_namespace), true;
                return false;
              });
  }

  void ClientConnection(dom::element e, config::ClientConnection* out) {
    w_.Object(e, "ClientConnectionConfiguration", "v1alpha1.ClientConnectionConfiguration",
              [&](std::string_view k, dom::element v) {
                if (k == "kubeconfig") return w_.String(v, &out->kubeconfig), true;
                if (k == "acceptContentTypes")
                  return w_.String(v, &out->accept_content_types), true;
                if (k == "contentType") return w_.String(v, &out->content_type), true;
                if (k == "qps") return w_.Float32(v, &out->qps), true;
                if (k == "burst") return w_.Integer(v, &out->burst, "int32"), true;
                return false;
              });
  }

  void PluginSet(dom::element e, config::PluginSet* out) {
    w_.Object(e, "PluginSet", w_.Type("PluginSet"), [&](std::string_view k, dom::element v) {
      auto list = [&](std::vector<Plugin>* plugins) {
        w_.List(v, "[]" + w_.Type("Plugin"), plugins, [&](dom::element x, Plugin* p) {
          w_.Object(x, "Plugin", w_.Type("Plugin"), [&](std::string_view k2, dom::element v2) {
            if (k2 == "name") return w_.String(v2, &p->name), true;
            if (k2 == "weight") {
              if (v2.is_null()) p->weight = 0;
              return w_.Integer(v2, &p->weight, "int32"), true;
            }
            return false;
          });
        });
        return true;
      };
      if (k == "enabled") return list(&out->enabled);
      if (k == "disabled") return list(&out->disabled);
      return false;
    });
  }

  void Plugins(dom::element e, config::Plugins* out) {
    if (e.is_null()) {
      *out = {};
      return;
    }
    const std::pair<std::string_view, config::PluginSet config::Plugins::*> kSets[] = {
        {"preEnqueue", &config::Plugins::pre_enqueue},
        {"queueSort", &config::Plugins::queue_sort},
        {"preFilter", &config::Plugins::pre_filter},
        {"filter", &config::Plugins::filter},
        {"postFilter", &config::Plugins::post_filter},
        {"preScore", &config::Plugins::pre_score},
        {"score", &config::Plugins::score},
        {"reserve", &config::Plugins::reserve},
        {"permit", &config::Plugins::permit},
        {"preBind", &config::Plugins::pre_bind},
        {"bind", &config::Plugins::bind},
        {"postBind", &config::Plugins::post_bind},
        {"multiPoint", &config::Plugins::multi_point},
    };
    w_.Object(e, "Plugins", w_.Type("Plugins"), [&](std::string_view k, dom::element v) {
      for (const auto& [name, member] : kSets) {
        if (k != name) continue;
        out->*member = {};
        PluginSet(v, &(out->*member));
        return true;
      }
      return false;
    });
  }

  void Profile(dom::element e, config::Profile* out, bool* name_set, RawArgs* raw) {
    out->scheduler_name.clear();
    w_.Object(e, "KubeSchedulerProfile", w_.Type("KubeSchedulerProfile"),
              [&](std::string_view k, dom::element v) {
                if (k == "schedulerName") {
                  *name_set = !v.is_null();
                  if (v.is_null()) out->scheduler_name.clear();
                  return w_.String(v, &out->scheduler_name), true;
                }
                if (k == "percentageOfNodesToScore" && v1_)
                  return w_.OptInteger(v, &out->percentage_of_nodes_to_score, "int32"), true;
                if (k == "plugins") return Plugins(v, &out->plugins), true;
                if (k == "pluginConfig") {
                  out->plugin_config.clear();
                  raw->clear();
                  w_.Array(v, "[]" + w_.Type("PluginConfig"), [&](dom::element x) {
                    out->plugin_config.emplace_back();
                    raw->emplace_back(false, dom::element());
                    PluginConfig(x, &out->plugin_config.back(), &raw->back());
                  });
                  return true;
                }
                return false;
              });
  }

  void PluginConfig(dom::element e, config::PluginConfig* out, std::pair<bool, dom::element>* raw) {
    w_.Object(e, "PluginConfig", w_.Type("PluginConfig"), [&](std::string_view k, dom::element v) {
      if (k == "name") return w_.String(v, &out->name), true;
      if (k == "args") {
        // runtime.RawExtension: any JSON, decoded once the name is known.
        *raw = {!v.is_null(), v};
        return true;
      }
      return false;
    });
  }

  void Extender(dom::element e, config::Extender* out) {
    w_.Object(e, "Extender", w_.Type("Extender"), [&](std::string_view k, dom::element v) {
      if (k == "urlPrefix") return w_.String(v, &out->url_prefix), true;
      if (k == "filterVerb") return w_.String(v, &out->filter_verb), true;
      if (k == "preemptVerb") return w_.String(v, &out->preempt_verb), true;
      if (k == "prioritizeVerb") return w_.String(v, &out->prioritize_verb), true;
      if (k == "bindVerb") return w_.String(v, &out->bind_verb), true;
      if (k == "weight") return w_.Integer(v, &out->weight, "int64"), true;
      if (k == "enableHTTPS") return w_.Bool(v, &out->enable_https), true;
      if (k == "httpTimeout") return w_.Duration(v, &out->http_timeout_ns), true;
      if (k == "nodeCacheCapable") return w_.Bool(v, &out->node_cache_capable), true;
      if (k == "ignorable") return w_.Bool(v, &out->ignorable), true;
      if (k == "managedResources") {
        w_.List(v, "[]" + w_.Type("ExtenderManagedResource"), &out->managed_resources,
                [&](dom::element x, ExtenderManagedResource* r) {
                  w_.Object(x, "ExtenderManagedResource", w_.Type("ExtenderManagedResource"),
                            [&](std::string_view k2, dom::element v2) {
                              if (k2 == "name") return w_.String(v2, &r->name), true;
                              if (k2 == "ignoredByScheduler")
                                return w_.Bool(v2, &r->ignored_by_scheduler), true;
                              return false;
                            });
                });
        return true;
      }
      if (k == "tlsConfig") {
        if (v.is_null()) {
          out->tls_config.reset();
          return true;
        }
        if (!out->tls_config) out->tls_config.emplace();
        ExtenderTLS& t = *out->tls_config;
        w_.Object(v, "ExtenderTLSConfig", w_.Type("ExtenderTLSConfig"),
                  [&](std::string_view k2, dom::element v2) {
                    if (k2 == "insecure") return w_.Bool(v2, &t.insecure), true;
                    if (k2 == "serverName") return w_.String(v2, &t.server_name), true;
                    if (k2 == "certFile") return w_.String(v2, &t.cert_file), true;
                    if (k2 == "keyFile") return w_.String(v2, &t.key_file), true;
                    if (k2 == "caFile") return w_.String(v2, &t.ca_file), true;
                    if (k2 == "certData") return w_.Bytes(v2, &t.cert_data), true;
                    if (k2 == "keyData") return w_.Bytes(v2, &t.key_data), true;
                    if (k2 == "caData") return w_.Bytes(v2, &t.ca_data), true;
                    return false;
                  });
        return true;
      }
      return false;
    });
  }

  Walker w_;
  bool v1_;
  std::vector<RawArgs> raw_args_;
};

// "NodeResourcesFitArgs": the args kind of an in-tree plugin.
bool IsArgsKind(std::string_view kind, SchedulerVersion version) {
  constexpr std::string_view kSuffix = "Args";
  if (kind.size() <= kSuffix.size() || kind.substr(kind.size() - kSuffix.size()) != kSuffix)
    return false;
  return PluginHasArgs(kind.substr(0, kind.size() - kSuffix.size()), version);
}

// Go's time package quotes a duration in its errors with its own quote: bytes
// outside printable ASCII as \xNN, quotes and backslashes escaped.
std::string TimeQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += static_cast<char>(c);
  }
  return out + "\"";
}

std::string WithFile(std::string_view filename, std::string msg) {
  if (filename.empty()) return msg;
  return std::string(filename) + ": " + msg;
}

}  // namespace

Result<int64_t> ParseGoDurationOrError(std::string_view s) {
  const std::string_view orig = s;
  auto invalid = [&] { return MakeError("time: invalid duration " + TimeQuote(orig)); };
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  uint64_t d = 0;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty()) return invalid();
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (!s.empty()) {
    if (!(s[0] == '.' || digit(s[0]))) return invalid();
    // The integer part, exact (time's leadingInt).
    uint64_t v = 0;
    size_t i = 0;
    for (; i < s.size() && digit(s[i]); ++i) {
      if (v > kLimit / 10) return invalid();
      v = v * 10 + static_cast<uint64_t>(s[i] - '0');
      if (v > kLimit) return invalid();
    }
    const bool pre = i > 0;
    s.remove_prefix(i);
    // The fraction: digits kept while they fit, the rest dropped
    // (time's leadingFraction).
    uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool overflow = false;
      size_t j = 0;
      for (; j < s.size() && digit(s[j]); ++j) {
        if (overflow) continue;
        if (f > (kLimit - 1) / 10) {
          overflow = true;
          continue;
        }
        uint64_t y = f * 10 + static_cast<uint64_t>(s[j] - '0');
        if (y > kLimit) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s.remove_prefix(j);
    }
    if (!pre && !post) return invalid();
    size_t u = 0;
    while (u < s.size() && s[u] != '.' && !digit(s[u])) ++u;
    if (u == 0) return MakeError("time: missing unit in duration " + TimeQuote(orig));
    const std::string_view unit_name = s.substr(0, u);
    s.remove_prefix(u);
    uint64_t unit = 0;
    if (unit_name == "ns")
      unit = 1;
    else if (unit_name == "us" || unit_name == "\xC2\xB5s" || unit_name == "\xCE\xBCs")
      unit = 1'000;
    else if (unit_name == "ms")
      unit = 1'000'000;
    else if (unit_name == "s")
      unit = 1'000'000'000;
    else if (unit_name == "m")
      unit = 60'000'000'000;
    else if (unit_name == "h")
      unit = 3'600'000'000'000;
    else
      return MakeError("time: unknown unit " + TimeQuote(unit_name) + " in duration " +
                       TimeQuote(orig));
    if (v > kLimit / unit) return invalid();
    v *= unit;
    if (f > 0) {
      v += static_cast<uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > kLimit) return invalid();
    }
    d += v;
    if (d > kLimit) return invalid();
  }
  if (neg) return static_cast<int64_t>(0 - d);  // -(1<<63) is representable
  if (d > kLimit - 1) return invalid();
  return static_cast<int64_t>(d);
}

std::optional<int64_t> ParseGoDuration(std::string_view text) {
  auto r = ParseGoDurationOrError(text);
  if (!r.ok()) return std::nullopt;
  return *r;
}

bool PluginHasArgs(std::string_view plugin, SchedulerVersion version) {
  return std::any_of(kArgsPlugins.begin(), kArgsPlugins.end(),
                     [&](const ArgsKind& k) { return k.plugin == plugin && k.first <= version; });
}

PluginArgs EmptyArgsFor(std::string_view plugin, SchedulerVersion version) {
  if (!PluginHasArgs(plugin, version)) return std::monostate{};
  if (plugin == "NodeResourcesFit") return NodeResourcesFitArgs{};
  if (plugin == "NodeResourcesBalancedAllocation") return NodeResourcesBalancedAllocationArgs{};
  if (plugin == "PodTopologySpread") return PodTopologySpreadArgs{};
  if (plugin == "NodeAffinity") return NodeAffinityArgs{};
  if (plugin == "InterPodAffinity") return InterPodAffinityArgs{};
  if (plugin == "DefaultPreemption") return DefaultPreemptionArgs{};
  if (plugin == "VolumeBinding") return VolumeBindingArgs{};
  if (plugin == "DynamicResources") return DynamicResourcesArgs{};
  return std::monostate{};
}

Result<DecodedConfiguration> DecodeConfiguration(std::string_view text, std::string_view filename,
                                                 SchedulerVersion version) {
  std::string json_storage;
  std::string_view json = text;
  if (!LooksLikeJson(text)) {
    auto converted = YamlToJson(text, filename);
    if (!converted.ok()) return converted.error();
    json_storage = std::move(*converted);
    json = json_storage;
  }
  simdjson::dom::parser parser;
  auto parsed = ParseJson(parser, json, filename);
  if (!parsed.ok()) return parsed.error();
  dom::element root = *parsed;

  auto tm = ReadTypeMeta(root);
  if (!tm.ok()) return MakeError(WithFile(filename, tm.error().message));
  if (tm->kind.empty())
    return MakeError(WithFile(filename, "Object 'Kind' is missing in '" + std::string(text) + "'"));
  if (tm->api_version.empty())
    return MakeError(
        WithFile(filename, "Object 'apiVersion' is missing in '" + std::string(text) + "'"));
  const bool v135 = version >= SchedulerVersion::kV135;
  const bool v1 = tm->api_version == kVersionV1;
  // v1.35's scheme has only v1 (v1beta3 was removed in v1.29).
  const bool v1beta3 = !v135 && tm->api_version == kVersionV1beta3;
  const bool known_kind = tm->kind == kConfigKind || IsArgsKind(tm->kind, version);
  if (!v135 && tm->api_version == "kubescheduler.config.k8s.io/v1beta2" && known_kind)
    return MakeError(WithFile(filename,
                              "KubeSchedulerConfiguration kubescheduler.config.k8s.io/v1beta2 is "
                              "not supported by ksched: use kubescheduler.config.k8s.io/v1"));
  if ((!v1 && !v1beta3) || !known_kind)
    return MakeError(WithFile(
        filename, "no kind " + GoQuote(tm->kind) + " is registered for version " +
                      GoQuote(tm->api_version) + " in scheme " + GoQuote(SchemeName(version))));
  if (tm->kind != kConfigKind)
    return MakeError(WithFile(filename, "couldn't decode as KubeSchedulerConfiguration, got " +
                                            tm->api_version + ", Kind=" + tm->kind + ": "));

  const std::string_view pkg = v1 ? "v1" : "v1beta3";
  DecodedConfiguration out;
  out.api_version = tm->api_version;
  out.config.api_version = tm->api_version;
  // Absent fields decode to what upstream's versioned type holds when absent.
  out.config.profiles.clear();
  ConfigDecoder decoder(pkg, v1, version);
  decoder.Decode(root, &out);
  if (!decoder.walker().Error().empty())
    return MakeError(WithFile(filename, decoder.walker().Error()));
  std::vector<std::string> strict = decoder.walker().StrictErrors();

  // Nested objects: each pluginConfig's args by the plugin's name.
  auto& profiles = out.config.profiles;
  for (size_t i = 0; i < profiles.size(); ++i) {
    for (size_t j = 0; j < profiles[i].plugin_config.size(); ++j) {
      const auto& [present, args] = decoder.raw_args()[i][j];
      const std::string where =
          "decoding .profiles[" + std::to_string(i) + "].pluginConfig[" + std::to_string(j) + "]";
      std::vector<std::string> nested;
      Status s = DecodePluginArgs(args, present, where, pkg, version, &profiles[i].plugin_config[j],
                                  &nested);
      if (!s.ok()) return MakeError(WithFile(filename, s.error().message));
      for (auto& n : nested) strict.push_back(std::move(n));
    }
  }
  if (!strict.empty()) return MakeError(WithFile(filename, JoinStrict(strict)));
  return out;
}

}  // namespace ksched::config
