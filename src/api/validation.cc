#include "api/validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "api/pod_resources.h"
#include "labels/label_selector.h"
#include "labels/validation.h"
#include "util/go_quote.h"

namespace ksched {
namespace {

// A field path, built only when an error is reported: each level holds its
// parent and one segment, on the stack of the validating function.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;     // a field name, or a map key when `map_key`
  size_t index = SIZE_MAX;  // an array index when not SIZE_MAX
  bool map_key = false;

  Path Child(std::string_view k) const { return Path{this, k}; }
  Path Index(size_t i) const { return Path{this, {}, i}; }
  Path Key(std::string_view k) const { return Path{this, k, SIZE_MAX, true}; }

  std::string String() const {
    std::string s = parent != nullptr ? parent->String() : "";
    if (index != SIZE_MAX) {
      s += "[" + std::to_string(index) + "]";
    } else if (map_key) {
      s += "[" + std::string(key) + "]";
    } else if (!key.empty()) {
      if (!s.empty()) s.push_back('.');
      s.append(key);
    }
    return s;
  }
};

// field.ErrorList, as the API server words each kind of error.
class Errors {
 public:
  void Invalid(const Path& p, std::string_view shown_value, std::string_view detail) {
    Add(p, fmt::format("Invalid value: {}: {}", shown_value, detail));
  }
  void InvalidString(const Path& p, std::string_view value, std::string_view detail) {
    Invalid(p, GoQuote(value), detail);
  }
  void Required(const Path& p, std::string_view detail) {
    Add(p,
        detail.empty() ? std::string("Required value") : fmt::format("Required value: {}", detail));
  }
  void Forbidden(const Path& p, std::string_view detail) {
    Add(p, fmt::format("Forbidden: {}", detail));
  }
  void NotSupported(const Path& p, std::string_view value,
                    std::initializer_list<std::string_view> supported) {
    std::string list;
    for (std::string_view s : supported) list += (list.empty() ? "" : ", ") + GoQuote(s);
    Add(p, fmt::format("Unsupported value: {}: supported values: {}", GoQuote(value), list));
  }
  void Duplicate(const Path& p, std::string_view detail) {
    Add(p, fmt::format("Duplicate value: {}", detail));
  }
  std::vector<std::string> Take() { return std::move(list_); }

 private:
  void Add(const Path& p, std::string body) { list_.push_back(p.String() + ": " + body); }
  std::vector<std::string> list_;
};

// Label keys and values are interned, and a snapshot repeats the same few
// thousand of them across a hundred thousand pods: each id is checked once.
class LabelCache {
 public:
  bool KeyOk(StrId id) {
    return Check(id, &keys_, [](std::string_view s) { return labels::IsQualifiedName(s).empty(); });
  }
  bool ValueOk(StrId id) {
    return Check(id, &values_,
                 [](std::string_view s) { return labels::IsValidLabelValue(s).empty(); });
  }
  // A resource name's verdicts, for v1.35's rules (defined below).
  template <typename F>
  bool ResourceNameOk(StrId id, F ok) {
    return Check(id, &resource_names_, ok);
  }
  template <typename F>
  bool Extended(StrId id, F ok) {
    return Check(id, &extended_, ok);
  }

