// What an answer says it simulated: the kube-scheduler release whose
// decisions it reproduces and the feature gates changed from that release's
// defaults. Every report carries it (the table's first line, a JSON or YAML
// report's "schedulerVersion" and "featureGates", the HTML header), so an
// answer read later still says which scheduler it speaks for.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/document_writer.h"
#include "cli/scheduler_flags.h"
#include "engine/engine.h"

namespace ksched {

struct Simulated {
  std::string version;                              // "v1.35"
  std::vector<std::pair<std::string, bool>> gates;  // changed from the release's defaults
};

Simulated SimulatedBy(const Engine& engine);
// The same for the engine these flags build (commands that build theirs
// inside planning).
Simulated SimulatedBy(const SchedulerFlags& flags);

// "kube-scheduler v1.35, default feature gates" or
// "kube-scheduler v1.35, feature gates PodLevelResources=false".
std::string SimulatedText(const Simulated& s);
// The table's first line: "# " + SimulatedText.
std::string SimulatedLine(const Simulated& s);

// "schedulerVersion": "v1.35", "featureGates": {"PodLevelResources": false}
// (an empty object with the defaults).
void AddSimulated(nlohmann::ordered_json* object, const Simulated& s);
void WriteSimulatedFields(DocumentWriter* w, const Simulated& s);

}  // namespace ksched
