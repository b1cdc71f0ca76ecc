#include "extender/extender_wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace ksched {
namespace {

// ====================================================================== UTF-8

// Length of the valid UTF-8 sequence starting at p (1..4), or 0 when the
// bytes there are not one, by the rules of Go's utf8.DecodeRune (no overlong
// forms, no surrogates, nothing above U+10FFFF).
size_t Utf8SeqLen(const unsigned char* p, size_t n) {
  unsigned char b0 = p[0];
  if (b0 < 0x80) return 1;
  auto cont = [&](size_t i, unsigned char lo, unsigned char hi) {
    return i < n && p[i] >= lo && p[i] <= hi;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1, 0x80, 0xBF) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    unsigned char lo = b0 == 0xE0 ? 0xA0 : 0x80;
    unsigned char hi = b0 == 0xED ? 0x9F : 0xBF;
    return cont(1, lo, hi) && cont(2, 0x80, 0xBF) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    unsigned char lo = b0 == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = b0 == 0xF4 ? 0x8F : 0xBF;
    return cont(1, lo, hi) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

void AppendUtf8(std::string* out, uint32_t r) {
  if (r < 0x80) {
    out->push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (r >> 6)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (r >> 12)));
    out->push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (r >> 18)));
    out->push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

// Go's utf8.DecodeRuneInString: the rune and its size; U+FFFD and 1 for a
// byte that does not start a valid sequence.
std::pair<uint32_t, size_t> DecodeRune(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t len = Utf8SeqLen(p, s.size());
  switch (len) {
    case 1:
      return {p[0], 1};
    case 2:
      return {((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu), 2};
    case 3:
      return {((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu), 3};
    case 4:
      return {
          ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu),
          4};
    default:
      return {0xFFFD, 1};
  }
}

// ====================================================================== writing

constexpr char kHex[] = "0123456789abcdef";

// A JSON string as Go's encoding/json writes it (escapeHTML on): <, > and &
// are escaped, as are U+2028/U+2029; invalid UTF-8 becomes \ufffd.
void AppendGoString(std::string* out, std::string_view s) {
  out->push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  size_t start = 0;
  size_t i = 0;
  auto flush = [&](size_t upto) { out->append(s.data() + start, upto - start); };
  while (i < n) {
    unsigned char b = p[i];
    if (b < 0x80) {
      if (b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&') {
        ++i;
        continue;
      }
      flush(i);
      switch (b) {
        case '"':
          out->append("\\\"");
          break;
        case '\\':
          out->append("\\\\");
          break;
        case '\n':
          out->append("\\n");
          break;
        case '\r':
          out->append("\\r");
          break;
        case '\t':
          out->append("\\t");
          break;
        default:
          out->append("\\u00");
          out->push_back(kHex[b >> 4]);
          out->push_back(kHex[b & 0xF]);
      }
      start = ++i;
      continue;
    }
    size_t len = Utf8SeqLen(p + i, n - i);
    if (len == 0) {
      flush(i);
      out->append("\\ufffd");
      start = ++i;
      continue;
    }
    // U+2028 and U+2029 are E2 80 A8 / E2 80 A9.
    if (len == 3 && b == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
      flush(i);
      out->append(p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029");
      i += 3;
      start = i;
      continue;
    }
    i += len;
  }
  flush(n);
  out->push_back('"');
}

void AppendInt(std::string* out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

// Writes one JSON object: Key() inserts the separator and the quoted key
// (keys are ASCII literals and need no escaping).
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string* out) : out_(out) { out_->push_back('{'); }
  std::string* Key(std::string_view key) {
    if (!first_) out_->push_back(',');
    first_ = false;
    out_->push_back('"');
    out_->append(key);
    out_->append("\":");
    return out_;
  }
  void String(std::string_view key, std::string_view value) { AppendGoString(Key(key), value); }
  void StringOmitEmpty(std::string_view key, std::string_view value) {
    if (!value.empty()) String(key, value);
  }
  void Int(std::string_view key, int64_t value) { AppendInt(Key(key), value); }
  void Bool(std::string_view key, bool value) { Key(key)->append(value ? "true" : "false"); }
  void Close() { out_->push_back('}'); }

 private:
  std::string* out_;
  bool first_ = true;
};

// A list written with `write(out, element)`; nil (`null`) when empty and
// `null_if_empty`, as Go writes a nil slice without omitempty.
template <typename T, typename F>
void AppendList(std::string* out, const std::vector<T>& list, F write) {
  out->push_back('[');
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out->push_back(',');
    write(out, list[i]);
  }
  out->push_back(']');
}

void AppendStringList(std::string* out, const std::vector<std::string>& list) {
  AppendList(out, list, [](std::string* o, const std::string& s) { AppendGoString(o, s); });
}

// A Go map[string]string: keys sorted, a repeated key keeps its last value.
void AppendStringMap(std::string* out,
                     std::vector<std::pair<std::string_view, std::string_view>> m) {
  std::stable_sort(m.begin(), m.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  out->push_back('{');
  bool first = true;
  for (size_t i = 0; i < m.size(); ++i) {
    if (i + 1 < m.size() && m[i + 1].first == m[i].first) continue;  // last one wins
    if (!first) out->push_back(',');
    first = false;
    AppendGoString(out, m[i].first);
    out->push_back(':');
    AppendGoString(out, m[i].second);
  }
  out->push_back('}');
}

void AppendLabels(std::string* out, const Labels& labels) {
  std::vector<std::pair<std::string_view, std::string_view>> m;
  m.reserve(labels.size());
  for (const auto& [k, v] : labels) m.emplace_back(Str(k), Str(v));
  AppendStringMap(out, std::move(m));
}

void AppendPairs(std::string* out, const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::vector<std::pair<std::string_view, std::string_view>> m(pairs.begin(), pairs.end());
  AppendStringMap(out, std::move(m));
}

// A resource.Quantity in canonical form. Only the parsed integers survive
// decoding, so the value is exact to the milli-unit but printed in DecimalSI
// ("1Gi" comes back as "1073741824").
void AppendQuantity(std::string* out, const ResourceQuantity& q) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  Quantity quantity = (q.milli == kMax || q.milli == kMin) ? Quantity::FromScaled(q.value, 0)
                                                           : Quantity::FromScaled(q.milli, -3);
  AppendGoString(out, quantity.String());
}

// A v1.ResourceList (map[ResourceName]Quantity): sorted, last duplicate wins.
void AppendResourceList(std::string* out, const ResourceList& list) {
  std::vector<const ResourceQuantity*> sorted;
  sorted.reserve(list.size());
  for (const ResourceQuantity& q : list) sorted.push_back(&q);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return Str(a->name) < Str(b->name); });
  out->push_back('{');
  bool first = true;
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i + 1 < sorted.size() && sorted[i + 1]->name == sorted[i]->name) continue;
    if (!first) out->push_back(',');
    first = false;
    AppendGoString(out, Str(sorted[i]->name));
    out->push_back(':');
    AppendQuantity(out, *sorted[i]);
  }
  out->push_back('}');
}

