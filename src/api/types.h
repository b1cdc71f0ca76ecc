// Kubernetes objects as the v1.15 scheduler reads them.
//
// Plain structs, filled by api/decode.h. Only the fields that some predicate,
// priority or front end reads are kept. Strings that are compared often (label
// keys and values, namespaces, resource names, images) are interned (StrId);
// quantities are parsed once, at decode time, into the integers upstream uses
// (milli-cores for cpu, plain units for everything else).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/intern.h"
#include "api/quantity.h"

namespace ksched {

// A label (or nodeSelector) map: pairs sorted by key id, keys unique.
// Lookups are binary searches over a handful of integers.
class Labels {
 public:
  using Pair = std::pair<StrId, StrId>;

  Labels() = default;
  // Takes unsorted pairs; later duplicates of a key win (as JSON objects do).
  explicit Labels(std::vector<Pair> pairs);

  // Value id for `key`, or nullopt when the key is absent.
  std::optional<StrId> Get(StrId key) const {
    auto it = std::lower_bound(pairs_.begin(), pairs_.end(), key,
                               [](const Pair& p, StrId k) { return p.first < k; });
    if (it == pairs_.end() || it->first != key) return std::nullopt;
    return it->second;
  }
  bool Has(StrId key) const { return Get(key).has_value(); }
  void Set(StrId key, StrId value);

  // True when every pair of `subset` is also in *this.
  bool ContainsAll(const Labels& subset) const;

  bool empty() const { return pairs_.empty(); }
  size_t size() const { return pairs_.size(); }
  const std::vector<Pair>& pairs() const { return pairs_; }
  auto begin() const { return pairs_.begin(); }
  auto end() const { return pairs_.end(); }
  bool operator==(const Labels& o) const { return pairs_ == o.pairs_; }

 private:
  std::vector<Pair> pairs_;
};

// One entry of a requests/limits/allocatable map, parsed once.
struct ResourceQuantity {
  StrId name = kEmptyStr;  // e.g. "cpu", "memory", "example.com/gpu"
  // How it was written (1Gi, 1G, 1e9), for messages that print the quantity
  // as the API server does (Quantity.String()). Sits in the padding after
  // `name`, so it costs no memory.
  QuantityFormat format = QuantityFormat::kDecimalSI;
  int64_t value = 0;  // Quantity.Value(): rounded up to whole units
  int64_t milli = 0;  // Quantity.MilliValue(): rounded up to milli-units

  // Quantity.String() of the value (milli-units, so sub-milli digits are
  // lost; the value when milli-units overflow).
  std::string String() const;

  // Equal values are equal however they were written.
  friend bool operator==(const ResourceQuantity& a, const ResourceQuantity& b) {
    return a.name == b.name && a.value == b.value && a.milli == b.milli;
  }
};
using ResourceList = std::vector<ResourceQuantity>;

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;

  bool operator==(const OwnerReference&) const = default;
};

struct ObjectMeta {
  std::string name;
  StrId ns = kEmptyStr;  // namespace; "" for cluster-scoped objects
  std::string uid;
  Labels labels;
  std::vector<std::pair<std::string, std::string>> annotations;
  std::vector<OwnerReference> owner_references;
  bool has_deletion_timestamp = false;
  std::string creation_timestamp;  // RFC 3339 as given, "" when absent
  // metadata.resourceVersion as given ("" when absent); v1.26's volume
  // binder parses it when it assumes a PV or PVC.
  std::string resource_version;

  const std::string* Annotation(std::string_view key) const {
    for (const auto& [k, v] : annotations)
      if (k == key) return &v;
    return nullptr;
  }

  bool operator==(const ObjectMeta&) const = default;
};

// ---------------------------------------------------------------- selectors

// metav1.LabelSelectorRequirement / v1.NodeSelectorRequirement, unparsed:
// validation happens when labels/ compiles them, because upstream reports
// invalid requirements at match time, not at decode time.
struct SelectorRequirement {
  std::string key;
  std::string op;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;

