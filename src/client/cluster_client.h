// The one client ksched uses to talk to a Kubernetes API server.
//
// ClusterClient is the smallest layer over libcurl that a live scheduler needs:
// list+watch of the resources the scheduler caches (a reflector per resource),
// and the few writes a scheduler makes (bind, delete a preemption victim,
// status patches, core/v1 Events, a coordination.k8s.io/v1 Lease). Nothing
// above this layer knows HTTP.
//
// What a watch guarantees (StartWatches):
// - per resource, events reach the sink in the order the server produced
//   them, from one thread per resource (sinks of different resources run
//   concurrently; the sink must be thread-safe and must not block for long);
// - first every object of the initial LIST (kAdded), then kSynced; then the
//   watch's kAdded / kModified / kDeleted;
// - a dropped connection or a watch timeout resumes the watch from the last
//   resourceVersion seen (with backoff while the server is unreachable): no
//   event is lost and none is repeated;
// - when the server answers 410 Gone (the resourceVersion is too old), the
//   resource is listed again: every listed object is delivered again (kAdded
//   if it is new to the client, kModified otherwise, even when unchanged), a
//   kDeleted carrying the last known object is sent for every object that
//   vanished (an object recreated under the same name with a new uid gets
//   kDeleted for the old one, then kAdded), then kSynced. A consumer that
//   applies the events as they come converges to the server's state with no
//   further bookkeeping.
// - objects are JSON text as the server sent them, with "kind" and
//   "apiVersion" filled in (list items lack them).
//
// Every call is thread-safe. Errors are Status/Result values whose message
// names the verb, the resource and the object; a 403 names the RBAC rule the
// identity lacks; the HTTP status is in Error::http_code (IsConflict etc.).
// Tokens and keys never appear in any message.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/client_config.h"
#include "util/result.h"

