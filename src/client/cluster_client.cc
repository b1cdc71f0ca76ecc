#include "client/cluster_client.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "client/reflector.h"
#include "client/rest_client.h"

namespace ksched::client {
namespace {

using nlohmann::json;

constexpr ResourceInfo kInfos[] = {
    {"nodes", "", "v1", "Node", false},
    {"pods", "", "v1", "Pod", true},
    {"services", "", "v1", "Service", true},
    {"replicationcontrollers", "", "v1", "ReplicationController", true},
    {"replicasets", "apps", "v1", "ReplicaSet", true},
    {"statefulsets", "apps", "v1", "StatefulSet", true},
    {"persistentvolumes", "", "v1", "PersistentVolume", false},
    {"persistentvolumeclaims", "", "v1", "PersistentVolumeClaim", true},
    {"storageclasses", "storage.k8s.io", "v1", "StorageClass", false},
    {"poddisruptionbudgets", "policy", "v1beta1", "PodDisruptionBudget", true},
    {"priorityclasses", "scheduling.k8s.io", "v1", "PriorityClass", false},
    {"namespaces", "", "v1", "Namespace", false},
    {"csinodes", "storage.k8s.io", "v1", "CSINode", false},
    {"csidrivers", "storage.k8s.io", "v1", "CSIDriver", false},
    {"csistoragecapacities", "storage.k8s.io", "v1", "CSIStorageCapacity", true},
};

std::string FormatTime(std::chrono::system_clock::time_point t, bool micro) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(us / 1'000'000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out = buf;
  if (micro) {
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%06lld", static_cast<long long>(us % 1'000'000));
    out += frac;
  }
  return out + "Z";
}

std::string PodPath(std::string_view ns, std::string_view name) {
  return "/api/v1/namespaces/" + std::string(ns) + "/pods/" + std::string(name);
}

std::string LeasePath(std::string_view ns, std::string_view name = {}) {
  std::string p = "/apis/coordination.k8s.io/v1/namespaces/" + std::string(ns) + "/leases";
  if (!name.empty()) p += "/" + std::string(name);
  return p;
}

// Names in paths: Kubernetes names are DNS labels/subdomains; anything that
// would change the path is refused before a request is made.
Status CheckPathName(std::string_view what, std::string_view value) {
  if (value.empty()) return MakeError(std::string(what) + " is empty");
  for (char c : value) {
    if (c == '/' || c == '?' || c == '#' || c == '%' || static_cast<unsigned char>(c) <= ' ') {
      return MakeError(std::string(what) + " \"" + std::string(value) +
                       "\" is not a valid object name");
    }
  }
  if (value == "." || value == "..") {
    return MakeError(std::string(what) + " \"" + std::string(value) +
                     "\" is not a valid object name");
  }
  return Status::Ok();
}

Status CheckNsName(std::string_view ns, std::string_view name) {
  if (Status s = CheckPathName("namespace", ns); !s.ok()) return s;
  return CheckPathName("name", name);
}

json LeaseJson(const LeaseRecord& l) {
  json meta = {{"name", l.name}, {"namespace", l.ns}};
  if (!l.resource_version.empty()) meta["resourceVersion"] = l.resource_version;
  json spec = json::object();
  spec["holderIdentity"] = l.holder_identity;
  spec["leaseDurationSeconds"] = l.lease_duration_seconds;
  if (!l.acquire_time.empty()) spec["acquireTime"] = l.acquire_time;
  if (!l.renew_time.empty()) spec["renewTime"] = l.renew_time;
  spec["leaseTransitions"] = l.lease_transitions;
  return {{"apiVersion", "coordination.k8s.io/v1"},
          {"kind", "Lease"},
          {"metadata", std::move(meta)},
          {"spec", std::move(spec)}};
}

Result<LeaseRecord> ParseLease(const std::string& body, std::string_view what) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return MakeError(std::string(what) + ": the API server's reply is not a Lease");
  }
  LeaseRecord l;
  auto str = [](const json& o, const char* k) -> std::string {
    auto it = o.find(k);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto num = [](const json& o, const char* k) -> int64_t {
    auto it = o.find(k);
    return it != o.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
  };
  if (auto m = j.find("metadata"); m != j.end() && m->is_object()) {
    l.name = str(*m, "name");
    l.ns = str(*m, "namespace");
    l.resource_version = str(*m, "resourceVersion");
  }
  if (auto s = j.find("spec"); s != j.end() && s->is_object()) {
    l.holder_identity = str(*s, "holderIdentity");
    l.lease_duration_seconds = num(*s, "leaseDurationSeconds");
    l.acquire_time = str(*s, "acquireTime");
    l.renew_time = str(*s, "renewTime");
    l.lease_transitions = num(*s, "leaseTransitions");
  }
  return l;
}

constexpr char kLeaderAnnotation[] = "control-plane.alpha.kubernetes.io/leader";

// metav1.Time keeps whole seconds: "2020-01-02T03:04:05.123456Z" -> "...05Z".
std::string ToSeconds(const std::string& t) {
  size_t dot = t.find('.');
  if (dot == std::string::npos) return t;
  size_t end = dot + 1;
  while (end < t.size() && t[end] >= '0' && t[end] <= '9') ++end;
  return t.substr(0, dot) + t.substr(end);
}

json EndpointsLockJson(const LeaseRecord& r) {
  json record = {
      {"holderIdentity", r.holder_identity},
      {"leaseDurationSeconds", r.lease_duration_seconds},
      {"acquireTime", r.acquire_time.empty() ? json(nullptr) : json(ToSeconds(r.acquire_time))},
      {"renewTime", r.renew_time.empty() ? json(nullptr) : json(ToSeconds(r.renew_time))},
      {"leaderTransitions", r.lease_transitions}};
  json meta = {
      {"name", r.name}, {"namespace", r.ns}, {"annotations", {{kLeaderAnnotation, record.dump()}}}};
  if (!r.resource_version.empty()) meta["resourceVersion"] = r.resource_version;
  return {{"apiVersion", "v1"}, {"kind", "Endpoints"}, {"metadata", std::move(meta)}};
}

Result<LeaseRecord> ParseEndpointsLock(const std::string& body, std::string_view what) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j["metadata"].is_object()) {
    return MakeError(std::string(what) + ": the API server's reply is not an Endpoints object");
  }
  const json& m = j["metadata"];
  LeaseRecord r;
  r.name = m.value("name", "");
  r.ns = m.value("namespace", "");
  r.resource_version = m.value("resourceVersion", "");
  auto ann = m.find("annotations");
  if (ann == m.end() || !ann->is_object()) return r;
  auto rec = ann->find(kLeaderAnnotation);
  if (rec == ann->end() || !rec->is_string()) return r;
  json record = json::parse(rec->get<std::string>(), nullptr, /*allow_exceptions=*/false);
  if (record.is_discarded() || !record.is_object()) {
    return MakeError(std::string(what) + ": annotation " + kLeaderAnnotation +
                     " is not a leader election record");
  }
  auto str = [&record](const char* k) {
    auto it = record.find(k);
    return it != record.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto num = [&record](const char* k) -> int64_t {
    auto it = record.find(k);
    return it != record.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
  };
  r.holder_identity = str("holderIdentity");
  r.lease_duration_seconds = num("leaseDurationSeconds");
  r.acquire_time = str("acquireTime");
  r.renew_time = str("renewTime");
  r.lease_transitions = num("leaderTransitions");
  return r;
}