  bool operator==(const SelectorRequirement&) const = default;
};

// metav1.LabelSelector. A missing selector is std::nullopt at the use site.
struct LabelSelector {
  std::vector<std::pair<std::string, std::string>> match_labels;
  std::vector<SelectorRequirement> match_expressions;

  bool operator==(const LabelSelector&) const = default;
};

struct NodeSelectorTerm {
  std::vector<SelectorRequirement> match_expressions;
  std::vector<SelectorRequirement> match_fields;

  bool operator==(const NodeSelectorTerm&) const = default;
};

struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;  // nodeSelectorTerms

  bool operator==(const NodeSelector&) const = default;
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;

  bool operator==(const PreferredSchedulingTerm&) const = default;
};

struct NodeAffinity {
  std::optional<NodeSelector> required;  // requiredDuringSchedulingIgnoredDuringExecution
  std::vector<PreferredSchedulingTerm> preferred;
  // preferredDuringSchedulingIgnoredDuringExecution was given and not null
  // (an empty list included): v1.35's NodeAffinity scores a pod with an
  // empty list and skips one without any. Code building a NodeAffinity may
  // leave it false when `preferred` is not empty.
  bool has_preferred = false;

  bool operator==(const NodeAffinity&) const = default;
};

struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  std::string topology_key;
  // namespaceSelector (v1.21+); nullopt when absent. An empty selector
  // selects every namespace.
  std::optional<LabelSelector> namespace_selector;
  // matchLabelKeys / mismatchLabelKeys (v1.29+). The API server merges them
  // into label_selector when it creates the pod (MatchLabelKeysInPodAffinity,
  // GA in 1.33); the scheduler reads only the merged selector.
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;

  bool operator==(const PodAffinityTerm&) const = default;
};

struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm term;

  bool operator==(const WeightedPodAffinityTerm&) const = default;
};

struct PodAffinity {  // used for both podAffinity and podAntiAffinity
  std::vector<PodAffinityTerm> required;
  std::vector<WeightedPodAffinityTerm> preferred;

  bool operator==(const PodAffinity&) const = default;
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  std::optional<PodAffinity> pod_affinity;
  std::optional<PodAffinity> pod_anti_affinity;

  bool operator==(const Affinity&) const = default;
};

// ---------------------------------------------------------------- taints

enum class TaintEffect : uint8_t { kNone, kNoSchedule, kPreferNoSchedule, kNoExecute, kOther };

struct Taint {
  StrId key = kEmptyStr;
  StrId value = kEmptyStr;
  TaintEffect effect = TaintEffect::kNone;
  std::string effect_str;  // as written, for messages
};

struct Toleration {
  StrId key = kEmptyStr;
  std::string op;  // "", "Equal", "Exists"
  StrId value = kEmptyStr;
  TaintEffect effect = TaintEffect::kNone;  // kNone: matches every effect
  std::optional<int64_t> toleration_seconds;
  std::string effect_str;  // as written, for validation messages

  bool operator==(const Toleration&) const = default;
};

// ---------------------------------------------------------------- pods

struct ContainerPort {
  int32_t container_port = 0;
  int32_t host_port = 0;
  std::string host_ip;   // "" means all addresses
  std::string protocol;  // "TCP" when absent

  bool operator==(const ContainerPort&) const = default;
};

// resizePolicy[]: how a container takes an in-place resize of a resource.
struct ContainerResizePolicy {
  std::string resource_name;
  std::string restart_policy;

  bool operator==(const ContainerResizePolicy&) const = default;
};

struct Container {
  std::string name;
  std::string image;
  ResourceList requests;
  ResourceList limits;
  std::vector<ContainerPort> ports;
  // restartPolicy as written ("" when absent). On an init container,
  // "Always" makes it a native sidecar (v1.28+): it keeps running beside the
  // regular containers, so v1.35 adds its requests to theirs (KEP-753).
  std::string restart_policy;
  // resizePolicy (v1.27+, in-place resize): read only by validation.
  std::vector<ContainerResizePolicy> resize_policy;

