// The decoded objects of a snapshot (api/decode.h fills it), by kind, with
// what the decoder noticed about their fields. A header of its own, free of
// the JSON parser's, because nearly every layer passes an ObjectSet around
// (cache/cluster_state.h builds from one) and only the decoders parse.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "api/dra_types.h"
#include "api/field_finding.h"
#include "api/types.h"

namespace ksched {

// A field of an object that v1.15 does not know (api/unknown_fields.h): a
// typo, or a later field that changes scheduling (api/version_skew.h). Later
// fields that change nothing are not recorded.
struct FieldNote {
  std::string file;
  std::string kind;    // "Pod"
  std::string object;  // "namespace/name", or "name" for cluster-scoped kinds
  FieldFinding finding;
  int skew = -1;  // an entry of SkewIndices() for a later field; -1 for an unknown one
};

struct ObjectSet {
  std::vector<Node> nodes;
  std::vector<Pod> pods;
  std::vector<Service> services;
  std::vector<ReplicationController> replication_controllers;
  std::vector<ReplicaSet> replica_sets;
  std::vector<StatefulSet> stateful_sets;
  std::vector<DaemonSet> daemon_sets;
  std::vector<PersistentVolume> persistent_volumes;
  std::vector<PersistentVolumeClaim> persistent_volume_claims;
  std::vector<StorageClass> storage_classes;
  std::vector<PodDisruptionBudget> pod_disruption_budgets;
  std::vector<PriorityClass> priority_classes;
  std::vector<Namespace> namespaces;
  std::vector<CSINode> csi_nodes;
  std::vector<CSIDriver> csi_drivers;
  std::vector<CSIStorageCapacity> csi_storage_capacities;
  // resource.k8s.io/v1 (Dynamic Resource Allocation).
  std::vector<DeviceClass> device_classes;
  std::vector<ResourceSlice> resource_slices;
  std::vector<ResourceClaim> resource_claims;
  std::vector<ResourceClaimTemplate> resource_claim_templates;
  // Objects of kinds the scheduler does not read (Deployments, ConfigMaps, ...).
  size_t skipped = 0;
  // Found by DecodeObjects / DecodeFile / DecodeAny (the single-object
  // decoders do not look), in input order.
  std::vector<FieldNote> field_notes;
};

}  // namespace ksched
