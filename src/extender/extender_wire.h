// The wire format of upstream v1.15's scheduler extender calls.
//
// Upstream marshals its internal, untagged structs (pkg/scheduler/api), so
// requests carry Go field names ("Pod", "Nodes", "NodeNames") and replies are
// read with Go's encoding/json rules, which this file reproduces where they
// can change the outcome:
//   * a reply is framed like json.Decoder.Decode: leading blanks, then the
//     first JSON value; whatever follows it is never read;
//   * syntax errors carry Go's scanner text ("invalid character 'x' looking
//     for beginning of value", "unexpected EOF", "EOF");
//   * keys match struct fields case-insensitively (Go's folding, including
//     the Kelvin sign and long s), in document order, so a repeated key
//     decodes into the value the earlier one left (arrays reuse elements,
//     maps merge, null resets pointers and maps);
//   * a value of the wrong type is "json: cannot unmarshal ...";
//   * invalid UTF-8 and lone surrogates in strings become U+FFFD.
// Requests are written as Go would marshal the same objects: struct field
// order, omitempty, sorted map keys and HTML-safe string escapes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithm/scheduler_extender.h"
#include "api/types.h"
#include "cache/cluster_state.h"
#include "util/result.h"

namespace ksched {

// ---------------------------------------------------------------- requests

// A v1.Pod / v1.Node as Kubernetes JSON, re-encoded from the decoded struct.
// Only the fields ksched keeps are present (see api/types.h).
std::string PodToJson(const Pod& pod);
std::string NodeToJson(const Node& node);

// ExtenderArgs: {"Pod":...,"Nodes":{"metadata":{},"items":[...]},"NodeNames":null}
// or, for a node-cache-capable extender, Nodes null and NodeNames the names.
std::string EncodeExtenderArgs(const Pod& pod, const std::vector<NodeId>& nodes,
                               const ClusterState& cluster, bool node_cache_capable);

// ExtenderPreemptionArgs: {"Pod":...,"NodeNameToVictims":{node:{"Pods":[...],
// "NumPDBViolations":n}},"NodeNameToMetaVictims":null}, or for a
// node-cache-capable extender the victims by UID only
// ({"UID":...} objects) under NodeNameToMetaVictims. Nodes in name order, as
// Go writes a map.
std::string EncodePreemptionArgs(const Pod& pod, const std::vector<ExtenderNodeVictims>& victims,
                                 const ClusterState& cluster, bool node_cache_capable);

// ExtenderBindingArgs.
std::string EncodeBindingArgs(std::string_view pod_name, std::string_view pod_namespace,
                              std::string_view pod_uid, std::string_view node);

// ---------------------------------------------------------------- replies

// ExtenderFilterResult as decoded. nullopt is Go's nil pointer.
struct WireFilterResult {
  std::optional<std::vector<std::string>> nodes;       // Nodes.items[].metadata.name
  std::optional<std::vector<std::string>> node_names;  // NodeNames
  // FailedNodes in the order keys first appeared; a later duplicate replaces
  // the reason in place.
  std::vector<std::pair<std::string, std::string>> failed_nodes;
  std::string error;
};

struct WireHostPriority {
  std::string host;
  int64_t score = 0;
};

Result<WireFilterResult> DecodeFilterResult(std::string_view body);
Result<std::vector<WireHostPriority>> DecodeHostPriorityList(std::string_view body);
// ExtenderPreemptionResult's NodeNameToMetaVictims, in the order keys first
// appeared (a repeated key replaces the earlier value in place). `nil` marks
// a null *MetaVictims or *MetaPod, which upstream would dereference.
struct WireMetaPod {
  bool nil = false;
  std::string uid;
};
struct WireMetaVictims {
  std::string node;
  bool nil = false;
  std::vector<WireMetaPod> pods;
};
Result<std::vector<WireMetaVictims>> DecodePreemptionResult(std::string_view body);

// ExtenderBindingResult; returns its Error field ("" on success).
Result<std::string> DecodeBindingResult(std::string_view body);

// ---------------------------------------------------------------- Go helpers

// json.Decoder framing: the length of the first JSON value in `data`
// (leading blanks included), or Go's syntax error.
Result<size_t> GoJsonValueLength(std::string_view data);

// fmt.Errorf(text) with no arguments, as upstream turns an extender's Error
// field into an error: verbs in the text print as "%!d(MISSING)" and so on.
std::string GoSprintfNoArgs(std::string_view format);

}  // namespace ksched
