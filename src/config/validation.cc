#include "config/validation.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "cache/resource.h"
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

// %#v of a []string.
std::string StringSlice(const std::vector<std::string>& v) {
  if (v.empty()) return "[]string(nil)";
  std::string s = "[]string{";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += ", ";
    s += Q(v[i]);
  }
  return s + "}";
}

// %#v of a []config.UtilizationShapePoint.
std::string ShapeValue(const std::vector<UtilizationShapePoint>& shape) {
  if (shape.empty()) return "[]config.UtilizationShapePoint(nil)";
  std::string s = "[]config.UtilizationShapePoint{";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += "config.UtilizationShapePoint{Utilization:" + N(shape[i].utilization) +
         ", Score:" + N(shape[i].score) + "}";
  }
  return s + "}";
}

// %#v of a config.PluginSet.
std::string PluginSetValue(const PluginSet& set) {
  auto list = [](const std::vector<Plugin>& plugins) {
    if (plugins.empty()) return std::string("[]config.Plugin(nil)");
    std::string s = "[]config.Plugin{";
    for (size_t i = 0; i < plugins.size(); ++i) {
      if (i > 0) s += ", ";
      s += "config.Plugin{Name:" + Q(plugins[i].name) + ", Weight:" + N(plugins[i].weight) + "}";
    }
    return s + "}";
  };
  return "config.PluginSet{Enabled:" + list(set.enabled) + ", Disabled:" + list(set.disabled) + "}";
}

