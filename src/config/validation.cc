#include "config/validation.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "cache/resource.h"
#include "config/decode.h"
#include "config/defaults.h"
#include "config/plugin_catalogue.h"
#include "labels/validation.h"
#include "util/go_quote.h"

namespace ksched::config {
namespace {

using T = FieldError::Type;

// ------------------------------------------------------------ field paths

std::string Child(const std::string& path, std::string_view name) {
  if (path.empty()) return std::string(name);
  return path + "." + std::string(name);
}
std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}
// field.Path.Key: "[key]".
std::string Key(const std::string& path, std::string_view key) {
  return path + "[" + std::string(key) + "]";
}

FieldError Invalid(std::string field, std::string value, std::string detail) {
  return {T::kInvalid, std::move(field), std::move(value), std::move(detail)};
}
FieldError Required(std::string field, std::string detail) {
  return {T::kRequired, std::move(field), "", std::move(detail)};
}
FieldError Forbidden(std::string field, std::string detail) {
  return {T::kForbidden, std::move(field), "", std::move(detail)};
}
FieldError Duplicate(std::string field, std::string value) {
  return {T::kDuplicate, std::move(field), std::move(value), ""};
}
FieldError NotSupported(std::string field, std::string value,
                        const std::vector<std::string>& valid) {
  std::string detail;
  for (size_t i = 0; i < valid.size(); ++i) {
    detail += i == 0 ? "supported values: " : ", ";
    detail += GoQuote(valid[i]);
  }
  return {T::kNotSupported, std::move(field), std::move(value), std::move(detail)};
}

void Append(ErrorList* to, ErrorList from) {
  for (FieldError& e : from) to->push_back(std::move(e));
}

// ------------------------------------------------------------ values

std::string Q(std::string_view s) { return GoQuote(s); }
std::string N(int64_t v) { return std::to_string(v); }

// A string as Go's encoding/json writes it (HTML-safe). Config strings come
// from simdjson, so they are valid UTF-8.
std::string JsonString(std::string_view v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s = "\"";
  for (size_t i = 0; i < v.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(v[i]);
    if (c == '"' || c == '\\') {
      s += '\\';
      s += static_cast<char>(c);
    } else if (c == '\n') {
      s += "\\n";
    } else if (c == '\r') {
      s += "\\r";
    } else if (c == '\t') {
      s += "\\t";
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      s += "\\u00";
      s += kHex[c >> 4];
      s += kHex[c & 0xF];
    } else if (c == 0xE2 && i + 2 < v.size() && static_cast<unsigned char>(v[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(v[i + 2]) == 0xA8 ||
                static_cast<unsigned char>(v[i + 2]) == 0xA9)) {
      s += static_cast<unsigned char>(v[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      s += static_cast<char>(c);
    }
  }
  return s + "\"";
}

// How field.Error prints a bad value that is not a number, bool or string.
// v1.26's apimachinery prints %#v of the internal Go type (a Stringer's
// String()); v1.35's prints json.Marshal of it (the internal types have no
// json tags: Go field names; a nil slice is null).
struct ValuePrinter {
  bool json;

  explicit ValuePrinter(SchedulerVersion v) : json(v >= SchedulerVersion::kV135) {}

  // A []string (ksched does not tell nil from empty: empty prints as nil).
  std::string Strings(const std::vector<std::string>& v) const {
    if (v.empty()) return json ? "null" : "[]string(nil)";
    std::string s = json ? "[" : "[]string{";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) s += json ? "," : ", ";
      s += json ? JsonString(v[i]) : Q(v[i]);
    }
    return s + (json ? "]" : "}");
  }

  // A []config.UtilizationShapePoint.
  std::string Shape(const std::vector<UtilizationShapePoint>& shape) const {
    if (shape.empty()) return json ? "null" : "[]config.UtilizationShapePoint(nil)";
    std::string s = json ? "[" : "[]config.UtilizationShapePoint{";
    for (size_t i = 0; i < shape.size(); ++i) {
      if (i > 0) s += json ? "," : ", ";
      if (json)
        s +=
            "{\"Utilization\":" + N(shape[i].utilization) + ",\"Score\":" + N(shape[i].score) + "}";
      else
        s += "config.UtilizationShapePoint{Utilization:" + N(shape[i].utilization) +
             ", Score:" + N(shape[i].score) + "}";
    }
    return s + (json ? "]" : "}");
  }

  // A config.PluginSet.
  std::string PluginSet(const config::PluginSet& set) const {
    auto list = [&](const std::vector<Plugin>& plugins) {
      if (plugins.empty()) return std::string(json ? "null" : "[]config.Plugin(nil)");
      std::string s = json ? "[" : "[]config.Plugin{";
      for (size_t i = 0; i < plugins.size(); ++i) {
        if (i > 0) s += json ? "," : ", ";
        if (json)
          s += "{\"Name\":" + JsonString(plugins[i].name) + ",\"Weight\":" + N(plugins[i].weight) +
               "}";
        else
          s +=
              "config.Plugin{Name:" + Q(plugins[i].name) + ", Weight:" + N(plugins[i].weight) + "}";
      }
      return s + (json ? "]" : "}");
    };
    if (json)
      return "{\"Enabled\":" + list(set.enabled) + ",\"Disabled\":" + list(set.disabled) + "}";
    return "config.PluginSet{Enabled:" + list(set.enabled) + ", Disabled:" + list(set.disabled) +
           "}";
  }

  // A metav1.Duration (a Stringer in v1.26; JSON "1s" in v1.35).
  std::string Duration(int64_t ns) const;

  // A *field.Path (upstream passes one as the bad value of a duplicate
  // schedulerName: v1.26 dumps the struct, v1.35's JSON of it is {}).
  std::string PathValue(const std::string& path) const { return json ? "{}" : Q(path); }
};

// Go's time.Duration.String.
std::string GoDuration(int64_t ns);

std::string ValuePrinter::Duration(int64_t ns) const {
  return json ? Q(GoDuration(ns)) : GoDuration(ns);
}

std::string GoDuration(int64_t ns) {
  if (ns == 0) return "0s";
  const bool neg = ns < 0;
  uint64_t u = neg ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
  auto frac = [](uint64_t v, int prec, std::string* out) {
    // Appends v / 10^prec with trailing zeros (and a bare '.') dropped.
    std::string digits;
    bool print = false;
    for (int i = 0; i < prec; ++i) {
      int d = static_cast<int>(v % 10);
      print = print || d != 0;
      if (print) digits.insert(digits.begin(), static_cast<char>('0' + d));
      v /= 10;
    }
    *out = std::to_string(v) + (digits.empty() ? "" : "." + digits);
  };
  std::string s;
  if (u < 1'000'000'000ULL) {
    int prec = 0;
    std::string unit;
    if (u < 1000ULL) {
      unit = "ns";
    } else if (u < 1'000'000ULL) {
      prec = 3;
      unit = "\xC2\xB5s";
    } else {
      prec = 6;
      unit = "ms";
    }
    frac(u, prec, &s);
    s += unit;
  } else {
    std::string secs;
    frac(u % 60'000'000'000ULL, 9, &secs);
    uint64_t mins = u / 60'000'000'000ULL;
    s = secs + "s";
    if (mins > 0) {
      s = std::to_string(mins % 60) + "m" + s;
      if (mins >= 60) s = std::to_string(mins / 60) + "h" + s;
    }
  }
  return neg ? "-" + s : s;
}

// metav1validation.ValidateLabelName.
ErrorList ValidateLabelName(const std::string& name, const std::string& path) {
  ErrorList errs;
  for (std::string& msg : labels::IsQualifiedName(name))
    errs.push_back(Invalid(path, Q(name), msg));
  return errs;
}

std::string Join(const std::vector<std::string>& msgs, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (i > 0) s += sep;
    s += msgs[i];
  }
  return s;
}

// ------------------------------------------------------------ node affinity

// labels.NewRequirement's checks with a field path.
ErrorList RequirementErrors(const SelectorRequirement& r, std::string_view op,
                            const std::string& path, const ValuePrinter& pr) {
  ErrorList errs;
  if (auto msgs = labels::IsQualifiedName(r.key); !msgs.empty())
    errs.push_back(Invalid(Child(path, "key"), Q(r.key), Join(msgs, "; ")));
  const std::string values_path = Child(path, "values");
  const size_t n = r.values.size();
  if (op == "In" || op == "NotIn") {
    if (n == 0)
      errs.push_back(Invalid(values_path, pr.Strings(r.values),
                             "for 'in', 'notin' operators, values set can't be empty"));
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (n != 0)
      errs.push_back(Invalid(values_path, pr.Strings(r.values),
                             "values set must be empty for exists and does not exist"));
  } else if (op == "Gt" || op == "Lt") {
    if (n != 1)
      errs.push_back(Invalid(values_path, pr.Strings(r.values),
                             "for 'Gt', 'Lt' operators, exactly one value is required"));
    for (size_t i = 0; i < n; ++i)
      if (!labels::ParseInt64(r.values[i]))
        errs.push_back(Invalid(Index(values_path, i), Q(r.values[i]),
                               "for 'Gt', 'Lt' operators, the value must be an integer"));
  }
  for (size_t i = 0; i < n; ++i)
    if (auto msgs = labels::IsValidLabelValue(r.values[i]); !msgs.empty())
      errs.push_back(Invalid(Key(Index(values_path, i), r.key), Q(r.values[i]), Join(msgs, "; ")));
  return errs;
}

ErrorList MatchExpressionErrors(const std::vector<SelectorRequirement>& reqs,
                                const std::string& path, const ValuePrinter& pr) {
  ErrorList errs;
  static const std::vector<std::string> kOps = {"In",           "NotIn", "Exists",
                                                "DoesNotExist", "Gt",    "Lt"};
  for (size_t i = 0; i < reqs.size(); ++i) {
    const std::string p = Index(path, i);
    if (std::find(kOps.begin(), kOps.end(), reqs[i].op) == kOps.end()) {
      // v1.35's component-helpers lists the supported operators.
      static const std::vector<std::string> kNone;
      errs.push_back(NotSupported(Child(p, "operator"), Q(reqs[i].op), pr.json ? kOps : kNone));
      continue;
    }
    Append(&errs, RequirementErrors(reqs[i], reqs[i].op, p, pr));
  }
  return errs;
}

ErrorList MatchFieldErrors(const std::vector<SelectorRequirement>& reqs, const std::string& path,
                           const ValuePrinter& pr) {
  ErrorList errs;
  for (size_t i = 0; i < reqs.size(); ++i) {
    const std::string p = Index(path, i);
    const SelectorRequirement& r = reqs[i];
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.size() != 1)
        errs.push_back(Invalid(Child(p, "values"), pr.Strings(r.values), "must have one element"));
    } else {
      errs.push_back(NotSupported(Child(p, "operator"), Q(r.op), {"In", "NotIn"}));
    }
  }
  return errs;
}