// metav1.ObjectMeta. creationTimestamp is a struct in Go, so it is written
// even when unset (as null). The value of a deletionTimestamp is not kept by
// the decoder, so it is not written.
void AppendMeta(std::string* out, const ObjectMeta& m) {
  ObjectWriter w(out);
  w.StringOmitEmpty("name", m.name);
  w.StringOmitEmpty("namespace", Str(m.ns));
  w.StringOmitEmpty("uid", m.uid);
  if (m.creation_timestamp.empty()) {
    w.Key("creationTimestamp")->append("null");
  } else {
    w.String("creationTimestamp", m.creation_timestamp);
  }
  if (!m.labels.empty()) AppendLabels(w.Key("labels"), m.labels);
  if (!m.annotations.empty()) AppendPairs(w.Key("annotations"), m.annotations);
  if (!m.owner_references.empty()) {
    AppendList(w.Key("ownerReferences"), m.owner_references,
               [](std::string* o, const OwnerReference& r) {
                 ObjectWriter rw(o);
                 rw.String("apiVersion", r.api_version);
                 rw.String("kind", r.kind);
                 rw.String("name", r.name);
                 rw.String("uid", r.uid);
                 if (r.controller) rw.Bool("controller", true);
                 rw.Close();
               });
  }
  w.Close();
}

// ---------------------------------------------------------------- selectors

void AppendRequirement(std::string* out, const SelectorRequirement& r) {
  ObjectWriter w(out);
  w.String("key", r.key);
  w.String("operator", r.op);
  if (!r.values.empty()) AppendStringList(w.Key("values"), r.values);
  w.Close();
}

void AppendRequirements(std::string* out, const std::vector<SelectorRequirement>& list) {
  AppendList(out, list, AppendRequirement);
}

void AppendNodeSelectorTerm(std::string* out, const NodeSelectorTerm& t) {
  ObjectWriter w(out);
  if (!t.match_expressions.empty())
    AppendRequirements(w.Key("matchExpressions"), t.match_expressions);
  if (!t.match_fields.empty()) AppendRequirements(w.Key("matchFields"), t.match_fields);
  w.Close();
}

void AppendLabelSelector(std::string* out, const LabelSelector& s) {
  ObjectWriter w(out);
  if (!s.match_labels.empty()) AppendPairs(w.Key("matchLabels"), s.match_labels);
  if (!s.match_expressions.empty())
    AppendRequirements(w.Key("matchExpressions"), s.match_expressions);
  w.Close();
}

void AppendPodAffinityTerm(std::string* out, const PodAffinityTerm& t) {
  ObjectWriter w(out);
  if (t.label_selector) AppendLabelSelector(w.Key("labelSelector"), *t.label_selector);
  if (!t.namespaces.empty()) AppendStringList(w.Key("namespaces"), t.namespaces);
  w.String("topologyKey", t.topology_key);
  w.Close();
}

void AppendPodAffinity(std::string* out, const PodAffinity& a) {
  ObjectWriter w(out);
  if (!a.required.empty()) {
    AppendList(w.Key("requiredDuringSchedulingIgnoredDuringExecution"), a.required,
               AppendPodAffinityTerm);
  }
  if (!a.preferred.empty()) {
    AppendList(w.Key("preferredDuringSchedulingIgnoredDuringExecution"), a.preferred,
               [](std::string* o, const WeightedPodAffinityTerm& t) {
                 ObjectWriter tw(o);
                 tw.Int("weight", t.weight);
                 AppendPodAffinityTerm(tw.Key("podAffinityTerm"), t.term);
                 tw.Close();
               });
  }
  w.Close();
}

void AppendAffinity(std::string* out, const Affinity& a) {
  ObjectWriter w(out);
  if (a.node_affinity) {
    const NodeAffinity& na = *a.node_affinity;
    ObjectWriter nw(w.Key("nodeAffinity"));
    if (na.required) {
      ObjectWriter sw(nw.Key("requiredDuringSchedulingIgnoredDuringExecution"));
      std::string* o = sw.Key("nodeSelectorTerms");
      if (na.required->terms.empty()) {
        o->append("null");
      } else {
        AppendList(o, na.required->terms, AppendNodeSelectorTerm);
      }
      sw.Close();
    }
    if (!na.preferred.empty()) {
      AppendList(nw.Key("preferredDuringSchedulingIgnoredDuringExecution"), na.preferred,
                 [](std::string* o, const PreferredSchedulingTerm& t) {
                   ObjectWriter tw(o);
                   tw.Int("weight", t.weight);
                   AppendNodeSelectorTerm(tw.Key("preference"), t.preference);
                   tw.Close();
                 });
    }
    nw.Close();
  }
  if (a.pod_affinity) AppendPodAffinity(w.Key("podAffinity"), *a.pod_affinity);
  if (a.pod_anti_affinity) AppendPodAffinity(w.Key("podAntiAffinity"), *a.pod_anti_affinity);
  w.Close();
}

const char* EffectName(TaintEffect e) {
  switch (e) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
    default:
      return "";
  }
}

// ---------------------------------------------------------------- pods

void AppendContainer(std::string* out, const Container& c) {
  ObjectWriter w(out);
  w.String("name", c.name);
  w.StringOmitEmpty("image", c.image);
  if (!c.ports.empty()) {
    AppendList(w.Key("ports"), c.ports, [](std::string* o, const ContainerPort& p) {
      ObjectWriter pw(o);
      if (p.host_port != 0) pw.Int("hostPort", p.host_port);
      pw.Int("containerPort", p.container_port);
      pw.StringOmitEmpty("protocol", p.protocol);
      pw.StringOmitEmpty("hostIP", p.host_ip);
      pw.Close();
    });
  }
  {
    ObjectWriter rw(w.Key("resources"));
    if (!c.limits.empty()) AppendResourceList(rw.Key("limits"), c.limits);
    if (!c.requests.empty()) AppendResourceList(rw.Key("requests"), c.requests);
    rw.Close();
  }
  w.Close();
}