std::string EndpointsPath(std::string_view ns, std::string_view name = {}) {
  std::string p = "/api/v1/namespaces/" + std::string(ns) + "/endpoints";
  if (!name.empty()) p += "/" + std::string(name);
  return p;
}

}  // namespace

const ResourceInfo& Info(Resource resource) { return kInfos[static_cast<int>(resource)]; }

std::string ResourceName(Resource resource) {
  const ResourceInfo& i = Info(resource);
  return i.group.empty() ? std::string(i.plural)
                         : std::string(i.plural) + "." + std::string(i.group);
}

std::string_view WatchEventTypeName(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded:
      return "ADDED";
    case WatchEventType::kModified:
      return "MODIFIED";
    case WatchEventType::kDeleted:
      return "DELETED";
    case WatchEventType::kSynced:
      return "SYNCED";
  }
  return "?";
}

std::string NowRfc3339() { return FormatTime(std::chrono::system_clock::now(), false); }
std::string NowRfc3339Micro() { return FormatTime(std::chrono::system_clock::now(), true); }

ClusterClient::ClusterClient(std::unique_ptr<RestClient> rest)
    : rest_(std::move(rest)), infos_(std::begin(kInfos), std::end(kInfos)) {}

bool ServerApis::Serves(std::string_view group, std::string_view version) const {
  auto it = groups.find(group);
  if (it == groups.end()) return false;
  for (const std::string& v : it->second)
    if (v == version) return true;
  return false;
}