bool EmptyTerm(const NodeSelectorTerm& t) {
  return t.match_expressions.empty() && t.match_fields.empty();
}

ErrorList TermErrors(const NodeSelectorTerm& t, const std::string& path, const ValuePrinter& pr) {
  ErrorList errs;
  if (!t.match_expressions.empty())
    Append(&errs, MatchExpressionErrors(t.match_expressions, Child(path, "matchExpressions"), pr));
  if (!t.match_fields.empty())
    Append(&errs, MatchFieldErrors(t.match_fields, Child(path, "matchFields"), pr));
  return errs;
}

// ------------------------------------------------------------ shapes

ErrorList ValidateFunctionShape(const std::vector<UtilizationShapePoint>& shape,
                                const std::string& path, SchedulerVersion version) {
  ErrorList errs;
  if (shape.empty()) {
    errs.push_back(Required(path, "at least one point must be specified"));
    return errs;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      // v1.35 dropped "utilization" from the message.
      errs.push_back(Invalid(Child(Index(path, i), "utilization"), N(shape[i].utilization),
                             version >= SchedulerVersion::kV135
                                 ? "values must be sorted in increasing order"
                                 : "utilization values must be sorted in increasing order"));
      break;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].utilization < 0 || shape[i].utilization > 100)
      errs.push_back(Invalid(Child(Index(path, i), "utilization"), N(shape[i].utilization),
                             "not in valid range [0, 100]"));
    if (shape[i].score < 0 || shape[i].score > 10)
      errs.push_back(
          Invalid(Child(Index(path, i), "score"), N(shape[i].score), "not in valid range [0, 10]"));
  }
  return errs;
}