  bool IsRestartableInit() const { return restart_policy == "Always"; }

  bool operator==(const Container&) const = default;
};

enum class VolumeKind : uint8_t {
  kOther,
  kGCEPersistentDisk,
  kAWSElasticBlockStore,
  kAzureDisk,
  kCinder,
  kRBD,
  kISCSI,
  kPersistentVolumeClaim,
  kCSI,
  kEphemeral,  // generic ephemeral volume: a PVC named "<pod>-<volume>"
};

struct Volume {
  std::string name;
  VolumeKind kind = VolumeKind::kOther;
  // The source's identifying fields; which ones are set depends on kind.
  std::string id;  // gce pdName, aws volumeID, azure diskName, cinder volumeID, pvc claimName,
                   // csi driver
  bool read_only = false;
  std::vector<std::string> rbd_monitors;  // rbd
  std::string rbd_pool;                   // rbd (default "rbd")
  std::string rbd_image;                  // rbd
  std::string iscsi_iqn;                  // iscsi
  std::string iscsi_target_portal;        // iscsi
  int32_t iscsi_lun = 0;                  // iscsi
  std::string azure_disk_uri;             // azureDisk diskURI (CSI migration)
  std::optional<std::string> azure_kind;  // azureDisk kind; nullopt: the API default

  bool operator==(const Volume&) const = default;
};

// v1.TopologySpreadConstraint (v1.19+; minDomains v1.24+, policies and
// matchLabelKeys v1.25+).
struct TopologySpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  std::string when_unsatisfiable;  // DoNotSchedule or ScheduleAnyway
  std::optional<LabelSelector> label_selector;
  std::optional<int32_t> min_domains;
  std::string node_affinity_policy;  // "" (nil), "Honor" or "Ignore"
  std::string node_taints_policy;    // "" (nil), "Honor" or "Ignore"
  std::vector<std::string> match_label_keys;

  bool operator==(const TopologySpreadConstraint&) const = default;
};

// spec.resources (pod-level resources, v1.32+; PodLevelResources, beta in
// v1.34): requests and limits for the pod as a whole.
struct PodResources {
  ResourceList requests;
  ResourceList limits;

  bool operator==(const PodResources&) const = default;
};

// spec.resourceClaims[] (dynamic resource allocation): a claim by name, or a
// template the resourceclaim controller makes a claim from.
struct PodResourceClaim {
  std::string name;
  std::string resource_claim_name;           // "" when absent
  std::string resource_claim_template_name;  // "" when absent

  bool operator==(const PodResourceClaim&) const = default;
};

struct PodSpec {
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  std::string node_name;
  bool host_network = false;  // spec.hostNetwork (api/defaults.h defaults host ports from it)
  Labels node_selector;
  bool has_node_selector = false;
  std::optional<Affinity> affinity;
  std::vector<Toleration> tolerations;
  std::vector<Volume> volumes;
  std::optional<int32_t> priority;
  std::string priority_class_name;  // resolved into `priority` by ApplyPriorityClasses()
  // "PreemptLowerPriority" or "Never"; v1.15 reads it only behind the
  // NonPreemptingPriority gate, which is off, so the scheduler ignores it.
  std::string preemption_policy;
  std::string scheduler_name;
  std::string restart_policy;  // spec.restartPolicy as written ("" when absent)
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  ResourceList overhead;                      // spec.overhead (RuntimeClass)
  std::vector<std::string> scheduling_gates;  // spec.schedulingGates[].name (v1.26)
  std::optional<PodResources> resources;      // spec.resources (pod-level)
  std::vector<PodResourceClaim> resource_claims;

  bool operator==(const PodSpec&) const = default;
};