std::string ServerApis::VersionsOf(std::string_view group) const {
  auto it = groups.find(group);
  if (it == groups.end() || it->second.empty()) return "none";
  std::string out;
  for (const std::string& v : it->second) {
    if (!out.empty()) out += ", ";
    out += group.empty() ? v : std::string(group) + "/" + v;
  }
  return out;
}

int ServerMinorVersion(std::string_view v) {
  if (v.starts_with("v")) v.remove_prefix(1);
  const size_t dot = v.find('.');
  if (dot == std::string_view::npos) return -1;
  int minor = 0;
  size_t i = dot + 1, digits = 0;
  for (; i < v.size() && v[i] >= '0' && v[i] <= '9' && digits < 4; ++i, ++digits)
    minor = minor * 10 + (v[i] - '0');
  return digits == 0 ? -1 : minor;
}

ApiChoice ChooseApis(const ServerApis& apis) {
  ApiChoice c;
  if (apis.Serves("policy", "v1")) {
    c.pdb_version = "v1";
  } else if (apis.Serves("policy", "v1beta1")) {
    c.pdb_version = "v1beta1";
  } else {
    c.missing.emplace_back(Resource::kPodDisruptionBudget,
                           "poddisruptionbudgets.policy: the API server serves neither policy/v1 "
                           "nor policy/v1beta1 (it serves: " +
                               apis.VersionsOf("policy") + ")");
  }
  // CSIStorageCapacities: storage.k8s.io/v1 from v1.24, v1beta1 from v1.21
  // (group versions alone cannot tell: storage.k8s.io/v1 is older).
  const int minor = ServerMinorVersion(apis.git_version);
  if (minor >= 24 || minor < 0) {
    c.csi_storage_capacity_version = "v1";
  } else if (minor >= 21 && apis.Serves("storage.k8s.io", "v1beta1")) {
    c.csi_storage_capacity_version = "v1beta1";
  } else {
    c.csi_storage_capacities = false;
  }
  c.events_v1 = apis.Serves("events.k8s.io", "v1");
  c.leases = apis.Serves("coordination.k8s.io", "v1");
  for (Resource r : kAllResources) {
    if (r == Resource::kPodDisruptionBudget) continue;
    if (r == Resource::kCSIStorageCapacity) continue;  // chosen above
    const ResourceInfo& i = Info(r);
    if (apis.Serves(i.group, i.version)) continue;
    std::string gv = i.group.empty() ? std::string(i.version)
                                     : std::string(i.group) + "/" + std::string(i.version);
    c.missing.emplace_back(r, ResourceName(r) + ": the API server does not serve " + gv +
                                  " (it serves: " + apis.VersionsOf(i.group) + ")");
  }
  return c;
}