ErrorList ValidateResources(const std::vector<ResourceSpec>& resources, const std::string& path) {
  ErrorList errs;
  for (size_t i = 0; i < resources.size(); ++i) {
    if (resources[i].weight <= 0 || resources[i].weight > 100)
      errs.push_back(
          Invalid(Child(Index(path, i), "weight"), N(resources[i].weight),
                  "resource weight of " + resources[i].name + " not in valid range (0, 100]"));
  }
  return errs;
}

// ------------------------------------------------------------ configuration

// Upstream's invalidPluginsByVersion / isPluginInvalid: plugins a config
// version no longer accepts, checked for that version and later ones. The
// list is the release's: v1.26 refuses SelectorSpread in v1 (v1beta2 and
// v1beta3 still took it); v1.35, whose scheme has only v1, refuses the
// removed in-tree volume limits plugins (SelectorSpread is left to
// NewFramework: "ScorePlugin \"SelectorSpread\" does not exist").
//
// The version an entry names is core/v1's SchemeGroupVersion, "v1" (upstream
// imports k8s.io/api/core/v1 as v1 there, in both releases), so the message
// reads `was invalid in version "v1" (KubeSchedulerConfiguration is version
// "kubescheduler.config.k8s.io/v1")`, as kube-scheduler prints it. The
// reference harness prints `is version ""` (it skips kube-scheduler's
// loadConfig, which records the file's apiVersion); ksched follows the
// binary.
bool PluginInvalid(const std::string& api_version, std::string_view name, SchedulerVersion version,
                   std::string* invalid_version) {
  struct Entry {
    std::string_view scheme_version;  // the config version of the entry
    std::vector<std::string_view> plugins;
  };
  static const std::vector<Entry> kV126 = {
      {kVersionV1beta3, {}},
      {"v1", {"SelectorSpread"}},
  };
  static const std::vector<Entry> kV135 = {
      {"v1", {"AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"}},
  };
  for (const Entry& e : version >= SchedulerVersion::kV135 ? kV135 : kV126) {
    if (std::find(e.plugins.begin(), e.plugins.end(), name) != e.plugins.end()) {
      *invalid_version = std::string(e.scheme_version);
      return true;
    }
    if (api_version == e.scheme_version) break;
  }
  return false;
}

std::string InvalidInVersion(const std::string& invalid_version, const std::string& api_version) {
  return "was invalid in version " + Q(invalid_version) +
         " (KubeSchedulerConfiguration is version " + Q(api_version) + ")";
}

