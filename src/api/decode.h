// Decoding Kubernetes objects (JSON or YAML) into the structs of api/types.h.
//
// Input is whatever `kubectl get -o json|yaml` or a hand-written manifest
// gives: a single object, a `kind: List` (or `PodList`, `NodeList`, ... whose
// items may omit their kind), nested lists, a JSON array of objects, several
// concatenated JSON documents, or a multi-document YAML stream. Input whose
// first non-blank character is `{` or `[` is JSON; anything else is YAML,
// which is first rewritten as JSON (api/yaml_to_json.h) so that one decoder,
// built on simdjson's DOM, serves both.
//
// As in Kubernetes clients, unknown fields are ignored and `null` means
// "absent". Everything else that does not fit the schema is an error, never a
// silent default: the message names the file, the object (`Kind ns/name`, or
// its position such as `items[3] (Pod)` while its name is unknown), and the
// field path, e.g.
//   cluster.yaml: Pod default/web-1: spec.containers[0].resources.requests.cpu: ...
// Map keys that are not plain identifiers appear in brackets:
//   metadata.labels[app.kubernetes.io/name]
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/object_set.h"
#include "api/types.h"
#include "api/unknown_fields.h"
#include "util/result.h"

namespace ksched {

// A whole file in memory, followed by the zero padding simdjson reads past the
// end of its input. Big regular files are mapped rather than copied: the
// kernel then serves the page cache directly, which saves copying and zeroing
// hundreds of megabytes for a large snapshot (the file must not shrink while
// it is mapped). Other files (pipes, stdin, small files) are read.
class PaddedFile {
 public:
  // path "-" reads standard input.
  static Result<PaddedFile> Load(const std::string& path);

  PaddedFile() = default;
  PaddedFile(PaddedFile&& other) noexcept { *this = std::move(other); }
  PaddedFile& operator=(PaddedFile&& other) noexcept;
  PaddedFile(const PaddedFile&) = delete;
  PaddedFile& operator=(const PaddedFile&) = delete;
  ~PaddedFile();

  // The file's bytes; at least simdjson::SIMDJSON_PADDING readable bytes follow.
  std::string_view view() const {
    return map_ != nullptr ? std::string_view(static_cast<const char*>(map_), size_)
                           : std::string_view(buffer_);
  }

 private:
  void* map_ = nullptr;  // mmap'ed region, map_len_ bytes
  size_t map_len_ = 0;
  size_t size_ = 0;
  simdjson::padded_string buffer_;  // used when not mapped
};

// True when `text` should be read as JSON: its first non-blank character is
// `{` or `[`.
bool LooksLikeJson(std::string_view text);

// Decodes every object in `text` and appends it to *out. `filename` is only
// used in error messages. On error *out may hold the objects decoded before it.
Status DecodeObjects(std::string_view text, std::string_view filename, ObjectSet* out);

// Reads `path` ("-" reads standard input) and decodes it as DecodeObjects does.
Status DecodeFile(const std::string& path, ObjectSet* out);

// Parses one JSON document with `parser` (which owns the result: the element
// is valid until the parser parses again or is destroyed). Syntax errors carry
// the file name and, where they can be located, the line and column. Nesting
// deeper than kMaxYamlDepth is an error.
Result<simdjson::dom::element> ParseJson(simdjson::dom::parser& parser, std::string_view text,
                                         std::string_view filename);
// The same without copying `text`, which must be followed by
// simdjson::SIMDJSON_PADDING readable bytes (a padded_string or PaddedFile).
Result<simdjson::dom::element> ParseJsonPadded(simdjson::dom::parser& parser, std::string_view text,
                                               std::string_view filename);

// Single-object decoders, for callers that already hold a parsed element (the
// scenario loader, the extender server). `file` prefixes error messages;
// `where` says where the object sits in it (e.g. "cluster.pods[3]") and is used
// instead of the object's name while that is unknown. Both may be empty. The
// element's `kind` field, if any, is not checked: the caller knows the kind.
Result<Pod> DecodePod(simdjson::dom::element e, std::string_view file = {},
                      std::string_view where = {});
Result<Node> DecodeNode(simdjson::dom::element e, std::string_view file = {},
                        std::string_view where = {});
Result<Service> DecodeService(simdjson::dom::element e, std::string_view file = {},
                              std::string_view where = {});
Result<ReplicationController> DecodeReplicationController(simdjson::dom::element e,
                                                          std::string_view file = {},
                                                          std::string_view where = {});
Result<ReplicaSet> DecodeReplicaSet(simdjson::dom::element e, std::string_view file = {},
                                    std::string_view where = {});
Result<StatefulSet> DecodeStatefulSet(simdjson::dom::element e, std::string_view file = {},
                                      std::string_view where = {});
Result<DaemonSet> DecodeDaemonSet(simdjson::dom::element e, std::string_view file = {},
                                  std::string_view where = {});
Result<PersistentVolume> DecodePersistentVolume(simdjson::dom::element e,
                                                std::string_view file = {},
                                                std::string_view where = {});
Result<PersistentVolumeClaim> DecodePersistentVolumeClaim(simdjson::dom::element e,
                                                          std::string_view file = {},
                                                          std::string_view where = {});
Result<StorageClass> DecodeStorageClass(simdjson::dom::element e, std::string_view file = {},
                                        std::string_view where = {});
Result<PodDisruptionBudget> DecodePodDisruptionBudget(simdjson::dom::element e,
                                                      std::string_view file = {},
                                                      std::string_view where = {});
Result<PriorityClass> DecodePriorityClass(simdjson::dom::element e, std::string_view file = {},
                                          std::string_view where = {});
Result<Namespace> DecodeNamespace(simdjson::dom::element e, std::string_view file = {},
                                  std::string_view where = {});
Result<CSINode> DecodeCSINode(simdjson::dom::element e, std::string_view file = {},
                              std::string_view where = {});
Result<CSIDriver> DecodeCSIDriver(simdjson::dom::element e, std::string_view file = {},
                                  std::string_view where = {});
Result<CSIStorageCapacity> DecodeCSIStorageCapacity(simdjson::dom::element e,
                                                    std::string_view file = {},
                                                    std::string_view where = {});

// resource.k8s.io/v1 (api/dra_types.h).
Result<DeviceClass> DecodeDeviceClass(simdjson::dom::element e, std::string_view file = {},
                                      std::string_view where = {});
Result<ResourceSlice> DecodeResourceSlice(simdjson::dom::element e, std::string_view file = {},
                                          std::string_view where = {});
Result<ResourceClaim> DecodeResourceClaim(simdjson::dom::element e, std::string_view file = {},
                                          std::string_view where = {});
Result<ResourceClaimTemplate> DecodeResourceClaimTemplate(simdjson::dom::element e,
                                                          std::string_view file = {},
                                                          std::string_view where = {});

// The storage.alpha.kubernetes.io/migrated-plugins annotation of a CSINode:
// the in-tree plugins whose volumes the node's CSI drivers serve.
inline constexpr std::string_view kMigratedPluginsAnnotation =
    "storage.alpha.kubernetes.io/migrated-plugins";
// Its value split on ",", token by token as upstream splits it ("" gives none).
std::vector<std::string> SplitMigratedPlugins(std::string_view annotation);

// Decodes one object of any supported kind, or a List of them, into *out
// (dispatching on its `kind`; `default_kind` is used when the object has none,
// as items of a typed list like PodList do).
Status DecodeAny(simdjson::dom::element e, std::string_view file, std::string_view where,
                 ObjectSet* out, std::string_view default_kind = {});

}  // namespace ksched
