#include "fuzz/targets.h"

#include <simdjson.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "algorithm/generic_scheduler.h"
#include "algorithm/policy.h"
#include "algorithm/provider.h"
#include "api/decode.h"
#include "api/intern.h"
#include "api/quantity.h"
#include "api/scenario.h"
#include "api/yaml_to_json.h"
#include "cache/cluster_state.h"
#include "cache/node_tree.h"
#include "cli/replay.h"
#include "cli/step_writer.h"
#include "config/feature_gates.h"
#include "config/load.h"
#include "config/validation.h"
#include "extender/extender_wire.h"
#include "fuzz/cel_target.h"
#include "labels/label_selector.h"
#include "labels/node_selector.h"
#include "labels/selector.h"

namespace ksched::fuzz {
namespace {

// A broken invariant is a bug: say which, show the input, and abort so that
// libFuzzer (or the regression test) reports it.
[[noreturn]] void Fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz invariant failed: %s\n  %.*s\n", what,
               static_cast<int>(std::min<size_t>(detail.size(), 2000)), detail.data());
  std::abort();
}

#define FUZZ_CHECK(cond, detail)      \
  do {                                \
    if (!(cond)) Fail(#cond, detail); \
  } while (0)

// Keeps the engine runs of one input short: the fuzzer is after crashes in
// code paths, not after big clusters.
constexpr size_t kMaxReplayObjects = 128;

// Re-encoding decoded pods and nodes as Kubernetes JSON and decoding that
// again must work and give the same encoding.
void CheckReencode(const ObjectSet& set) {
  for (const Pod& pod : set.pods) {
    std::string json = PodToJson(pod);
    simdjson::dom::parser parser;
    auto root = ParseJson(parser, json, "reencoded");
    FUZZ_CHECK(root.ok(), root.ok() ? json : root.error().message + "\n  " + json);
    auto again = DecodePod(*root);
    FUZZ_CHECK(again.ok(), again.ok() ? json : again.error().message + "\n  " + json);
    FUZZ_CHECK(PodToJson(*again) == json, json);
  }
  for (const Node& node : set.nodes) {
    std::string json = NodeToJson(node);
    simdjson::dom::parser parser;
    auto root = ParseJson(parser, json, "reencoded");
    FUZZ_CHECK(root.ok(), root.ok() ? json : root.error().message + "\n  " + json);
    auto again = DecodeNode(*root);
    FUZZ_CHECK(again.ok(), again.ok() ? json : again.error().message + "\n  " + json);
    FUZZ_CHECK(NodeToJson(*again) == json, json);
  }
}

size_t ObjectCount(const ObjectSet& s) {
  return s.nodes.size() + s.pods.size() + s.services.size() + s.replication_controllers.size() +
         s.replica_sets.size() + s.stateful_sets.size() + s.persistent_volumes.size() +
         s.persistent_volume_claims.size() + s.storage_classes.size();
}

// One way to run the engine. The reference has no equivalence cache and
// reports everything; the others are the speed-ups that must not change a
// decision (generic_scheduler.h).
struct EngineMode {
  bool equivalence_cache;
  bool record_details;
};
constexpr EngineMode kReference{false, true};
constexpr EngineMode kSpeedUps[] = {{true, true}, {true, false}};

// Schedules `pending` against `objects` with `config`, as RunReplay does but
// on one thread. Returns the steps in the replay format when details are
// recorded, otherwise (chosen node, error) per step.
std::vector<std::string> Replay(ObjectSet objects, std::vector<Pod> pending, SchedulerConfig config,
                                EngineMode mode) {
  std::vector<std::string> steps;
  auto cluster = ClusterState::Build(std::move(objects));
  if (!cluster.ok()) return steps;
  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config), TieBreak::kName);
  scheduler.set_parallel(false);
  scheduler.set_equivalence_cache(mode.equivalence_cache);
  for (Pod& pod : pending) {
    ScheduleResult result = scheduler.Schedule(pod, *cluster, &tree, mode.record_details);
    if (mode.record_details) {
      steps.push_back(StepToJson(pod, result, *cluster, ScoreColumnsOf(scheduler.config())));
      FUZZ_CHECK(!steps.back().empty(), pod.Key());
    } else {
      steps.push_back(result.chosen == kNoNode ? "error: " + result.error
                                               : "node: " + cluster->node(result.chosen).meta.name);
    }
    if (result.chosen != kNoNode) cluster->Assume(std::move(pod), result.chosen);
  }
  return steps;
}

// The (chosen node, error) part of a replay step.
std::string Decision(const std::string& step) {
  simdjson::dom::parser parser;
  auto root = ParseJson(parser, step, "step");
  FUZZ_CHECK(root.ok(), step);
  std::string_view node, error;
  if ((*root)["node"].get(node) == simdjson::SUCCESS && !node.empty()) {
    return "node: " + std::string(node);
  }
  if ((*root)["error"].get(error) != simdjson::SUCCESS) error = "";
  return "error: " + std::string(error);
}