ErrorList ValidatePluginConfig(const std::string& path, const std::string& api_version,
                               const Profile& profile, const FeatureGates& gates) {
  const SchedulerVersion version = gates.version;
  ErrorList errs;
  const std::pair<const char*, const PluginSet*> stages[] = {
      {"preEnqueue", &profile.plugins.pre_enqueue},
      {"queueSort", &profile.plugins.queue_sort},
      {"preFilter", &profile.plugins.pre_filter},
      {"filter", &profile.plugins.filter},
      {"postFilter", &profile.plugins.post_filter},
      {"preScore", &profile.plugins.pre_score},
      {"score", &profile.plugins.score},
      {"reserve", &profile.plugins.reserve},
      {"permit", &profile.plugins.permit},
      {"preBind", &profile.plugins.pre_bind},
      {"bind", &profile.plugins.bind},
      {"postBind", &profile.plugins.post_bind},
  };
  const std::string plugins_path = Child(path, "plugins");
  for (const auto& [stage, set] : stages) {
    for (size_t i = 0; i < set->enabled.size(); ++i) {
      std::string invalid;
      if (PluginInvalid(api_version, set->enabled[i].name, version, &invalid))
        errs.push_back(Invalid(Index(Child(Child(plugins_path, stage), "enabled"), i),
                               Q(set->enabled[i].name), InvalidInVersion(invalid, api_version)));
    }
  }
  std::vector<std::string_view> seen;
  for (size_t i = 0; i < profile.plugin_config.size(); ++i) {
    const PluginConfig& pc = profile.plugin_config[i];
    const std::string pc_path = Index(Child(path, "pluginConfig"), i);
    if (std::find(seen.begin(), seen.end(), pc.name) != seen.end())
      errs.push_back(Duplicate(pc_path, Q(pc.name)));
    else
      seen.push_back(pc.name);
    std::string invalid;
    if (PluginInvalid(api_version, pc.name, version, &invalid)) {
      errs.push_back(Invalid(pc_path, Q(pc.name), InvalidInVersion(invalid, api_version)));
      continue;
    }
    // Upstream's table lists NodeResourcesFit as "NodeResourcesFitArgs", so
    // its args are only checked when the plugin is built.
    if (std::holds_alternative<NodeResourcesFitArgs>(pc.args)) continue;
    Append(&errs, ValidatePluginArgs(Child(pc_path, "args"), pc.args, gates));
  }
  return errs;
}

bool SamePluginSet(const PluginSet& a, const PluginSet& b) {
  auto same = [](const std::vector<Plugin>& x, const std::vector<Plugin>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const Plugin& p, const Plugin& q) {
      return p.name == q.name && p.weight == q.weight;
    });
  };
  return same(a.enabled, b.enabled) && same(a.disabled, b.disabled);
}

ErrorList ValidateCommonQueueSort(const std::string& path, const std::vector<Profile>& profiles,
                                  SchedulerVersion version) {
  const ValuePrinter pr(version);
  ErrorList errs;
  const PluginSet& canon = profiles[0].plugins.queue_sort;
  std::string queue_sort_name;
  if (!canon.enabled.empty()) queue_sort_name = canon.enabled[0].name;
  if (canon.enabled.size() > 1)
    errs.push_back(Invalid(Child(Child(Child(Index(path, 0), "plugins"), "queueSort"), "Enabled"),
                           N(static_cast<int64_t>(canon.enabled.size())),
                           "only one queue sort plugin can be enabled"));
  // Queue-sort plugins take no args in ksched, so only the sets are compared.
  for (size_t i = 1; i < profiles.size(); ++i) {
    const PluginSet& curr = profiles[i].plugins.queue_sort;
    if (!SamePluginSet(canon, curr))
      errs.push_back(
          Invalid(Child(Child(Index(path, i), "plugins"), "queueSort"), pr.PluginSet(curr),
                  pr.json ? "must be the same for all profiles" : "has to match for all profiles"));
  }
  return errs;
}

ErrorList ValidateExtenders(const std::string& path, const std::vector<Extender>& extenders) {
  ErrorList errs;
  int binders = 0;
  std::vector<std::string_view> managed;
  for (size_t i = 0; i < extenders.size(); ++i) {
    const Extender& ext = extenders[i];
    const std::string p = Index(path, i);
    if (!ext.prioritize_verb.empty() && ext.weight <= 0)
      errs.push_back(
          Invalid(Child(p, "weight"), N(ext.weight), "must have a positive weight applied to it"));
    if (!ext.bind_verb.empty()) ++binders;
    for (size_t j = 0; j < ext.managed_resources.size(); ++j) {
      const std::string& name = ext.managed_resources[j].name;
      const std::string name_path = Child(Index(Child(p, "managedResources"), j), "name");
      auto msgs = labels::IsQualifiedName(name);
      for (std::string& m : msgs) errs.push_back(Invalid(name_path, Q(name), m));
      if (msgs.empty() && !IsExtendedResourceName(name))
        errs.push_back(Invalid(name_path, Q(name), "is an invalid extended resource name"));
      if (std::find(managed.begin(), managed.end(), name) != managed.end())
        errs.push_back(Invalid(name_path, Q(name), "duplicate extender managed resource name"));
      managed.push_back(name);
    }
  }
  if (binders > 1)
    errs.push_back(Invalid(path,
                           Q("found " + std::to_string(binders) + " extenders implementing bind"),
                           "only one extender can implement bind"));
  return errs;
}

