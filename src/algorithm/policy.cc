#include "algorithm/policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "api/yaml_to_json.h"
#include "cache/resource.h"
#include "util/base64.h"

namespace ksched {
namespace {

using json = nlohmann::json;

// Upstream's MaxWeight: the largest weight whose score (x10) cannot overflow.
constexpr int64_t kMaxWeight = INT64_MAX / 10;

// Small typed accessors that turn a type mismatch into a message naming the
// field path, instead of an exception from deep inside nlohmann::json.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  Status Fail(const std::string& path, const std::string& what) const {
    return MakeError(fmt::format("{}: Policy: {}: {}", file_, path, what));
  }

  // Every key of `obj` must be one of `keys` (upstream's v1 Policy fields):
  // a misspelt field would otherwise be dropped without a word (upstream's
  // decoder ignores it), as in `strict decoding error: unknown field
  // "predicates[0].nme"`. `path` ends with "." or is empty.
  Status Known(const json& obj, const std::string& path,
               std::initializer_list<std::string_view> keys) const {
    for (const auto& [key, value] : obj.items()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        return MakeError(fmt::format("{}: Policy: strict decoding error: unknown field \"{}{}\"",
                                     file_, path, key));
      }
    }
    return Status::Ok();
  }

  Status String(const json& obj, const char* key, const std::string& path, std::string* out) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return Status::Ok();
    if (!it->is_string()) return Fail(path + key, "must be a string");
    *out = it->get<std::string>();
    return Status::Ok();
  }
  Status Bool(const json& obj, const char* key, const std::string& path, bool* out) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return Status::Ok();
    if (!it->is_boolean()) return Fail(path + key, "must be true or false");
    *out = it->get<bool>();
    return Status::Ok();
  }
  Status Int(const json& obj, const char* key, const std::string& path, int64_t* out) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return Status::Ok();
    if (it->is_number_integer()) {
      *out = it->get<int64_t>();
      return Status::Ok();
    }
    if (it->is_number_unsigned()) return Fail(path + key, "integer out of range");
    return Fail(path + key, "must be an integer");
  }
  Status StringList(const json& obj, const char* key, const std::string& path,
                    std::vector<std::string>* out) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return Status::Ok();
    if (!it->is_array()) return Fail(path + key, "must be a list of strings");
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string())
        return Fail(fmt::format("{}{}[{}]", path, key, i), "must be a string");
      out->push_back((*it)[i].get<std::string>());
    }
    return Status::Ok();
  }

 private:
  std::string file_;
};

#define KSCHED_TRY(expr)                                 \
  do {                                                   \
    if (Status _s = (expr); !_s.ok()) return _s.error(); \
  } while (0)

Result<PredicatePolicy> ParsePredicate(const Reader& r, const json& j, const std::string& path) {
  if (!j.is_object()) return r.Fail(path, "must be an object").error();
  PredicatePolicy p;
  KSCHED_TRY(r.Known(j, path + ".", {"name", "argument"}));
  KSCHED_TRY(r.String(j, "name", path + ".", &p.name));
  auto arg = j.find("argument");
  if (arg != j.end() && !arg->is_null()) {
    if (!arg->is_object()) return r.Fail(path + ".argument", "must be an object").error();
    std::string ap = path + ".argument.";
    KSCHED_TRY(r.Known(*arg, ap, {"serviceAffinity", "labelsPresence"}));
    auto sa = arg->find("serviceAffinity");
    if (sa != arg->end() && !sa->is_null()) {
      if (!sa->is_object()) return r.Fail(ap + "serviceAffinity", "must be an object").error();
      KSCHED_TRY(r.Known(*sa, ap + "serviceAffinity.", {"labels"}));
      std::vector<std::string> labels;
      KSCHED_TRY(r.StringList(*sa, "labels", ap + "serviceAffinity.", &labels));
      p.service_affinity_labels = std::move(labels);
    }
    auto lp = arg->find("labelsPresence");
    if (lp != arg->end() && !lp->is_null()) {
      if (!lp->is_object()) return r.Fail(ap + "labelsPresence", "must be an object").error();
      KSCHED_TRY(r.Known(*lp, ap + "labelsPresence.", {"labels", "presence"}));
      std::vector<std::string> labels;
      bool presence = false;
      KSCHED_TRY(r.StringList(*lp, "labels", ap + "labelsPresence.", &labels));
      KSCHED_TRY(r.Bool(*lp, "presence", ap + "labelsPresence.", &presence));
      p.labels_presence = std::make_pair(std::move(labels), presence);
    }
  }
  return p;
}

