// Fields a Kubernetes v1.15 API server does not know, found as `kubectl
// apply`'s client-side validation finds them: `unknown field "affinty" in
// Pod.spec`.
//
// The decoders (api/decode.h) read only the fields the scheduler needs and
// skip every other key, as Kubernetes decoders do. A misspelt key is then
// silently lost: `affinty:` leaves a pod without affinity. This check walks
// the already-parsed JSON of each object against a table of every field
// name of the v1.15 to v1.35 APIs for the kinds ksched reads
// (api_fields.inc, written by scripts/gen-api-fields.py from v1.15's and
// v1.35's Go types and kubernetes-types 1.30), and sorts what it finds:
//   - kUnknown: not a field of v1.15 nor of any later release the table
//     knows (up to v1.35); a typo, or a field of a release after v1.35, and
//     an error unless --validate says otherwise (cli/input.h);
//   - kNewer: a field added after v1.15 (topologySpreadConstraints,
//     overhead, ...). It is no typo, and most such fields (status.podIPs,
//     spec.os, managedFields) do not change what a scheduler does; the ones
//     that do are named by api/version_skew.h.
// Maps (labels, annotations, resources) and opaque values are not entered.
//
// Cost: one pass over the keys of the parsed DOM with a binary search per
// key; nothing is allocated unless something is found.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/field_finding.h"

namespace ksched {

// A finding with the field's value, valid while the parsed document is
// (SkewIndex reads it); copy the FieldFinding part to keep it longer.
struct FoundField : FieldFinding {
  simdjson::dom::element value;
};

// True when the table covers `kind` (Pod, Node, Service, ReplicationController,
// ReplicaSet, StatefulSet, PersistentVolume, PersistentVolumeClaim,
// StorageClass, PodDisruptionBudget, PriorityClass, Namespace, CSINode,
// CSIDriver, CSIStorageCapacity, and the workloads of `capacity --pod`: Deployment, Job).
bool HasFieldTable(std::string_view kind);

// Which newer fields to report (true: report); nullptr reports all of them.
// Most newer fields matter to nobody, and skipping them early keeps a
// current cluster's snapshot (managedFields on every object) from costing
// an allocation per field.
using NewerFieldFilter = bool (*)(std::string_view type, std::string_view field);

// Appends to *out what `object` (a whole object of kind `kind`, including
// apiVersion, kind and metadata) holds that is not a v1.15 field. Values of
// the wrong JSON type are left to the decoder. Does nothing for a kind
// without a table.
void FindUnknownFields(simdjson::dom::element object, std::string_view kind,
                       std::vector<FoundField>* out, NewerFieldFilter keep_newer = nullptr);

}  // namespace ksched