Result<ServerApis> ClusterClient::Discover() {
  ServerApis apis;
  auto parse = [](const std::string& body) {
    return json::parse(body, nullptr, /*allow_exceptions=*/false);
  };
  // /version is informative only (a server may hide it).
  if (auto v = rest_->Call(RequestTarget{"get", "", "/version", "", ""}, "GET", "/version");
      v.ok()) {
    json j = parse(*v);
    if (j.is_object() && j["gitVersion"].is_string()) apis.git_version = j["gitVersion"];
  }
  auto core = rest_->Call(RequestTarget{"get", "", "/api", "", ""}, "GET", "/api");
  if (!core.ok()) return Error{"API discovery: " + core.error().message, core.error().http_code};
  json cj = parse(*core);
  if (cj.is_object() && cj["versions"].is_array()) {
    for (const json& v : cj["versions"])
      if (v.is_string()) apis.groups[""].push_back(v.get<std::string>());
  }
  auto groups = rest_->Call(RequestTarget{"get", "", "/apis", "", ""}, "GET", "/apis");
  if (!groups.ok()) {
    return Error{"API discovery: " + groups.error().message, groups.error().http_code};
  }
  json gj = parse(*groups);
  if (!gj.is_object() || !gj["groups"].is_array()) {
    return MakeError("API discovery: /apis is not an APIGroupList");
  }
  for (const json& g : gj["groups"]) {
    if (!g.is_object() || !g["name"].is_string()) continue;
    auto& versions = apis.groups[g["name"].get<std::string>()];
    if (!g["versions"].is_array()) continue;
    for (const json& v : g["versions"]) {
      if (v.is_object() && v["version"].is_string()) versions.push_back(v["version"]);
    }
  }
  choice_ = ChooseApis(apis);
  events_v1_.store(choice_.events_v1);
  infos_[static_cast<int>(Resource::kPodDisruptionBudget)].version = choice_.pdb_version;
  infos_[static_cast<int>(Resource::kCSIStorageCapacity)].version =
      choice_.csi_storage_capacity_version;
  return apis;
}

const ResourceInfo& ClusterClient::InfoOf(Resource resource) const {
  return infos_[static_cast<int>(resource)];
}

std::string ClusterClient::DescribeResource(Resource resource) const {
  const ResourceInfo& i = InfoOf(resource);
  return ResourceName(resource) + "/" + std::string(i.version);
}

ClusterClient::~ClusterClient() { StopWatches(); }

Result<std::unique_ptr<ClusterClient>> ClusterClient::Create(const ClientConfig& config) {
  auto rest = RestClient::Create(config);
  if (!rest.ok()) return rest.error();
  return std::unique_ptr<ClusterClient>(new ClusterClient(std::move(rest).value()));
}

Status ClusterClient::StartWatches(std::function<void(WatchEvent)> sink) {
  return StartWatches(std::move(sink), WatchOptions());
}

Status ClusterClient::StartWatches(std::function<void(WatchEvent)> sink,
                                   const WatchOptions& options) {
  if (!reflectors_.empty()) return MakeError("watches already started (call StopWatches first)");
  if (!sink) return MakeError("StartWatches: no event sink");
  for (Resource r : options.resources) {
    reflectors_.push_back(
        std::make_unique<Reflector>(*rest_, r, InfoOf(r), options, sink, options.on_error));
  }
  for (auto& r : reflectors_) r->Start();
  return Status::Ok();
}

void ClusterClient::StopWatches() {
  for (auto& r : reflectors_) r->RequestStop();  // all at once, then join each
  for (auto& r : reflectors_) r->Stop();
  reflectors_.clear();
}