// status.containerStatuses[] / initContainerStatuses[]: what the kubelet
// allocated and runs with, which v1.35 counts for a bound pod being resized
// in place (InPlacePodVerticalScaling).
struct ContainerStatus {
  std::string name;
  ResourceList allocated_resources;       // allocatedResources
  std::optional<PodResources> resources;  // resources (requests, limits); nullopt: absent

  bool operator==(const ContainerStatus&) const = default;
};

struct PodCondition {
  std::string type;
  std::string status;
  std::string reason;

  bool operator==(const PodCondition&) const = default;
};

// status.resourceClaimStatuses[]: the claim generated for a template.
struct PodResourceClaimStatus {
  std::string name;
  std::string resource_claim_name;  // "" when absent (no claim needed)

  bool operator==(const PodResourceClaimStatus&) const = default;
};

struct Pod {
  ObjectMeta meta;
  PodSpec spec;
  std::string phase;  // status.phase
  std::vector<ContainerStatus> container_statuses;
  std::vector<ContainerStatus> init_container_statuses;
  std::vector<PodCondition> conditions;
  std::vector<PodResourceClaimStatus> resource_claim_statuses;
  // status.startTime in nanoseconds since the Unix epoch; nullopt when absent
  // (preemption then orders the pod as starting after every pod that has one).
  std::optional<int64_t> start_time;
  std::string nominated_node_name;  // status.nominatedNodeName

  // "namespace/name", the key the cache and the output use.
  std::string Key() const;
};

// ---------------------------------------------------------------- nodes

struct NodeCondition {
  std::string type;
  std::string status;
};

struct ContainerImage {
  std::vector<std::string> names;
  int64_t size_bytes = 0;
};

struct Node {
  ObjectMeta meta;
  bool unschedulable = false;
  std::vector<Taint> taints;
  ResourceList capacity;
  ResourceList allocatable;
  std::vector<NodeCondition> conditions;
  std::vector<ContainerImage> images;
};

// ---------------------------------------------------------------- workloads

struct Service {
  ObjectMeta meta;
  Labels selector;            // spec.selector
  bool has_selector = false;  // nil selector selects nothing; {} selects everything
};

struct ReplicationController {
  ObjectMeta meta;
  Labels selector;  // spec.selector; nil or empty selects nothing
  bool has_selector = false;
  Labels template_labels;  // spec.template.metadata.labels, the selector's default
};

struct ReplicaSet {  // also StatefulSet
  ObjectMeta meta;
  std::optional<LabelSelector> selector;
  // PodTemplateDigest of spec.template (api/pod_template_digest.h) for a
  // ReplicaSet a Deployment controls, else 0: `capacity` finds a
  // Deployment's current ReplicaSet by it.
  uint64_t template_digest = 0;
};
using StatefulSet = ReplicaSet;

// apps/v1 DaemonSet: its selector and the pod template each node's pod is
// made from (`--add-node` gives a new node the pods whose template fits it).
struct DaemonSet {
  ObjectMeta meta;
  std::optional<LabelSelector> selector;
  // spec.template: metadata.labels and .annotations, and the spec.
  Labels template_labels;
  std::vector<std::pair<std::string, std::string>> template_annotations;
  PodSpec template_spec;
  bool has_template_spec = false;
};

// ---------------------------------------------------------------- policy

// An intstr.IntOrString as written: an integer or a string such as "50%".
struct IntOrString {
  bool is_string = false;
  int32_t int_value = 0;
  std::string str_value;
};

// policy/v1beta1 or policy/v1 PodDisruptionBudget. The scheduler reads only
// the selector and status.disruptionsAllowed (preemption prefers victims
// whose budget still allows a disruption); drain planning also reports the
// spec.
struct PodDisruptionBudget {
  ObjectMeta meta;
  // A nil selector selects nothing. By the API an empty one ({}) selects
  // nothing in policy/v1beta1 and every pod of the namespace in policy/v1;
  // the schedulers' preemption (v1.15 and v1.26 alike) skips both nil and
  // empty selectors whatever the version.
  std::optional<LabelSelector> selector;
  // apiVersion policy/v1 (v1.21+); a framework scenario reads every budget
  // as policy/v1, as its reference harness does.
  bool policy_v1 = false;
  std::optional<IntOrString> min_available;
  std::optional<IntOrString> max_unavailable;
  int32_t disruptions_allowed = 0;  // status.disruptionsAllowed
};