// component-base's ValidateLeaderElectionConfiguration, as each release
// words it; v1.35 then requires the "leases" lock.
ErrorList ValidateLeaderElection(const LeaderElection& le, const std::string& path,
                                 SchedulerVersion version) {
  ErrorList errs;
  if (!le.leader_elect) return errs;
  const ValuePrinter pr(version);
  const bool v135 = version >= SchedulerVersion::kV135;
  const char* kPositive = "must be greater than zero";
  if (le.lease_duration_ns <= 0)
    errs.push_back(
        Invalid(Child(path, "leaseDuration"), pr.Duration(le.lease_duration_ns), kPositive));
  if (le.renew_deadline_ns <= 0)
    errs.push_back(
        Invalid(Child(path, "renewDeadline"), pr.Duration(le.renew_deadline_ns), kPositive));
  if (le.retry_period_ns <= 0)
    errs.push_back(Invalid(Child(path, "retryPeriod"), pr.Duration(le.retry_period_ns), kPositive));
  if (le.lease_duration_ns <= le.renew_deadline_ns)
    errs.push_back(Invalid(Child(path, "leaseDuration"), pr.Duration(le.renew_deadline_ns),
                           v135 ? "must be greater than `RenewDeadline`"
                                : "LeaseDuration must be greater than RenewDeadline"));
  // Defaulting fills these three, so only a release's own defaults could
  // leave one empty; kept for fidelity.
  auto required = [&](const std::string& value, const char* field, const char* v126_detail) {
    if (!value.empty()) return;
    if (v135)
      errs.push_back(Required(Child(path, field), ""));
    else
      errs.push_back(Invalid(Child(path, field), Q(""), v126_detail));
  };
  required(le.resource_lock, "resourceLock", "resourceLock is required");
  required(le.resource_namespace, "resourceNamespace", "resourceNamespace is required");
  required(le.resource_name, "resourceName", "resourceName is required");
  if (v135 && le.resource_lock != "leases")
    errs.push_back(Invalid(Child(path, "resourceLock"), Q(le.resource_lock),
                           "resourceLock value must be \"leases\""));
  return errs;
}

void ValidatePercentage(const std::string& path, const std::optional<int32_t>& p, ErrorList* errs) {
  if (p && (*p < 0 || *p > 100))
    errs->push_back(Invalid(path, N(*p), "not in valid range [0-100]"));
}

}  // namespace

// ------------------------------------------------------------ public

std::string FieldError::Error() const {
  std::string body;
  switch (type) {
    case T::kNotFound:
      body = "Not found: " + value;
      break;
    case T::kRequired:
      body = "Required value";
      break;
    case T::kDuplicate:
      body = "Duplicate value: " + value;
      break;
    case T::kInvalid:
      body = "Invalid value: " + value;
      break;
    case T::kNotSupported:
      body = "Unsupported value: " + value;
      break;
    case T::kForbidden:
      body = "Forbidden";
      break;
  }
  if (!detail.empty()) body += ": " + detail;
  return field + ": " + body;
}

std::string AggregateError(const ErrorList& errs) {
  std::vector<std::string> seen;
  for (const FieldError& e : errs) {
    std::string msg = e.Error();
    if (std::find(seen.begin(), seen.end(), msg) == seen.end()) seen.push_back(std::move(msg));
  }
  if (seen.empty()) return "";
  if (errs.size() == 1 || seen.size() == 1) return seen[0];
  return "[" + Join(seen, ", ") + "]";
}

ErrorList ValidateDefaultPreemptionArgs(const std::string& path, const DefaultPreemptionArgs& a) {
  ErrorList errs;
  const std::string pct = Child(path, "minCandidateNodesPercentage");
  const std::string abs = Child(path, "minCandidateNodesAbsolute");
  if (a.min_candidate_nodes_percentage < 0 || a.min_candidate_nodes_percentage > 100)
    errs.push_back(
        Invalid(pct, N(a.min_candidate_nodes_percentage), "not in valid range [0, 100]"));
  if (a.min_candidate_nodes_absolute < 0)
    errs.push_back(Invalid(abs, N(a.min_candidate_nodes_absolute), "not in valid range [0, inf)"));
  if (a.min_candidate_nodes_percentage == 0 && a.min_candidate_nodes_absolute == 0) {
    errs.push_back(
        Invalid(pct, "0", "cannot be zero at the same time as minCandidateNodesAbsolute"));
    errs.push_back(
        Invalid(abs, "0", "cannot be zero at the same time as minCandidateNodesPercentage"));
  }
  return errs;
}

