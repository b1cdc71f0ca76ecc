// NodePreferAvoidPodsPriority: 0 on nodes whose preferAvoidPods annotation
// names the controller (ReplicationController or ReplicaSet, by kind and uid)
// of the incoming pod, 10 everywhere else -- including nodes whose annotation
// does not decode. Weighted 10000 by the default provider, so it dominates.
//
// Whether an annotation "does not decode" is decided by upstream's Go
// encoding/json, which differs from a plain JSON parse: object keys match
// struct fields case-insensitively, duplicate keys decode again into the same
// field (merging objects), a value of the wrong type for a known field is an
// error, unknown fields are skipped, and evictionTime must parse as RFC 3339
// (Go's time.Parse). ParsePreferAvoidPods() mirrors those rules on top of
// nlohmann's SAX parser, which keeps keys in document order with duplicates.
#include "priorities/node_prefer_avoid_pods.h"

#include <algorithm>
#include <mutex>
#include <nlohmann/json.hpp>

#include "api/decode.h"
#include "priorities/factories.h"

namespace ksched {
namespace {

// ---------------------------------------------------------------- JSON tree

struct JValue {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string str;                // kString
  std::vector<std::string> keys;  // kObject, parallel to items
  std::vector<JValue> items;      // kArray elements or kObject values
};
using Kind = JValue::Kind;

// Go's encoding/json rejects nesting deeper than this.
constexpr size_t kGoMaxDepth = 10000;
// The schema is five containers deep (root, list, entry, podSignature,
// podController). Deeper containers are type errors wherever they sit, so
// only their kind is kept; this also bounds the tree's recursion depth.
constexpr size_t kKeepDepth = 5;

// Builds a JValue tree from nlohmann SAX events, keeping duplicate keys.
class TreeBuilder {
 public:
  using json = nlohmann::json;

  JValue root;

  bool null() { return Place(Kind::kNull), true; }
  bool boolean(bool) { return Place(Kind::kBool), true; }
  bool number_integer(json::number_integer_t) { return Place(Kind::kNumber), true; }
  bool number_unsigned(json::number_unsigned_t) { return Place(Kind::kNumber), true; }
  bool number_float(json::number_float_t, const std::string&) { return Place(Kind::kNumber), true; }
  bool string(std::string& s) {
    if (JValue* v = Place(Kind::kString)) v->str = std::move(s);
    return true;
  }
  bool binary(json::binary_t&) { return false; }  // never produced by JSON text
  bool start_object(std::size_t) { return Open(Kind::kObject); }
  bool key(std::string& k) {
    if (skip_depth_ == 0) pending_key_ = std::move(k);
    return true;
  }
  bool end_object() { return Close(), true; }
  bool start_array(std::size_t) { return Open(Kind::kArray); }
  bool end_array() { return Close(), true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }

 private:
  // Adds a value of `kind` where the document puts it; nullptr inside a
  // container whose contents are not kept.
  JValue* Place(Kind kind) {
    if (skip_depth_ > 0) return nullptr;
    JValue* v = &root;
    if (!stack_.empty()) {
      JValue* parent = stack_.back();
      if (parent->kind == Kind::kObject) parent->keys.push_back(std::move(pending_key_));
      v = &parent->items.emplace_back();
    }
    v->kind = kind;
    return v;
  }

  bool Open(Kind kind) {
    if (++depth_ > kGoMaxDepth) return false;
    if (skip_depth_ > 0) {
      ++skip_depth_;
      return true;
    }
    JValue* v = Place(kind);
    if (stack_.size() >= kKeepDepth) {
      skip_depth_ = 1;
    } else {
      stack_.push_back(v);  // parents do not grow while a child is open
    }
    return true;
  }

  void Close() {
    --depth_;
    if (skip_depth_ > 0) {
      --skip_depth_;
    } else {
      stack_.pop_back();
    }
  }