// Go's time.Duration.String.
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
                            const std::string& path) {
  ErrorList errs;
  if (auto msgs = labels::IsQualifiedName(r.key); !msgs.empty())
    errs.push_back(Invalid(Child(path, "key"), Q(r.key), Join(msgs, "; ")));
  const std::string values_path = Child(path, "values");
  const size_t n = r.values.size();
  if (op == "In" || op == "NotIn") {
    if (n == 0)
      errs.push_back(Invalid(values_path, StringSlice(r.values),
                             "for 'in', 'notin' operators, values set can't be empty"));
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (n != 0)
      errs.push_back(Invalid(values_path, StringSlice(r.values),
                             "values set must be empty for exists and does not exist"));
  } else if (op == "Gt" || op == "Lt") {
    if (n != 1)
      errs.push_back(Invalid(values_path, StringSlice(r.values),
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
                                const std::string& path) {
  ErrorList errs;
  static const char* const kOps[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
  for (size_t i = 0; i < reqs.size(); ++i) {
    const std::string p = Index(path, i);
    if (std::none_of(std::begin(kOps), std::end(kOps),
                     [&](const char* op) { return reqs[i].op == op; })) {
      errs.push_back(NotSupported(Child(p, "operator"), Q(reqs[i].op), {}));
      continue;
    }
    Append(&errs, RequirementErrors(reqs[i], reqs[i].op, p));
  }
  return errs;
}

ErrorList MatchFieldErrors(const std::vector<SelectorRequirement>& reqs, const std::string& path) {
  ErrorList errs;
  for (size_t i = 0; i < reqs.size(); ++i) {
    const std::string p = Index(path, i);
    const SelectorRequirement& r = reqs[i];
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.size() != 1)
        errs.push_back(Invalid(Child(p, "values"), StringSlice(r.values), "must have one element"));
    } else {
      errs.push_back(NotSupported(Child(p, "operator"), Q(r.op), {"In", "NotIn"}));
    }
  }
  return errs;
}

bool EmptyTerm(const NodeSelectorTerm& t) {
  return t.match_expressions.empty() && t.match_fields.empty();
}

ErrorList TermErrors(const NodeSelectorTerm& t, const std::string& path) {
  ErrorList errs;
  if (!t.match_expressions.empty())
    Append(&errs, MatchExpressionErrors(t.match_expressions, Child(path, "matchExpressions")));
  if (!t.match_fields.empty())
    Append(&errs, MatchFieldErrors(t.match_fields, Child(path, "matchFields")));
  return errs;
}

// ------------------------------------------------------------ shapes

ErrorList ValidateFunctionShape(const std::vector<UtilizationShapePoint>& shape,
                                const std::string& path) {
  ErrorList errs;
  if (shape.empty()) {
    errs.push_back(Required(path, "at least one point must be specified"));
    return errs;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errs.push_back(Invalid(Child(Index(path, i), "utilization"), N(shape[i].utilization),
                             "utilization values must be sorted in increasing order"));
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

// Plugins removed in a version, checked for that version and later ones.
bool PluginInvalid(const std::string& api_version, std::string_view name,
                   std::string* invalid_version) {
  if (api_version == "kubescheduler.config.k8s.io/v1" && name == "SelectorSpread") {
    *invalid_version = "kubescheduler.config.k8s.io/v1";
    return true;
  }
  return false;
}

std::string InvalidInVersion(const std::string& invalid_version, const std::string& api_version) {
  return "was invalid in version " + Q(invalid_version) +
         " (KubeSchedulerConfiguration is version " + Q(api_version) + ")";
}

ErrorList ValidatePluginConfig(const std::string& path, const std::string& api_version,
                               const Profile& profile, const FeatureGates& gates) {
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
      std::string version;
      if (PluginInvalid(api_version, set->enabled[i].name, &version))
        errs.push_back(Invalid(Index(Child(Child(plugins_path, stage), "enabled"), i),
                               Q(set->enabled[i].name), InvalidInVersion(version, api_version)));
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
    std::string version;
    if (PluginInvalid(api_version, pc.name, &version)) {
      errs.push_back(Invalid(pc_path, Q(pc.name), InvalidInVersion(version, api_version)));
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

ErrorList ValidateCommonQueueSort(const std::string& path, const std::vector<Profile>& profiles) {
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
      errs.push_back(Invalid(Child(Child(Index(path, i), "plugins"), "queueSort"),
                             PluginSetValue(curr), "has to match for all profiles"));
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

ErrorList ValidateLeaderElection(const LeaderElection& le, const std::string& path) {
  ErrorList errs;
  if (!le.leader_elect) return errs;
  const char* kPositive = "must be greater than zero";
  if (le.lease_duration_ns <= 0)
    errs.push_back(
        Invalid(Child(path, "leaseDuration"), GoDuration(le.lease_duration_ns), kPositive));
  if (le.renew_deadline_ns <= 0)
    errs.push_back(
        Invalid(Child(path, "renewDeadline"), GoDuration(le.renew_deadline_ns), kPositive));
  if (le.retry_period_ns <= 0)
    errs.push_back(Invalid(Child(path, "retryPeriod"), GoDuration(le.retry_period_ns), kPositive));
  if (le.lease_duration_ns <= le.renew_deadline_ns)
    errs.push_back(Invalid(Child(path, "leaseDuration"), GoDuration(le.renew_deadline_ns),
                           "LeaseDuration must be greater than RenewDeadline"));
  if (le.resource_lock.empty())
    errs.push_back(Invalid(Child(path, "resourceLock"), Q(""), "resourceLock is required"));
  if (le.resource_namespace.empty())
    errs.push_back(
        Invalid(Child(path, "resourceNamespace"), Q(""), "resourceNamespace is required"));
  if (le.resource_name.empty())
    errs.push_back(Invalid(Child(path, "resourceName"), Q(""), "resourceName is required"));
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

ErrorList ValidateNodeAffinityArgs(const std::string& path, const NodeAffinityArgs& a) {
  ErrorList errs;
  if (!a.added_affinity) return errs;
  const NodeAffinity& na = *a.added_affinity;
  const std::string added = Child(path, "addedAffinity");
  if (na.required) {
    const std::string terms =
        Child(Child(added, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms");
    for (size_t i = 0; i < na.required->terms.size(); ++i) {
      if (EmptyTerm(na.required->terms[i])) continue;
      Append(&errs, TermErrors(na.required->terms[i], Index(terms, i)));
    }
  }
  const std::string preferred = Child(added, "preferredDuringSchedulingIgnoredDuringExecution");
  for (size_t i = 0; i < na.preferred.size(); ++i) {
    const PreferredSchedulingTerm& t = na.preferred[i];
    if (t.weight == 0 || EmptyTerm(t.preference)) continue;
    Append(&errs, TermErrors(t.preference, Index(preferred, i)));
  }
  return errs;
}

ErrorList ValidateVolumeBindingArgs(const std::string& path, const VolumeBindingArgs& a,
                                    bool allow_shape, std::string_view shape_gate) {
  ErrorList errs;
  if (a.bind_timeout_seconds < 0)
    errs.push_back(Invalid(Child(path, "bindTimeoutSeconds"), N(a.bind_timeout_seconds),
                           "invalid BindTimeoutSeconds, should not be a negative value"));
  if (allow_shape)
    Append(&errs, ValidateFunctionShape(a.shape, Child(path, "shape")));
  else if (!a.shape.empty())
    errs.push_back(Invalid(Child(path, "shape"), ShapeValue(a.shape),
                           "unexpected field `shape`, remove it or turn on the feature gate " +
                               std::string(shape_gate)));
  return errs;
}

ErrorList ValidateNodeResourcesFitArgs(const std::string& path, const NodeResourcesFitArgs& a) {
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
    Append(&errs,
           ValidateFunctionShape(s.requested_to_capacity_ratio.shape, Child(strategy, "shape")));
  return errs;
}

ErrorList ValidatePluginArgs(const std::string& path, const PluginArgs& args,
                             const FeatureGates& gates) {
  if (auto* a = std::get_if<DefaultPreemptionArgs>(&args))
    return ValidateDefaultPreemptionArgs(path, *a);
  if (auto* a = std::get_if<InterPodAffinityArgs>(&args))
    return ValidateInterPodAffinityArgs(path, *a);
  if (auto* a = std::get_if<NodeAffinityArgs>(&args)) return ValidateNodeAffinityArgs(path, *a);
  if (auto* a = std::get_if<NodeResourcesBalancedAllocationArgs>(&args))
    return ValidateNodeResourcesBalancedAllocationArgs(path, *a);
  if (auto* a = std::get_if<NodeResourcesFitArgs>(&args))
    return ValidateNodeResourcesFitArgs(path, *a);
  if (auto* a = std::get_if<PodTopologySpreadArgs>(&args))
    return ValidatePodTopologySpreadArgs(path, *a);
  if (auto* a = std::get_if<VolumeBindingArgs>(&args)) {
    if (gates.AtLeast(SchedulerVersion::kV135))
      return ValidateVolumeBindingArgs(path, *a, gates.storage_capacity_scoring,
                                       "StorageCapacityScoring");
    return ValidateVolumeBindingArgs(path, *a, gates.volume_capacity_priority,
                                     "VolumeCapacityPriority");
  }
  return {};
}

ErrorList ValidateKubeSchedulerConfiguration(const KubeSchedulerConfiguration& cfg,
                                             const FeatureGates& gates) {
  ErrorList errs;
  if (cfg.client_connection.burst < 0)
    errs.push_back(
        Invalid("clientConnection.burst", N(cfg.client_connection.burst), "must be non-negative"));
  Append(&errs, ValidateLeaderElection(cfg.leader_election, "leaderElection"));
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
        errs.push_back(Duplicate(Child(path, "schedulerName"),
                                 Q(Child(Index(profiles_path, it->second), "schedulerName"))));
        it->second = i;
      } else {
        existing.emplace_back(prof.scheduler_name, i);
      }
    }
    Append(&errs, ValidateCommonQueueSort(profiles_path, cfg.profiles));
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