Status ClusterClient::BindPod(std::string_view ns, std::string_view name, std::string_view uid,
                              std::string_view node) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s;
  json meta = {{"name", name}, {"namespace", ns}};
  if (!uid.empty()) meta["uid"] = uid;
  json binding = {{"apiVersion", "v1"},
                  {"kind", "Binding"},
                  {"metadata", std::move(meta)},
                  {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
  RequestTarget t{"create", "", "pods/binding", std::string(ns), std::string(name)};
  auto r = rest_->Call(t, "POST", PodPath(ns, name) + "/binding", binding.dump());
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ClusterClient::DeletePod(std::string_view ns, std::string_view name, std::string_view uid) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s;
  std::string body;
  if (!uid.empty()) {
    json options = {
        {"apiVersion", "v1"}, {"kind", "DeleteOptions"}, {"preconditions", {{"uid", uid}}}};
    body = options.dump();
  }
  RequestTarget t{"delete", "", "pods", std::string(ns), std::string(name)};
  auto r = rest_->Call(t, "DELETE", PodPath(ns, name), body);
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ClusterClient::SetNominatedNodeName(std::string_view ns, std::string_view name,
                                           std::string_view node) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s;
  json patch = {{"status", {{"nominatedNodeName", node.empty() ? json(nullptr) : json(node)}}}};
  RequestTarget t{"patch", "", "pods/status", std::string(ns), std::string(name)};
  auto r = rest_->Call(t, "PATCH", PodPath(ns, name) + "/status", patch.dump(),
                       "application/strategic-merge-patch+json");
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ClusterClient::SetPodScheduledCondition(std::string_view ns, std::string_view name,
                                               std::string_view status, std::string_view reason,
                                               std::string_view message,
                                               std::string_view last_transition_time) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s;
  json condition = {
      {"type", "PodScheduled"},
      {"status", status},
      {"lastProbeTime", nullptr},
      {"lastTransitionTime",
       last_transition_time.empty() ? NowRfc3339() : std::string(last_transition_time)}};
  if (!reason.empty()) condition["reason"] = reason;
  if (!message.empty()) condition["message"] = message;
  json patch = {{"status", {{"conditions", json::array({std::move(condition)})}}}};
  RequestTarget t{"patch", "", "pods/status", std::string(ns), std::string(name)};
  auto r = rest_->Call(t, "PATCH", PodPath(ns, name) + "/status", patch.dump(),
                       "application/strategic-merge-patch+json");
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ClusterClient::SetPodCondition(std::string_view ns, std::string_view name,
                                      std::string_view type, std::string_view status,
                                      std::string_view reason, std::string_view message) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s;
  json condition = {{"type", type},
                    {"status", status},
                    {"reason", reason},
                    {"message", message},
                    {"lastTransitionTime", NowRfc3339()}};
  json patch = {{"status", {{"conditions", json::array({std::move(condition)})}}}};
  RequestTarget t{"patch", "", "pods/status", std::string(ns), std::string(name)};
  auto r = rest_->Call(t, "PATCH", PodPath(ns, name) + "/status", patch.dump(),
                       "application/strategic-merge-patch+json");
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Result<std::string> ClusterClient::GetPod(std::string_view ns, std::string_view name) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s.error();
  RequestTarget t{"get", "", "pods", std::string(ns), std::string(name)};
  return rest_->Call(t, "GET", PodPath(ns, name));
}

namespace {

std::string PvPath(std::string_view name) {
  return "/api/v1/persistentvolumes/" + std::string(name);
}

std::string PvcPath(std::string_view ns, std::string_view name) {
  return "/api/v1/namespaces/" + std::string(ns) + "/persistentvolumeclaims/" + std::string(name);
}

// A GET whose 404 is an answer, not an error.
Result<std::optional<std::string>> GetIfExists(RestClient& rest, const RequestTarget& target,
                                               const std::string& path) {
  auto r = rest.Call(target, "GET", path);
  if (r.ok()) return std::optional<std::string>(std::move(*r));
  if (IsNotFound(r.error())) return std::optional<std::string>();
  return r.error();
}

}  // namespace

Status ClusterClient::PatchPersistentVolume(std::string_view name, const std::string& merge_patch) {
  if (Status s = CheckPathName("name", name); !s.ok()) return s;
  RequestTarget t{"patch", "", "persistentvolumes", "", std::string(name)};
  auto r = rest_->Call(t, "PATCH", PvPath(name), merge_patch, "application/merge-patch+json");
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ClusterClient::PatchPersistentVolumeClaim(std::string_view ns, std::string_view name,
                                                 const std::string& merge_patch) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s;
  RequestTarget t{"patch", "", "persistentvolumeclaims", std::string(ns), std::string(name)};
  auto r = rest_->Call(t, "PATCH", PvcPath(ns, name), merge_patch, "application/merge-patch+json");
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Result<std::optional<std::string>> ClusterClient::GetPersistentVolume(std::string_view name) {
  if (Status s = CheckPathName("name", name); !s.ok()) return s.error();
  return GetIfExists(*rest_, RequestTarget{"get", "", "persistentvolumes", "", std::string(name)},
                     PvPath(name));
}

Result<std::optional<std::string>> ClusterClient::GetPersistentVolumeClaim(std::string_view ns,
                                                                           std::string_view name) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s.error();
  return GetIfExists(
      *rest_,
      RequestTarget{"get", "", "persistentvolumeclaims", std::string(ns), std::string(name)},
      PvcPath(ns, name));
}

Status ClusterClient::CreateEvent(const EventRecord& event) {
  if (!events_v1_.load(std::memory_order_relaxed)) return CreateCoreEvent(event);
  Status s = CreateEventsV1Event(event);
  if (!IsForbidden(s)) return s;
  // An identity allowed core/v1 events only (v1.15's scheduler role): write
  // those from now on if that works.
  Status core = CreateCoreEvent(event);
  if (core.ok() && events_v1_.exchange(false) && events_fallback_)
    events_fallback_(s.error().message);
  return core;
}

namespace {

// events.k8s.io/v1 refuses notes over 1 kB; cut at a UTF-8 character boundary.
std::string EventsV1Note(const std::string& note) {
  constexpr size_t kLimit = 1024;
  if (note.size() <= kLimit) return note;
  size_t end = kLimit;
  while (end > 0 && (static_cast<unsigned char>(note[end]) & 0xC0) == 0x80) --end;
  return note.substr(0, end);
}

std::string EventObjectName(const std::string& object_name) {
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%llx", static_cast<unsigned long long>(nanos));
  return object_name + suffix;
}

std::string EventsV1Action(const EventRecord& event) {
  if (!event.action.empty()) return event.action;
  if (event.reason == "Scheduled") return "Binding";
  if (event.reason == "Preempted") return "Preempting";
  return "Scheduling";
}

// When the event happened: its recorded time, else now.
std::chrono::system_clock::time_point EventTime(const EventRecord& event) {
  return event.time == std::chrono::system_clock::time_point{} ? std::chrono::system_clock::now()
                                                               : event.time;
}

std::string LocalHostName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "ksched";
  return host;
}

}  // namespace