  std::vector<JValue*> stack_;
  std::string pending_key_;
  size_t depth_ = 0;
  size_t skip_depth_ = 0;
};

// Go reads invalid UTF-8 inside strings as U+FFFD, one per bad byte (as
// utf8.DecodeRune does); nlohmann rejects it. Rewriting the text the same way
// first gives both parsers the same input. Outside strings any non-ASCII byte
// is a syntax error either way.
std::string ReplaceInvalidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) {
      len = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;  // no UTF-16 surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    }
    bool ok = len > 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) {
      const unsigned char x = b(i + k);
      ok = k == 1 ? (x >= lo && x <= hi) : (x >= 0x80 && x <= 0xBF);
    }
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out.append("\xEF\xBF\xBD");
      ++i;
    }
  }
  return out;
}

// ---------------------------------------------------------------- Go rules

// Go's case-insensitive match of a JSON key against an ASCII field name
// (encoding/json's equalFoldRight): ASCII letters fold, and the Kelvin sign
// (U+212A) and long s (U+017F) also match 'k' and 's'.
bool GoFieldMatches(std::string_view field, std::string_view key) {
  size_t j = 0;
  for (char fc : field) {
    if (j >= key.size()) return false;
    const auto kc = static_cast<unsigned char>(key[j]);
    if (kc < 0x80) {
      const char upper = static_cast<char>(fc & ~0x20);
      if (fc != static_cast<char>(kc) &&
          !(upper >= 'A' && upper <= 'Z' && upper == static_cast<char>(kc & ~0x20))) {
        return false;
      }
      ++j;
      continue;
    }
    const bool is_s = fc == 's' || fc == 'S';
    const bool is_k = fc == 'k' || fc == 'K';
    if (is_s && key.substr(j, 2) == "\xC5\xBF") {
      j += 2;
    } else if (is_k && key.substr(j, 3) == "\xE2\x84\xAA") {
      j += 3;
    } else {
      return false;
    }
  }
  return j == key.size();
}

bool IsDigit(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

int Digits(std::string_view s, size_t i, size_t n) {
  int v = 0;
  for (size_t k = 0; k < n; ++k) v = v * 10 + (s[i + k] - '0');
  return v;
}

// Go's time.Parse(time.RFC3339, s) succeeds: "2006-01-02T15:04:05Z07:00"
// where the hour may have one digit, any fraction of a second ('.' or ','
// followed by digits) may follow the seconds, and the day must exist in that
// month.
bool IsGoRfc3339(std::string_view s) {
  size_t i = 0;
  auto fixed = [&](size_t n) {
    for (size_t k = 0; k < n; ++k)
      if (!IsDigit(s, i + k)) return -1;
    int v = Digits(s, i, n);
    i += n;
    return v;
  };
  auto literal = [&](char c) {
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  };
  const int year = fixed(4);
  if (year < 0 || !literal('-')) return false;
  const int month = fixed(2);
  if (month < 1 || month > 12 || !literal('-')) return false;
  const int day = fixed(2);
  if (day < 0 || !literal('T')) return false;
  if (!IsDigit(s, i)) return false;
  const int hour = IsDigit(s, i + 1) ? fixed(2) : fixed(1);
  if (hour >= 24 || !literal(':')) return false;
  const int minute = fixed(2);
  if (minute < 0 || minute >= 60 || !literal(':')) return false;
  const int second = fixed(2);
  if (second < 0 || second >= 60) return false;
  if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && IsDigit(s, i + 1)) {
    i += 2;
    while (IsDigit(s, i)) ++i;
  }
  if (i < s.size() && s[i] == 'Z') {
    ++i;
  } else {
    if (s.size() - i < 6 || s[i + 3] != ':') return false;
    if (!IsDigit(s, i + 1) || !IsDigit(s, i + 2) || !IsDigit(s, i + 4) || !IsDigit(s, i + 5)) {
      return false;
    }
    if (s[i] != '+' && s[i] != '-') return false;
    i += 6;
  }
  if (i != s.size()) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  const int days_in_month = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
  return day >= 1 && day <= days_in_month;
}