Result<PriorityPolicy> ParsePriority(const Reader& r, const json& j, const std::string& path) {
  if (!j.is_object()) return r.Fail(path, "must be an object").error();
  PriorityPolicy p;
  KSCHED_TRY(r.Known(j, path + ".", {"name", "weight", "argument"}));
  KSCHED_TRY(r.String(j, "name", path + ".", &p.name));
  KSCHED_TRY(r.Int(j, "weight", path + ".", &p.weight));
  auto arg = j.find("argument");
  if (arg != j.end() && !arg->is_null()) {
    if (!arg->is_object()) return r.Fail(path + ".argument", "must be an object").error();
    std::string ap = path + ".argument.";
    KSCHED_TRY(r.Known(
        *arg, ap, {"serviceAntiAffinity", "labelPreference", "requestedToCapacityRatioArguments"}));
    auto saa = arg->find("serviceAntiAffinity");
    if (saa != arg->end() && !saa->is_null()) {
      if (!saa->is_object()) return r.Fail(ap + "serviceAntiAffinity", "must be an object").error();
      KSCHED_TRY(r.Known(*saa, ap + "serviceAntiAffinity.", {"label"}));
      std::string label;
      KSCHED_TRY(r.String(*saa, "label", ap + "serviceAntiAffinity.", &label));
      p.service_anti_affinity_label = std::move(label);
    }
    auto lp = arg->find("labelPreference");
    if (lp != arg->end() && !lp->is_null()) {
      if (!lp->is_object()) return r.Fail(ap + "labelPreference", "must be an object").error();
      KSCHED_TRY(r.Known(*lp, ap + "labelPreference.", {"label", "presence"}));
      std::string label;
      bool presence = false;
      KSCHED_TRY(r.String(*lp, "label", ap + "labelPreference.", &label));
      KSCHED_TRY(r.Bool(*lp, "presence", ap + "labelPreference.", &presence));
      p.label_preference = std::make_pair(std::move(label), presence);
    }
    auto rtc = arg->find("requestedToCapacityRatioArguments");
    if (rtc != arg->end() && !rtc->is_null()) {
      if (!rtc->is_object()) {
        return r.Fail(ap + "requestedToCapacityRatioArguments", "must be an object").error();
      }
      KSCHED_TRY(r.Known(*rtc, ap + "requestedToCapacityRatioArguments.", {"shape"}));
      std::vector<std::pair<int64_t, int64_t>> shape;
      auto s = rtc->find("shape");
      if (s != rtc->end() && !s->is_null()) {
        if (!s->is_array()) {
          return r.Fail(ap + "requestedToCapacityRatioArguments.shape", "must be a list").error();
        }
        for (size_t i = 0; i < s->size(); ++i) {
          std::string pp = fmt::format("{}requestedToCapacityRatioArguments.shape[{}]", ap, i);
          if (!(*s)[i].is_object()) return r.Fail(pp, "must be an object").error();
          KSCHED_TRY(r.Known((*s)[i], pp + ".", {"utilization", "score"}));
          int64_t u = 0, sc = 0;
          KSCHED_TRY(r.Int((*s)[i], "utilization", pp + ".", &u));
          KSCHED_TRY(r.Int((*s)[i], "score", pp + ".", &sc));
          shape.emplace_back(u, sc);
        }
      }
      p.requested_to_capacity_ratio_shape = std::move(shape);
    }
  }
  return p;
}