Status ClusterClient::CreateEventsV1Event(const EventRecord& event) {
  const auto& io = event.involved_object;
  std::string ns = io.ns.empty() ? "default" : io.ns;
  if (Status s = CheckNsName(ns, io.name); !s.ok()) return s;
  json regarding = {{"kind", io.kind}, {"name", io.name}, {"apiVersion", io.api_version}};
  if (!io.ns.empty()) regarding["namespace"] = io.ns;
  if (!io.uid.empty()) regarding["uid"] = io.uid;
  if (!io.resource_version.empty()) regarding["resourceVersion"] = io.resource_version;
  std::string host = event.source_host.empty() ? LocalHostName() : event.source_host;
  json body = {{"apiVersion", "events.k8s.io/v1"},
               {"kind", "Event"},
               {"metadata",
                {{"name", event.object_name.empty() ? EventObjectName(io.name) : event.object_name},
                 {"namespace", ns}}},
               {"eventTime", FormatTime(EventTime(event), true)},
               {"reportingController", event.source_component},
               {"reportingInstance", (event.source_component + "-" + host).substr(0, 128)},
               {"action", EventsV1Action(event)},
               {"reason", event.reason},
               {"regarding", std::move(regarding)},
               {"note", EventsV1Note(event.message)},
               {"type", event.type}};
  if (event.series_count > 0) {
    body["series"] = {{"count", event.series_count},
                      {"lastObservedTime", FormatTime(event.series_last_observed, true)}};
  }
  RequestTarget t{"create", "events.k8s.io", "events", ns, ""};
  auto r =
      rest_->Call(t, "POST", "/apis/events.k8s.io/v1/namespaces/" + ns + "/events", body.dump());
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Status ClusterClient::PatchEventSeries(const EventRecord& event) {
  const auto& io = event.involved_object;
  std::string ns = io.ns.empty() ? "default" : io.ns;
  if (Status s = CheckNsName(ns, event.object_name); !s.ok()) return s;
  json patch = {{"series",
                 {{"count", event.series_count},
                  {"lastObservedTime", FormatTime(event.series_last_observed, true)}}}};
  RequestTarget t{"patch", "events.k8s.io", "events", ns, event.object_name};
  auto r = rest_->Send(t, "PATCH",
                       "/apis/events.k8s.io/v1/namespaces/" + ns + "/events/" + event.object_name,
                       patch.dump(), "application/strategic-merge-patch+json");
  if (!r.ok()) return r.error();
  if (r->code == 404) return CreateEventsV1Event(event);  // expired meanwhile: anew
  if (r->code < 200 || r->code > 299) return ApiError(t, r->code, r->body);
  return Status::Ok();
}

Status ClusterClient::CreateCoreEvent(const EventRecord& event) {
  const auto& io = event.involved_object;
  std::string ns = io.ns.empty() ? "default" : io.ns;  // cluster-scoped objects
  if (Status s = CheckNsName(ns, io.name); !s.ok()) return s;
  std::string now = FormatTime(EventTime(event), false);
  json involved = {{"kind", io.kind}, {"name", io.name}, {"apiVersion", io.api_version}};
  if (!io.ns.empty()) involved["namespace"] = io.ns;
  if (!io.uid.empty()) involved["uid"] = io.uid;
  if (!io.resource_version.empty()) involved["resourceVersion"] = io.resource_version;
  json source = {{"component", event.source_component}};
  if (!event.source_host.empty()) source["host"] = event.source_host;
  json body = {{"apiVersion", "v1"},
               {"kind", "Event"},
               {"metadata", {{"name", EventObjectName(io.name)}, {"namespace", ns}}},
               {"involvedObject", std::move(involved)},
               {"reason", event.reason},
               {"message", event.message},
               {"type", event.type},
               {"source", std::move(source)},
               {"firstTimestamp", now},
               {"lastTimestamp", now},
               {"count", 1}};
  RequestTarget t{"create", "", "events", ns, ""};
  auto r = rest_->Call(t, "POST", "/api/v1/namespaces/" + ns + "/events", body.dump());
  if (!r.ok()) return r.error();
  return Status::Ok();
}

Result<std::optional<LeaseRecord>> ClusterClient::GetLease(std::string_view ns,
                                                           std::string_view name) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s.error();
  RequestTarget t{"get", "coordination.k8s.io", "leases", std::string(ns), std::string(name)};
  auto reply = rest_->Send(t, "GET", LeasePath(ns, name));
  if (!reply.ok()) return reply.error();
  if (reply->code == 404) return std::optional<LeaseRecord>();
  if (reply->code != 200) return ApiError(t, reply->code, reply->body);
  auto lease = ParseLease(reply->body, "get leases " + std::string(ns) + "/" + std::string(name));
  if (!lease.ok()) return lease.error();
  return std::optional<LeaseRecord>(std::move(lease).value());
}