// Decoders in Go's "decode into the existing value" style: null leaves a
// struct or string untouched and clears a pointer or slice; an object decodes
// field by field into what is already there. Each returns false where Go's
// Unmarshal would report an error.

bool DecodeString(const JValue& v, std::string* out) {
  if (v.kind == Kind::kNull) return true;
  if (v.kind != Kind::kString) return false;
  if (out != nullptr) *out = v.str;
  return true;
}

bool DecodeBoolPtr(const JValue& v) { return v.kind == Kind::kNull || v.kind == Kind::kBool; }

// metav1.Time's UnmarshalJSON: null is the zero time, else an RFC 3339 string.
bool DecodeTime(const JValue& v) {
  return v.kind == Kind::kNull || (v.kind == Kind::kString && IsGoRfc3339(v.str));
}

bool DecodeOwnerReference(const JValue& v, std::optional<AvoidedController>* out) {
  if (v.kind == Kind::kNull) {
    out->reset();
    return true;
  }
  if (v.kind != Kind::kObject) return false;
  if (!out->has_value()) out->emplace();
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const std::string& k = v.keys[i];
    const JValue& f = v.items[i];
    bool ok = true;
    if (GoFieldMatches("apiVersion", k)) {
      ok = DecodeString(f, nullptr);
    } else if (GoFieldMatches("kind", k)) {
      ok = DecodeString(f, &(*out)->kind);
    } else if (GoFieldMatches("name", k)) {
      ok = DecodeString(f, nullptr);
    } else if (GoFieldMatches("uid", k)) {
      ok = DecodeString(f, &(*out)->uid);
    } else if (GoFieldMatches("controller", k) || GoFieldMatches("blockOwnerDeletion", k)) {
      ok = DecodeBoolPtr(f);
    }
    if (!ok) return false;
  }
  return true;
}

struct Entry {
  std::optional<AvoidedController> controller;  // podSignature.podController
};

bool DecodePodSignature(const JValue& v, Entry* out) {
  if (v.kind == Kind::kNull) return true;
  if (v.kind != Kind::kObject) return false;
  for (size_t i = 0; i < v.keys.size(); ++i) {
    if (GoFieldMatches("podController", v.keys[i]) &&
        !DecodeOwnerReference(v.items[i], &out->controller)) {
      return false;
    }
  }
  return true;
}

bool DecodeEntry(const JValue& v, Entry* out) {
  if (v.kind == Kind::kNull) return true;
  if (v.kind != Kind::kObject) return false;
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const std::string& k = v.keys[i];
    const JValue& f = v.items[i];
    bool ok = true;
    if (GoFieldMatches("podSignature", k)) {
      ok = DecodePodSignature(f, out);
    } else if (GoFieldMatches("evictionTime", k)) {
      ok = DecodeTime(f);
    } else if (GoFieldMatches("reason", k) || GoFieldMatches("message", k)) {
      ok = DecodeString(f, nullptr);
    }
    if (!ok) return false;
  }
  return true;
}

// A JSON array decodes element by element into the slice's existing elements,
// then the slice is cut to the array's length.
bool DecodeEntries(const JValue& v, std::vector<Entry>* out) {
  if (v.kind == Kind::kNull) {
    out->clear();
    return true;
  }
  if (v.kind != Kind::kArray) return false;
  if (out->size() < v.items.size()) out->resize(v.items.size());
  for (size_t i = 0; i < v.items.size(); ++i) {
    if (!DecodeEntry(v.items[i], &(*out)[i])) return false;
  }
  out->resize(v.items.size());
  return true;
}