// Runs the reference and every speed-up on the same input and requires the
// same steps. `make_config` gives a fresh configuration for each run.
template <typename MakeConfig>
void Differential(const ObjectSet& cluster, const std::vector<Pod>& pending,
                  const MakeConfig& make_config) {
  auto config = make_config();
  if (!config.ok()) return;
  std::vector<std::string> want = Replay(cluster, pending, std::move(config).value(), kReference);
  for (EngineMode mode : kSpeedUps) {
    auto again = make_config();
    FUZZ_CHECK(again.ok(), again.error().message);
    std::vector<std::string> got = Replay(cluster, pending, std::move(again).value(), mode);
    FUZZ_CHECK(got.size() == want.size(), "step count");
    for (size_t i = 0; i < want.size(); ++i) {
      std::string expected = mode.record_details ? want[i] : Decision(want[i]);
      FUZZ_CHECK(got[i] == expected, "step " + std::to_string(i) + " differs from the reference (" +
                                         (mode.record_details ? "cache" : "index") + "):\n  want " +
                                         expected + "\n  got  " + got[i]);
    }
  }
}

// A decoded snapshot, scheduled as `ksched schedule` does: pods without a node
// are pending, the DefaultProvider decides.
void ScheduleSnapshot(ObjectSet set) {
  if (ObjectCount(set) > kMaxReplayObjects || set.nodes.empty()) return;
  std::vector<Pod> pending;
  std::vector<Pod> placed;
  for (Pod& pod : set.pods) {
    (pod.spec.node_name.empty() ? pending : placed).push_back(std::move(pod));
  }
  set.pods = std::move(placed);
  if (pending.empty()) return;
  Differential(set, pending, [] { return BuildFromProvider("DefaultProvider", BuildOptions{}); });
}

void MatchSelector(const labels::Selector& s) {
  static const Labels kLabels({{Intern("a"), Intern("b")},
                               {Intern("app"), Intern("web")},
                               {Intern("n"), Intern("5")},
                               {Intern("kubernetes.io/hostname"), Intern("node-1")}});
  (void)s.Matches(kLabels);
  (void)s.Matches(Labels());
}

// Wraps `json` as the selectors of one pod's affinity, so the pod decoder
// reads it as a metav1.LabelSelector or a list of NodeSelectorTerms.
void SelectorJson(std::string_view json, bool node_terms) {
  std::string pod = R"({"metadata":{"name":"p"},"spec":{"affinity":)";
  if (node_terms) {
    pod += R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)";
    pod += R"({"nodeSelectorTerms":)";
    pod += json;
    pod += "}}}}}";
  } else {
    pod += R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)";
    pod += R"([{"topologyKey":"k","labelSelector":)";
    pod += json;
    pod += "}]}}}}";
  }
  simdjson::dom::parser parser;
  auto root = ParseJson(parser, pod, "selector");
  if (!root.ok()) return;
  auto decoded = DecodePod(*root);
  if (!decoded.ok()) return;
  const Affinity& a = *decoded->spec.affinity;
  if (node_terms) {
    auto compiled = labels::CompiledNodeSelectorTerms::Compile(*a.node_affinity->required);
    static const Labels kLabels({{Intern("zone"), Intern("z1")}});
    (void)compiled.Matches(kLabels, "node-1");
    for (size_t i = 0; i < compiled.size(); ++i) (void)compiled.TermError(i);
    for (const NodeSelectorTerm& t : a.node_affinity->required->terms) {
      auto s = labels::FromNodeSelectorRequirements(t.match_expressions);
      if (s.ok()) MatchSelector(*s);
      auto f = labels::FromNodeSelectorFieldRequirements(t.match_fields);
      if (f.ok()) (void)f->String();
    }
  } else {
    auto s = labels::FromLabelSelector(a.pod_affinity->required[0].label_selector);
    if (s.ok()) {
      MatchSelector(*s);
      std::string text = s->String();
      auto again = labels::Parse(text);
      FUZZ_CHECK(again.ok(), text);
    }
  }
}

}  // namespace

void JsonDecode(std::string_view data) {
  if (!LooksLikeJson(data)) return;
  ObjectSet set;
  if (!DecodeObjects(data, "fuzz.json", &set).ok()) return;
  CheckReencode(set);
  ScheduleSnapshot(std::move(set));
}