Result<ExtenderConfig> ParseExtender(const Reader& r, const json& j, const std::string& path) {
  if (!j.is_object()) return r.Fail(path, "must be an object").error();
  ExtenderConfig e;
  std::string p = path + ".";
  KSCHED_TRY(r.Known(j, p,
                     {"urlPrefix", "filterVerb", "preemptVerb", "prioritizeVerb", "weight",
                      "bindVerb", "enableHttps", "tlsConfig", "httpTimeout", "nodeCacheCapable",
                      "managedResources", "ignorable"}));
  KSCHED_TRY(r.String(j, "urlPrefix", p, &e.url_prefix));
  KSCHED_TRY(r.String(j, "filterVerb", p, &e.filter_verb));
  KSCHED_TRY(r.String(j, "preemptVerb", p, &e.preempt_verb));
  KSCHED_TRY(r.String(j, "prioritizeVerb", p, &e.prioritize_verb));
  KSCHED_TRY(r.String(j, "bindVerb", p, &e.bind_verb));
  KSCHED_TRY(r.Int(j, "weight", p, &e.weight));
  KSCHED_TRY(r.Bool(j, "enableHttps", p, &e.enable_https));
  KSCHED_TRY(r.Int(j, "httpTimeout", p, &e.http_timeout_ns));
  KSCHED_TRY(r.Bool(j, "nodeCacheCapable", p, &e.node_cache_capable));
  KSCHED_TRY(r.Bool(j, "ignorable", p, &e.ignorable));
  auto tls = j.find("tlsConfig");
  if (tls != j.end() && !tls->is_null()) {
    if (!tls->is_object()) return r.Fail(p + "tlsConfig", "must be an object").error();
    ExtenderTlsConfig t;
    std::string tp = p + "tlsConfig.";
    KSCHED_TRY(r.Known(*tls, tp,
                       {"insecure", "serverName", "certFile", "keyFile", "caFile", "certData",
                        "keyData", "caData"}));
    KSCHED_TRY(r.Bool(*tls, "insecure", tp, &t.insecure));
    KSCHED_TRY(r.String(*tls, "serverName", tp, &t.server_name));
    KSCHED_TRY(r.String(*tls, "certFile", tp, &t.cert_file));
    KSCHED_TRY(r.String(*tls, "keyFile", tp, &t.key_file));
    KSCHED_TRY(r.String(*tls, "caFile", tp, &t.ca_file));
    KSCHED_TRY(r.String(*tls, "certData", tp, &t.cert_data));
    KSCHED_TRY(r.String(*tls, "keyData", tp, &t.key_data));
    KSCHED_TRY(r.String(*tls, "caData", tp, &t.ca_data));
    for (auto [field, value] : {std::pair<const char*, std::string*>{"certData", &t.cert_data},
                                {"keyData", &t.key_data},
                                {"caData", &t.ca_data}}) {
      if (value->empty()) continue;
      // Go's encoding/json reads []byte fields (certData, keyData, caData) as
      // standard base64.
      auto decoded = DecodeBase64Std(*value, tp + field);
      if (!decoded.ok()) return r.Fail(tp + field, "must be base64 (as Go encodes []byte)").error();
      *value = std::move(decoded).value();
    }
    e.tls_config = std::move(t);
  }
  auto mr = j.find("managedResources");
  if (mr != j.end() && !mr->is_null()) {
    if (!mr->is_array()) return r.Fail(p + "managedResources", "must be a list").error();
    for (size_t i = 0; i < mr->size(); ++i) {
      std::string mp = fmt::format("{}managedResources[{}]", p, i);
      if (!(*mr)[i].is_object()) return r.Fail(mp, "must be an object").error();
      KSCHED_TRY(r.Known((*mr)[i], mp + ".", {"name", "ignoredByScheduler"}));
      ExtenderManagedResource m;
      KSCHED_TRY(r.String((*mr)[i], "name", mp + ".", &m.name));
      KSCHED_TRY(r.Bool((*mr)[i], "ignoredByScheduler", mp + ".", &m.ignored_by_scheduler));
      e.managed_resources.push_back(std::move(m));
    }
  }
  return e;
}

bool IsQualifiedResourceName(const std::string& name) {
  // Reuse the extended-resource check: it requires a valid qualified name.
  return !name.empty() && IsExtendedResourceName(name);
}

}  // namespace