bool DecodeAvoidPods(const JValue& v, std::vector<Entry>* out) {
  if (v.kind == Kind::kNull) return true;
  if (v.kind != Kind::kObject) return false;
  for (size_t i = 0; i < v.keys.size(); ++i) {
    if (GoFieldMatches("preferAvoidPods", v.keys[i]) && !DecodeEntries(v.items[i], out)) {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------- priority

constexpr std::string_view kReplicationController = "ReplicationController";
constexpr std::string_view kReplicaSet = "ReplicaSet";

struct AvoidState final : PriorityState {
  bool applies = false;         // the pod has an RC or RS controller
  std::vector<NodeId> avoided;  // sorted
};

class NodePreferAvoidPodsPriority final : public Priority {
 public:
  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override {
    auto state = std::make_unique<AvoidState>();
    // metav1.GetControllerOf: the first owner reference marked controller.
    const OwnerReference* ref = nullptr;
    for (const OwnerReference& r : pod.pod().meta.owner_references) {
      if (r.controller) {
        ref = &r;
        break;
      }
    }
    if (ref == nullptr || (ref->kind != kReplicationController && ref->kind != kReplicaSet)) {
      return state;
    }
    state->applies = true;

    std::lock_guard<std::mutex> lock(mu_);
    if (cache_.size() < cluster.num_nodes()) cache_.resize(cluster.num_nodes());
    // Nodes never change within a ClusterState, so the nodes carrying the
    // annotation are found once per cluster rather than once per pod.
    if (annotated_for_ != cluster.id()) {
      annotated_.clear();
      for (NodeId id = 0; id < cluster.num_nodes(); ++id) {
        const std::string* text = cluster.node(id).meta.Annotation(kPreferAvoidPodsAnnotation);
        if (text != nullptr && !text->empty()) annotated_.push_back(id);
      }
      annotated_for_ = cluster.id();
    }
    for (NodeId id : annotated_) {
      const std::string* text = cluster.node(id).meta.Annotation(kPreferAvoidPodsAnnotation);
      // Keyed by node id but validated by content, so the cache stays exact
      // when this priority is reused with another cluster.
      Cached& c = cache_[id];
      if (!c.filled || c.text != *text) {
        c.text = *text;
        c.controllers = ParsePreferAvoidPods(*text);
        c.filled = true;
      }
      if (!c.controllers) continue;  // malformed: treated as absent
      for (const AvoidedController& a : *c.controllers) {
        if (a.kind == ref->kind && a.uid == ref->uid) {
          state->avoided.push_back(id);
          break;
        }
      }
    }
    std::sort(state->avoided.begin(), state->avoided.end());
    return state;
  }

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    (void)pod;
    (void)cluster;
    const auto* s = static_cast<const AvoidState*>(state);
    if (!s->applies) return kMaxPriority;
    return std::binary_search(s->avoided.begin(), s->avoided.end(), node) ? 0 : kMaxPriority;
  }

 private:
  struct Cached {
    bool filled = false;
    std::string text;
    std::optional<std::vector<AvoidedController>> controllers;
  };
  mutable std::mutex mu_;
  mutable std::vector<Cached> cache_;   // by NodeId
  mutable uint64_t annotated_for_ = 0;  // ClusterState::id() of `annotated_`
  mutable std::vector<NodeId> annotated_;
};

}  // namespace

std::optional<std::vector<AvoidedController>> ParsePreferAvoidPods(std::string_view value) {
  // Go does not skip a byte-order mark; nlohmann would.
  if (value.substr(0, 3) == "\xEF\xBB\xBF") return std::nullopt;
  const std::string text = ReplaceInvalidUtf8(value);
  TreeBuilder builder;
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(text, &builder, nlohmann::json::input_format_t::json,
                                   /*strict=*/true);
  } catch (...) {
    ok = false;
  }
  if (!ok) return std::nullopt;
  std::vector<Entry> entries;
  if (!DecodeAvoidPods(builder.root, &entries)) return std::nullopt;
  std::vector<AvoidedController> out;
  for (Entry& e : entries) {
    // Upstream dereferences a missing podController and crashes; such an
    // entry simply matches nothing here.
    if (e.controller) out.push_back(std::move(*e.controller));
  }
  return out;
}

std::unique_ptr<Priority> NewNodePreferAvoidPodsPriority() {
  return std::make_unique<NodePreferAvoidPodsPriority>();
}

}  // namespace ksched