// scheduling.k8s.io PriorityClass (v1, v1beta1 and v1alpha1 read alike).
struct PriorityClass {
  ObjectMeta meta;
  int32_t value = 0;
  bool global_default = false;
  std::string preemption_policy;
};

// v1.Namespace: only its labels matter (namespaceSelector).
struct Namespace {
  ObjectMeta meta;
};

// ---------------------------------------------------------------- storage

// storage/v1 CSINode: the drivers a node's kubelet registered.
struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::optional<int32_t> allocatable_count;  // allocatable.count
  std::vector<std::string> topology_keys;
};
struct CSINode {
  ObjectMeta meta;  // named after its node
  std::vector<CSINodeDriver> drivers;
  // The storage.alpha.kubernetes.io/migrated-plugins annotation, split on ",".
  std::vector<std::string> migrated_plugins;
};

// storage/v1 CSIDriver: whether the driver's volumes are attached
// (attachRequired) and whether the scheduler checks storage capacity.
struct CSIDriver {
  ObjectMeta meta;
  bool attach_required = true;
  bool storage_capacity = false;
};

// storage/v1 CSIStorageCapacity: the room a CSI driver reports for new
// volumes of one StorageClass on the nodes its nodeTopology selects (read by
// VolumeBinding for drivers with storageCapacity: true).
struct CSIStorageCapacity {
  ObjectMeta meta;
  std::string storage_class_name;
  std::optional<LabelSelector> node_topology;  // absent: no node has access
  std::optional<Quantity> capacity;
  std::optional<Quantity> maximum_volume_size;
};

struct PersistentVolume {
  ObjectMeta meta;
  VolumeKind kind = VolumeKind::kOther;
  std::string volume_id;                  // pdName / volumeID / diskName / csi volumeHandle
  std::string csi_driver;                 // for kCSI
  std::string azure_disk_uri;             // azureDisk diskURI (CSI migration)
  std::optional<std::string> azure_kind;  // azureDisk kind; nullopt: the API default
  std::string volume_mode;                // spec.volumeMode; "" means Filesystem
  std::optional<Quantity> capacity;       // spec.capacity.storage
  std::vector<std::string> access_modes;
  std::string storage_class_name;
  std::optional<NodeSelector> node_affinity;                     // spec.nodeAffinity.required
  std::optional<std::pair<std::string, std::string>> claim_ref;  // (namespace, name)
  std::string claim_ref_uid;
  std::string phase;
  std::string volume_attributes_class_name;  // spec.volumeAttributesClassName; "" when absent
};

struct PersistentVolumeClaim {
  ObjectMeta meta;
  std::string volume_name;
  std::optional<std::string> storage_class_name;  // nullopt: field absent
  std::vector<std::string> access_modes;
  std::optional<Quantity> request;  // spec.resources.requests.storage
  std::optional<LabelSelector> selector;
  std::string phase;
  std::string volume_mode;                   // spec.volumeMode; "" means Filesystem
  std::string volume_attributes_class_name;  // spec.volumeAttributesClassName; "" when absent
};

// v1.TopologySelectorLabelRequirement (StorageClass.allowedTopologies).
struct TopologySelectorRequirement {
  std::string key;
  std::vector<std::string> values;
};

struct StorageClass {
  ObjectMeta meta;
  std::string provisioner;
  std::string volume_binding_mode;  // "Immediate" when absent
  // allowedTopologies: terms ORed, each a list of requirements ANDed.
  std::vector<std::vector<TopologySelectorRequirement>> allowed_topologies;
};

}  // namespace ksched