Status ValidatePolicy(const Policy& policy) {
  std::vector<std::string> errors;
  if (policy.priorities) {
    for (const PriorityPolicy& p : *policy.priorities) {
      if (p.weight <= 0 || p.weight >= kMaxWeight) {
        errors.push_back(fmt::format(
            "Priority {} should have a positive weight applied to it or it has overflown", p.name));
      }
    }
  }
  int binders = 0;
  std::set<std::string> managed;
  for (const ExtenderConfig& e : policy.extenders) {
    if (!e.prioritize_verb.empty() && e.weight <= 0) {
      errors.push_back(fmt::format(
          "Priority for extender {} should have a positive weight applied to it", e.url_prefix));
    }
    if (!e.bind_verb.empty()) ++binders;
    for (const ExtenderManagedResource& m : e.managed_resources) {
      if (!IsQualifiedResourceName(m.name)) {
        errors.push_back(fmt::format("{} is an invalid extended resource name", m.name));
      }
      if (!managed.insert(m.name).second) {
        errors.push_back(fmt::format("Duplicate extender managed resource name {}", m.name));
      }
    }
  }
  if (binders > 1) {
    errors.push_back(fmt::format("Only one extender can implement bind, found {}", binders));
  }
  if (errors.empty()) return Status::Ok();
  // Upstream's aggregate error prints one error bare and several in brackets.
  if (errors.size() == 1) return MakeError(errors[0]);
  return MakeError(fmt::format("[{}]", fmt::join(errors, ", ")));
}

Result<Policy> ParsePolicy(std::string_view text, std::string_view filename) {
  std::string file(filename);
  std::string json_text;
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (text[first] == '{' || text[first] == '[')) {
    json_text = std::string(text);
  } else {
    auto converted = YamlToJson(text, filename);
    if (!converted.ok()) return converted.error();
    json_text = std::move(converted).value();
  }
  json j = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return MakeError(fmt::format("{}: Policy: not valid JSON", file));
  if (!j.is_object()) return MakeError(fmt::format("{}: Policy: must be an object", file));
  Reader r(file);
  KSCHED_TRY(r.Known(j, "",
                     {"kind", "apiVersion", "predicates", "priorities", "extenders",
                      "hardPodAffinitySymmetricWeight", "alwaysCheckAllPredicates"}));
  std::string kind;
  KSCHED_TRY(r.String(j, "kind", "", &kind));
  if (!kind.empty() && kind != "Policy") {
    return MakeError(fmt::format("{}: kind is {}, expected Policy", file, kind));
  }

  Policy policy;
  auto preds = j.find("predicates");
  if (preds != j.end() && !preds->is_null()) {
    if (!preds->is_array()) return r.Fail("predicates", "must be a list").error();
    policy.predicates.emplace();
    for (size_t i = 0; i < preds->size(); ++i) {
      auto p = ParsePredicate(r, (*preds)[i], fmt::format("predicates[{}]", i));
      if (!p.ok()) return p.error();
      policy.predicates->push_back(std::move(p).value());
    }
  }
  auto prios = j.find("priorities");
  if (prios != j.end() && !prios->is_null()) {
    if (!prios->is_array()) return r.Fail("priorities", "must be a list").error();
    policy.priorities.emplace();
    for (size_t i = 0; i < prios->size(); ++i) {
      auto p = ParsePriority(r, (*prios)[i], fmt::format("priorities[{}]", i));
      if (!p.ok()) return p.error();
      policy.priorities->push_back(std::move(p).value());
    }
  }
  auto exts = j.find("extenders");
  if (exts != j.end() && !exts->is_null()) {
    if (!exts->is_array()) return r.Fail("extenders", "must be a list").error();
    for (size_t i = 0; i < exts->size(); ++i) {
      auto e = ParseExtender(r, (*exts)[i], fmt::format("extenders[{}]", i));
      if (!e.ok()) return e.error();
      policy.extenders.push_back(std::move(e).value());
    }
  }
  int64_t hard = 0;
  KSCHED_TRY(r.Int(j, "hardPodAffinitySymmetricWeight", "", &hard));
  if (hard < INT32_MIN || hard > INT32_MAX) {
    return r.Fail("hardPodAffinitySymmetricWeight", "integer out of range").error();
  }
  policy.hard_pod_affinity_symmetric_weight = static_cast<int32_t>(hard);
  KSCHED_TRY(r.Bool(j, "alwaysCheckAllPredicates", "", &policy.always_check_all_predicates));

  if (Status s = ValidatePolicy(policy); !s.ok()) {
    return MakeError(fmt::format("{}: invalid Policy: {}", file, s.error().message));
  }
  return policy;
}

Result<Policy> LoadPolicyFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(fmt::format("{}: cannot open file", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ParsePolicy(ss.str(), path);
}

}  // namespace ksched
