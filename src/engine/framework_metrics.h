// `ksched run`'s hooks into the v1.26 engine's framework for its metrics,
// kept out of the Engine interface that every front end includes. Both are
// no-ops for the v1.15 engine, which has no framework.
#pragma once

#include <optional>
#include <string>

#include "engine/engine.h"
#include "framework/cluster_event.h"

namespace ksched {

namespace framework {
class MetricsRecorder;
class AsyncPreemptions;
}  // namespace framework

// Where the framework times its extension points and, on sampled cycles,
// its plugins. nullptr (the default) times nothing.
void SetFrameworkMetricsRecorder(Engine* engine, framework::MetricsRecorder* recorder);

// The plugin whose rejection the engine's last refusing PreEnqueue()
// reported (scheduler_unschedulable_pods' `plugin`); "" for v1.15.
std::string LastPreEnqueuePlugin(const Engine* engine);

// v1.35: each profile's QueueingHints, for its queue; nullopt for the
// engines before it.
std::optional<framework::QueueingHintMaps> EngineQueueingHints(const Engine* engine);
// v1.35: the preemptions `ksched run` runs asynchronously, which
// DefaultPreemption's PreEnqueue asks about (nullptr: none).
void SetEngineAsyncPreemptions(Engine* engine, const framework::AsyncPreemptions* preemptions);

}  // namespace ksched
