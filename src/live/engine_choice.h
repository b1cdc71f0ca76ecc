// Which engine `ksched run` schedules with on an API server it discovered,
// when no flag chose one: the newest whose APIs the server serves.
//   resource.k8s.io/v1 served (DRA's GA API, v1.34+)   v1.35
//   v1.18 .. v1.33 (storage.k8s.io/v1 CSINodes, CSIDrivers) v1.26
//   older                                                v1.15
// An unreadable version without resource.k8s.io/v1 is taken as current
// enough for v1.26.
#pragma once

#include <string>

#include "client/cluster_client.h"

namespace ksched::live {

struct EngineChoice {
  std::string version;  // "v1.15", "v1.26" or "v1.35"
  std::string reason;   // why, for the log: what the server serves
};

EngineChoice ChooseEngineForServer(const client::ServerApis& apis);

// A warning when the server is newer than the engine that runs (a server a
// minor release or more ahead of what the engine emulates may have APIs and
// behaviour it does not know); "" otherwise, or when the version is unknown.
std::string NewerServerWarning(const client::ServerApis& apis, const std::string& engine_version);

}  // namespace ksched::live
