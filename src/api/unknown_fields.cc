#include "api/unknown_fields.h"

#include <algorithm>
#include <cstdint>
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

// Fields of releases between v1.15 and v1.35 that v1.35 no longer has (so
// neither source of the generated table lists them), which a snapshot of
// such a cluster still carries. Being real fields, they are kNewer rather
// than unknown.
struct LaterField {
  std::string_view type;
  std::string_view field;
};
constexpr LaterField kLaterFields[] = {
    {"ServiceSpec", "topologyKeys"},  // 1.17-1.21
};

// Every key of every object of a snapshot is looked up, so each type gets an
// open-addressing hash table of its field names, built once: a lookup is one
// short hash and, on a hit, one comparison.
// Length and three bytes tell the field names of one type apart well enough
// (the table is three times larger than the type); a collision costs a probe.
uint32_t Hash(std::string_view k) {
  if (k.empty()) return 0;
  auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(k[i])); };
  uint32_t h = static_cast<uint32_t>(k.size()) * 0x9E3779B1u;
  h ^= byte(0) * 0x85EBCA6Bu;
  h ^= byte(k.size() - 1) * 0xC2B2AE35u;
  h ^= byte(k.size() / 2) * 0x27D4EB2Fu;
  return h ^ (h >> 15);
}

struct Index {
  std::vector<int16_t> slots;    // field index or -1
  std::vector<uint32_t> hashes;  // per field
  uint32_t mask = 0;
};

const std::vector<Index>& Indices() {
  static const std::vector<Index> indices = [] {
    std::vector<Index> out(std::size(kSchemaTypes));
    for (size_t t = 0; t < out.size(); ++t) {
      const SchemaType& type = kSchemaTypes[t];
      Index& ix = out[t];
      uint32_t size = 8;
      while (size < type.size * 3) size *= 2;
      ix.mask = size - 1;
      ix.slots.assign(size, -1);
      for (size_t f = 0; f < type.size; ++f) {
        uint32_t h = Hash(type.fields[f].name);
        ix.hashes.push_back(h);
        uint32_t i = h & ix.mask;
        while (ix.slots[i] >= 0) i = (i + 1) & ix.mask;
        ix.slots[i] = static_cast<int16_t>(f);
      }
    }
    return out;
  }();
  return indices;
}

const SchemaField* Lookup(int type, std::string_view key) {
  const Index& ix = Indices()[type];
  const SchemaType& t = kSchemaTypes[type];
  uint32_t h = Hash(key);
  for (uint32_t i = h & ix.mask;; i = (i + 1) & ix.mask) {
    int16_t f = ix.slots[i];
    if (f < 0) return nullptr;
    if (ix.hashes[f] == h && t.fields[f].name == key) return &t.fields[f];
  }
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
  Walker(std::vector<FoundField>* out, NewerFieldFilter keep_newer)
      : out_(out), keep_newer_(keep_newer) {}

  void Object(dom::element e, int type) {
    dom::object obj;
    if (e.get(obj) != simdjson::SUCCESS) return;  // the decoder reports wrong types
    const SchemaType& t = kSchemaTypes[type];
    for (dom::key_value_pair kv : obj) {
      const SchemaField* f = Lookup(type, kv.key);
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
    FoundField f;
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

  std::vector<FoundField>* out_;
  NewerFieldFilter keep_newer_;
  std::vector<Segment>& path_ = Path();

  // One stack per thread, reused: a walk per object would otherwise allocate.
  static std::vector<Segment>& Path() {
    thread_local std::vector<Segment> path;
    path.clear();
    return path;
  }
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
      {"Namespace", kTypeNamespace},
      {"CSINode", kTypeCSINode},
      {"CSIDriver", kTypeCSIDriver},
      {"Deployment", kTypeDeployment},
      {"Job", kTypeJob},
      {"DaemonSet", kTypeDaemonSet},
      {"CSIStorageCapacity", kTypeCSIStorageCapacity},
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
                       std::vector<FoundField>* out, NewerFieldFilter keep_newer) {
  int type = RootType(kind);
  if (type < 0) return;
  Walker(out, keep_newer).Object(object, type);
}

}  // namespace ksched