ErrorList ValidateInterPodAffinityArgs(const std::string& path, const InterPodAffinityArgs& a) {
  ErrorList errs;
  if (a.hard_pod_affinity_weight < 0 || a.hard_pod_affinity_weight > 100)
    errs.push_back(Invalid(Child(path, "hardPodAffinityWeight"), N(a.hard_pod_affinity_weight),
                           "not in valid range [0, 100]"));
  return errs;
}

ErrorList ValidatePodTopologySpreadArgs(const std::string& path, const PodTopologySpreadArgs& a) {
  ErrorList errs;
  const std::string type_path = Child(path, "defaultingType");
  if (a.defaulting_type != kSystemDefaulting && a.defaulting_type != kListDefaulting)
    errs.push_back(
        NotSupported(type_path, Q(a.defaulting_type), {kSystemDefaulting, kListDefaulting}));
  else if (a.defaulting_type == kSystemDefaulting && !a.default_constraints.empty())
    errs.push_back(
        Invalid(type_path, Q(a.defaulting_type), "when .defaultConstraints are not empty"));

  const std::string dc_path = Child(path, "defaultConstraints");
  for (size_t i = 0; i < a.default_constraints.size(); ++i) {
    const TopologySpreadConstraint& c = a.default_constraints[i];
    const std::string p = Index(dc_path, i);
    if (c.max_skew <= 0)
      errs.push_back(Invalid(Child(p, "maxSkew"), N(c.max_skew), "not in valid range (0, inf)"));
    if (c.topology_key.empty())
      errs.push_back(Required(Child(p, "topologyKey"), "can not be empty"));
    else
      Append(&errs, ValidateLabelName(c.topology_key, Child(p, "topologyKey")));
    const std::string wu = Child(p, "whenUnsatisfiable");
    if (c.when_unsatisfiable.empty())
      errs.push_back(Required(wu, "can not be empty"));
    else if (c.when_unsatisfiable != "DoNotSchedule" && c.when_unsatisfiable != "ScheduleAnyway")
      errs.push_back(
          NotSupported(wu, Q(c.when_unsatisfiable), {"DoNotSchedule", "ScheduleAnyway"}));
    if (c.label_selector)
      errs.push_back(
          Forbidden(Child(p, "labelSelector"),
                    "constraint must not define a selector, as they deduced for each pod"));
    for (size_t j = 0; j < i; ++j) {
      const TopologySpreadConstraint& o = a.default_constraints[j];
      if (o.topology_key == c.topology_key && o.when_unsatisfiable == c.when_unsatisfiable) {
        errs.push_back(Duplicate(p, Q("{" + c.topology_key + ", " + c.when_unsatisfiable + "}")));
        break;
      }
    }
  }
  return errs;
}

ErrorList ValidateNodeResourcesBalancedAllocationArgs(
    const std::string& path, const NodeResourcesBalancedAllocationArgs& a) {
  ErrorList errs;
  std::vector<std::string_view> seen;
  const std::string res = Child(path, "resources");
  for (size_t i = 0; i < a.resources.size(); ++i) {
    const ResourceSpec& r = a.resources[i];
    if (std::find(seen.begin(), seen.end(), r.name) != seen.end())
      errs.push_back(Duplicate(Child(Index(res, i), "name"), Q(r.name)));
    else
      seen.push_back(r.name);
    if (r.weight != 1)
      errs.push_back(Invalid(Child(Index(res, i), "weight"), N(r.weight), "must be 1"));
  }
  return errs;
}

