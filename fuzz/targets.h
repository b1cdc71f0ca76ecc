// Fuzz target bodies, shared by the libFuzzer executables (fuzz/*_fuzz.cc,
// built with -DKSCHED_FUZZ=ON and clang) and by the regression test
// (tests/fuzz_regression_test.cc), which replays the committed corpus and
// every input that once crashed through the same functions in the regular
// and the ASan+UBSan builds.
//
// Each function takes arbitrary bytes. Bad input must come back as an error
// value; a crash, a hang, a sanitizer report or a failed invariant (the
// function aborts with a message on stderr) is a bug in ksched.
#pragma once

#include <string_view>
#include <vector>

namespace ksched::fuzz {

// DecodeObjects on JSON text (inputs that do not start with '{' or '[' are
// skipped). Decoded pods and nodes must survive re-encoding and decoding; a
// small snapshot's pods without a node are then scheduled by the
// DefaultProvider, with and without the engine's caches (as Scenario below).
void JsonDecode(std::string_view data);
// YAML to JSON (every document produced must be valid JSON), then
// DecodeObjects on the YAML text and the checks of JsonDecode.
void YamlDecode(std::string_view data);
// Quantity::Parse; a parsed quantity must compare equal to itself and
// re-parse from its canonical String() to the same value.
void QuantityParse(std::string_view data);
// The first byte picks the mode: the string selector syntax (labels::Parse,
// whose String() must re-parse to the same text), or a metav1.LabelSelector /
// NodeSelectorTerm list given as JSON inside a pod, compiled and matched.
void LabelSelector(std::string_view data);
// ParsePolicy on JSON or YAML text; a parsed Policy must build a scheduler
// configuration or give an error.
void Policy(std::string_view data);
// ParseScenario; small scenarios without extenders are also replayed through
// the whole engine and printed in the step format, once as the reference (no
// equivalence cache) and again with the cache and with the decision-only
// score index, which must reproduce the reference step for step.
void Scenario(std::string_view data);
// The replies an HTTP extender sends: filter, prioritize and bind results,
// Go's JSON framing and the printf-verb rewriting of its error text.
void ExtenderReply(std::string_view data);
// config::LoadConfiguration (KubeSchedulerConfiguration, JSON or YAML); the
// first byte picks the release (bit 1: v1.35) and its low bit the shape gate
// (VolumeCapacityPriority, v1.35's StorageCapacityScoring). A loaded
// configuration must pass its own validation again.
void Config(std::string_view data);
// cel::CompileDeviceSelector on the input as a DRA CEL selector; a compiled
// selector is matched twice against a fixed device and must give the same
// answer and cost both times, within the cost limit (fuzz/cel_target.h).
void CelSelector(std::string_view data);

struct Target {
  const char* name;  // as in fuzz/<name>_fuzz.cc and tests/fuzz/*/<name>/
  void (*run)(std::string_view data);
};
const std::vector<Target>& AllTargets();

}  // namespace ksched::fuzz