namespace ksched::client {

// Resources ksched watches, in the order they are listed at startup.
enum class Resource {
  kNode,
  kPod,
  kService,
  kReplicationController,
  kReplicaSet,
  kStatefulSet,
  kPersistentVolume,
  kPersistentVolumeClaim,
  kStorageClass,
  kPodDisruptionBudget,
  kPriorityClass,
  // Read by the v1.26 framework only (namespaceSelector, CSI volume limits).
  kNamespace,
  kCSINode,
  kCSIDriver,
  kCSIStorageCapacity,  // VolumeBinding's capacity check
};
inline constexpr Resource kAllResources[] = {Resource::kNode,
                                             Resource::kPod,
                                             Resource::kService,
                                             Resource::kReplicationController,
                                             Resource::kReplicaSet,
                                             Resource::kStatefulSet,
                                             Resource::kPersistentVolume,
                                             Resource::kPersistentVolumeClaim,
                                             Resource::kStorageClass,
                                             Resource::kPodDisruptionBudget,
                                             Resource::kPriorityClass,
                                             Resource::kNamespace,
                                             Resource::kCSINode,
                                             Resource::kCSIDriver,
                                             Resource::kCSIStorageCapacity};
// What v1.15's scheduler watches: every resource above but PriorityClass
// (its RBAC role cannot read them; pods carry their resolved spec.priority)
// and the framework's.
inline constexpr Resource kV115Resources[] = {Resource::kNode,
                                              Resource::kPod,
                                              Resource::kService,
                                              Resource::kReplicationController,
                                              Resource::kReplicaSet,
                                              Resource::kStatefulSet,
                                              Resource::kPersistentVolume,
                                              Resource::kPersistentVolumeClaim,
                                              Resource::kStorageClass,
                                              Resource::kPodDisruptionBudget};
// What v1.26's scheduler watches besides those: Namespaces (namespaceSelector
// of pod affinity), CSINodes and CSIDrivers (NodeVolumeLimits), and
// CSIStorageCapacities (VolumeBinding).
inline constexpr Resource kFrameworkResources[] = {
    Resource::kNamespace, Resource::kCSINode, Resource::kCSIDriver, Resource::kCSIStorageCapacity};

// How a resource is addressed: "pods", "v1" / "", "Pod", namespaced.
struct ResourceInfo {
  std::string_view plural;   // "pods", "replicasets"
  std::string_view group;    // "" for core, "apps", "policy", ...
  std::string_view version;  // "v1", "v1beta1"
  std::string_view kind;     // "Pod"
  bool namespaced;
};
const ResourceInfo& Info(Resource resource);
// "pods", "replicasets.apps": the name kubectl and RBAC messages use.
std::string ResourceName(Resource resource);

enum class WatchEventType {
  kAdded,
  kModified,
  kDeleted,
  kSynced  // kSynced: the initial LIST (or a re-LIST after 410)
           // of this resource has been fully delivered; after a
           // re-LIST the consumer must drop objects of this
           // resource that were not re-delivered (client sends
           // kDeleted for them itself: it does, see above).
};
std::string_view WatchEventTypeName(WatchEventType type);  // "ADDED", ..., "SYNCED"

struct WatchEvent {
  WatchEventType type;
  Resource resource;
  std::string object_json;  // one object as the API server sent it (kind/apiVersion filled in);
                            // empty for kSynced
  std::string resource_version;  // the object's (for kSynced: the list's)
};

// A core/v1 Event, as upstream's event recorder writes it.
struct EventRecord {
  struct InvolvedObject {
    std::string kind = "Pod";
    std::string api_version = "v1";
    std::string ns;
    std::string name;
    std::string uid;
    std::string resource_version;  // optional
  } involved_object;
  std::string reason;  // "Scheduled", "FailedScheduling", "Preempted"
  std::string message;
  std::string type = "Normal";   // "Normal" or "Warning"
  std::string source_component;  // the scheduler name, e.g. "default-scheduler"
  std::string source_host;       // optional (events.k8s.io/v1: reportingInstance is
                                 // "COMPONENT-HOST", this host name when empty)
  // events.k8s.io/v1's action; empty: from the reason as upstream's scheduler
  // writes it (Scheduled: Binding, FailedScheduling: Scheduling, Preempted: Preempting).
  std::string action;
  // When it happened (eventTime, or firstTimestamp and lastTimestamp); the
  // epoch means when it is written.
  std::chrono::system_clock::time_point time{};
  // events.k8s.io/v1 only: the object's name (empty: NAME.HEXNANOS made at
  // creation) and its series (count 0: none), as upstream's broadcaster
  // aggregates a recurring event.
  std::string object_name;
  int32_t series_count = 0;
  std::chrono::system_clock::time_point series_last_observed{};
};

// What the API server serves, from discovery (GET /version, /api, /apis).
struct ServerApis {
  std::string git_version;  // "v1.26.0"; empty when /version could not be read
  // Group ("" for core) -> the versions the server serves.
  std::map<std::string, std::vector<std::string>, std::less<>> groups;
  bool Serves(std::string_view group, std::string_view version) const;
  // "policy/v1, policy/v1beta1" style list of a group's versions (for messages).
  std::string VersionsOf(std::string_view group) const;
};

// The versions a ClusterClient uses, picked from a ServerApis by
// ClusterClient::Discover (v1.15's when Discover is not called).
struct ApiChoice {
  std::string_view pdb_version = "v1beta1";  // policy/v1 where served, else v1beta1
  // storage.k8s.io/v1 CSIStorageCapacities where served (v1.24+), else v1beta1 (v1.21-).
  std::string_view csi_storage_capacity_version = "v1";
  bool csi_storage_capacities = true;  // false before v1.21: not watched
  bool events_v1 = false;              // events.k8s.io/v1 where served, else core/v1
  bool leases = true;                  // coordination.k8s.io/v1 served
  // Watched resources the server does not serve in any version ksched reads,
  // each with a message naming it (e.g. "poddisruptionbudgets.policy: the API
  // server serves neither policy/v1 nor policy/v1beta1").
  std::vector<std::pair<Resource, std::string>> missing;
};
// The minor version of a gitVersion ("v1.26.0" -> 26), or -1.
int ServerMinorVersion(std::string_view git_version);
// Picks the versions for `apis` (pure; Discover calls it).
ApiChoice ChooseApis(const ServerApis& apis);

// A coordination.k8s.io/v1 Lease's spec plus what optimistic locking needs.
struct LeaseRecord {
  std::string ns;
  std::string name;
  std::string holder_identity;
  int64_t lease_duration_seconds = 0;
  std::string acquire_time;  // RFC 3339 with microseconds ("2006-01-02T15:04:05.000000Z")
  std::string renew_time;    // same
  int64_t lease_transitions = 0;
  std::string resource_version;  // read by GetLease, required by UpdateLease
};

// Now in the formats the API uses: metav1.Time ("2006-01-02T15:04:05Z") and
// metav1.MicroTime ("2006-01-02T15:04:05.000000Z").
std::string NowRfc3339();
std::string NowRfc3339Micro();

// Error helpers (an Error's http_code is 0 for transport errors).
inline bool IsConflict(const Error& e) { return e.http_code == 409; }
inline bool IsNotFound(const Error& e) { return e.http_code == 404; }
inline bool IsGone(const Error& e) { return e.http_code == 410; }
inline bool IsForbidden(const Error& e) { return e.http_code == 403; }
inline bool IsUnauthorized(const Error& e) { return e.http_code == 401; }
inline bool IsConflict(const Status& s) { return !s.ok() && IsConflict(s.error()); }
inline bool IsNotFound(const Status& s) { return !s.ok() && IsNotFound(s.error()); }
inline bool IsGone(const Status& s) { return !s.ok() && IsGone(s.error()); }
inline bool IsForbidden(const Status& s) { return !s.ok() && IsForbidden(s.error()); }

// Tuning of the watches (defaults are upstream's reflector's where it has one).
struct WatchOptions {
  // Default: v1.15's (kV115Resources); `run` adds kFrameworkResources for
  // the v1.26 engine. kPriorityClass only when the identity may list it.
  std::vector<Resource> resources{std::begin(kV115Resources), std::end(kV115Resources)};
  // Field selector of the pod watch; upstream's scheduler leaves out finished pods.
  std::string pod_field_selector = "status.phase!=Succeeded,status.phase!=Failed";
  int64_t list_page_size = 500;  // LIST in pages (limit/continue); 0 = one request
  // timeoutSeconds of each WATCH request: a random value in [min, 2*min), as client-go.
  int64_t min_watch_timeout_seconds = 300;
  // Reconnect backoff while the server is unreachable: initial, doubling up to max.
  int64_t backoff_initial_ms = 200;
  int64_t backoff_max_ms = 5000;
  // Called (from the watch thread) for every failed LIST or WATCH and every
  // dropped connection; the watch retries by itself. Null: not reported.
  std::function<void(Resource, const Error&)> on_error;
};

class RestClient;  // client/rest_client.h
class Reflector;   // client/reflector.h

// Thread-safe REST client over libcurl. Every call returns a Status/Result whose message names
// the verb, the resource and, for 403, the missing RBAC rule.
class ClusterClient {
 public:
  static Result<std::unique_ptr<ClusterClient>> Create(const ClientConfig& config);
  ~ClusterClient();

