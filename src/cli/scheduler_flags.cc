#include "cli/scheduler_flags.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "config/feature_gates.h"
#include "config/load.h"
#include "extender/config_extenders.h"
#include "extender/http_extender.h"
#include "framework/schedule_one.h"
#include "labels/validation.h"

namespace ksched {

CLI::Validator IntegerIn(int64_t min, int64_t max) {
  std::string range = max == std::numeric_limits<int64_t>::max()
                          ? fmt::format("{} or more", min)
                          : fmt::format("from {} to {}", min, max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        std::optional<int64_t> value = labels::ParseInt64(text);
        if (!value || *value < min || *value > max) {
          return fmt::format("must be a whole number {} (got \"{}\")", range, text);
        }
        return std::string();
      },
      range);
}

void SchedulerFlags::AddTo(CLI::App* app) {
  app->add_option("--scheduler-version", scheduler_version,
                  "Which kube-scheduler release decides: v1.35 (the default) or v1.26 (the "
                  "scheduling framework's plugins, configured by --config), or v1.15 "
                  "(predicates and priorities, configured by --policy or --provider, which "
                  "select it)")
      ->check(CLI::IsMember({"v1.15", "v1.26", "v1.35"}));
  app->add_option("--config", config_file,
                  "v1.35 and v1.26: KubeSchedulerConfiguration file "
                  "(kubescheduler.config.k8s.io/v1; v1.26 also v1beta3; JSON or YAML) as "
                  "kube-scheduler --config reads it: profiles, plugins, pluginConfig, "
                  "percentageOfNodesToScore");
  app->add_option("--validate", validate,
                  "What a field no Kubernetes release has (a typo: `affinty:`) is, in every "
                  "input file (snapshot, --pending, --pod): strict (or true) an error (exit 2), "
                  "warn a warning, ignore (or false) nothing; as kubectl's --validate")
      ->check(CLI::IsMember({"strict", "true", "warn", "ignore", "false"}))
      ->capture_default_str();
  app->add_option("--policy", policy_file,
                  "v1.15: kube-scheduler v1 Policy file (JSON or YAML); replaces --provider; "
                  "selects the v1.15 engine");
  app->add_option("--provider", provider,
                  "v1.15: algorithm provider, DefaultProvider or ClusterAutoscalerProvider; "
                  "selects the v1.15 engine")
      ->each([this](const std::string&) { provider_given = true; })
      ->capture_default_str();
  app->add_option("--percentage-of-nodes-to-score", percentage_of_nodes_to_score,
                  "Stop filtering once this share of the nodes is feasible. Default 100: every "
                  "node is checked; kube-scheduler's default is 50 in v1.15 and 0 (adaptive) "
                  "from v1.26, either of which only matters from 100 nodes up. A --config file's "
                  "percentageOfNodesToScore replaces it")
      ->check(IntegerIn(0, 100))
      ->capture_default_str();
  app->add_option(
         "--hard-pod-affinity-symmetric-weight", hard_pod_affinity_symmetric_weight,
         "v1.15: weight of existing pods' required affinity in "
         "InterPodAffinityPriority (0-100; 0 turns it off; a Policy's non-zero value "
         "replaces it). v1.26 and v1.35 read InterPodAffinity's hardPodAffinityWeight from "
         "--config")
      ->check(IntegerIn(0, 100))
      ->each([this](const std::string&) { hard_weight_given = true; })
      ->capture_default_str();
  app->add_option("--tie-break", tie_break,
                  "Among the best-scoring nodes: name (the default) picks the smallest name, so "
                  "runs repeat; round-robin picks as kube-scheduler's selectHost does (v1.15 "
                  "rotates among them, v1.26 and v1.35 pick one at random)")
      ->check(CLI::IsMember({"name", "round-robin"}))
      ->capture_default_str();
  app->add_option(
      "--feature-gates", feature_gates,
      "Feature gates of the chosen release, over its defaults: v1.35's (e.g. "
      "PodLevelResources=false), v1.26's (e.g. MinDomainsInPodTopologySpread=true) "
      "or v1.15's (e.g. TaintNodesByCondition=false,ResourceLimitsPriorityFunction=true)");
}