ErrorList ValidateNodeAffinityArgs(const std::string& path, const NodeAffinityArgs& a,
                                   SchedulerVersion version) {
  ErrorList errs;
  if (!a.added_affinity) return errs;
  const ValuePrinter pr(version);
  const NodeAffinity& na = *a.added_affinity;
  const std::string added = Child(path, "addedAffinity");
  if (na.required) {
    const std::string terms =
        Child(Child(added, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms");
    for (size_t i = 0; i < na.required->terms.size(); ++i) {
      if (EmptyTerm(na.required->terms[i])) continue;
      Append(&errs, TermErrors(na.required->terms[i], Index(terms, i), pr));
    }
  }
  const std::string preferred = Child(added, "preferredDuringSchedulingIgnoredDuringExecution");
  for (size_t i = 0; i < na.preferred.size(); ++i) {
    const PreferredSchedulingTerm& t = na.preferred[i];
    if (t.weight == 0 || EmptyTerm(t.preference)) continue;
    Append(&errs, TermErrors(t.preference, Index(preferred, i), pr));
  }
  return errs;
}

ErrorList ValidateVolumeBindingArgs(const std::string& path, const VolumeBindingArgs& a,
                                    const FeatureGates& gates) {
  ErrorList errs;
  const SchedulerVersion version = gates.version;
  // The gate that allows a shape: StorageCapacityScoring replaced
  // VolumeCapacityPriority in v1.33.
  const bool v135 = version >= SchedulerVersion::kV135;
  const bool allow = v135 ? gates.storage_capacity_scoring : gates.volume_capacity_priority;
  const char* gate = v135 ? "StorageCapacityScoring" : "VolumeCapacityPriority";
  if (a.bind_timeout_seconds < 0)
    errs.push_back(Invalid(Child(path, "bindTimeoutSeconds"), N(a.bind_timeout_seconds),
                           "invalid BindTimeoutSeconds, should not be a negative value"));
  if (allow)
    Append(&errs, ValidateFunctionShape(a.shape, Child(path, "shape"), version));
  else if (!a.shape.empty())
    errs.push_back(Invalid(Child(path, "shape"), ValuePrinter(version).Shape(a.shape),
                           std::string("unexpected field `shape`, remove it or turn on the "
                                       "feature gate ") +
                               gate));
  return errs;
}

ErrorList ValidateDynamicResourcesArgs(const std::string& path, const DynamicResourcesArgs& a,
                                       const FeatureGates& gates) {
  ErrorList errs;
  const ValuePrinter pr(gates.version);
  const std::string filter = Child(path, "filterTimeout");
  if (gates.dra_scheduler_filter_timeout) {
    if (a.filter_timeout_ns && *a.filter_timeout_ns < 0)
      errs.push_back(
          Invalid(filter, pr.Duration(*a.filter_timeout_ns), "must be zero or positive"));
  } else if (a.filter_timeout_ns) {
    // Upstream's text names the gate "DRASchedulingFilterTimeout".
    errs.push_back(Forbidden(filter, "DRASchedulingFilterTimeout feature gate is disabled"));
  }
  const std::string binding = Child(path, "bindingTimeout");
  constexpr int64_t kSecond = 1'000'000'000;
  if (gates.dra_device_binding_conditions && gates.dra_resource_claim_device_status) {
    if (a.binding_timeout_ns && *a.binding_timeout_ns < kSecond)
      errs.push_back(
          Invalid(binding, pr.Duration(*a.binding_timeout_ns), "must be at least 1 second"));
  } else if (a.binding_timeout_ns) {
    errs.push_back(
        Forbidden(binding,
                  "DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is "
                  "disabled"));
  }
  return errs;
}

ErrorList ValidateNodeResourcesFitArgs(const std::string& path, const NodeResourcesFitArgs& a,
                                       SchedulerVersion version) {
  ErrorList errs;
  const std::string res_path = Child(path, "ignoredResources");
  for (size_t i = 0; i < a.ignored_resources.size(); ++i)
    Append(&errs, ValidateLabelName(a.ignored_resources[i], Index(res_path, i)));
  const std::string group_path = Child(path, "ignoredResourceGroups");
  for (size_t i = 0; i < a.ignored_resource_groups.size(); ++i) {
    const std::string& g = a.ignored_resource_groups[i];
    if (g.find('/') != std::string::npos)
      errs.push_back(Invalid(Index(group_path, i), Q(g), "resource group name can't contain '/'"));
    Append(&errs, ValidateLabelName(g, Index(group_path, i)));
  }
  const ScoringStrategy& s = a.scoring_strategy;
  const std::string strategy = Child(path, "scoringStrategy");
  if (s.type != kLeastAllocated && s.type != kMostAllocated && s.type != kRequestedToCapacityRatio)
    errs.push_back(NotSupported(Child(strategy, "type"), Q(s.type),
                                {kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio}));
  Append(&errs, ValidateResources(s.resources, Child(strategy, "resources")));
  if (s.has_requested_to_capacity_ratio)
    Append(&errs, ValidateFunctionShape(s.requested_to_capacity_ratio.shape,
                                        Child(strategy, "shape"), version));
  return errs;
}

ErrorList ValidatePluginArgs(const std::string& path, const PluginArgs& args,
                             const FeatureGates& gates) {
  if (auto* a = std::get_if<DefaultPreemptionArgs>(&args))
    return ValidateDefaultPreemptionArgs(path, *a);
  if (auto* a = std::get_if<InterPodAffinityArgs>(&args))
    return ValidateInterPodAffinityArgs(path, *a);
  if (auto* a = std::get_if<NodeAffinityArgs>(&args))
    return ValidateNodeAffinityArgs(path, *a, gates.version);
  if (auto* a = std::get_if<NodeResourcesBalancedAllocationArgs>(&args))
    return ValidateNodeResourcesBalancedAllocationArgs(path, *a);
  if (auto* a = std::get_if<NodeResourcesFitArgs>(&args))
    return ValidateNodeResourcesFitArgs(path, *a, gates.version);
  if (auto* a = std::get_if<PodTopologySpreadArgs>(&args))
    return ValidatePodTopologySpreadArgs(path, *a);
  if (auto* a = std::get_if<VolumeBindingArgs>(&args))
    return ValidateVolumeBindingArgs(path, *a, gates);
  if (auto* a = std::get_if<DynamicResourcesArgs>(&args))
    return ValidateDynamicResourcesArgs(path, *a, gates);
  return {};
}

ErrorList ValidateKubeSchedulerConfiguration(const KubeSchedulerConfiguration& cfg,
                                             const FeatureGates& gates) {
  ErrorList errs;
  if (cfg.client_connection.burst < 0)
    errs.push_back(
        Invalid("clientConnection.burst", N(cfg.client_connection.burst), "must be non-negative"));
  Append(&errs, ValidateLeaderElection(cfg.leader_election, "leaderElection", gates.version));
  if (cfg.parallelism <= 0)
    errs.push_back(
        Invalid("parallelism", N(cfg.parallelism), "should be an integer value greater than zero"));
  const std::string profiles_path = "profiles";
  if (cfg.profiles.empty()) {
    errs.push_back(Required(profiles_path, ""));
  } else {
    std::vector<std::pair<std::string_view, size_t>> existing;
    for (size_t i = 0; i < cfg.profiles.size(); ++i) {
      const Profile& prof = cfg.profiles[i];
      const std::string path = Index(profiles_path, i);
      if (prof.scheduler_name.empty()) errs.push_back(Required(Child(path, "schedulerName"), ""));
      ValidatePercentage(Child(path, "percentageOfNodesToScore"), prof.percentage_of_nodes_to_score,
                         &errs);
      Append(&errs, ValidatePluginConfig(path, cfg.api_version, prof, gates));
      auto it = std::find_if(existing.begin(), existing.end(),
                             [&](const auto& e) { return e.first == prof.scheduler_name; });
      if (it != existing.end()) {
        errs.push_back(
            Duplicate(Child(path, "schedulerName"),
                      ValuePrinter(gates.version)
                          .PathValue(Child(Index(profiles_path, it->second), "schedulerName"))));
        it->second = i;
      } else {
        existing.emplace_back(prof.scheduler_name, i);
      }
    }
    Append(&errs, ValidateCommonQueueSort(profiles_path, cfg.profiles, gates.version));
  }
  ValidatePercentage("percentageOfNodesToScore", cfg.percentage_of_nodes_to_score, &errs);
  if (cfg.pod_initial_backoff_seconds <= 0)
    errs.push_back(Invalid("podInitialBackoffSeconds", N(cfg.pod_initial_backoff_seconds),
                           "must be greater than 0"));
  if (cfg.pod_max_backoff_seconds < cfg.pod_initial_backoff_seconds)
    errs.push_back(Invalid("podMaxBackoffSeconds", N(cfg.pod_max_backoff_seconds),
                           "must be greater than or equal to PodInitialBackoffSeconds"));
  Append(&errs, ValidateExtenders("extenders", cfg.extenders));
  return errs;
}

namespace {

// NewFramework's per-profile checks that need no plugin instance: each
// built plugin's args (its factory's validation), then names that no plugin
// has, per extension point in the framework's order, then MultiPoint's.
std::string FrameworkError(const Profile& prof, const FeatureGates& gates) {
  auto InTree = [&](std::string_view name) { return InTreePlugin(name, gates.version); };
  for (const std::string& name : EnabledPluginNames(prof.plugins)) {
    if (!InTree(name)) continue;  // never built: reported below
    const PluginArgs* args = prof.ArgsFor(name);
    if (args == nullptr) continue;
    ErrorList errs = ValidatePluginArgs("", *args, gates);
    if (!errs.empty()) return "initializing plugin " + Q(name) + ": " + AggregateError(errs);
  }
  const Plugins& p = prof.plugins;
  const std::pair<const PluginSet*, const char*> points[] = {
      {&p.pre_filter, "PreFilterPlugin"},   {&p.filter, "FilterPlugin"},
      {&p.post_filter, "PostFilterPlugin"}, {&p.reserve, "ReservePlugin"},
      {&p.pre_score, "PreScorePlugin"},     {&p.score, "ScorePlugin"},
      {&p.pre_bind, "PreBindPlugin"},       {&p.bind, "BindPlugin"},
      {&p.post_bind, "PostBindPlugin"},     {&p.permit, "PermitPlugin"},
      {&p.pre_enqueue, "PreEnqueuePlugin"}, {&p.queue_sort, "QueueSortPlugin"},
  };
  for (const auto& [set, type] : points)
    for (const Plugin& pl : set->enabled)
      if (!InTree(pl.name)) return std::string(type) + " " + Q(pl.name) + " does not exist";
  if (!p.multi_point.enabled.empty()) {
    for (const auto& [set, type] : points) {
      const bool all_disabled = std::any_of(set->disabled.begin(), set->disabled.end(),
                                            [](const Plugin& d) { return d.name == "*"; });
      if (all_disabled) continue;
      for (const Plugin& pl : p.multi_point.enabled)
        if (!InTree(pl.name)) return std::string(type) + " " + Q(pl.name) + " does not exist";
      break;
    }
  }
  return "";
}

}  // namespace

Status ValidateFramework(const KubeSchedulerConfiguration& cfg, const FeatureGates& gates) {
  for (const Profile& prof : cfg.profiles) {
    std::string err = FrameworkError(prof, gates);
    if (!err.empty())
      return MakeError("initializing profiles: creating profile for scheduler name " +
                       prof.scheduler_name + ": " + err);
  }
  return Status::Ok();
}

}  // namespace ksched::config