  // API discovery: reads /version and the group list (/apis), and from then
  // on uses the versions ChooseApis picks (PodDisruptionBudgets from policy/v1
  // where served, Events through events.k8s.io/v1 where served). Call it
  // before StartWatches and the writes (not thread-safe against them).
  // Error when the group list cannot be read.
  Result<ServerApis> Discover();
  const ApiChoice& apis() const { return choice_; }
  // How `resource` is addressed by this client (Info() with the discovered version).
  const ResourceInfo& InfoOf(Resource resource) const;
  // "poddisruptionbudgets.policy/v1": the resource with the version in use.
  std::string DescribeResource(Resource resource) const;

  // Starts list+watch of every Resource on background threads; events arrive in
  // order per resource through `sink` (called from client threads; must not block long).
  Status StartWatches(std::function<void(WatchEvent)> sink);
  Status StartWatches(std::function<void(WatchEvent)> sink, const WatchOptions& options);
  // Stops and joins the watch threads (returns within about a second); no
  // sink call is made after it returns. Safe to call twice.
  void StopWatches();

  Status BindPod(std::string_view ns, std::string_view name, std::string_view uid,
                 std::string_view node);  // POST pods/NAME/binding
  // Preemption victims: DELETE with the pod's default grace period and, when
  // uid is not empty, a uid precondition (a recreated pod of the same name is
  // not deleted: 409).
  Status DeletePod(std::string_view ns, std::string_view name, std::string_view uid);
  // Strategic merge patch of pods/NAME/status; "" clears.
  Status SetNominatedNodeName(std::string_view ns, std::string_view name, std::string_view node);
  // Strategic merge patch of pods/NAME/status setting the PodScheduled
  // condition (merged by type). lastTransitionTime is `last_transition_time`
  // when given (pass the current condition's when its status does not
  // change, as upstream's UpdatePodCondition keeps it), else now.
  Status SetPodScheduledCondition(std::string_view ns, std::string_view name,
                                  std::string_view status,   // "False"
                                  std::string_view reason,   // "Unschedulable"
                                  std::string_view message,  // status patch
                                  std::string_view last_transition_time = {});
  // Strategic merge patch of pods/NAME/status setting the condition of
  // `type` (merged by type; lastTransitionTime now): v1.26's preemption
  // marks each victim DisruptionTarget=True before deleting it.
  Status SetPodCondition(std::string_view ns, std::string_view name, std::string_view type,
                         std::string_view status, std::string_view reason,
                         std::string_view message);
  // The pod as the server has it now (upstream's preemption reads the
  // preemptor fresh: GetUpdatedPod); 404 -> error with IsNotFound().
  Result<std::string> GetPod(std::string_view ns, std::string_view name);
  // v1.26's VolumeBinding PreBind: a JSON merge patch (RFC 7386) of a
  // PersistentVolume / PersistentVolumeClaim. A metadata.resourceVersion in
  // the patch is a precondition: 409 (IsConflict) when the object changed
  // since. RBAC: patch on persistentvolumes / persistentvolumeclaims.
  Status PatchPersistentVolume(std::string_view name, const std::string& merge_patch);
  Status PatchPersistentVolumeClaim(std::string_view ns, std::string_view name,
                                    const std::string& merge_patch);
  // The object as the server has it now; nullopt on 404 (RBAC: get).
  Result<std::optional<std::string>> GetPersistentVolume(std::string_view name);
  Result<std::optional<std::string>> GetPersistentVolumeClaim(std::string_view ns,
                                                              std::string_view name);
  // An Event: events.k8s.io/v1 when Discover found it (note, action,
  // reportingController/Instance, regarding), else core/v1. When
  // events.k8s.io/v1 is forbidden (403) and core/v1 works, core/v1 from then on.
  Status CreateEvent(const EventRecord& event);
  // Called once, with the 403's message, when CreateEvent falls back from
  // events.k8s.io/v1 to core/v1 (set before any event is written).
  // Whether CreateEvent writes events.k8s.io/v1 Events (series are theirs).
  bool writes_events_v1() const { return events_v1_.load(std::memory_order_relaxed); }
  // Writes `event.series_*` onto the events.k8s.io/v1 Event `event.object_name`
  // (a strategic merge patch, as upstream's broadcaster), or creates it with
  // its series when it is gone (404).
  Status PatchEventSeries(const EventRecord& event);
  void SetEventsFallbackHook(std::function<void(const std::string&)> hook) {
    events_fallback_ = std::move(hook);
  }
  // Lease (coordination.k8s.io/v1) for leader election. GetLease: nullopt on 404.
  Result<std::optional<LeaseRecord>> GetLease(std::string_view ns, std::string_view name);
  // 409 -> error with IsConflict(). `stored` (optional) receives the lease as
  // the server stored it (its new resourceVersion).
  Status CreateLease(const LeaseRecord& lease, LeaseRecord* stored = nullptr);
  // Uses lease.resource_version (optimistic lock); 409 conflict when stale.
  Status UpdateLease(const LeaseRecord& lease, LeaseRecord* stored = nullptr);