void AppendVolume(std::string* out, const Volume& v) {
  ObjectWriter w(out);
  w.String("name", v.name);
  auto read_only = [&](ObjectWriter& sw) {
    if (v.read_only) sw.Bool("readOnly", true);
  };
  switch (v.kind) {
    case VolumeKind::kGCEPersistentDisk: {
      ObjectWriter sw(w.Key("gcePersistentDisk"));
      sw.String("pdName", v.id);
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kAWSElasticBlockStore: {
      ObjectWriter sw(w.Key("awsElasticBlockStore"));
      sw.String("volumeID", v.id);
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kAzureDisk: {
      ObjectWriter sw(w.Key("azureDisk"));
      sw.String("diskName", v.id);
      sw.String("diskURI", "");
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kCinder: {
      ObjectWriter sw(w.Key("cinder"));
      sw.String("volumeID", v.id);
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kRBD: {
      ObjectWriter sw(w.Key("rbd"));
      std::string* o = sw.Key("monitors");
      if (v.rbd_monitors.empty()) {
        o->append("null");
      } else {
        AppendStringList(o, v.rbd_monitors);
      }
      sw.String("image", v.rbd_image);
      sw.StringOmitEmpty("pool", v.rbd_pool);
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kISCSI: {
      ObjectWriter sw(w.Key("iscsi"));
      sw.String("targetPortal", v.iscsi_target_portal);
      sw.String("iqn", v.iscsi_iqn);
      sw.Int("lun", v.iscsi_lun);
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kPersistentVolumeClaim: {
      ObjectWriter sw(w.Key("persistentVolumeClaim"));
      sw.String("claimName", v.id);
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kCSI: {
      ObjectWriter sw(w.Key("csi"));
      sw.String("driver", v.id);
      read_only(sw);
      sw.Close();
      break;
    }
    case VolumeKind::kEphemeral:  // v1.23+; extenders speak v1.15's wire format
    case VolumeKind::kOther:
      break;  // the decoder keeps no source for these (emptyDir, hostPath, ...)
  }
  w.Close();
}

void AppendPodSpec(std::string* out, const PodSpec& s) {
  ObjectWriter w(out);
  if (!s.volumes.empty()) AppendList(w.Key("volumes"), s.volumes, AppendVolume);
  if (!s.init_containers.empty()) {
    AppendList(w.Key("initContainers"), s.init_containers, AppendContainer);
  }
  std::string* c = w.Key("containers");
  if (s.containers.empty()) {
    c->append("null");
  } else {
    AppendList(c, s.containers, AppendContainer);
  }
  if (!s.node_selector.empty()) AppendLabels(w.Key("nodeSelector"), s.node_selector);
  w.StringOmitEmpty("nodeName", s.node_name);
  if (s.affinity) AppendAffinity(w.Key("affinity"), *s.affinity);
  w.StringOmitEmpty("schedulerName", s.scheduler_name);
  if (!s.tolerations.empty()) {
    AppendList(w.Key("tolerations"), s.tolerations, [](std::string* o, const Toleration& t) {
      ObjectWriter tw(o);
      tw.StringOmitEmpty("key", Str(t.key));
      tw.StringOmitEmpty("operator", t.op);
      tw.StringOmitEmpty("value", Str(t.value));
      tw.StringOmitEmpty("effect", EffectName(t.effect));
      if (t.toleration_seconds) tw.Int("tolerationSeconds", *t.toleration_seconds);
      tw.Close();
    });
  }
  if (s.priority) w.Int("priority", *s.priority);
  w.Close();
}

void AppendPod(std::string* out, const Pod& pod) {
  ObjectWriter w(out);
  AppendMeta(w.Key("metadata"), pod.meta);
  AppendPodSpec(w.Key("spec"), pod.spec);
  ObjectWriter sw(w.Key("status"));
  sw.StringOmitEmpty("phase", pod.phase);
  sw.Close();
  w.Close();
}

// ---------------------------------------------------------------- nodes

void AppendNode(std::string* out, const Node& node) {
  ObjectWriter w(out);
  AppendMeta(w.Key("metadata"), node.meta);
  {
    ObjectWriter sw(w.Key("spec"));
    if (node.unschedulable) sw.Bool("unschedulable", true);
    if (!node.taints.empty()) {
      AppendList(sw.Key("taints"), node.taints, [](std::string* o, const Taint& t) {
        ObjectWriter tw(o);
        tw.String("key", Str(t.key));
        tw.StringOmitEmpty("value", Str(t.value));
        tw.String("effect", t.effect_str);
        tw.Close();
      });
    }
    sw.Close();
  }
  {
    ObjectWriter sw(w.Key("status"));
    if (!node.capacity.empty()) AppendResourceList(sw.Key("capacity"), node.capacity);
    if (!node.allocatable.empty()) AppendResourceList(sw.Key("allocatable"), node.allocatable);
    if (!node.conditions.empty()) {
      AppendList(sw.Key("conditions"), node.conditions, [](std::string* o, const NodeCondition& c) {
        ObjectWriter cw(o);
        cw.String("type", c.type);
        cw.String("status", c.status);
        cw.Close();
      });
    }
    if (!node.images.empty()) {
      AppendList(sw.Key("images"), node.images, [](std::string* o, const ContainerImage& im) {
        ObjectWriter iw(o);
        std::string* n = iw.Key("names");
        if (im.names.empty()) {
          n->append("null");
        } else {
          AppendStringList(n, im.names);
        }
        if (im.size_bytes != 0) iw.Int("sizeBytes", im.size_bytes);
        iw.Close();
      });
    }
    sw.Close();
  }
  w.Close();
}

// ====================================================================== Go scanner

// strconv.IsPrint for U+0080..U+00FF: everything but the C1 controls, NBSP
// and the soft hyphen.
bool Latin1Printable(unsigned char c) { return c >= 0xA1 && c != 0xAD; }

// Go's quoteChar: a byte shown in a syntax error, read as the rune of the
// same number (so 0xEF shows as 'ï').
std::string QuoteChar(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  std::string s = "'";
  switch (c) {
    case '\a':
      s += "\\a";
      break;
    case '\b':
      s += "\\b";
      break;
    case '\f':
      s += "\\f";
      break;
    case '\n':
      s += "\\n";
      break;
    case '\r':
      s += "\\r";
      break;
    case '\t':
      s += "\\t";
      break;
    case '\v':
      s += "\\v";
      break;
    case '\\':
      s += "\\\\";
      break;
    default:
      if (c < 0x20) {
        s += "\\x";
        s.push_back(kHex[c >> 4]);
        s.push_back(kHex[c & 0xF]);
      } else if (c < 0x7F) {
        s.push_back(static_cast<char>(c));
      } else if (c >= 0x80 && Latin1Printable(c)) {
        AppendUtf8(&s, c);
      } else {
        s += "\\u00";
        s.push_back(kHex[c >> 4]);
        s.push_back(kHex[c & 0xF]);
      }
  }
  s += "'";
  return s;
}

bool IsJsonSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsHex(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int HexValue(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// Numbers with more digits than this (and no exponent) may exceed a double.
constexpr int kMaxSafeDigits = 300;

struct ScanResult {
  size_t length = 0;  // bytes up to the end of the first value
  // Invalid UTF-8 or surrogate escapes inside strings, or a number that may
  // not fit a double.
  bool needs_sanitize = false;
};

// Runs Go's JSON scanner (encoding/json/scanner.go) over the first value, as
// json.Decoder.Decode does before it unmarshals.
Result<ScanResult> GoScan(std::string_view data) {
  enum class State : uint8_t {
    kBeginValue,
    kBeginValueOrEmpty,
    kBeginStringOrEmpty,
    kBeginString,
    kEndValue,
    kInString,
    kInStringEsc,
    kInStringEscU,
    kNeg,
    kZero,
    kOne,
    kDot,
    kDot0,
    kE,
    kESign,
    kE0,
    kLiteral,
  };
  enum class Parse : uint8_t { kObjectKey, kObjectValue, kArrayValue };
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const size_t n = data.size();
  std::vector<Parse> stack;
  State state = State::kBeginValue;
  ScanResult res;
  int esc_digits = 0;
  uint32_t esc_value = 0;
  const char* literal = nullptr;  // the rest of "true"/"false"/"null" still expected
  const char* literal_name = nullptr;
  bool seen_non_space = false;
  int digits = 0;  // of the current number
  auto fail = [](unsigned char c, const char* context) -> Error {
    return MakeError(fmt::format("invalid character {} {}", QuoteChar(c), context));
  };

  size_t i = 0;
  for (; i < n; ++i) {
    unsigned char c = p[i];
    if (!IsJsonSpace(c)) seen_non_space = true;
  reprocess:
    switch (state) {
      case State::kBeginValueOrEmpty:
        if (IsJsonSpace(c)) continue;
        if (c == ']') {
          stack.pop_back();
          state = State::kEndValue;
          break;  // handled below: the value may be complete
        }
        state = State::kBeginValue;
        goto reprocess;
      case State::kBeginValue:
        if (IsJsonSpace(c)) continue;
        switch (c) {
          case '{':
            stack.push_back(Parse::kObjectKey);
            state = State::kBeginStringOrEmpty;
            continue;
          case '[':
            stack.push_back(Parse::kArrayValue);
            state = State::kBeginValueOrEmpty;
            continue;
          case '"':
            state = State::kInString;
            continue;
          case '-':
            state = State::kNeg;
            digits = 0;
            continue;
          case '0':
            state = State::kZero;
            continue;
          case 't':
            literal = "rue";
            literal_name = "true";
            state = State::kLiteral;
            continue;
          case 'f':
            literal = "alse";
            literal_name = "false";
            state = State::kLiteral;
            continue;
          case 'n':
            literal = "ull";
            literal_name = "null";
            state = State::kLiteral;
            continue;
          default:
            if (c >= '1' && c <= '9') {
              state = State::kOne;
              digits = 0;
              continue;
            }
            return fail(c, "looking for beginning of value");
        }
      case State::kBeginStringOrEmpty:
        if (IsJsonSpace(c)) continue;
        if (c == '}') {
          stack.pop_back();
          state = State::kEndValue;
          break;
        }
        state = State::kBeginString;
        goto reprocess;
      case State::kBeginString:
        if (IsJsonSpace(c)) continue;
        if (c == '"') {
          state = State::kInString;
          continue;
        }
        return fail(c, "looking for beginning of object key string");
      case State::kEndValue: {
        if (IsJsonSpace(c)) continue;
        Parse& top = stack.back();  // non-empty: an empty stack ended the loop
        if (top == Parse::kObjectKey) {
          if (c == ':') {
            top = Parse::kObjectValue;
            state = State::kBeginValue;
            continue;
          }
          return fail(c, "after object key");
        }
        if (top == Parse::kObjectValue) {
          if (c == ',') {
            top = Parse::kObjectKey;
            state = State::kBeginString;
            continue;
          }
          if (c == '}') {
            stack.pop_back();
            break;
          }
          return fail(c, "after object key:value pair");
        }
        if (c == ',') {
          state = State::kBeginValue;
          continue;
        }
        if (c == ']') {
          stack.pop_back();
          break;
        }
        return fail(c, "after array element");
      }
      case State::kInString: {
        // Fast path over ordinary bytes.
        while (i < n) {
          c = p[i];
          if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
          ++i;
        }
        if (i >= n) goto eof;
        if (c == '"') {
          state = State::kEndValue;
          break;
        }
        if (c == '\\') {
          state = State::kInStringEsc;
          continue;
        }
        if (c < 0x20) return fail(c, "in string literal");
        size_t len = Utf8SeqLen(p + i, n - i);
        if (len == 0) {
          res.needs_sanitize = true;
        } else {
          i += len - 1;
        }
        continue;
      }
      case State::kInStringEsc:
        switch (c) {
          case 'b':
          case 'f':
          case 'n':
          case 'r':
          case 't':
          case '\\':
          case '/':
          case '"':
            state = State::kInString;
            continue;
          case 'u':
            esc_digits = 0;
            esc_value = 0;
            state = State::kInStringEscU;
            continue;
          default:
            return fail(c, "in string escape code");
        }
      case State::kInStringEscU:
        if (!IsHex(c)) return fail(c, "in \\u hexadecimal character escape");
        esc_value = esc_value * 16 + HexValue(c);
        if (++esc_digits == 4) {
          if (esc_value >= 0xD800 && esc_value <= 0xDFFF) res.needs_sanitize = true;
          state = State::kInString;
        }
        continue;
      case State::kNeg:
        if (c == '0') {
          state = State::kZero;
          continue;
        }
        if (c >= '1' && c <= '9') {
          state = State::kOne;
          continue;
        }
        return fail(c, "in numeric literal");
      case State::kOne:
        if (c >= '0' && c <= '9') {
          if (++digits > kMaxSafeDigits) res.needs_sanitize = true;
          continue;
        }
        state = State::kZero;
        goto reprocess;
      case State::kZero:
        if (c == '.') {
          state = State::kDot;
          continue;
        }
        if (c == 'e' || c == 'E') {
          res.needs_sanitize = true;  // an exponent may overflow a double
          state = State::kE;
          continue;
        }
        state = State::kEndValue;
        if (stack.empty()) goto done_before;  // the number ended at the previous byte
        goto reprocess;
      case State::kDot:
        if (c >= '0' && c <= '9') {
          state = State::kDot0;
          continue;
        }
        return fail(c, "after decimal point in numeric literal");
      case State::kDot0:
        if (c >= '0' && c <= '9') {
          if (++digits > kMaxSafeDigits) res.needs_sanitize = true;
          continue;
        }
        if (c == 'e' || c == 'E') {
          res.needs_sanitize = true;  // an exponent may overflow a double
          state = State::kE;
          continue;
        }
        state = State::kEndValue;
        if (stack.empty()) goto done_before;
        goto reprocess;
      case State::kE:
        if (c == '+' || c == '-') {
          state = State::kESign;
          continue;
        }
        state = State::kESign;
        goto reprocess;
      case State::kESign:
        if (c >= '0' && c <= '9') {
          state = State::kE0;
          continue;
        }
        return fail(c, "in exponent of numeric literal");
      case State::kE0:
        if (c >= '0' && c <= '9') continue;
        state = State::kEndValue;
        if (stack.empty()) goto done_before;
        goto reprocess;
      case State::kLiteral:
        if (c != static_cast<unsigned char>(*literal)) {
          return fail(c, fmt::format("in literal {} (expecting {})", literal_name,
                                     QuoteChar(static_cast<unsigned char>(*literal)))
                             .c_str());
        }
        ++literal;
        if (*literal != '\0') continue;
        state = State::kEndValue;
        break;
    }
    // Reached after a byte that completed a value (closing quote or bracket,
    // last letter of a literal): at the top level that is the whole value.
    if (state == State::kEndValue && stack.empty()) {
      res.length = i + 1;
      return res;
    }
  }
eof:
  // End of input: Go feeds a blank, which completes a top-level number.
  if (stack.empty() && (state == State::kZero || state == State::kOne || state == State::kDot0 ||
                        state == State::kE0)) {
    res.length = n;
    return res;
  }
  return MakeError(seen_non_space ? "unexpected EOF" : "EOF");
done_before:
  res.length = i;
  return res;
}

// A number literal nlohmann cannot hold (beyond a double's range): its
// position among the value's numbers, and its text.
struct Overflow {
  size_t ordinal;
  std::string literal;
};

// Rewrites what Go's unquote replaces with U+FFFD (invalid UTF-8 bytes, lone
// surrogate escapes) so that nlohmann, which rejects both, reads the same
// strings Go would, and replaces numbers too large for a double (which Go
// skips or reports, and nlohmann cannot parse) by 0, listing them in
// `overflows`. Input is known to be syntactically valid.
std::string Sanitize(std::string_view v, std::vector<Overflow>* overflows) {
  std::string out;
  out.reserve(v.size() + 16);
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  const size_t n = v.size();
  bool in_string = false;
  size_t number_count = 0;
  auto hex4 = [&](size_t at, uint32_t* value) {
    if (at + 6 > n || p[at] != '\\' || p[at + 1] != 'u') return false;
    uint32_t x = 0;
    for (size_t k = at + 2; k < at + 6; ++k) {
      if (!IsHex(p[k])) return false;
      x = x * 16 + HexValue(p[k]);
    }
    *value = x;
    return true;
  };
  size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (!in_string) {
      if (c == '-' || (c >= '0' && c <= '9')) {
        size_t j = i + 1;
        while (j < n && ((p[j] >= '0' && p[j] <= '9') || p[j] == '.' || p[j] == 'e' ||
                         p[j] == 'E' || p[j] == '+' || p[j] == '-')) {
          ++j;
        }
        std::string literal(v.substr(i, j - i));
        size_t ordinal = number_count++;
        bool risky = j - i > static_cast<size_t>(kMaxSafeDigits) ||
                     literal.find_first_of("eE") != std::string::npos;
        if (risky && std::isinf(std::strtod(literal.c_str(), nullptr))) {
          overflows->push_back(Overflow{ordinal, std::move(literal)});
          out.push_back('0');
        } else {
          out.append(literal);
        }
        i = j;
        continue;
      }
      if (c == '"') in_string = true;
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    if (c == '"') {
      in_string = false;
      out.push_back('"');
      ++i;
      continue;
    }
    if (c == '\\') {
      uint32_t u = 0;
      if (p[i + 1] == 'u' && hex4(i, &u)) {
        uint32_t u2 = 0;
        if (u >= 0xD800 && u <= 0xDBFF && hex4(i + 6, &u2) && u2 >= 0xDC00 && u2 <= 0xDFFF) {
          out.append(v.substr(i, 12));
          i += 12;
        } else if (u >= 0xD800 && u <= 0xDFFF) {
          out.append("\\ufffd");
          i += 6;
        } else {
          out.append(v.substr(i, 6));
          i += 6;
        }
      } else {
        out.append(v.substr(i, 2));
        i += 2;
      }
      continue;
    }
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    size_t len = Utf8SeqLen(p + i, n - i);
    if (len == 0) {
      out.append("\xEF\xBF\xBD");
      ++i;
    } else {
      out.append(v.substr(i, len));
      i += len;
    }
  }
  return out;
}

// ====================================================================== decoding

// Go's case folding for field names (encoding/json equalFoldRight): ASCII
// letters match either case, and 's'/'k' also match U+017F and U+212A.
bool GoFoldEqual(std::string_view field, std::string_view key) {
  size_t t = 0;
  for (unsigned char sb : field) {
    if (t >= key.size()) return false;
    unsigned char tb = static_cast<unsigned char>(key[t]);
    if (tb < 0x80) {
      if (sb != tb) {
        unsigned char su = sb & ~0x20;
        if (su < 'A' || su > 'Z' || su != (tb & ~0x20)) return false;
      }
      ++t;
      continue;
    }
    auto [r, size] = DecodeRune(key.substr(t));
    if ((sb == 's' || sb == 'S') && r == 0x017F) {
      t += size;
    } else if ((sb == 'k' || sb == 'K') && r == 0x212A) {
      t += size;
    } else {
      return false;
    }
  }
  return t == key.size();
}

// A Go slice being decoded into: decoding an array reuses existing elements
// (and, through the capacity, elements a shorter array left behind), exactly
// as encoding/json's array() does.
template <typename T>
struct GoSliceOf {
  std::vector<T> storage;  // size() is the capacity
  size_t len = 0;

  void Reset() {
    storage.clear();
    len = 0;
  }
  // Makes element i addressable, growing as reflect would: a grown slice
  // copies only the first `len` elements, while growing within the capacity
  // uncovers whatever an earlier, longer value left there.
  void Element(size_t i) {
    if (i >= storage.size()) {
      size_t cap = storage.size() + storage.size() / 2;
      if (cap < 4) cap = 4;
      std::vector<T> grown(cap);
      for (size_t k = 0; k < len; ++k) grown[k] = std::move(storage[k]);
      storage = std::move(grown);
    }
    if (i >= len) len = i + 1;
  }
  void End(size_t count) {
    if (count < len) len = count;
    if (count == 0) Reset();
  }
  std::vector<T> Values() const { return std::vector<T>(storage.begin(), storage.begin() + len); }
};
using GoSlice = GoSliceOf<std::string>;

// A *api.MetaPod element of a victims list: nil, or a UID.
struct MetaPodSlot {
  bool nil = true;
  std::string uid;
};

// One entry of NodeNameToMetaVictims: a nil *MetaVictims, or its pods.
struct MetaVictimsEntry {
  std::string node;
  bool nil = true;
  GoSliceOf<MetaPodSlot> pods;
};

enum class Kind : uint8_t {
  kSkip,
  kIgnoredString,  // a string field whose value ksched does not need
  kFilterResult,
  kNodeList,
  kNodeItems,
  kNode,
  kNodeMeta,
  kNodeName,
  kNodeNames,
  kNodeNamesElem,
  kFailedMap,
  kFailedValue,
  kErrorString,
  kHostPriorityList,
  kHostPriority,
  kHostPriorityHost,
  kHostPriorityScore,
  kBindingResult,
  kPreemptionResult,
  kMetaVictimsMap,
  kMetaVictims,
  kMetaPods,
  kMetaPod,
  kMetaPodUid,
  kIgnoredInt,  // an int field whose value ksched does not need
};

const char* GoTypeName(Kind k) {
  switch (k) {
    case Kind::kFilterResult:
      return "api.ExtenderFilterResult";
    case Kind::kNodeList:
      return "v1.NodeList";
    case Kind::kNodeItems:
      return "[]v1.Node";
    case Kind::kNode:
      return "v1.Node";
    case Kind::kNodeMeta:
      return "v1.ObjectMeta";
    case Kind::kNodeNames:
      return "[]string";
    case Kind::kFailedMap:
      return "api.FailedNodesMap";
    case Kind::kHostPriorityList:
      return "api.HostPriorityList";
    case Kind::kHostPriority:
      return "api.HostPriority";
    case Kind::kHostPriorityScore:
      return "int";
    case Kind::kBindingResult:
      return "api.ExtenderBindingResult";
    case Kind::kPreemptionResult:
      return "api.ExtenderPreemptionResult";
    case Kind::kMetaVictimsMap:
      return "map[string]*api.MetaVictims";
    case Kind::kMetaVictims:
      return "api.MetaVictims";
    case Kind::kMetaPods:
      return "[]*api.MetaPod";
    case Kind::kMetaPod:
      return "api.MetaPod";
    case Kind::kIgnoredInt:
      return "int";
    default:
      return "string";
  }
}

// Where a value goes: its kind, the element it fills, and the Go struct and
// field named in type errors.
struct Target {
  Kind kind = Kind::kSkip;
  size_t slot = 0;
  size_t slot2 = 0;  // a victims list's element, within victims entry `slot`
  const char* ctx_struct = "";
  const char* ctx_field = "";
};

struct FieldSpec {
  const char* name;
  Kind kind;
};

// The fields of each struct kind, in Go declaration order.
std::pair<const FieldSpec*, size_t> FieldsOf(Kind k) {
  static const FieldSpec kFilter[] = {{"Nodes", Kind::kNodeList},
                                      {"NodeNames", Kind::kNodeNames},
                                      {"FailedNodes", Kind::kFailedMap},
                                      {"Error", Kind::kErrorString}};
  static const FieldSpec kNodeList[] = {{"kind", Kind::kIgnoredString},
                                        {"apiVersion", Kind::kIgnoredString},
                                        {"metadata", Kind::kSkip},
                                        {"items", Kind::kNodeItems}};
  static const FieldSpec kNode[] = {{"kind", Kind::kIgnoredString},
                                    {"apiVersion", Kind::kIgnoredString},
                                    {"metadata", Kind::kNodeMeta}};
  static const FieldSpec kMeta[] = {{"name", Kind::kNodeName}};
  static const FieldSpec kHost[] = {{"Host", Kind::kHostPriorityHost},
                                    {"Score", Kind::kHostPriorityScore}};
  static const FieldSpec kBinding[] = {{"Error", Kind::kErrorString}};
  static const FieldSpec kPreemption[] = {{"NodeNameToMetaVictims", Kind::kMetaVictimsMap}};
  static const FieldSpec kVictims[] = {{"Pods", Kind::kMetaPods},
                                       {"NumPDBViolations", Kind::kIgnoredInt}};
  static const FieldSpec kMetaPodFields[] = {{"UID", Kind::kMetaPodUid}};
  switch (k) {
    case Kind::kPreemptionResult:
      return {kPreemption, std::size(kPreemption)};
    case Kind::kMetaVictims:
      return {kVictims, std::size(kVictims)};
    case Kind::kMetaPod:
      return {kMetaPodFields, std::size(kMetaPodFields)};
    case Kind::kFilterResult:
      return {kFilter, std::size(kFilter)};
    case Kind::kNodeList:
      return {kNodeList, std::size(kNodeList)};
    case Kind::kNode:
      return {kNode, std::size(kNode)};
    case Kind::kNodeMeta:
      return {kMeta, std::size(kMeta)};
    case Kind::kHostPriority:
      return {kHost, std::size(kHost)};
    case Kind::kBindingResult:
      return {kBinding, std::size(kBinding)};
    default:
      return {nullptr, 0};
  }
}

const char* StructName(Kind k) {
  switch (k) {
    case Kind::kFilterResult:
      return "ExtenderFilterResult";
    case Kind::kNodeList:
      return "NodeList";
    case Kind::kNode:
      return "Node";
    case Kind::kNodeMeta:
      return "ObjectMeta";
    case Kind::kHostPriority:
      return "HostPriority";
    case Kind::kBindingResult:
      return "ExtenderBindingResult";
    case Kind::kPreemptionResult:
      return "ExtenderPreemptionResult";
    case Kind::kMetaVictims:
      return "MetaVictims";
    case Kind::kMetaPod:
      return "MetaPod";
    default:
      return "";
  }
}

// An nlohmann SAX consumer that unmarshals with encoding/json's semantics
// into the few fields ksched needs.
class GoUnmarshaler {
 public:
  using json = nlohmann::json;

  explicit GoUnmarshaler(Kind root) : root_(root) {}
  // Numbers the sanitizer replaced (see Sanitize).
  void set_overflows(std::vector<Overflow> overflows) { overflows_ = std::move(overflows); }

  // ---- results
  std::optional<Error>& error() { return error_; }
  GoSlice& items() { return items_; }
  bool nodes_set() const { return nodes_set_; }
  GoSlice& names() { return names_; }
  bool names_set() const { return names_set_; }
  std::vector<std::pair<std::string, std::string>>& failed() { return failed_; }
  std::string& error_field() { return error_field_; }
  std::vector<WireHostPriority>& priorities() { return priorities_; }
  std::vector<MetaVictimsEntry>& victims() { return victims_; }

  // ---- SAX interface
  bool null() {
    Target t = Take();
    switch (t.kind) {
      case Kind::kNodeList:
        nodes_set_ = false;
        items_.Reset();
        break;
      case Kind::kNodeItems:
        items_.Reset();
        break;
      case Kind::kNodeNames:
        names_set_ = false;
        names_.Reset();
        break;
      case Kind::kFailedMap:
        failed_.clear();
        failed_index_.clear();
        break;
      case Kind::kFailedValue:
        SetFailed("");
        break;
      case Kind::kHostPriorityList:
        priorities_.clear();
        break;
      case Kind::kMetaVictimsMap:
        victims_.clear();
        victims_index_.clear();
        break;
      case Kind::kMetaVictims:
        victims_[t.slot].nil = true;
        victims_[t.slot].pods.Reset();
        break;
      case Kind::kMetaPods:
        victims_[t.slot].pods.Reset();
        break;
      case Kind::kMetaPod:
        victims_[t.slot].pods.storage[t.slot2].nil = true;
        break;
      default:
        break;  // null into a string, number or struct changes nothing
    }
    return true;
  }
  bool boolean(bool) {
    Target t = Take();
    return t.kind == Kind::kSkip || TypeError("bool", t);
  }
  bool number_integer(json::number_integer_t v) {
    if (const std::string* big = OverflowLiteral()) return Overflowed(*big);
    Target t = Take();
    if (t.kind == Kind::kHostPriorityScore) {
      priorities_[t.slot].score = v;
      return true;
    }
    if (t.kind == Kind::kIgnoredInt) return true;
    return NumberElsewhere(t);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (const std::string* big = OverflowLiteral()) return Overflowed(*big);
    Target t = Take();
    if (t.kind == Kind::kHostPriorityScore) {
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return TypeError("number " + std::to_string(v), t);
      }
      priorities_[t.slot].score = static_cast<int64_t>(v);
      return true;
    }
    if (t.kind == Kind::kIgnoredInt) {
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return TypeError("number " + std::to_string(v), t);
      }
      return true;
    }
    return NumberElsewhere(t);
  }
  bool number_float(json::number_float_t, const json::string_t& literal) {
    if (const std::string* big = OverflowLiteral()) return Overflowed(*big);
    Target t = Take();
    if (t.kind == Kind::kHostPriorityScore || t.kind == Kind::kIgnoredInt) {
      return TypeError("number " + literal, t);
    }
    return NumberElsewhere(t);
  }
  bool string(json::string_t& s) {
    Target t = Take();
    switch (t.kind) {
      case Kind::kSkip:
      case Kind::kIgnoredString:
        return true;
      case Kind::kNodeName:
        items_.storage[t.slot] = std::move(s);
        return true;
      case Kind::kNodeNamesElem:
        names_.storage[t.slot] = std::move(s);
        return true;
      case Kind::kFailedValue:
        SetFailed(std::move(s));
        return true;
      case Kind::kErrorString:
        error_field_ = std::move(s);
        return true;
      case Kind::kHostPriorityHost:
        priorities_[t.slot].host = std::move(s);
        return true;
      case Kind::kMetaPodUid:
        victims_[t.slot].pods.storage[t.slot2].uid = std::move(s);
        return true;
      default:
        return TypeError("string", t);
    }
  }
  bool binary(json::binary_t&) { return true; }  // not produced by the JSON parser

  bool start_object(std::size_t) {
    Target t = Take();
    switch (t.kind) {
      case Kind::kSkip:
      case Kind::kFilterResult:
      case Kind::kNode:
      case Kind::kNodeMeta:
      case Kind::kHostPriority:
      case Kind::kBindingResult:
        break;
      case Kind::kNodeList:
        if (!nodes_set_) {
          nodes_set_ = true;
          items_.Reset();
        }
        break;
      case Kind::kFailedMap:
      case Kind::kPreemptionResult:
      case Kind::kMetaVictimsMap:
        break;
      case Kind::kMetaVictims:
        // A map element starts from a new, zero MetaVictims.
        victims_[t.slot].nil = false;
        victims_[t.slot].pods.Reset();
        break;
      case Kind::kMetaPod: {
        MetaPodSlot& slot = victims_[t.slot].pods.storage[t.slot2];
        if (slot.nil) slot = MetaPodSlot{false, {}};  // a nil pointer gets a new MetaPod
        break;
      }
      default:
        return TypeError("object", t);
    }
    PushFrame(t, /*is_array=*/false);
    return true;
  }
  bool key(json::string_t& k) {
    Frame& f = stack_.back();
    const Target& self = f.self;
    Target next;
    next.slot = self.slot;
    next.slot2 = self.slot2;
    next.ctx_struct = self.ctx_struct;
    next.ctx_field = self.ctx_field;
    if (self.kind == Kind::kFailedMap) {
      f.map_key = std::move(k);
      next.kind = Kind::kFailedValue;
    } else if (self.kind == Kind::kMetaVictimsMap) {
      // Each key decodes into a fresh element, then replaces any earlier one.
      auto [it, inserted] = victims_index_.emplace(k, victims_.size());
      if (inserted) {
        victims_.emplace_back();
        victims_.back().node = std::move(k);
      } else {
        victims_[it->second] = MetaVictimsEntry{victims_[it->second].node, true, {}};
      }
      next.kind = Kind::kMetaVictims;
      next.slot = it->second;
    } else if (self.kind != Kind::kSkip) {
      auto [fields, count] = FieldsOf(self.kind);
      next.kind = Kind::kSkip;
      for (size_t i = 0; i < count; ++i) {
        if (GoFoldEqual(fields[i].name, k)) {
          next.kind = fields[i].kind;
          next.ctx_struct = StructName(self.kind);
          next.ctx_field = fields[i].name;
          break;
        }
      }
    }
    f.pending = next;
    return true;
  }
  bool end_object() {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    Target t = Take();
    switch (t.kind) {
      case Kind::kSkip:
      case Kind::kNodeItems:
      case Kind::kHostPriorityList:
      case Kind::kMetaPods:
        break;
      case Kind::kNodeNames:
        if (!names_set_) {
          names_set_ = true;
          names_.Reset();
        }
        break;
      default:
        return TypeError("array", t);
    }
    PushFrame(t, /*is_array=*/true);
    return true;
  }
  bool end_array() {
    Frame& f = stack_.back();
    if (f.self.kind == Kind::kNodeItems) items_.End(f.count);
    if (f.self.kind == Kind::kNodeNames) names_.End(f.count);
    if (f.self.kind == Kind::kMetaPods) victims_[f.self.slot].pods.End(f.count);
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    // The input passed Go's scanner, so this is one of nlohmann's own limits
    // (a number too large for a double).
    error_ = MakeError(fmt::format("cannot decode reply at byte {}: {}", position, e.what()));
    return false;
  }

 private:
  struct Frame {
    Target self;
    bool is_array = false;
    size_t count = 0;     // arrays: elements seen so far
    Target pending;       // objects: where the value after the last key goes
    std::string map_key;  // maps: the last key
  };

  void PushFrame(const Target& t, bool is_array) {
    stack_.emplace_back();
    stack_.back().self = t;
    stack_.back().is_array = is_array;
  }

  // The target of the value that starts now.
  Target Take() {
    if (stack_.empty()) {
      Target t;
      t.kind = root_;
      return t;
    }
    Frame& f = stack_.back();
    if (!f.is_array) return f.pending;
    Target t;
    t.ctx_struct = f.self.ctx_struct;
    t.ctx_field = f.self.ctx_field;
    size_t i = f.count++;
    switch (f.self.kind) {
      case Kind::kNodeItems:
        items_.Element(i);
        t.kind = Kind::kNode;
        t.slot = i;
        break;
      case Kind::kNodeNames:
        names_.Element(i);
        t.kind = Kind::kNodeNamesElem;
        t.slot = i;
        break;
      case Kind::kHostPriorityList:
        if (i >= priorities_.size()) priorities_.resize(i + 1);
        t.kind = Kind::kHostPriority;
        t.slot = i;
        break;
      case Kind::kMetaPods:
        victims_[f.self.slot].pods.Element(i);
        t.kind = Kind::kMetaPod;
        t.slot = f.self.slot;
        t.slot2 = i;
        break;
      default:
        t.kind = Kind::kSkip;
    }
    return t;
  }

  // The original text when the number now read stood for one too large.
  const std::string* OverflowLiteral() {
    size_t ordinal = numbers_seen_++;
    if (next_overflow_ < overflows_.size() && overflows_[next_overflow_].ordinal == ordinal) {
      return &overflows_[next_overflow_++].literal;
    }
    return nullptr;
  }
  // A number beyond int and double: Go can store it nowhere but skips it.
  bool Overflowed(const std::string& literal) {
    Target t = Take();
    if (t.kind == Kind::kHostPriorityScore || t.kind == Kind::kIgnoredInt) {
      return TypeError("number " + literal, t);
    }
    return NumberElsewhere(t);
  }

  bool NumberElsewhere(const Target& t) { return t.kind == Kind::kSkip || TypeError("number", t); }

  void SetFailed(std::string reason) {
    const std::string& key = stack_.back().map_key;
    auto it = failed_index_.find(key);
    if (it != failed_index_.end()) {
      failed_[it->second].second = std::move(reason);
      return;
    }
    failed_index_.emplace(key, failed_.size());
    failed_.emplace_back(key, std::move(reason));
  }

  // Go's UnmarshalTypeError text. Returns false to stop the parse.
  bool TypeError(const std::string& value, const Target& t) {
    if (*t.ctx_struct != '\0') {
      error_ =
          MakeError(fmt::format("json: cannot unmarshal {} into Go struct field {}.{} of type {}",
                                value, t.ctx_struct, t.ctx_field, GoTypeName(t.kind)));
    } else {
      error_ = MakeError(fmt::format("json: cannot unmarshal {} into Go value of type {}", value,
                                     GoTypeName(t.kind)));
    }
    return false;
  }

  Kind root_;
  std::vector<Overflow> overflows_;
  size_t next_overflow_ = 0;
  size_t numbers_seen_ = 0;
  std::vector<Frame> stack_;
  std::optional<Error> error_;
  bool nodes_set_ = false;
  GoSlice items_;
  bool names_set_ = false;
  GoSlice names_;
  std::vector<std::pair<std::string, std::string>> failed_;
  std::unordered_map<std::string, size_t> failed_index_;
  std::string error_field_;
  std::vector<WireHostPriority> priorities_;
  std::vector<MetaVictimsEntry> victims_;
  std::unordered_map<std::string, size_t> victims_index_;
};

// Frames the first value like json.Decoder, then unmarshals it.
Status Unmarshal(std::string_view body, GoUnmarshaler* u) {
  auto scan = GoScan(body);
  if (!scan.ok()) return scan.error();
  std::string_view value = body.substr(0, scan->length);
  std::string sanitized;
  if (scan->needs_sanitize) {
    std::vector<Overflow> overflows;
    sanitized = Sanitize(value, &overflows);
    u->set_overflows(std::move(overflows));
    value = sanitized;
  }
  try {
    nlohmann::json::sax_parse(value.begin(), value.end(), u, nlohmann::json::input_format_t::json,
                              /*strict=*/true);
  } catch (const std::exception& e) {
    return MakeError(fmt::format("cannot decode reply: {}", e.what()));
  }
  if (u->error()) return *u->error();
  return Status::Ok();
}

// ====================================================================== fmt

// fmt's parsenum: digits from i (bounded by end); a number over 1e6 makes
// Go give up on the rest of the directive (it returns end).
bool ParseNum(std::string_view s, size_t* i, size_t end) {
  if (*i >= end) return false;
  int64_t num = 0;
  bool isnum = false;
  size_t k = *i;
  for (; k < end && s[k] >= '0' && s[k] <= '9'; ++k) {
    if (num > 1000000 || num < -1000000) {
      *i = end;
      return false;
    }
    num = num * 10 + (s[k] - '0');
    isnum = true;
  }
  *i = k;
  return isnum;
}

// fmt's argNumber with no operands: an explicit "[n]" index is always bad.
void ArgNumber(std::string_view f, size_t* i, bool* good, bool* after_index) {
  if (*i >= f.size() || f[*i] != '[') {
    *after_index = false;
    return;
  }
  std::string_view rest = f.substr(*i);
  size_t width = 1;
  bool ok = false;
  if (rest.size() >= 3) {
    for (size_t j = 1; j < rest.size(); ++j) {
      if (rest[j] == ']') {
        size_t k = 1;
        bool isnum = ParseNum(rest, &k, j);
        ok = isnum && k == j;
        width = j + 1;
        break;
      }
    }
  }
  *good = false;
  *i += width;
  *after_index = ok;
}

}  // namespace

// ====================================================================== public

std::string PodToJson(const Pod& pod) {
  std::string out;
  out.reserve(1024);
  AppendPod(&out, pod);
  return out;
}

std::string NodeToJson(const Node& node) {
  std::string out;
  out.reserve(1024);
  AppendNode(&out, node);
  return out;
}

std::string EncodeExtenderArgs(const Pod& pod, const std::vector<NodeId>& nodes,
                               const ClusterState& cluster, bool node_cache_capable) {
  std::string out;
  out.reserve(1024 + nodes.size() * (node_cache_capable ? 24 : 1024));
  ObjectWriter w(&out);
  AppendPod(w.Key("Pod"), pod);
  if (node_cache_capable) {
    w.Key("Nodes")->append("null");
    std::string* o = w.Key("NodeNames");
    o->push_back('[');
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (i > 0) o->push_back(',');
      AppendGoString(o, cluster.node(nodes[i]).meta.name);
    }
    o->push_back(']');
  } else {
    ObjectWriter lw(w.Key("Nodes"));
    lw.Key("metadata")->append("{}");
    std::string* o = lw.Key("items");
    if (nodes.empty()) {
      o->append("null");
    } else {
      o->push_back('[');
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (i > 0) o->push_back(',');
        AppendNode(o, cluster.node(nodes[i]));
      }
      o->push_back(']');
    }
    lw.Close();
    w.Key("NodeNames")->append("null");
  }
  w.Close();
  return out;
}

std::string EncodePreemptionArgs(const Pod& pod, const std::vector<ExtenderNodeVictims>& victims,
                                 const ClusterState& cluster, bool node_cache_capable) {
  std::vector<const ExtenderNodeVictims*> sorted;
  sorted.reserve(victims.size());
  for (const ExtenderNodeVictims& v : victims) sorted.push_back(&v);
  std::stable_sort(sorted.begin(), sorted.end(), [&](const auto* a, const auto* b) {
    return cluster.node(a->node).meta.name < cluster.node(b->node).meta.name;
  });
  std::string out;
  ObjectWriter w(&out);
  AppendPod(w.Key("Pod"), pod);
  auto write_map = [&](std::string* o, bool meta) {
    o->push_back('{');
    for (size_t i = 0; i < sorted.size(); ++i) {
      const ExtenderNodeVictims& v = *sorted[i];
      if (i > 0) o->push_back(',');
      AppendGoString(o, cluster.node(v.node).meta.name);
      o->push_back(':');
      ObjectWriter vw(o);
      std::string* pods = vw.Key("Pods");
      if (v.pods.empty()) {
        pods->append("null");  // a nil slice
      } else {
        AppendList(pods, v.pods, [&](std::string* po, PodId id) {
          if (meta) {
            ObjectWriter mw(po);
            mw.String("UID", cluster.pod(id).pod.meta.uid);
            mw.Close();
          } else {
            AppendPod(po, cluster.pod(id).pod);
          }
        });
      }
      vw.Int("NumPDBViolations", v.num_pdb_violations);
      vw.Close();
    }
    o->push_back('}');
  };
  if (node_cache_capable) {
    w.Key("NodeNameToVictims")->append("null");
    write_map(w.Key("NodeNameToMetaVictims"), /*meta=*/true);
  } else {
    write_map(w.Key("NodeNameToVictims"), /*meta=*/false);
    w.Key("NodeNameToMetaVictims")->append("null");
  }
  w.Close();
  return out;
}

std::string EncodeBindingArgs(std::string_view pod_name, std::string_view pod_namespace,
                              std::string_view pod_uid, std::string_view node) {
  std::string out;
  ObjectWriter w(&out);
  w.String("PodName", pod_name);
  w.String("PodNamespace", pod_namespace);
  w.String("PodUID", pod_uid);
  w.String("Node", node);
  w.Close();
  return out;
}

Result<WireFilterResult> DecodeFilterResult(std::string_view body) {
  GoUnmarshaler u(Kind::kFilterResult);
  if (Status s = Unmarshal(body, &u); !s.ok()) return s.error();
  WireFilterResult r;
  if (u.nodes_set()) r.nodes = u.items().Values();
  if (u.names_set()) r.node_names = u.names().Values();
  r.failed_nodes = std::move(u.failed());
  r.error = std::move(u.error_field());
  return r;
}

Result<std::vector<WireHostPriority>> DecodeHostPriorityList(std::string_view body) {
  GoUnmarshaler u(Kind::kHostPriorityList);
  if (Status s = Unmarshal(body, &u); !s.ok()) return s.error();
  return std::move(u.priorities());
}

Result<std::vector<WireMetaVictims>> DecodePreemptionResult(std::string_view body) {
  GoUnmarshaler u(Kind::kPreemptionResult);
  if (Status s = Unmarshal(body, &u); !s.ok()) return s.error();
  std::vector<WireMetaVictims> out;
  out.reserve(u.victims().size());
  for (MetaVictimsEntry& e : u.victims()) {
    WireMetaVictims v;
    v.node = std::move(e.node);
    v.nil = e.nil;
    for (MetaPodSlot& slot : e.pods.Values()) v.pods.push_back({slot.nil, std::move(slot.uid)});
    out.push_back(std::move(v));
  }
  return out;
}

Result<std::string> DecodeBindingResult(std::string_view body) {
  GoUnmarshaler u(Kind::kBindingResult);
  if (Status s = Unmarshal(body, &u); !s.ok()) return s.error();
  return std::move(u.error_field());
}

Result<size_t> GoJsonValueLength(std::string_view data) {
  auto r = GoScan(data);
  if (!r.ok()) return r.error();
  return r->length;
}

std::string GoSprintfNoArgs(std::string_view f) {
  std::string out;
  const size_t end = f.size();
  size_t i = 0;
  while (i < end) {
    bool good = true;
    size_t last = i;
    while (i < end && f[i] != '%') ++i;
    out.append(f.substr(last, i - last));
    if (i >= end) break;
    ++i;  // the '%'
    while (i < end && (f[i] == '#' || f[i] == '0' || f[i] == '+' || f[i] == '-' || f[i] == ' ')) {
      ++i;
    }
    bool after_index = false;
    ArgNumber(f, &i, &good, &after_index);
    if (i < end && f[i] == '*') {
      ++i;
      out += "%!(BADWIDTH)";
      after_index = false;
    } else {
      bool present = ParseNum(f, &i, end);
      if (after_index && present) good = false;
    }
    if (i + 1 < end && f[i] == '.') {
      ++i;
      if (after_index) good = false;
      ArgNumber(f, &i, &good, &after_index);
      if (i < end && f[i] == '*') {
        ++i;
        out += "%!(BADPREC)";
        after_index = false;
      } else {
        ParseNum(f, &i, end);
      }
    }
    if (!after_index) ArgNumber(f, &i, &good, &after_index);
    if (i >= end) {
      out += "%!(NOVERB)";
      break;
    }
    auto [verb, size] = DecodeRune(f.substr(i));
    i += size;
    if (verb == '%') {
      out.push_back('%');
    } else {
      out += "%!";
      AppendUtf8(&out, verb);
      out += good ? "(MISSING)" : "(BADINDEX)";
    }
  }
  return out;
}

}  // namespace ksched