std::vector<std::string> ServedSchedulerNames(const std::string& flag, const Engine& engine) {
  if (!flag.empty()) return {flag};
  std::vector<std::string> names = engine.profile_names();
  if (names.empty()) names.push_back("default-scheduler");
  return names;
}

std::string_view SchedulerFlags::EngineVersion() const {
  if (!scheduler_version.empty()) return scheduler_version;
  if (config_file.empty() && (!policy_file.empty() || provider_given)) return "v1.15";
  return config::SchedulerVersionName(config::kLatestSchedulerVersion);
}

config::SchedulerVersion SchedulerFlags::FrameworkVersion() const {
  return config::ParseSchedulerVersion(EngineVersion()).value_or(config::kLatestSchedulerVersion);
}

Result<config::FeatureGates> SchedulerFlags::FrameworkGates() const {
  auto gates = config::ParseFeatureGates(feature_gates, FrameworkVersion());
  if (!gates.ok()) {
    std::string msg = "--feature-gates: " + gates.error().message;
    if (msg.find("unrecognized feature gate") != std::string::npos)
      msg += "\n  " + std::string(EngineVersion()) +
             " knows: " + config::KnownFeatureGateNames(FrameworkVersion());
    return MakeError(msg);
  }
  return gates;
}

Status SchedulerFlags::CheckConsistent() const {
  if (framework()) {
    const std::string v(EngineVersion());
    if (!policy_file.empty()) {
      return MakeError("--policy is a v1.15 Policy file; the " + v +
                       " scheduler reads a KubeSchedulerConfiguration: --config FILE (or choose "
                       "v1.15: --scheduler-version v1.15)");
    }
    if (provider_given) {
      return MakeError("--provider selects a v1.15 algorithm provider; the " + v +
                       " scheduler's plugins come from --config FILE (or choose v1.15: "
                       "--scheduler-version v1.15)");
    }
    if (hard_weight_given) {
      return MakeError("--hard-pod-affinity-symmetric-weight is a v1.15 flag; with " + v +
                       " set hardPodAffinityWeight in InterPodAffinity's pluginConfig args of "
                       "--config FILE");
    }
    return Status::Ok();
  }
  if (!config_file.empty()) {
    return MakeError(
        "--config is a KubeSchedulerConfiguration (v1.26 and later); the v1.15 scheduler reads "
        "--policy FILE (or drop --scheduler-version v1.15)");
  }
  return Status::Ok();
}

Result<FeatureGates> ParseFeatureGates(const std::string& spec) {
  FeatureGates gates;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      return MakeError(fmt::format("--feature-gates: \"{}\" must be Name=true|false", item));
    }
    std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    if (value != "true" && value != "false") {
      return MakeError(fmt::format("--feature-gates: {}: value must be true or false", name));
    }
    bool on = value == "true";
    if (name == "TaintNodesByCondition") {
      gates.taint_nodes_by_condition = on;
    } else if (name == "ResourceLimitsPriorityFunction") {
      gates.resource_limits_priority_function = on;
    } else {
      return MakeError(
          fmt::format("--feature-gates: unknown gate {} (known: TaintNodesByCondition, "
                      "ResourceLimitsPriorityFunction)",
                      name));
    }
  }
  return gates;
}

namespace {

// A Policy naming a predicate or priority that exists only under another
// setting of a v1.15 feature gate is rejected with upstream's "type not
// found" message; say which --feature-gates setting makes it valid (found by
// building again with the gate flipped).
std::string FeatureGateHint(const Policy& policy, const BuildOptions& options,
                            const std::string& message) {
  struct Gate {
    const char* name;
    bool FeatureGates::*flag;
  };
  constexpr Gate kGates[] = {
      {"TaintNodesByCondition", &FeatureGates::taint_nodes_by_condition},
      {"ResourceLimitsPriorityFunction", &FeatureGates::resource_limits_priority_function},
  };
  if (message.find("type not found for ") == std::string::npos) return "";
  for (const Gate& g : kGates) {
    BuildOptions flipped = options;
    flipped.gates.*g.flag = !(options.gates.*g.flag);
    auto again = BuildFromPolicy(policy, flipped);
    if (!again.ok() && again.error().message == message) continue;
    bool on = flipped.gates.*g.flag;
    std::string hint =
        fmt::format(" (valid with --feature-gates {}={}", g.name, on ? "true" : "false");
    if (g.flag == &FeatureGates::taint_nodes_by_condition && !on) {
      hint +=
          ": v1.15 turns TaintNodesByCondition on by default, which removes the node-condition "
          "predicates; node conditions are then taints that PodToleratesNodeTaints checks";
    }
    return hint + ")";
  }
  return "";
}

}  // namespace