  // v1.15's default leader-election lock (--leader-elect-resource-lock=endpoints):
  // the same record as JSON in the annotation control-plane.alpha.kubernetes.io/leader
  // of an Endpoints object (upstream: kube-system/kube-scheduler). Times are
  // written at second precision (metav1.Time); lease_transitions is
  // leaderTransitions. Get: nullopt on 404; an Endpoints without the
  // annotation gives an empty record with its resourceVersion. Update writes
  // the Endpoints with only that annotation (a lock object has no subsets).
  Result<std::optional<LeaseRecord>> GetEndpointsLock(std::string_view ns, std::string_view name);
  Status CreateEndpointsLock(const LeaseRecord& record, LeaseRecord* stored = nullptr);
  Status UpdateEndpointsLock(const LeaseRecord& record, LeaseRecord* stored = nullptr);

  // The REST layer, for calls this class does not wrap (tests, diagnostics).
  RestClient& rest() { return *rest_; }

 private:
  explicit ClusterClient(std::unique_ptr<RestClient> rest);

  Status CreateCoreEvent(const EventRecord& event);
  Status CreateEventsV1Event(const EventRecord& event);

  std::unique_ptr<RestClient> rest_;
  std::vector<std::unique_ptr<Reflector>> reflectors_;
  ApiChoice choice_;
  std::function<void(const std::string&)> events_fallback_;
  std::atomic<bool> events_v1_{false};  // choice_.events_v1 until a 403 turns it off
  std::vector<ResourceInfo> infos_;     // by Resource
};

}  // namespace ksched::client