void YamlDecode(std::string_view data) {
  auto docs = YamlDocumentsToJson(data, "fuzz.yaml");
  if (docs.ok()) {
    for (const std::string& doc : *docs) {
      simdjson::dom::parser parser;
      auto root = ParseJson(parser, doc, "converted");
      FUZZ_CHECK(root.ok(), root.ok() ? doc : root.error().message + "\n  " + doc);
    }
  }
  if (LooksLikeJson(data)) return;
  ObjectSet set;
  if (!DecodeObjects(data, "fuzz.yaml", &set).ok()) return;
  CheckReencode(set);
  ScheduleSnapshot(std::move(set));
}

void QuantityParse(std::string_view data) {
  auto q = Quantity::Parse(data);
  if (!q.ok()) return;
  FUZZ_CHECK(q->Compare(*q) == 0, data);
  (void)q->Value();
  (void)q->MilliValue();
  std::string text = q->String();
  // Upstream truncates exponents to int32, so a canonical form whose exponent
  // does not fit ("1000e2147483647" is "1e2147483650") cannot read back.
  if (size_t e = text.find('e'); e != std::string::npos) {
    if (std::strtoll(text.c_str() + e + 1, nullptr, 10) > INT32_MAX) return;
    if (std::strtoll(text.c_str() + e + 1, nullptr, 10) < INT32_MIN) return;
  }
  auto again = Quantity::Parse(text);
  FUZZ_CHECK(again.ok(), std::string(data) + " -> " + text);
  FUZZ_CHECK(again->Compare(*q) == 0, std::string(data) + " -> " + text);
  // Not again->String() == text: "1812.5Ki" prints as "1856000", which
  // reads back as DecimalSI and prints as "1856k", upstream too.
  FUZZ_CHECK(again->MilliValue() == q->MilliValue(), std::string(data) + " -> " + text);
  FUZZ_CHECK(again->Sign() == q->Sign(), std::string(data) + " -> " + text);
}

void LabelSelector(std::string_view data) {
  if (data.empty()) return;
  unsigned char mode = static_cast<unsigned char>(data[0]) % 3;
  data.remove_prefix(1);
  if (mode == 0) {
    auto s = labels::Parse(data);
    if (!s.ok()) return;
    MatchSelector(*s);
    std::string text = s->String();
    auto again = labels::Parse(text);
    FUZZ_CHECK(again.ok(), text);
    FUZZ_CHECK(again->String() == text, text + " -> " + again->String());
    return;
  }
  SelectorJson(data, mode == 2);
}

void Policy(std::string_view data) {
  auto policy = ParsePolicy(data, "fuzz-policy");
  if (!policy.ok()) return;
  (void)BuildFromPolicy(*policy, BuildOptions{});
}

void Scenario(std::string_view data) {
  auto sc = ParseScenario(data, "fuzz-scenario");
  if (!sc.ok()) return;
  if (ObjectCount(sc->cluster) + sc->pending.size() > kMaxReplayObjects) return;
  if (sc->policy_json) {
    // Extenders would be called over HTTP: not from a fuzzer.
    auto policy = ParsePolicy(*sc->policy_json, "fuzz-scenario (policy)");
    if (!policy.ok() || !policy->extenders.empty()) return;
  }
  // Differential: the engine's caches and score index must reproduce the
  // reference run step for step (every field when details are recorded).
  Differential(sc->cluster, sc->pending, [&] { return ScenarioConfig(*sc, ReplayOptions{}); });
}

void ExtenderReply(std::string_view data) {
  auto len = GoJsonValueLength(data);
  if (len.ok()) FUZZ_CHECK(*len <= data.size(), data);
  (void)DecodeFilterResult(data);
  (void)DecodeHostPriorityList(data);
  (void)DecodeBindingResult(data);
  (void)GoSprintfNoArgs(data);
}

void Config(std::string_view data) {
  // The first byte picks the release and its shape gate.
  const unsigned char first = data.empty() ? 0 : static_cast<unsigned char>(data[0]);
  config::FeatureGates gates;
  if ((first & 2) != 0) {
    gates = config::DefaultFeatureGates(config::SchedulerVersion::kV135);
    gates.storage_capacity_scoring = (first & 1) != 0;
  } else {
    gates.volume_capacity_priority = (first & 1) != 0;
  }
  auto cfg = config::LoadConfiguration(data, "fuzz-config", gates);
  if (!cfg.ok()) return;
  auto errs = config::ValidateKubeSchedulerConfiguration(*cfg, gates);
  FUZZ_CHECK(errs.empty(), config::AggregateError(errs));
}

void CelSelector(std::string_view data) { CelSelectorBody(data); }

const std::vector<Target>& AllTargets() {
  static const std::vector<Target> kTargets = {
      {"json_decode", JsonDecode},       {"yaml_decode", YamlDecode}, {"quantity", QuantityParse},
      {"label_selector", LabelSelector}, {"policy", Policy},          {"scenario", Scenario},
      {"extender_reply", ExtenderReply}, {"config", Config},          {"cel", CelSelector},
  };
  return kTargets;
}

}  // namespace ksched::fuzz
