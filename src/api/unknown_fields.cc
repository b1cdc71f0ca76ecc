#include "api/unknown_fields.h"

#include <algorithm>
#include <iterator>

namespace ksched {
namespace {

namespace dom = simdjson::dom;

enum Shape : uint8_t { kLeaf, kObject, kArray };
enum Since : uint8_t { kV115, kNewer };

struct SchemaField {
  std::string_view name;
  Shape shape;
  int type;  // index into kSchemaTypes for kObject / kArray, else -1
  Since since;
};

struct SchemaType {
  std::string_view name;
  const SchemaField* fields;  // sorted by name
  size_t size;
};

#include "api/api_fields.inc"

// Fields added after the release the generated table was made from
// (kubernetes-types 1.30), which snapshots of current clusters carry. Being
// real fields, they are kNewer rather than unknown.
struct LaterField {
  std::string_view type;
  std::string_view field;
};
constexpr LaterField kLaterFields[] = {
    {"PodSpec", "resources"},                            // 1.32, pod-level resources
    {"PodSpec", "hostnameOverride"},                     // 1.34
    {"PodSecurityContext", "supplementalGroupsPolicy"},  // 1.31
    {"PodSecurityContext", "seLinuxChangePolicy"},       // 1.32
    {"PodStatus", "observedGeneration"},                 // 1.33
    {"PodCondition", "observedGeneration"},              // 1.33
    {"ContainerStatus", "user"},                         // 1.31
    {"ContainerStatus", "allocatedResourcesStatus"},     // 1.31
    {"ContainerStatus", "stopSignal"},                   // 1.33
    {"Lifecycle", "stopSignal"},                         // 1.33
    {"NodeStatus", "features"},                          // 1.31
    {"NodeStatus", "declaredFeatures"},                  // 1.34
    {"Container", "restartPolicyRules"},                 // 1.34
};

// Most comparisons of a binary search are settled by the first byte; doing
// that inline keeps memcmp calls to about one per key (this runs for every
// key of every object of a snapshot).
bool Less(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0])
    return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
  return a < b;
}

const SchemaField* Lookup(const SchemaType& t, std::string_view key) {
  const SchemaField* end = t.fields + t.size;
  const SchemaField* it = std::lower_bound(
      t.fields, end, key, [](const SchemaField& f, std::string_view k) { return Less(f.name, k); });
  return it != end && it->name == key ? it : nullptr;
}

bool IsLater(std::string_view type, std::string_view key) {
  for (const LaterField& f : kLaterFields)
    if (f.type == type && f.field == key) return true;
  return false;
}

// The walk keeps the path as a stack of segments and spells it out only for
// a finding.
struct Segment {
  std::string_view key;  // empty for an array index
  size_t index;
};

class Walker {
 public:
  Walker(std::vector<FieldFinding>* out, NewerFieldFilter keep_newer)
      : out_(out), keep_newer_(keep_newer) {}

  void Object(dom::element e, int type) {
    dom::object obj;
    if (e.get(obj) != simdjson::SUCCESS) return;  // the decoder reports wrong types
    const SchemaType& t = kSchemaTypes[type];
    for (dom::key_value_pair kv : obj) {
      const SchemaField* f = Lookup(t, kv.key);
      if (f == nullptr) {
        if (!IsLater(t.name, kv.key)) {
          Report(t, kv, FieldFinding::What::kUnknown);
        } else if (KeepNewer(t, kv.key)) {
          Report(t, kv, FieldFinding::What::kNewer);
        }
        continue;
      }
      if (f->since == kNewer && KeepNewer(t, kv.key)) Report(t, kv, FieldFinding::What::kNewer);
      if (f->shape == kLeaf || f->type < 0) continue;
      path_.push_back(Segment{kv.key, 0});
      if (f->shape == kObject) {
        Object(kv.value, f->type);
      } else if (dom::array arr; kv.value.get(arr) == simdjson::SUCCESS) {
        size_t i = 0;
        for (dom::element item : arr) {
          path_.push_back(Segment{{}, i++});
          Object(item, f->type);
          path_.pop_back();
        }
      }
      path_.pop_back();
    }
  }

 private:
  bool KeepNewer(const SchemaType& t, std::string_view key) const {
    return keep_newer_ == nullptr || keep_newer_(t.name, key);
  }

  void Report(const SchemaType& t, const dom::key_value_pair& kv, FieldFinding::What what) {
    FieldFinding f;
    f.what = what;
    for (const Segment& s : path_) {
      if (s.key.empty()) {
        f.parent += "[" + std::to_string(s.index) + "]";
      } else {
        if (!f.parent.empty()) f.parent.push_back('.');
        f.parent.append(s.key);
      }
    }
    f.parent_type = t.name;
    f.field.assign(kv.key);
    f.value = kv.value;
    out_->push_back(std::move(f));
  }

  std::vector<FieldFinding>* out_;
  NewerFieldFilter keep_newer_;
  std::vector<Segment> path_;
};

int RootType(std::string_view kind) {
  constexpr std::pair<std::string_view, int> kRoots[] = {
      {"Pod", kTypePod},
      {"Node", kTypeNode},
      {"Service", kTypeService},
      {"ReplicationController", kTypeReplicationController},
      {"ReplicaSet", kTypeReplicaSet},
      {"StatefulSet", kTypeStatefulSet},
      {"PersistentVolume", kTypePersistentVolume},
      {"PersistentVolumeClaim", kTypePersistentVolumeClaim},
      {"StorageClass", kTypeStorageClass},
      {"PodDisruptionBudget", kTypePodDisruptionBudget},
      {"PriorityClass", kTypePriorityClass},
  };
  for (const auto& [name, type] : kRoots)
    if (name == kind) return type;
  return -1;
}

}  // namespace

std::string FieldFinding::Message(std::string_view kind) const {
  std::string s = "unknown field \"" + field + "\" in " + std::string(kind);
  if (!parent.empty()) s += "." + parent;
  return s;
}

std::string FieldFinding::Path() const { return parent.empty() ? field : parent + "." + field; }

bool HasFieldTable(std::string_view kind) { return RootType(kind) >= 0; }

void FindUnknownFields(simdjson::dom::element object, std::string_view kind,
                       std::vector<FieldFinding>* out, NewerFieldFilter keep_newer) {
  int type = RootType(kind);
  if (type < 0) return;
  Walker(out, keep_newer).Object(object, type);
}

}  // namespace ksched