Status ClusterClient::CreateLease(const LeaseRecord& lease, LeaseRecord* stored) {
  if (Status s = CheckNsName(lease.ns, lease.name); !s.ok()) return s;
  LeaseRecord fresh = lease;
  fresh.resource_version.clear();  // a create must not carry one
  RequestTarget t{"create", "coordination.k8s.io", "leases", lease.ns, lease.name};
  auto r = rest_->Call(t, "POST", LeasePath(lease.ns), LeaseJson(fresh).dump());
  if (!r.ok()) return r.error();
  if (stored != nullptr) {
    auto l = ParseLease(*r, "create leases " + lease.ns + "/" + lease.name);
    if (!l.ok()) return l.error();
    *stored = std::move(l).value();
  }
  return Status::Ok();
}

Status ClusterClient::UpdateLease(const LeaseRecord& lease, LeaseRecord* stored) {
  if (Status s = CheckNsName(lease.ns, lease.name); !s.ok()) return s;
  RequestTarget t{"update", "coordination.k8s.io", "leases", lease.ns, lease.name};
  if (lease.resource_version.empty()) {
    return MakeError("update leases " + lease.ns + "/" + lease.name +
                     ": no resourceVersion (read the lease first)");
  }
  auto r = rest_->Call(t, "PUT", LeasePath(lease.ns, lease.name), LeaseJson(lease).dump());
  if (!r.ok()) return r.error();
  if (stored != nullptr) {
    auto l = ParseLease(*r, "update leases " + lease.ns + "/" + lease.name);
    if (!l.ok()) return l.error();
    *stored = std::move(l).value();
  }
  return Status::Ok();
}