 private:
  template <typename F>
  static bool Check(StrId id, std::vector<uint8_t>* memo, F ok) {
    if (id >= memo->size()) memo->resize(std::max<size_t>(id + 1, memo->size() * 2), 0);
    uint8_t& m = (*memo)[id];
    if (m == 0) m = ok(Str(id)) ? 1 : 2;
    return m == 1;
  }
  std::vector<uint8_t> keys_, values_, resource_names_, extended_;
};

LabelCache& Cache() {
  static LabelCache cache;
  return cache;
}

// unversionedvalidation.ValidateLabelName
void LabelName(std::string_view name, const Path& p, Errors* errs) {
  for (const std::string& msg : labels::IsQualifiedName(name)) errs->InvalidString(p, name, msg);
}

// unversionedvalidation.ValidateLabels
void LabelMap(const Labels& labels, const Path& p, Errors* errs) {
  for (const auto& [k, v] : labels) {
    if (!Cache().KeyOk(k)) LabelName(Str(k), p, errs);
    if (!Cache().ValueOk(v)) {
      for (const std::string& msg : labels::IsValidLabelValue(Str(v)))
        errs->InvalidString(p, Str(v), msg);
    }
  }
}
void LabelPairs(const std::vector<std::pair<std::string, std::string>>& labels, const Path& p,
                Errors* errs) {
  for (const auto& [k, v] : labels) {
    LabelName(k, p, errs);
    for (const std::string& msg : labels::IsValidLabelValue(v)) errs->InvalidString(p, v, msg);
  }
}

// metav1 validation.ValidateLabelSelectorRequirement
void LabelSelectorRequirement(const SelectorRequirement& r, const Path& p, Errors* errs) {
  if (r.op == "In" || r.op == "NotIn") {
    if (r.values.empty())
      errs->Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'");
  } else if (r.op == "Exists" || r.op == "DoesNotExist") {
    if (!r.values.empty())
      errs->Forbidden(p.Child("values"),
                      "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
  } else {
    errs->InvalidString(p.Child("operator"), r.op,
                        "not a valid selector operator (In, NotIn, Exists or DoesNotExist)");
  }
  LabelName(r.key, p.Child("key"), errs);
}

void LabelSelectorValue(const std::optional<LabelSelector>& s, const Path& p, Errors* errs) {
  if (!s) return;
  LabelPairs(s->match_labels, p.Child("matchLabels"), errs);
  for (size_t i = 0; i < s->match_expressions.size(); ++i)
    LabelSelectorRequirement(s->match_expressions[i], p.Child("matchExpressions").Index(i), errs);
}

// ValidateNodeSelectorRequirement. Gt and Lt: the API server checks only
// that there is one value; a value that is not an integer then makes
// v1.15's scheduler match no node at all, silently, so it is reported too.
void NodeSelectorRequirement(const SelectorRequirement& r, const Path& p, Errors* errs) {
  if (r.op == "In" || r.op == "NotIn") {
    if (r.values.empty())
      errs->Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'");
  } else if (r.op == "Exists" || r.op == "DoesNotExist") {
    if (!r.values.empty())
      errs->Forbidden(p.Child("values"),
                      "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
  } else if (r.op == "Gt" || r.op == "Lt") {
    if (r.values.size() != 1) {
      errs->Required(p.Child("values"),
                     "must be specified single value when `operator` is 'Lt' or 'Gt'");
    } else if (!labels::ParseInt64(r.values[0])) {
      errs->InvalidString(p.Child("values").Index(0), r.values[0],
                          "must be an integer when `operator` is 'Lt' or 'Gt' (the API server "
                          "accepts it, but the v1.15 scheduler then matches no node)");
    }
  } else {
    errs->InvalidString(
        p.Child("operator"), r.op,
        "not a valid selector operator (In, NotIn, Exists, DoesNotExist, Gt or Lt)");
  }
  LabelName(r.key, p.Child("key"), errs);
}

// ValidateNodeFieldSelectorRequirement
void NodeFieldSelectorRequirement(const SelectorRequirement& r, const Path& p, Errors* errs) {
  if (r.op == "In" || r.op == "NotIn") {
    if (r.values.size() != 1)
      errs->Required(p.Child("values"),
                     "must be only one value when `operator` is 'In' or 'NotIn' for node field "
                     "selector");
  } else {
    errs->InvalidString(p.Child("operator"), r.op, "not a valid selector operator (In or NotIn)");
  }
  if (r.key != "metadata.name") {
    errs->InvalidString(p.Child("key"), r.key,
                        "not a valid field selector key (the only one is metadata.name)");
  }
}

void NodeSelectorTermValue(const NodeSelectorTerm& t, const Path& p, Errors* errs) {
  for (size_t j = 0; j < t.match_expressions.size(); ++j)
    NodeSelectorRequirement(t.match_expressions[j], p.Child("matchExpressions").Index(j), errs);
  for (size_t j = 0; j < t.match_fields.size(); ++j)
    NodeFieldSelectorRequirement(t.match_fields[j], p.Child("matchFields").Index(j), errs);
}

void NodeSelectorValue(const NodeSelector& s, const Path& p, Errors* errs) {
  Path terms = p.Child("nodeSelectorTerms");
  if (s.terms.empty()) {
    errs->Required(terms, "must have at least one node selector term");
    return;
  }
  for (size_t i = 0; i < s.terms.size(); ++i)
    NodeSelectorTermValue(s.terms[i], terms.Index(i), errs);
}

void Weight(int32_t w, const Path& p, Errors* errs) {
  if (w <= 0 || w > 100) errs->Invalid(p, std::to_string(w), "must be in the range 1-100");
}

// ValidateMatchLabelKeysAndMismatchLabelKeys (v1.29+; topology spread
// constraints use it from v1.34 on, with no mismatch keys): the keys are
// label names, need a labelSelector, are not also mismatch keys, and a key
// may be in the selector once: the API server's create-time merge
// (api/pod_strategy.h) adds `key In [value]`, so a stored pod routinely has
// the key in matchLabelKeys and in one matchExpressions entry; the key in
// matchLabels and in matchExpressions, or twice in matchExpressions, is a
// key given twice. The error for that is at `p[i]`, with no
// ".matchLabelKeys" segment: upstream's path, kept.
void MatchLabelKeysAndMismatchLabelKeys(const Path& p, const std::vector<std::string>& match,
                                        const std::vector<std::string>& mismatch,
                                        const std::optional<LabelSelector>& selector,
                                        Errors* errs) {
  auto label_keys = [&](std::string_view field, const std::vector<std::string>& keys) {
    if (keys.empty()) return;
    Path at = p.Child(field);
    if (!selector) {
      errs->Forbidden(at, "must not be specified when labelSelector is not set");
      return;
    }
    for (size_t i = 0; i < keys.size(); ++i) LabelName(keys[i], at.Index(i), errs);
  };
  label_keys("matchLabelKeys", match);
  label_keys("mismatchLabelKeys", mismatch);
  if (selector) {
    std::set<std::string_view> seen;
    for (const auto& [key, value] : selector->match_labels) seen.insert(key);
    for (const SelectorRequirement& r : selector->match_expressions) {
      // The last index of the key among matchLabelKeys, as upstream's map.
      size_t index = SIZE_MAX;
      for (size_t i = 0; i < match.size(); ++i)
        if (match[i] == r.key) index = i;
      if (index != SIZE_MAX && seen.count(r.key) != 0)
        errs->InvalidString(p.Index(index), r.key,
                            "exists in both matchLabelKeys and labelSelector");
      seen.insert(r.key);
    }
  }
  for (size_t i = 0; i < match.size(); ++i) {
    if (std::find(mismatch.begin(), mismatch.end(), match[i]) != mismatch.end()) {
      errs->InvalidString(p.Child("matchLabelKeys").Index(i), match[i],
                          "exists in both matchLabelKeys and mismatchLabelKeys");
    }
  }
}

void PodAffinityTermValue(const PodAffinityTerm& t, const Path& p, const ApiServerOptions& api,
                          Errors* errs) {
  LabelSelectorValue(t.label_selector, p.Child("labelSelector"), errs);
  LabelSelectorValue(t.namespace_selector, p.Child("namespaceSelector"), errs);
  // v1.35 (as v1.15 did) names the field "namespace".
  std::string_view ns_field = api.v135() ? "namespace" : "namespaces";
  for (const std::string& ns : t.namespaces)
    for (const std::string& msg : labels::IsDNS1123Label(ns))
      errs->InvalidString(p.Child(ns_field), ns, msg);
  if (api.v135()) {
    MatchLabelKeysAndMismatchLabelKeys(p, t.match_label_keys, t.mismatch_label_keys,
                                       t.label_selector, errs);
  }
  if (t.topology_key.empty()) {
    errs->Required(p.Child("topologyKey"), "can not be empty");
  } else {
    LabelName(t.topology_key, p.Child("topologyKey"), errs);
  }
}

void PodAffinityValue(const PodAffinity& a, const Path& p, const ApiServerOptions& api,
                      Errors* errs) {
  Path req = p.Child("requiredDuringSchedulingIgnoredDuringExecution");
  for (size_t i = 0; i < a.required.size(); ++i)
    PodAffinityTermValue(a.required[i], req.Index(i), api, errs);
  Path pref = p.Child("preferredDuringSchedulingIgnoredDuringExecution");
  for (size_t i = 0; i < a.preferred.size(); ++i) {
    Weight(a.preferred[i].weight, pref.Index(i).Child("weight"), errs);
    PodAffinityTermValue(a.preferred[i].term, pref.Index(i).Child("podAffinityTerm"), api, errs);
  }
}

void AffinityValue(const Affinity& a, const Path& p, const ApiServerOptions& api, Errors* errs) {
  if (a.node_affinity) {
    Path na = p.Child("nodeAffinity");
    if (a.node_affinity->required) {
      NodeSelectorValue(*a.node_affinity->required,
                        na.Child("requiredDuringSchedulingIgnoredDuringExecution"), errs);
    }
    Path pref = na.Child("preferredDuringSchedulingIgnoredDuringExecution");
    for (size_t i = 0; i < a.node_affinity->preferred.size(); ++i) {
      const PreferredSchedulingTerm& t = a.node_affinity->preferred[i];
      Weight(t.weight, pref.Index(i).Child("weight"), errs);
      NodeSelectorTermValue(t.preference, pref.Index(i).Child("preference"), errs);
    }
  }
  if (a.pod_affinity) PodAffinityValue(*a.pod_affinity, p.Child("podAffinity"), api, errs);
  if (a.pod_anti_affinity)
    PodAffinityValue(*a.pod_anti_affinity, p.Child("podAntiAffinity"), api, errs);
}

std::string_view EffectName(TaintEffect e, const std::string& written) {
  switch (e) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
    default:
      return written;
  }
}

// validateTaintEffect
void TaintEffectValue(TaintEffect e, const std::string& written, bool allow_empty, const Path& p,
                      Errors* errs) {
  if (e == TaintEffect::kNone) {
    if (!allow_empty) errs->Required(p, "");
    return;
  }
  if (e == TaintEffect::kOther)
    errs->NotSupported(p, written, {"NoSchedule", "PreferNoSchedule", "NoExecute"});
}

// content.IsDecimalInteger: "0", or an optional "-" then a digit 1-9 and
// digits.
std::vector<std::string> IsDecimalInteger(std::string_view v) {
  if (v.empty()) return {"must be non-empty"};
  size_t i = v[0] == '-' ? 1 : 0;
  bool ok = i < v.size() && ((v[i] >= '1' && v[i] <= '9') || (v == "0"));
  for (size_t j = i + 1; ok && j < v.size(); ++j) ok = v[j] >= '0' && v[j] <= '9';
  if (ok) return {};
  return {"must be a valid decimal integer in canonical form"};
}

// strconv.ParseInt(v, 10, 64)'s error, "" when it parses.
std::string ParseIntError(std::string_view v) {
  size_t i = !v.empty() && (v[0] == '-' || v[0] == '+') ? 1 : 0;
  bool digits = i < v.size();
  for (size_t j = i; digits && j < v.size(); ++j) digits = v[j] >= '0' && v[j] <= '9';
  if (!digits) return fmt::format("strconv.ParseInt: parsing {}: invalid syntax", GoQuote(v));
  if (!labels::ParseInt64(v[0] == '+' ? v.substr(1) : v))
    return fmt::format("strconv.ParseInt: parsing {}: value out of range", GoQuote(v));
  return "";
}

// ValidateTolerations
void TolerationsValue(const std::vector<Toleration>& ts, const Path& p, const ApiServerOptions& api,
                      Errors* errs) {
  for (size_t i = 0; i < ts.size(); ++i) {
    const Toleration& t = ts[i];
    Path at = p.Index(i);
    std::string_view key = Str(t.key);
    if (!key.empty()) LabelName(key, at.Child("key"), errs);
    if (key.empty() && t.op != "Exists") {
      errs->InvalidString(at.Child("operator"), t.op,
                          "operator must be Exists when `key` is empty, which means \"match all "
                          "values and all keys\"");
    }
    if (t.toleration_seconds && t.effect != TaintEffect::kNoExecute) {
      errs->InvalidString(at.Child("effect"), EffectName(t.effect, t.effect_str),
                          "effect must be 'NoExecute' when `tolerationSeconds` is set");
    }
    if (t.op.empty() || t.op == "Equal") {
      std::vector<std::string> msgs = labels::IsValidLabelValue(Str(t.value));
      if (!msgs.empty()) {
        std::string joined;
        for (const std::string& m : msgs) joined += (joined.empty() ? "" : ";") + m;
        errs->InvalidString(at.Child("operator"), Str(t.value), joined);
      }
    } else if (t.op == "Exists") {
      if (t.value != kEmptyStr) {
        errs->InvalidString(at.Child("value"), Str(t.value),
                            "value must be empty when `operator` is 'Exists'");
      }
    } else if (api.v135() && (t.op == "Lt" || t.op == "Gt")) {
      // v1.35: numeric comparisons (TaintTolerationComparisonOperators,
      // alpha). With the gate off upstream lists all four operators as
      // supported while refusing two of them; its words, kept.
      if (!api.taint_toleration_comparison_operators) {
        errs->NotSupported(at.Child("operator"), t.op, {"Equal", "Exists", "Lt", "Gt"});
      } else {
        std::string_view v = Str(t.value);
        for (const std::string& msg : IsDecimalInteger(v))
          errs->InvalidString(at.Child("value"), v, msg);
        if (std::string e = ParseIntError(v); !e.empty())
          errs->InvalidString(at.Child("value"), v, e);
      }
    } else {
      errs->NotSupported(at.Child("operator"), t.op, {"Equal", "Exists"});
    }
    TaintEffectValue(t.effect, t.effect_str, true, at.Child("effect"), errs);
  }
}

bool IsHugePages(std::string_view name) { return IsHugePageResourceName(name); }
bool IsNative(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}
bool OvercommitAllowed(std::string_view name) { return IsNative(name) && !IsHugePages(name); }

// helper.IsExtendedResourceName: outside kubernetes.io, not "requests.*",
// and a qualified name with "requests." in front.
bool IsExtendedName(std::string_view name) {
  if (IsNative(name) || name.starts_with("requests.")) return false;
  return labels::IsQualifiedName("requests." + std::string(name)).empty();
}

// helper.IsStandardResourceName (the quota names included).
bool IsStandardName(std::string_view name) {
  static constexpr std::string_view kStandard[] = {"cpu",
                                                   "memory",
                                                   "ephemeral-storage",
                                                   "requests.cpu",
                                                   "requests.memory",
                                                   "requests.ephemeral-storage",
                                                   "limits.cpu",
                                                   "limits.memory",
                                                   "limits.ephemeral-storage",
                                                   "pods",
                                                   "resourcequotas",
                                                   "services",
                                                   "replicationcontrollers",
                                                   "secrets",
                                                   "configmaps",
                                                   "persistentvolumeclaims",
                                                   "storage",
                                                   "requests.storage",
                                                   "services.nodeports",
                                                   "services.loadbalancers"};
  for (std::string_view s : kStandard)
    if (s == name) return true;
  return IsHugePages(name) || name.starts_with("requests.hugepages-");
}

// validateResourceQuantityHugePageValue: a hugepages-<size> amount is a
// whole number of pages.
void HugePageValue(const ResourceQuantity& q, std::string_view name, const Path& p, Errors* errs) {
  auto size = Quantity::Parse(name.substr(std::string_view("hugepages-").size()));
  bool ok = size.ok() && size->Sign() > 0 && size->MilliValue() % 1000 == 0 &&
            q.value % size->Value() == 0;
  if (!ok) {
    errs->Invalid(p, GoQuote(q.String()),
                  fmt::format("{} is not positive integer multiple of {}", q.String(), name));
  }
}

// v1.35's validateResourceName and validateContainerResourceName: true when
// the name is one (and no error was added).
bool ContainerResourceName(std::string_view name, const Path& p, Errors* errs) {
  std::vector<std::string> msgs = labels::IsQualifiedName(name);
  for (const std::string& msg : msgs) errs->InvalidString(p, name, msg);
  if (!msgs.empty()) return false;
  if (name.find('/') == std::string_view::npos) {
    if (!IsStandardName(name))
      errs->InvalidString(p, name, "must be a standard resource type or fully qualified");
    if (name != "cpu" && name != "memory" && name != "ephemeral-storage" && !IsHugePages(name)) {
      errs->InvalidString(p, name, "must be a standard resource for containers");
      return false;
    }
  } else if (!IsNative(name) && !IsExtendedName(name)) {
    errs->InvalidString(p, name, "doesn't follow extended resource name standard");
    return false;
  }
  return true;
}

// A container's resource name and ValidateResourceQuantityValue's rules
// (v1.35: its words, and hugepages in whole pages); v1.26 and before: one
// message naming the standard resources.
void ResourceNameAndValue(const ResourceQuantity& q, const Path& p, const ApiServerOptions& api,
                          Errors* errs) {
  std::string_view name = Str(q.name);
  if (api.v135()) {
    // cpu and memory, four times a pod: the memo answers.
    auto ok = [](std::string_view s) {
      Errors ignored;
      return ContainerResourceName(s, Path{}, &ignored);
    };
    if (!Cache().ResourceNameOk(q.name, ok)) ContainerResourceName(name, p, errs);
    const bool extended =
        Cache().Extended(q.name, [](std::string_view s) { return IsExtendedName(s); });
    if (extended && q.milli % 1000 != 0)
      errs->Invalid(p, GoQuote(q.String()), "must be an integer");
    if (IsHugePages(name)) HugePageValue(q, name, p, errs);
    return;
  }
  if (!Cache().KeyOk(q.name)) {
    for (const std::string& msg : labels::IsQualifiedName(name)) errs->InvalidString(p, name, msg);
  }
  if (name.find('/') == std::string_view::npos) {
    if (name != "cpu" && name != "memory" && name != "ephemeral-storage" && !IsHugePages(name))
      errs->InvalidString(p, name,
                          "must be a standard resource for containers (cpu, memory, "
                          "ephemeral-storage, hugepages-<size>) or an extended resource with a "
                          "domain, such as nvidia.com/gpu");
  } else if (!IsNative(name) && q.milli % 1000 != 0) {
    errs->Invalid(p, GoQuote(q.String()), "must be an integer");
  }
}

// validateResourceRequirements for containers and, in v1.35, the pod's
// spec.resources: each limit's name and value (`check`), then each
// request's, and the request against its limit.
template <typename Check>
void RequirementsValue(const ResourceList& requests, const ResourceList& limits, const Path& req,
                       const Path& lim, const ApiServerOptions& api, Check check, Errors* errs) {
  for (const ResourceQuantity& q : limits) check(q, lim.Key(Str(q.name)));
  for (const ResourceQuantity& q : requests) {
    std::string_view name = Str(q.name);
    check(q, req.Key(name));
    const ResourceQuantity* limit = FindResource(limits, q.name);
    if (limit != nullptr) {
      // v1.35 says the limit's amount too.
      std::string of = api.v135() ? " of " + limit->String() : "";
      if (q.milli != limit->milli && !OvercommitAllowed(name)) {
        errs->Invalid(req, GoQuote(q.String()),
                      fmt::format("must be equal to {} limit{}", name, of));
      } else if (q.milli > limit->milli) {
        errs->Invalid(req, GoQuote(q.String()),
                      fmt::format("must be less than or equal to {} limit{}", name, of));
      }
    } else if (!OvercommitAllowed(name)) {
      errs->Required(lim, api.v135()
                              ? std::string("Limit must be set for non overcommitable resources")
                              : fmt::format("Limit must be set for non overcommitable "
                                            "resources ({})",
                                            name));
    }
  }
}

// v1.35: hugepages need cpu or memory beside them (requests or limits).
void HugePagesNeedCpuOrMemory(const ResourceList& requests, const ResourceList& limits,
                              const Path& p, Errors* errs) {
  bool compute = false, huge = false;
  for (const ResourceList* list : {&limits, &requests}) {
    for (const ResourceQuantity& q : *list) {
      std::string_view name = Str(q.name);
      compute = compute || name == "cpu" || name == "memory";
      huge = huge || IsHugePages(name);
    }
  }
  if (huge && !compute) errs->Forbidden(p, "HugePages require cpu or memory");
}

// ValidateResourceRequirements
void ResourcesValue(const Container& c, const Path& p, const ApiServerOptions& api, Errors* errs) {
  Path lim = p.Child("limits"), req = p.Child("requests");
  RequirementsValue(
      c.requests, c.limits, req, lim, api,
      [&](const ResourceQuantity& q, const Path& at) { ResourceNameAndValue(q, at, api, errs); },
      errs);
  if (api.v135()) HugePagesNeedCpuOrMemory(c.requests, c.limits, p, errs);
}

// validateResizePolicy (v1.35): cpu or memory, each once, NotRequired or
// RestartContainer, and NotRequired only when the pod never restarts.
void ResizePolicyValue(const std::vector<ContainerResizePolicy>& policies,
                       std::string_view pod_restart_policy, const Path& p, Errors* errs) {
  std::set<std::string_view> seen;
  for (size_t i = 0; i < policies.size(); ++i) {
    const ContainerResizePolicy& r = policies[i];
    if (!seen.insert(r.resource_name).second) errs->Duplicate(p.Index(i), GoQuote(r.resource_name));
    if (r.resource_name.empty()) {
      errs->Required(p, "");
    } else if (r.resource_name != "cpu" && r.resource_name != "memory") {
      errs->NotSupported(p, r.resource_name, {"cpu", "memory"});
    }
    if (r.restart_policy.empty()) {
      errs->Required(p, "");
    } else if (r.restart_policy != "NotRequired" && r.restart_policy != "RestartContainer") {
      errs->NotSupported(p, r.restart_policy, {"NotRequired", "RestartContainer"});
    }
    if (pod_restart_policy == "Never" && r.restart_policy != "NotRequired") {
      errs->InvalidString(p, r.restart_policy,
                          "must be 'NotRequired' when `restartPolicy` is 'Never'");
    }
  }
}

// A container's restartPolicy (v1.35). Init containers: Always makes a
// native sidecar; with ContainerRestartRules (beta, on) OnFailure and Never
// are allowed too (validateInitContainerRestartPolicy). Regular containers
// may set it only with ContainerRestartRules (validateContainers).
void ContainerRestartPolicy(const Container& c, bool init, const Path& at,
                            const ApiServerOptions& api, Errors* errs) {
  const std::string& rp = c.restart_policy;
  if (rp.empty()) return;
  Path field = at.Child("restartPolicy");
  if (api.container_restart_rules) {
    if (rp != "Always" && rp != "OnFailure" && rp != "Never")
      errs->NotSupported(field, rp, {"Always", "Never", "OnFailure"});
  } else if (init) {
    if (rp != "Always") errs->NotSupported(field, rp, {"Always"});
  } else {
    errs->Forbidden(field, "may not be set for non-init containers");
  }
}

// validateContainerPorts (and, with hostNetwork, validateHostNetwork)
void PortsValue(const Container& c, bool host_network, const Path& p, Errors* errs) {
  for (size_t i = 0; i < c.ports.size(); ++i) {
    const ContainerPort& port = c.ports[i];
    Path at = p.Index(i);
    if (port.container_port == 0) {
      errs->Required(at.Child("containerPort"), "");
    } else if (port.container_port < 1 || port.container_port > 65535) {
      errs->Invalid(at.Child("containerPort"), std::to_string(port.container_port),
                    "must be between 1 and 65535, inclusive");
    }
    if (port.host_port != 0 && (port.host_port < 1 || port.host_port > 65535)) {
      errs->Invalid(at.Child("hostPort"), std::to_string(port.host_port),
                    "must be between 1 and 65535, inclusive");
    }
    if (host_network && port.host_port != port.container_port) {
      errs->Invalid(at.Child("hostPort"), std::to_string(port.host_port),
                    "must match `containerPort` when `hostNetwork` is true");
    }
    if (port.protocol.empty()) {
      errs->Required(at.Child("protocol"), "");
    } else if (port.protocol != "TCP" && port.protocol != "UDP" && port.protocol != "SCTP") {
      errs->NotSupported(at.Child("protocol"), port.protocol, {"SCTP", "TCP", "UDP"});
    }
  }
}

// `names`: the container names seen so far (containers and init containers
// share one set, as validateContainers and validateInitContainers check).
void ContainersValue(const std::vector<Container>& cs, const PodSpec& ps, bool init, const Path& p,
                     const ApiServerOptions& api, std::set<std::string_view>* names, Errors* errs) {
  for (size_t i = 0; i < cs.size(); ++i) {
    Path at = p.Index(i);
    if (cs[i].name.empty()) {
      errs->Required(at.Child("name"), "");
    } else if (!names->insert(cs[i].name).second) {
      errs->Duplicate(at.Child("name"), GoQuote(cs[i].name));
    }
    ResourcesValue(cs[i], at.Child("resources"), api, errs);
    PortsValue(cs[i], ps.host_network, at.Child("ports"), errs);
    if (api.v135()) {
      // The pod's restartPolicy is defaulted to Always by then.
      std::string_view pod_rp = ps.restart_policy.empty() ? std::string_view("Always")
                                                          : std::string_view(ps.restart_policy);
      ResizePolicyValue(cs[i].resize_policy, pod_rp, at.Child("resizePolicy"), errs);
      // (resizePolicy on init containers needs AllowSidecarResizePolicy,
      // InPlacePodVerticalScaling: GA and locked on in v1.35.)
      ContainerRestartPolicy(cs[i], init, at, api, errs);
    }
  }
}

// validatePodResources (v1.35, PodLevelResources): spec.resources names
// cpu, memory or hugepages-<size>; requests within limits; the pod's
// requests at least the containers' (KEP-753 sum), its hugepage limits at
// least theirs, and each container's limit within the pod's.
void PodResourcesValue(const PodSpec& ps, const Path& spec, const ApiServerOptions& api,
                       Errors* errs) {
  if (!ps.resources) return;
  const PodResources& r = *ps.resources;
  Path res = spec.Child("resources");
  Path lim = res.Child("limits"), req = res.Child("requests");
  // validatePodResourceName, then ValidateResourceQuantityValue.
  auto name_and_value = [&](const ResourceQuantity& q, const Path& at) {
    std::string_view name = Str(q.name);
    std::vector<std::string> msgs = labels::IsQualifiedName(name);
    for (const std::string& msg : msgs) errs->InvalidString(at, name, msg);
    if (!msgs.empty()) {
    } else if (name.find('/') == std::string_view::npos && !IsStandardName(name)) {
      errs->InvalidString(at, name, "must be a standard resource type or fully qualified");
    } else if (!IsSupportedPodLevelResource(name)) {
      errs->NotSupported(at, name, {"cpu", "hugepages-", "memory"});
    }
    if (IsExtendedName(name) && q.milli % 1000 != 0)
      errs->Invalid(at, GoQuote(q.String()), "must be an integer");
    if (IsHugePages(name)) HugePageValue(q, name, at, errs);
  };
  RequirementsValue(r.requests, r.limits, req, lim, api, name_and_value, errs);
  HugePagesNeedCpuOrMemory(r.requests, r.limits, res, errs);

  // validatePodResourceConsistency. Upstream walks maps (random order);
  // here resources come in name order.
  auto by_name = [](ResourceList l) {
    std::sort(l.begin(), l.end(), [](const ResourceQuantity& a, const ResourceQuantity& b) {
      return Str(a.name) < Str(b.name);
    });
    return l;
  };
  for (const ResourceQuantity& agg : by_name(AggregateContainerRequests(ps))) {
    const ResourceQuantity* pod = FindResource(r.requests, agg.name);
    if (pod == nullptr || agg.milli <= pod->milli) continue;
    errs->Invalid(
        req.Key(Str(agg.name)), GoQuote(pod->String()),
        "must be greater than or equal to aggregate container requests of " + agg.String());
  }
  for (const ResourceQuantity& agg : by_name(AggregateContainerLimits(ps))) {
    if (!IsHugePages(Str(agg.name))) continue;
    const ResourceQuantity* pod = FindResource(r.limits, agg.name);
    if (pod == nullptr || agg.milli <= pod->milli) continue;
    errs->Invalid(lim.Key(Str(agg.name)), GoQuote(pod->String()),
                  "must be greater than or equal to aggregate container limits of " + agg.String());
  }
  for (size_t i = 0; i < ps.containers.size(); ++i) {
    for (const ResourceQuantity& q : ps.containers[i].limits) {
      const ResourceQuantity* pod = FindResource(r.limits, q.name);
      if (pod == nullptr || q.milli <= pod->milli) continue;
      // Upstream's path: spec.resources.containers[i][<name>].limits.
      errs->Invalid(res.Child("containers").Index(i).Key(Str(q.name)).Child("limits"),
                    GoQuote(q.String()),
                    "must be less than or equal to pod limits of " + pod->String());
    }
  }
}

// validateSchedulingGates (v1.35): qualified names, each once.
void SchedulingGatesValue(const std::vector<std::string>& gates, const Path& p, Errors* errs) {
  std::set<std::string_view> seen;
  for (size_t i = 0; i < gates.size(); ++i) {
    for (const std::string& msg : labels::IsQualifiedName(gates[i]))
      errs->InvalidString(p.Index(i), gates[i], msg);
    if (!seen.insert(gates[i]).second) errs->Duplicate(p.Index(i), GoQuote(gates[i]));
  }
}

// validateNodeTaints
void TaintsValue(const std::vector<Taint>& taints, const Path& p, Errors* errs) {
  std::set<std::pair<StrId, std::string_view>> seen;
  for (size_t i = 0; i < taints.size(); ++i) {
    const Taint& t = taints[i];
    Path at = p.Index(i);
    LabelName(Str(t.key), at.Child("key"), errs);
    std::vector<std::string> msgs = labels::IsValidLabelValue(Str(t.value));
    if (!msgs.empty()) {
      std::string joined;
      for (const std::string& m : msgs) joined += (joined.empty() ? "" : ";") + m;
      errs->InvalidString(at.Child("value"), Str(t.value), joined);
    }
    TaintEffectValue(t.effect, t.effect_str, false, at.Child("effect"), errs);
    if (!seen.insert({t.key, t.effect_str}).second) {
      errs->Duplicate(at, fmt::format("{}:{}: taints must be unique by key and effect pair",
                                      Str(t.key), t.effect_str));
    }
  }
}

std::string ObjectName(std::string_view kind, const ObjectMeta& m, bool namespaced) {
  if (!namespaced) return fmt::format("{} {}", kind, m.name);
  return fmt::format("{} {}/{}", kind, Str(m.ns), m.name);
}

// Adds `problems` of one object to *out, each as "file: object: problem".
bool Collect(std::string_view file, const std::string& object, std::vector<std::string> problems,
             size_t max_errors, size_t* total, std::vector<std::string>* out) {
  for (std::string& p : problems) {
    ++*total;
    if (out->size() < max_errors) {
      std::string line(file);
      if (!line.empty()) line += ": ";
      line += object + ": " + p;
      out->push_back(std::move(line));
    }
  }
  return true;
}

void Finish(size_t total, size_t max_errors, std::vector<std::string>* out) {
  if (total > out->size() && !out->empty()) {
    out->push_back(fmt::format("... and {} more invalid field(s)", total - out->size()));
  }
  (void)max_errors;
}

constexpr std::string_view kNotPositive = "must be greater than zero";

// validateNodeInclusionPolicy: unset, Honor or Ignore.
void NodeInclusionPolicy(const std::string& policy, const Path& p, Errors* errs) {
  if (!policy.empty() && policy != "Honor" && policy != "Ignore")
    errs->NotSupported(p, policy, {"Honor", "Ignore"});
}

// validateTopologySpreadConstraints.
void SpreadConstraints(const std::vector<TopologySpreadConstraint>& cs, const Path& p,
                       const ApiServerOptions& api, Errors* errs) {
  // v1.34+: the API server merges matchLabelKeys into the selector when it
  // creates the pod (MatchLabelKeysInPodTopologySpreadSelectorMerge), so
  // the key may then be in the selector once. Before (v1.26, or with either
  // gate off) a key anywhere in the selector is refused.
  const bool merged = api.v135() && api.match_label_keys_in_pod_topology_spread &&
                      api.match_label_keys_selector_merge;
  for (size_t i = 0; i < cs.size(); ++i) {
    const TopologySpreadConstraint& c = cs[i];
    Path at = p.Index(i);
    if (c.max_skew <= 0)
      errs->Invalid(at.Child("maxSkew"), std::to_string(c.max_skew), kNotPositive);
    if (c.topology_key.empty()) errs->Required(at.Child("topologyKey"), "can not be empty");
    if (c.when_unsatisfiable != "DoNotSchedule" && c.when_unsatisfiable != "ScheduleAnyway") {
      errs->NotSupported(at.Child("whenUnsatisfiable"), c.when_unsatisfiable,
                         {"DoNotSchedule", "ScheduleAnyway"});
    }
    // {topologyKey, whenUnsatisfiable} names one constraint.
    for (size_t j = i + 1; j < cs.size(); ++j) {
      if (cs[j].topology_key == c.topology_key &&
          cs[j].when_unsatisfiable == c.when_unsatisfiable) {
        errs->Duplicate(at.Child("{topologyKey, whenUnsatisfiable}"),
                        GoQuote("{" + c.topology_key + ", " + c.when_unsatisfiable + "}"));
        break;
      }
    }
    if (c.min_domains) {
      Path md = at.Child("minDomains");
      std::string shown = std::to_string(*c.min_domains);
      if (*c.min_domains <= 0) errs->Invalid(md, shown, kNotPositive);
      if (c.when_unsatisfiable != "DoNotSchedule") {
        errs->Invalid(md, shown,
                      "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " +
                          c.when_unsatisfiable);
      }
    }
    NodeInclusionPolicy(c.node_affinity_policy, at.Child("nodeAffinityPolicy"), errs);
    NodeInclusionPolicy(c.node_taints_policy, at.Child("nodeTaintsPolicy"), errs);
    if (merged) {
      MatchLabelKeysAndMismatchLabelKeys(at, c.match_label_keys, {}, c.label_selector, errs);
    } else {
      // ValidateMatchLabelKeysInTopologySpread
      Path keys = at.Child("matchLabelKeys");
      if (api.v135() && !c.match_label_keys.empty() && !c.label_selector)
        errs->Forbidden(keys, "must not be specified when labelSelector is not set");
      for (size_t k = 0; k < c.match_label_keys.size(); ++k) {
        const std::string& key = c.match_label_keys[k];
        LabelName(key, keys.Index(k), errs);
        bool in_selector = false;
        if (c.label_selector) {
          for (const auto& [name, value] : c.label_selector->match_labels)
            in_selector = in_selector || name == key;
          for (const SelectorRequirement& r : c.label_selector->match_expressions)
            in_selector = in_selector || r.key == key;
        }
        if (in_selector)
          errs->InvalidString(keys.Index(k), key,
                              "exists in both matchLabelKeys and labelSelector");
      }
    }
    // v1.27+ validates the constraint's selector too.
    if (api.v135()) LabelSelectorValue(c.label_selector, at.Child("labelSelector"), errs);
  }
}

// A pod's spec, or a pod template's (at `spec`).
void PodSpecChecks(const PodSpec& ps, const Path& spec, const ApiServerOptions& api, Errors* errs) {
  LabelMap(ps.node_selector, spec.Child("nodeSelector"), errs);
  std::set<std::string_view> names;
  ContainersValue(ps.containers, ps, false, spec.Child("containers"), api, &names, errs);
  ContainersValue(ps.init_containers, ps, true, spec.Child("initContainers"), api, &names, errs);
  if (api.v135() && api.pod_level_resources) PodResourcesValue(ps, spec, api, errs);
  TolerationsValue(ps.tolerations, spec.Child("tolerations"), api, errs);
  if (ps.affinity) AffinityValue(*ps.affinity, spec.Child("affinity"), api, errs);
  if (api.v135()) SchedulingGatesValue(ps.scheduling_gates, spec.Child("schedulingGates"), errs);
  SpreadConstraints(ps.topology_spread_constraints, spec.Child("topologySpreadConstraints"), api,
                    errs);
  const std::string& rp = ps.restart_policy;
  if (!rp.empty() && rp != "Always" && rp != "OnFailure" && rp != "Never")
    errs->NotSupported(spec.Child("restartPolicy"), rp, {"Always", "OnFailure", "Never"});
}

// ValidatePodDisruptionBudgetSpec: minAvailable and maxUnavailable are
// non-negative (a percentage at most 100%), and not both set.
void DisruptionBudgetIntOrPercent(const std::optional<IntOrString>& v, const Path& p,
                                  Errors* errs) {
  if (!v) return;
  if (!v->is_string) {
    if (v->int_value < 0)
      errs->Invalid(p, std::to_string(v->int_value), "must be greater than or equal to 0");
    return;
  }
  const std::string& s = v->str_value;
  std::optional<int64_t> pct;
  if (s.size() >= 2 && s.back() == '%') pct = labels::ParseInt64(s.substr(0, s.size() - 1));
  if (!pct) {
    errs->InvalidString(p, s,
                        "a valid percent string must be a numeric string followed by an "
                        "ending '%' (e.g. '1%',  or '93%', regex used for validation is "
                        "'[0-9]+%')");
  } else if (*pct < 0) {
    errs->InvalidString(p, s, "must be greater than or equal to 0");
  } else if (*pct > 100) {
    errs->InvalidString(p, s, "must not be greater than 100%");
  }
}

std::vector<std::string> DisruptionBudgetChecks(const PodDisruptionBudget& pdb, const Path& spec) {
  Errors errs;
  if (pdb.min_available && pdb.max_unavailable) {
    const IntOrString& v = *pdb.min_available;
    errs.Invalid(spec.Child("minAvailable"),
                 v.is_string ? GoQuote(v.str_value) : std::to_string(v.int_value),
                 "minAvailable and maxUnavailable cannot be both set");
  }
  DisruptionBudgetIntOrPercent(pdb.min_available, spec.Child("minAvailable"), &errs);
  DisruptionBudgetIntOrPercent(pdb.max_unavailable, spec.Child("maxUnavailable"), &errs);
  return errs.Take();
}

// ValidateDaemonSetSpec: a selector (apps/v1 requires one) that is not empty
// and selects the template's labels, the template's labels and spec, and
// restartPolicy Always (the only one a DaemonSet's pods may have).
std::vector<std::string> DaemonSetChecks(const DaemonSet& ds, const ApiServerOptions& api) {
  Errors errs;
  Path root;
  Path spec = root.Child("spec");
  Path selector = spec.Child("selector");
  Path tmpl = spec.Child("template");
  if (!ds.selector) {
    errs.Required(selector, "");
  } else {
    LabelSelectorValue(ds.selector, selector, &errs);
    if (ds.selector->match_labels.empty() && ds.selector->match_expressions.empty()) {
      errs.Invalid(selector, "{}", "empty selector is invalid for daemonset");
    } else if (auto sel = labels::FromLabelSelector(ds.selector);
               sel.ok() && !sel->Matches(ds.template_labels)) {
      std::string shown;
      for (const auto& [k, v] : ds.template_labels)
        shown += fmt::format("{}\"{}\":\"{}\"", shown.empty() ? "" : ",", Str(k), Str(v));
      errs.Invalid(tmpl.Child("metadata").Child("labels"), "{" + shown + "}",
                   "`selector` does not match template `labels`");
    }
  }
  LabelMap(ds.template_labels, tmpl.Child("metadata").Child("labels"), &errs);
  if (!ds.has_template_spec) {
    errs.Required(tmpl.Child("spec"), "");
  } else {
    Path tspec = tmpl.Child("spec");
    PodSpecChecks(ds.template_spec, tspec, api, &errs);
    const std::string& rp = ds.template_spec.restart_policy;
    if (rp == "OnFailure" || rp == "Never")
      errs.NotSupported(tspec.Child("restartPolicy"), rp, {"Always"});
  }
  return errs.Take();
}

}  // namespace

std::vector<std::string> ValidatePod(const Pod& pod, const ApiServerOptions& api) {
  Errors errs;
  Path root;
  LabelMap(pod.meta.labels, root.Child("metadata").Child("labels"), &errs);
  PodSpecChecks(pod.spec, root.Child("spec"), api, &errs);
  return errs.Take();
}

std::vector<std::string> ValidateNode(const Node& node) {
  Errors errs;
  Path root;
  LabelMap(node.meta.labels, root.Child("metadata").Child("labels"), &errs);
  TaintsValue(node.taints, root.Child("spec").Child("taints"), &errs);
  return errs.Take();
}

std::vector<std::string> ValidatePods(const std::vector<Pod>& pods, std::string_view file,
                                      const ApiServerOptions& api, size_t max_errors) {
  std::vector<std::string> out;
  size_t total = 0;
  for (const Pod& p : pods) {
    std::vector<std::string> problems = ValidatePod(p, api);
    if (!problems.empty())
      Collect(file, ObjectName("Pod", p.meta, true), std::move(problems), max_errors, &total, &out);
  }
  Finish(total, max_errors, &out);
  return out;
}

std::vector<std::string> ValidateObjects(const ObjectSet& objects, std::string_view file,
                                         const ApiServerOptions& api, size_t max_errors) {
  std::vector<std::string> out;
  size_t total = 0;
  // The object's name is spelt out only when something is wrong with it.
  auto add_named = [&](std::string_view kind, const ObjectMeta& m, bool namespaced,
                       std::vector<std::string> problems) {
    if (problems.empty()) return;
    Collect(file, ObjectName(kind, m, namespaced), std::move(problems), max_errors, &total, &out);
  };
  for (const Node& n : objects.nodes) add_named("Node", n.meta, false, ValidateNode(n));
  for (const Pod& p : objects.pods) add_named("Pod", p.meta, true, ValidatePod(p, api));
  Path root;
  Path spec = root.Child("spec");
  Path selector = spec.Child("selector");
  auto map_selector = [&](std::string_view kind, const ObjectMeta& m, const Labels& sel) {
    Errors errs;
    LabelMap(sel, selector, &errs);
    add_named(kind, m, true, errs.Take());
  };
  for (const Service& s : objects.services) map_selector("Service", s.meta, s.selector);
  for (const ReplicationController& rc : objects.replication_controllers)
    map_selector("ReplicationController", rc.meta, rc.selector);
  auto label_selector = [&](std::string_view kind, const ObjectMeta& m,
                            const std::optional<LabelSelector>& sel) {
    Errors errs;
    LabelSelectorValue(sel, selector, &errs);
    add_named(kind, m, true, errs.Take());
  };
  for (const ReplicaSet& rs : objects.replica_sets)
    label_selector("ReplicaSet", rs.meta, rs.selector);
  for (const StatefulSet& ss : objects.stateful_sets)
    label_selector("StatefulSet", ss.meta, ss.selector);
  for (const PodDisruptionBudget& pdb : objects.pod_disruption_budgets) {
    label_selector("PodDisruptionBudget", pdb.meta, pdb.selector);
    add_named("PodDisruptionBudget", pdb.meta, true, DisruptionBudgetChecks(pdb, spec));
  }
  for (const DaemonSet& ds : objects.daemon_sets)
    add_named("DaemonSet", ds.meta, true, DaemonSetChecks(ds, api));
  for (const PersistentVolumeClaim& pvc : objects.persistent_volume_claims)
    label_selector("PersistentVolumeClaim", pvc.meta, pvc.selector);
  for (const PersistentVolume& pv : objects.persistent_volumes) {
    if (!pv.node_affinity) continue;
    Errors errs;
    NodeSelectorValue(*pv.node_affinity, spec.Child("nodeAffinity").Child("required"), &errs);
    add_named("PersistentVolume", pv.meta, false, errs.Take());
  }
  Finish(total, max_errors, &out);
  return out;
}

}  // namespace ksched