Result<SchedulerConfig> SchedulerFlags::Build() const {
  auto gates = ParseFeatureGates(feature_gates);
  if (!gates.ok()) return gates.error();
  BuildOptions options;
  options.gates = *gates;
  options.percentage_of_nodes_to_score = percentage_of_nodes_to_score;
  options.hard_pod_affinity_symmetric_weight = hard_pod_affinity_symmetric_weight;
  if (policy_file.empty()) return BuildFromProvider(provider, options);
  auto policy = LoadPolicyFile(policy_file);
  if (!policy.ok()) return policy.error();
  auto config = BuildFromPolicy(*policy, options);
  if (!config.ok()) {
    Error e = config.error();
    e.message += FeatureGateHint(*policy, options, e.message);
    return e.Prepend(policy_file + ": ");
  }
  auto extenders = MakeHttpExtenders(policy->extenders);
  if (!extenders.ok()) return extenders.error().Prepend(policy_file + ": ");
  config->extenders = std::move(extenders).value();
  return config;
}

Result<config::KubeSchedulerConfiguration> SchedulerFlags::FrameworkConfig() const {
  auto gates = FrameworkGates();
  if (!gates.ok()) return gates.error();
  if (config_file.empty()) {
    config::KubeSchedulerConfiguration cfg = config::DefaultConfiguration(*gates);
    if (!profile_name.empty()) cfg.profiles.front().scheduler_name = profile_name;
    return cfg;
  }
  std::ifstream in(config_file, std::ios::binary);
  if (!in) return MakeError(config_file + ": cannot read the file: " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  return config::LoadConfiguration(text.str(), config_file, *gates);
}

Result<std::unique_ptr<Engine>> SchedulerFlags::BuildEngine(
    const config::KubeSchedulerConfiguration* loaded) const {
  if (Status s = CheckConsistent(); !s.ok()) return s.error();
  if (!framework()) {
    auto config = Build();
    if (!config.ok()) return config.error();
    return MakeV115Engine(std::move(config).value(), tie());
  }
  auto gates = FrameworkGates();
  if (!gates.ok()) return gates.error();
  std::optional<config::KubeSchedulerConfiguration> read;
  if (loaded == nullptr) {
    auto cfg = FrameworkConfig();
    if (!cfg.ok()) return cfg.error();
    read = std::move(cfg).value();
    loaded = &*read;
  }
  const config::KubeSchedulerConfiguration& cfg = *loaded;
  auto extenders = MakeConfigExtenders(cfg.extenders);
  if (!extenders.ok()) return extenders.error().Prepend(config_file + ": ");
  framework::FrameworkOptions fw_options;
  fw_options.feature_gates = *gates;
  fw_options.parallelism = cfg.parallelism;
  framework::SchedulerOptions options;
  // A --config file's value, as kube-scheduler reads it; without one, this
  // flag's (ksched's default 100: every node gets a verdict).
  options.percentage_of_nodes_to_score = config_file.empty()
                                             ? std::optional<int32_t>(percentage_of_nodes_to_score)
                                             : cfg.percentage_of_nodes_to_score;
  options.host_selection = tie() == TieBreak::kRoundRobin ? framework::HostSelection::kReservoir
                                                          : framework::HostSelection::kSmallestName;
  auto scheduler =
      framework::Scheduler::New(cfg, fw_options, options, std::move(extenders).value());
  if (!scheduler.ok()) return scheduler.error();
  return MakeFrameworkEngine(std::move(scheduler).value());
}

}  // namespace ksched