Result<std::optional<LeaseRecord>> ClusterClient::GetEndpointsLock(std::string_view ns,
                                                                   std::string_view name) {
  if (Status s = CheckNsName(ns, name); !s.ok()) return s.error();
  RequestTarget t{"get", "", "endpoints", std::string(ns), std::string(name)};
  auto reply = rest_->Send(t, "GET", EndpointsPath(ns, name));
  if (!reply.ok()) return reply.error();
  if (reply->code == 404) return std::optional<LeaseRecord>();
  if (reply->code != 200) return ApiError(t, reply->code, reply->body);
  auto r =
      ParseEndpointsLock(reply->body, "get endpoints " + std::string(ns) + "/" + std::string(name));
  if (!r.ok()) return r.error();
  return std::optional<LeaseRecord>(std::move(r).value());
}

Status ClusterClient::CreateEndpointsLock(const LeaseRecord& record, LeaseRecord* stored) {
  if (Status s = CheckNsName(record.ns, record.name); !s.ok()) return s;
  LeaseRecord fresh = record;
  fresh.resource_version.clear();
  RequestTarget t{"create", "", "endpoints", record.ns, record.name};
  auto r = rest_->Call(t, "POST", EndpointsPath(record.ns), EndpointsLockJson(fresh).dump());
  if (!r.ok()) return r.error();
  if (stored != nullptr) {
    auto l = ParseEndpointsLock(*r, "create endpoints " + record.ns + "/" + record.name);
    if (!l.ok()) return l.error();
    *stored = std::move(l).value();
  }
  return Status::Ok();
}

Status ClusterClient::UpdateEndpointsLock(const LeaseRecord& record, LeaseRecord* stored) {
  if (Status s = CheckNsName(record.ns, record.name); !s.ok()) return s;
  if (record.resource_version.empty()) {
    return MakeError("update endpoints " + record.ns + "/" + record.name +
                     ": no resourceVersion (read the lock first)");
  }
  RequestTarget t{"update", "", "endpoints", record.ns, record.name};
  auto r = rest_->Call(t, "PUT", EndpointsPath(record.ns, record.name),
                       EndpointsLockJson(record).dump());
  if (!r.ok()) return r.error();
  if (stored != nullptr) {
    auto l = ParseEndpointsLock(*r, "update endpoints " + record.ns + "/" + record.name);
    if (!l.ok()) return l.error();
    *stored = std::move(l).value();
  }
  return Status::Ok();
}

}  // namespace ksched::client
