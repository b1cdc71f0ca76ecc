#include "api/decode.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>
#include <utility>

#include "api/pod_template_digest.h"
#include "api/version_skew.h"
#include "api/yaml_to_json.h"
#include "util/rfc3339.h"

namespace ksched {
namespace {

namespace dom = simdjson::dom;
using simdjson::SUCCESS;

// ------------------------------------------------------------ repeated keys

// A JSON object may repeat a key. Go's decoder keeps the last value; our lists
// keep the key's first position and its last value. Short lists are folded in
// place; long ones by sorting an index, so that an object with a hundred
// thousand keys costs no quadratic search.
template <class T, class KeyOf>
void FoldRepeatedKeys(std::vector<T>* v, KeyOf key_of) {
  const size_t n = v->size();
  if (n < 2) return;
  constexpr size_t kShort = 32;
  if (n <= kShort) {
    size_t out = 1;
    for (size_t i = 1; i < n; ++i) {
      size_t j = 0;
      while (j < out && !(key_of((*v)[j]) == key_of((*v)[i]))) ++j;
      if (j < out) {
        (*v)[j] = std::move((*v)[i]);
      } else {
        if (out != i) (*v)[out] = std::move((*v)[i]);
        ++out;
      }
    }
    v->resize(out);
    return;
  }
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key_of((*v)[a]) < key_of((*v)[b]); });
  std::vector<char> drop(n, 0);
  for (size_t b = 0; b < n;) {
    size_t e = b + 1;
    while (e < n && !(key_of((*v)[order[b]]) < key_of((*v)[order[e]]))) ++e;
    if (e - b > 1) {
      (*v)[order[b]] = std::move((*v)[order[e - 1]]);
      for (size_t k = b + 1; k < e; ++k) drop[order[k]] = 1;
    }
    b = e;
  }
  size_t out = 0;
  for (size_t i = 0; i < n; ++i) {
    if (drop[i]) continue;
    if (out != i) (*v)[out] = std::move((*v)[i]);
    ++out;
  }
  v->resize(out);
}

// ------------------------------------------------------------------ messages

std::string Describe(dom::element e) {
  auto quoted = [](std::string_view s) {
    constexpr size_t kMax = 40;
    std::string out = "\"";
    out.append(s.substr(0, kMax));
    if (s.size() > kMax) out.append("...");
    out.push_back('"');
    return out;
  };
  switch (e.type()) {
    case dom::element_type::ARRAY:
      return "an array";
    case dom::element_type::OBJECT:
      return "an object";
    case dom::element_type::INT64:
      return "an integer (" + std::to_string(e.get_int64().value_unsafe()) + ")";
    case dom::element_type::UINT64:
      return "an integer (" + std::to_string(e.get_uint64().value_unsafe()) + ")";
    case dom::element_type::DOUBLE:
      return "a number (" + simdjson::to_string(e) + ")";
    case dom::element_type::STRING:
      return "a string (" + quoted(e.get_string().value_unsafe()) + ")";
    case dom::element_type::BOOL:
      return e.get_bool().value_unsafe() ? "true" : "false";
    case dom::element_type::NULL_VALUE:
      return "null";
  }
  return "an unknown value";
}

// A map key as a path segment: identifiers as `.key`, anything else (label
// keys with dots or slashes, resource names) as `[key]` so the path stays
// unambiguous.
std::string KeySegment(std::string_view key) {
  bool plain = !key.empty();
  for (char c : key) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-')) {
      plain = false;
      break;
    }
  }
  std::string s;
  if (plain) {
    s.reserve(key.size() + 1);
    s.push_back('.');
    s.append(key);
  } else {
    s.reserve(key.size() + 2);
    s.push_back('[');
    s.append(key);
    s.push_back(']');
  }
  return s;
}

// Joins non-empty message parts with ": ".
std::string Compose(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) {
    if (p.empty()) continue;
    if (!s.empty()) s.append(": ");
    s.append(p);
  }
  return s;
}

// Text of a JSON number, for the quantity parser. Integers are exact; doubles
// get the shortest text that reads back as the same double, in plain decimal
// notation, which for anything a person writes (0.1, 1e9, 100.5) is what they
// wrote, and never adds digits like "0.10000000000000001" would.
std::string NumberText(dom::element e) {
  char buf[512];
  std::to_chars_result r{};
  switch (e.type()) {
    case dom::element_type::INT64:
      r = std::to_chars(buf, buf + sizeof buf, e.get_int64().value_unsafe());
      break;
    case dom::element_type::UINT64:
      r = std::to_chars(buf, buf + sizeof buf, e.get_uint64().value_unsafe());
      break;
    default:
      r = std::to_chars(buf, buf + sizeof buf, e.get_double().value_unsafe(),
                        std::chars_format::fixed);
      break;
  }
  if (r.ec != std::errc()) return simdjson::to_string(e);
  return std::string(buf, r.ptr);
}

TaintEffect ParseEffect(std::string_view s) {
  if (s.empty()) return TaintEffect::kNone;
  if (s == "NoSchedule") return TaintEffect::kNoSchedule;
  if (s == "PreferNoSchedule") return TaintEffect::kPreferNoSchedule;
  if (s == "NoExecute") return TaintEffect::kNoExecute;
  return TaintEffect::kOther;
}

StrId DefaultNamespace() {
  static const StrId id = Intern("default");
  return id;
}

// ------------------------------------------------------------------ decoder

// Walks one object. Every method returns false on the first error, after
// recording the message; each enclosing level then adds its path segment on
// the way out, so the success path never builds path strings.
// The suffix of the next object named by metadata.generateName: "bbbbb",
// "bbbbc", ... over upstream's rand alphabet (no vowels, no look-alikes).
std::string GeneratedSuffix() {
  static std::atomic<uint64_t> next{0};
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t n = next.fetch_add(1, std::memory_order_relaxed);
  std::string s(5, kAlphabet[0]);
  for (int i = 4; i >= 0 && n > 0; --i) {
    s[static_cast<size_t>(i)] = kAlphabet[n % kAlphabet.size()];
    n /= kAlphabet.size();
  }
  return s;
}

class Decoder {
 public:
  // The error, as "field.path: message" (or just "message" at the top).
  std::string Message() const {
    std::string path;
    for (auto it = rev_path_.rbegin(); it != rev_path_.rend(); ++it) path += *it;
    if (!path.empty() && path[0] == '.') path.erase(0, 1);
    return Compose({path, msg_});
  }

  bool Fail(std::string msg) {
    msg_ = std::move(msg);
    rev_path_.clear();
    return false;
  }
  bool TypeError(dom::element e, std::string_view want) {
    return Fail("expected " + std::string(want) + ", got " + Describe(e));
  }
  void PushKey(std::string_view key) { rev_path_.push_back(KeySegment(key)); }
  void PushIndex(size_t i) { rev_path_.push_back("[" + std::to_string(i) + "]"); }

  // Calls f(key, value) for each field of an object; null counts as empty.
  template <typename F>
  bool Fields(dom::element e, F&& f) {
    if (e.is_null()) return true;
    dom::object obj;
    if (e.get(obj) != SUCCESS) return TypeError(e, "an object");
    for (dom::key_value_pair kv : obj) {
      if (!f(kv.key, kv.value)) {
        PushKey(kv.key);
        return false;
      }
    }
    return true;
  }

  // Calls f(item) for each item of an array; null counts as empty.
  template <typename F>
  bool Items(dom::element e, F&& f) {
    if (e.is_null()) return true;
    dom::array arr;
    if (e.get(arr) != SUCCESS) return TypeError(e, "an array");
    size_t i = 0;
    for (dom::element item : arr) {
      if (!f(item)) {
        PushIndex(i);
        return false;
      }
      ++i;
    }
    return true;
  }

  // Decodes each item of an array with `decode(item, &value)` into *out,
  // replacing what was there (a repeated JSON key replaces the earlier value).
  template <typename T, typename F>
  bool List(dom::element e, std::vector<T>* out, F&& decode) {
    out->clear();
    if (dom::array arr; e.get(arr) == SUCCESS) out->reserve(arr.size());
    return Items(e, [&](dom::element item) {
      T value{};
      if (!decode(item, &value)) return false;
      out->push_back(std::move(value));
      return true;
    });
  }

  // ---------------------------------------------------------------- scalars
  // Null leaves the output untouched, like Go's encoding/json.

  bool StringView(dom::element e, std::string_view* out) {
    if (e.is_null()) return true;
    if (e.get(*out) != SUCCESS) return TypeError(e, "a string");
    return true;
  }
  bool String(dom::element e, std::string* out) {
    std::string_view s;
    if (!StringView(e, &s)) return false;
    if (!e.is_null()) out->assign(s);
    return true;
  }
  bool Interned(dom::element e, StrId* out) {
    std::string_view s;
    if (!StringView(e, &s)) return false;
    if (!e.is_null()) *out = Intern(s);
    return true;
  }
  bool Bool(dom::element e, bool* out) {
    if (e.is_null()) return true;
    if (e.get(*out) != SUCCESS) return TypeError(e, "a boolean");
    return true;
  }
  bool Int64(dom::element e, int64_t* out) {
    switch (e.type()) {
      case dom::element_type::NULL_VALUE:
        return true;
      case dom::element_type::INT64:
        *out = e.get_int64().value_unsafe();
        return true;
      case dom::element_type::UINT64:
        return Fail("integer out of range: " + NumberText(e));
      default:
        return TypeError(e, "an integer");
    }
  }
  bool Int32(dom::element e, int32_t* out) {
    int64_t v = *out;
    if (!Int64(e, &v)) return false;
    if (v < INT32_MIN || v > INT32_MAX) {
      return Fail("integer out of range for a 32-bit field: " + std::to_string(v));
    }
    *out = static_cast<int32_t>(v);
    return true;
  }
  // A preferred affinity term's weight. The API server accepts 1-100 only
  // (ValidatePreferredSchedulingTerms, validateWeightedPodAffinityTerms), so
  // the scheduler's sums of weights never meet anything else.
  bool AffinityWeight(dom::element e, int32_t* out) {
    if (!Int32(e, out)) return false;
    if (*out < 1 || *out > 100) {
      return Fail("must be in the range 1-100 (got " + std::to_string(*out) + ")");
    }
    return true;
  }
  bool OptInt32(dom::element e, std::optional<int32_t>* out) {
    if (e.is_null()) return true;
    int32_t v = 0;
    if (!Int32(e, &v)) return false;
    *out = v;
    return true;
  }
  bool OptInt64(dom::element e, std::optional<int64_t>* out) {
    if (e.is_null()) return true;
    int64_t v = 0;
    if (!Int64(e, &v)) return false;
    *out = v;
    return true;
  }

  // A quantity written as a string ("100m") or a number (0.5, 1e9).
  bool QuantityValue(dom::element e, std::optional<ksched::Quantity>* out) {
    std::string number;
    std::string_view text;
    switch (e.type()) {
      case dom::element_type::NULL_VALUE:
        return true;
      case dom::element_type::STRING:
        text = e.get_string().value_unsafe();
        break;
      case dom::element_type::INT64:
      case dom::element_type::UINT64:
      case dom::element_type::DOUBLE:
        number = NumberText(e);
        text = number;
        break;
      default:
        return TypeError(e, "a quantity (string or number)");
    }
    Result<ksched::Quantity> q = ksched::Quantity::Parse(text);
    if (!q.ok()) {
      return Fail(q.error().message + " (got \"" + std::string(text) + "\")");
    }
    *out = std::move(q.value());
    return true;
  }

  bool Strings(dom::element e, std::vector<std::string>* out) {
    return List(e, out, [&](dom::element item, std::string* s) {
      if (item.is_null()) return TypeError(item, "a string");
      return String(item, s);
    });
  }

  // Maps keep their source order; a key repeated inside one object keeps its
  // first position and its last value, as a Go map would hold it.
  bool StringMap(dom::element e, std::vector<std::pair<std::string, std::string>>* out) {
    out->clear();
    if (dom::object obj; e.get(obj) == SUCCESS) out->reserve(obj.size());
    bool ok = Fields(e, [&](std::string_view k, dom::element v) {
      std::string_view s;
      if (!StringView(v, &s)) return false;
      out->emplace_back(std::string(k), std::string(s));
      return true;
    });
    if (ok) FoldRepeatedKeys(out, [](const auto& kv) -> const std::string& { return kv.first; });
    return ok;
  }

  bool LabelMap(dom::element e, Labels* out) {
    std::vector<Labels::Pair> pairs;
    if (dom::object obj; e.get(obj) == SUCCESS) pairs.reserve(obj.size());
    bool ok = Fields(e, [&](std::string_view k, dom::element v) {
      std::string_view s;
      if (!StringView(v, &s)) return false;
      pairs.emplace_back(Intern(k), Intern(s));
      return true;
    });
    if (!ok) return false;
    *out = Labels(std::move(pairs));
    return true;
  }

  bool Resources(dom::element e, ResourceList* out) {
    out->clear();
    if (dom::object obj; e.get(obj) == SUCCESS) out->reserve(obj.size());
    bool ok = Fields(e, [&](std::string_view k, dom::element v) {
      std::optional<ksched::Quantity> q;
      if (v.is_null()) return true;
      if (!QuantityValue(v, &q)) return false;
      // The API server rejects negative requests, limits and capacities
      // (ValidateResourceQuantityValue), so no scheduler ever sees one.
      if (q->Sign() < 0)
        return Fail("must be greater than or equal to 0 (got " + q->String() + ")");
      out->push_back(ResourceQuantity{Intern(k), q->format(), q->Value(), q->MilliValue()});
      return true;
    });
    if (ok) FoldRepeatedKeys(out, [](const ResourceQuantity& r) { return r.name; });
    return ok;
  }

  // ---------------------------------------------------------------- metadata

  bool Meta(dom::element e, bool namespaced, ObjectMeta* m) {
    std::string generate_name;
    bool ok = Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "name") return String(v, &m->name);
      if (k == "generateName") return String(v, &generate_name);
      if (k == "namespace") {
        StrId ns = kEmptyStr;
        if (!Interned(v, &ns)) return false;
        if (namespaced) m->ns = ns;
        return true;
      }
      if (k == "uid") return String(v, &m->uid);
      if (k == "labels") return LabelMap(v, &m->labels);
      if (k == "annotations") return StringMap(v, &m->annotations);
      if (k == "ownerReferences") {
        return List(v, &m->owner_references,
                    [this](dom::element x, OwnerReference* r) { return OwnerRef(x, r); });
      }
      if (k == "deletionTimestamp") {
        std::string ignored;
        if (!String(v, &ignored)) return false;
        m->has_deletion_timestamp = !v.is_null();
        return true;
      }
      if (k == "creationTimestamp") return String(v, &m->creation_timestamp);
      if (k == "resourceVersion") return String(v, &m->resource_version);
      return true;
    });
    if (ok && m->name.empty() && !generate_name.empty()) {
      // As the API server names an object created with generateName: five
      // characters of its alphabet appended; here counted up per object
      // (the same input gives the same names).
      m->name = generate_name + GeneratedSuffix();
    }
    if (ok && m->name.empty()) {
      Fail("missing");
      PushKey("name");
      ok = false;
    }
    if (!ok) {
      PushKey("metadata");
      return false;
    }
    if (namespaced && m->ns == kEmptyStr) m->ns = DefaultNamespace();
    return true;
  }

  bool OwnerRef(dom::element e, OwnerReference* r) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "apiVersion") return String(v, &r->api_version);
      if (k == "kind") return String(v, &r->kind);
      if (k == "name") return String(v, &r->name);
      if (k == "uid") return String(v, &r->uid);
      if (k == "controller") return Bool(v, &r->controller);
      return true;
    });
  }

  // ---------------------------------------------------------------- selectors

  bool Requirement(dom::element e, SelectorRequirement* r) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "key") return String(v, &r->key);
      if (k == "operator") return String(v, &r->op);
      if (k == "values") return Strings(v, &r->values);
      return true;
    });
  }
  bool Requirements(dom::element e, std::vector<SelectorRequirement>* out) {
    return List(e, out,
                [this](dom::element x, SelectorRequirement* r) { return Requirement(x, r); });
  }

  bool LabelSelectorValue(dom::element e, LabelSelector* s) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "matchLabels") return StringMap(v, &s->match_labels);
      if (k == "matchExpressions") return Requirements(v, &s->match_expressions);
      return true;
    });
  }
  bool OptLabelSelector(dom::element e, std::optional<LabelSelector>* out) {
    if (e.is_null()) return true;
    LabelSelector s;
    if (!LabelSelectorValue(e, &s)) return false;
    *out = std::move(s);
    return true;
  }

  bool Term(dom::element e, NodeSelectorTerm* t) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "matchExpressions") return Requirements(v, &t->match_expressions);
      if (k == "matchFields") return Requirements(v, &t->match_fields);
      return true;
    });
  }

  bool OptNodeSelector(dom::element e, std::optional<NodeSelector>* out) {
    if (e.is_null()) return true;
    NodeSelector s;
    bool ok = Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "nodeSelectorTerms") {
        return List(v, &s.terms,
                    [this](dom::element item, NodeSelectorTerm* t) { return Term(item, t); });
      }
      return true;
    });
    if (!ok) return false;
    *out = std::move(s);
    return true;
  }

  bool NodeAffinityValue(dom::element e, NodeAffinity* a) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "requiredDuringSchedulingIgnoredDuringExecution") {
        return OptNodeSelector(v, &a->required);
      }
      if (k == "preferredDuringSchedulingIgnoredDuringExecution") {
        a->has_preferred = !v.is_null();
        return List(v, &a->preferred, [this](dom::element item, PreferredSchedulingTerm* p) {
          return Fields(item, [&](std::string_view k2, dom::element v2) {
            if (k2 == "weight") return AffinityWeight(v2, &p->weight);
            if (k2 == "preference") return Term(v2, &p->preference);
            return true;
          });
        });
      }
      return true;
    });
  }

  bool PodAffinityTermValue(dom::element e, PodAffinityTerm* t) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "labelSelector") return OptLabelSelector(v, &t->label_selector);
      if (k == "namespaces") return Strings(v, &t->namespaces);
      if (k == "topologyKey") return String(v, &t->topology_key);
      if (k == "namespaceSelector") return OptLabelSelector(v, &t->namespace_selector);
      if (k == "matchLabelKeys") return Strings(v, &t->match_label_keys);
      if (k == "mismatchLabelKeys") return Strings(v, &t->mismatch_label_keys);
      return true;
    });
  }

  bool PodAffinityValue(dom::element e, PodAffinity* a) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "requiredDuringSchedulingIgnoredDuringExecution") {
        return List(v, &a->required, [this](dom::element item, PodAffinityTerm* t) {
          return PodAffinityTermValue(item, t);
        });
      }
      if (k == "preferredDuringSchedulingIgnoredDuringExecution") {
        return List(v, &a->preferred, [this](dom::element item, WeightedPodAffinityTerm* w) {
          return Fields(item, [&](std::string_view k2, dom::element v2) {
            if (k2 == "weight") return AffinityWeight(v2, &w->weight);
            if (k2 == "podAffinityTerm") return PodAffinityTermValue(v2, &w->term);
            return true;
          });
        });
      }
      return true;
    });
  }

  template <typename T, typename F>
  bool Optional(dom::element e, std::optional<T>* out, F&& decode) {
    if (e.is_null()) return true;
    T value{};
    if (!decode(e, &value)) return false;
    *out = std::move(value);
    return true;
  }

  bool AffinityValue(dom::element e, Affinity* a) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "nodeAffinity") {
        return Optional(v, &a->node_affinity, [this](dom::element x, NodeAffinity* n) {
          return NodeAffinityValue(x, n);
        });
      }
      if (k == "podAffinity" || k == "podAntiAffinity") {
        return Optional(v, k == "podAffinity" ? &a->pod_affinity : &a->pod_anti_affinity,
                        [this](dom::element x, PodAffinity* p) { return PodAffinityValue(x, p); });
      }
      return true;
    });
  }

  // ---------------------------------------------------------------- taints

  bool TaintValue(dom::element e, Taint* t) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "key") return Interned(v, &t->key);
      if (k == "value") return Interned(v, &t->value);
      if (k == "effect") {
        if (!String(v, &t->effect_str)) return false;
        t->effect = ParseEffect(t->effect_str);
        return true;
      }
      return true;
    });
  }

  bool TolerationValue(dom::element e, Toleration* t) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "key") return Interned(v, &t->key);
      if (k == "operator") return String(v, &t->op);
      if (k == "value") return Interned(v, &t->value);
      if (k == "effect") {
        std::string_view s;
        if (!StringView(v, &s)) return false;
        t->effect = v.is_null() ? TaintEffect::kNone : ParseEffect(s);
        if (!v.is_null()) t->effect_str.assign(s);
        return true;
      }
      if (k == "tolerationSeconds") return OptInt64(v, &t->toleration_seconds);
      return true;
    });
  }

  // ---------------------------------------------------------------- pods

  bool ContainerValue(dom::element e, Container* c) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "name") return String(v, &c->name);
      if (k == "image") return String(v, &c->image);
      if (k == "resources") {
        return Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "requests") return Resources(v2, &c->requests);
          if (k2 == "limits") return Resources(v2, &c->limits);
          return true;
        });
      }
      if (k == "ports") {
        return List(v, &c->ports, [this](dom::element item, ContainerPort* p) {
          bool ok = Fields(item, [&](std::string_view k2, dom::element v2) {
            if (k2 == "containerPort") return Int32(v2, &p->container_port);
            if (k2 == "hostPort") return Int32(v2, &p->host_port);
            if (k2 == "hostIP") return String(v2, &p->host_ip);
            if (k2 == "protocol") return String(v2, &p->protocol);
            return true;
          });
          if (p->protocol.empty()) p->protocol = "TCP";
          return ok;
        });
      }
      if (k == "restartPolicy") return String(v, &c->restart_policy);
      if (k == "resizePolicy") {
        return List(v, &c->resize_policy, [this](dom::element x, ContainerResizePolicy* r) {
          return Fields(x, [&](std::string_view k2, dom::element v2) {
            if (k2 == "resourceName") return String(v2, &r->resource_name);
            if (k2 == "restartPolicy") return String(v2, &r->restart_policy);
            return true;
          });
        });
      }
      return true;
    });
  }

  // A ResourceRequirements-shaped object: requests and limits.
  bool PodResourcesValue(dom::element e, PodResources* r) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "requests") return Resources(v, &r->requests);
      if (k == "limits") return Resources(v, &r->limits);
      return true;
    });
  }

  bool ContainerStatusValue(dom::element e, ContainerStatus* cs) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "name") return String(v, &cs->name);
      if (k == "allocatedResources") return Resources(v, &cs->allocated_resources);
      if (k == "resources") {
        return Optional(v, &cs->resources, [this](dom::element x, PodResources* r) {
          return PodResourcesValue(x, r);
        });
      }
      return true;
    });
  }
  bool Containers(dom::element e, std::vector<Container>* out) {
    return List(e, out, [this](dom::element x, Container* c) { return ContainerValue(x, c); });
  }

  // The fields of a pod volume's source object; vol->kind says which source.
  bool VolumeSource(dom::element e, Volume* vol) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "readOnly") return Bool(v, &vol->read_only);
      switch (vol->kind) {
        case VolumeKind::kGCEPersistentDisk:
          if (k == "pdName") return String(v, &vol->id);
          break;
        case VolumeKind::kAWSElasticBlockStore:
        case VolumeKind::kCinder:
          if (k == "volumeID") return String(v, &vol->id);
          break;
        case VolumeKind::kAzureDisk:
          if (k == "diskName") return String(v, &vol->id);
          if (k == "diskURI") return String(v, &vol->azure_disk_uri);
          if (k == "kind" && !v.is_null()) {
            std::string kind;
            if (!String(v, &kind)) return false;
            vol->azure_kind = std::move(kind);
          }
          break;
        case VolumeKind::kPersistentVolumeClaim:
          if (k == "claimName") return String(v, &vol->id);
          break;
        case VolumeKind::kCSI:
          if (k == "driver") return String(v, &vol->id);
          break;
        case VolumeKind::kRBD:
          if (k == "monitors") return Strings(v, &vol->rbd_monitors);
          if (k == "pool") return String(v, &vol->rbd_pool);
          if (k == "image") return String(v, &vol->rbd_image);
          break;
        case VolumeKind::kISCSI:
          if (k == "targetPortal") return String(v, &vol->iscsi_target_portal);
          if (k == "iqn") return String(v, &vol->iscsi_iqn);
          if (k == "lun") return Int32(v, &vol->iscsi_lun);
          break;
        case VolumeKind::kOther:
        case VolumeKind::kEphemeral:
          break;
      }
      return true;
    });
  }

  bool VolumeValue(dom::element e, Volume* vol) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "name") return String(v, &vol->name);
      if (v.is_null()) return true;
      VolumeKind kind;
      if (k == "gcePersistentDisk") {
        kind = VolumeKind::kGCEPersistentDisk;
      } else if (k == "awsElasticBlockStore") {
        kind = VolumeKind::kAWSElasticBlockStore;
      } else if (k == "azureDisk") {
        kind = VolumeKind::kAzureDisk;
      } else if (k == "cinder") {
        kind = VolumeKind::kCinder;
      } else if (k == "rbd") {
        kind = VolumeKind::kRBD;
      } else if (k == "iscsi") {
        kind = VolumeKind::kISCSI;
      } else if (k == "persistentVolumeClaim") {
        kind = VolumeKind::kPersistentVolumeClaim;
      } else if (k == "csi") {
        kind = VolumeKind::kCSI;
      } else if (k == "ephemeral") {
        // A generic ephemeral volume: its claim is named after the pod and
        // the volume, which Body(Pod) fills in once both names are known.
        vol->kind = VolumeKind::kEphemeral;
        return v.is_object() ? true : TypeError(v, "an object");
      } else {
        // emptyDir, hostPath, configMap, ...: kOther, the source's name kept
        // in id (drain planning asks for emptyDir).
        vol->id = std::string(k);
        return true;
      }
      vol->kind = kind;
      if (kind == VolumeKind::kRBD) vol->rbd_pool = "rbd";
      return VolumeSource(v, vol);
    });
  }

  bool PodSpecValue(dom::element e, PodSpec* s) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "containers") return Containers(v, &s->containers);
      if (k == "initContainers") return Containers(v, &s->init_containers);
      if (k == "nodeName") return String(v, &s->node_name);
      if (k == "hostNetwork") return Bool(v, &s->host_network);
      if (k == "nodeSelector") {
        s->has_node_selector = !v.is_null();
        return LabelMap(v, &s->node_selector);
      }
      if (k == "affinity") {
        return Optional(v, &s->affinity,
                        [this](dom::element x, Affinity* a) { return AffinityValue(x, a); });
      }
      if (k == "tolerations") {
        return List(v, &s->tolerations,
                    [this](dom::element x, Toleration* t) { return TolerationValue(x, t); });
      }
      if (k == "volumes") {
        return List(v, &s->volumes,
                    [this](dom::element x, Volume* vol) { return VolumeValue(x, vol); });
      }
      if (k == "priority") return OptInt32(v, &s->priority);
      if (k == "priorityClassName") return String(v, &s->priority_class_name);
      if (k == "preemptionPolicy") return String(v, &s->preemption_policy);
      if (k == "schedulerName") return String(v, &s->scheduler_name);
      if (k == "restartPolicy") return String(v, &s->restart_policy);
      if (k == "topologySpreadConstraints") {
        return List(
            v, &s->topology_spread_constraints,
            [this](dom::element x, TopologySpreadConstraint* c) { return SpreadConstraint(x, c); });
      }
      if (k == "overhead") return Resources(v, &s->overhead);
      if (k == "resources") {
        return Optional(v, &s->resources, [this](dom::element x, PodResources* r) {
          return PodResourcesValue(x, r);
        });
      }
      if (k == "resourceClaims") {
        return List(v, &s->resource_claims, [this](dom::element x, PodResourceClaim* c) {
          return Fields(x, [&](std::string_view k2, dom::element v2) {
            if (k2 == "name") return String(v2, &c->name);
            if (k2 == "resourceClaimName") return String(v2, &c->resource_claim_name);
            if (k2 == "resourceClaimTemplateName")
              return String(v2, &c->resource_claim_template_name);
            return true;
          });
        });
      }
      if (k == "schedulingGates") {
        return List(v, &s->scheduling_gates, [this](dom::element x, std::string* name) {
          return Fields(x, [&](std::string_view k2, dom::element v2) {
            if (k2 == "name") return String(v2, name);
            return true;
          });
        });
      }
      return true;
    });
  }

  bool SpreadConstraint(dom::element e, TopologySpreadConstraint* c) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "maxSkew") return Int32(v, &c->max_skew);
      if (k == "topologyKey") return String(v, &c->topology_key);
      if (k == "whenUnsatisfiable") return String(v, &c->when_unsatisfiable);
      if (k == "labelSelector") return OptLabelSelector(v, &c->label_selector);
      if (k == "minDomains") return OptInt32(v, &c->min_domains);
      if (k == "nodeAffinityPolicy") return String(v, &c->node_affinity_policy);
      if (k == "nodeTaintsPolicy") return String(v, &c->node_taints_policy);
      if (k == "matchLabelKeys") return Strings(v, &c->match_label_keys);
      return true;
    });
  }

  // A metav1.Time: an RFC 3339 string, or null for absent.
  bool Timestamp(dom::element e, std::optional<int64_t>* out) {
    std::string_view s;
    if (!StringView(e, &s)) return false;
    if (e.is_null()) return true;
    std::optional<int64_t> t = ParseRfc3339(s);
    if (!t) {
      return Fail("expected an RFC 3339 time such as \"2020-03-01T00:08:32Z\", got \"" +
                  std::string(s) + "\"");
    }
    *out = t;
    return true;
  }

  bool PodStatusValue(dom::element e, Pod* pod) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "phase") return String(v, &pod->phase);
      if (k == "startTime") return Timestamp(v, &pod->start_time);
      if (k == "nominatedNodeName") return String(v, &pod->nominated_node_name);
      if (k == "containerStatuses" || k == "initContainerStatuses") {
        auto* out =
            k == "containerStatuses" ? &pod->container_statuses : &pod->init_container_statuses;
        return List(v, out, [this](dom::element x, ContainerStatus* cs) {
          return ContainerStatusValue(x, cs);
        });
      }
      if (k == "conditions") {
        return List(v, &pod->conditions, [this](dom::element x, PodCondition* c) {
          return Fields(x, [&](std::string_view k2, dom::element v2) {
            if (k2 == "type") return String(v2, &c->type);
            if (k2 == "status") return String(v2, &c->status);
            if (k2 == "reason") return String(v2, &c->reason);
            return true;
          });
        });
      }
      if (k == "resourceClaimStatuses") {
        return List(v, &pod->resource_claim_statuses,
                    [this](dom::element x, PodResourceClaimStatus* c) {
                      return Fields(x, [&](std::string_view k2, dom::element v2) {
                        if (k2 == "name") return String(v2, &c->name);
                        if (k2 == "resourceClaimName") return String(v2, &c->resource_claim_name);
                        return true;
                      });
                    });
      }
      return true;
    });
  }

  bool IntOrStringValue(dom::element e, std::optional<IntOrString>* out) {
    if (e.is_null()) return true;
    IntOrString v;
    if (e.is_string()) {
      v.is_string = true;
      if (!String(e, &v.str_value)) return false;
    } else if (!Int32(e, &v.int_value)) {
      return false;
    }
    *out = std::move(v);
    return true;
  }

  // Phase from a `status` object.
  bool Phase(dom::element e, std::string* phase) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "phase") return String(v, phase);
      return true;
    });
  }

  // ---------------------------------------------------------------- bodies
  // Each decodes the fields other than metadata of one kind.

  bool Body(dom::element e, Pod* pod) {
    bool ok = Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "spec") return PodSpecValue(v, &pod->spec);
      if (k == "status") return PodStatusValue(v, pod);
      return true;
    });
    if (!ok) return false;
    // The claim of a generic ephemeral volume is "<pod name>-<volume name>".
    for (Volume& vol : pod->spec.volumes)
      if (vol.kind == VolumeKind::kEphemeral) vol.id = pod->meta.name + "-" + vol.name;
    return true;
  }

  bool Body(dom::element e, PodDisruptionBudget* pdb) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "apiVersion") {
        std::string_view version;
        if (!StringView(v, &version)) return false;
        pdb->policy_v1 = version == "policy/v1";
        return true;
      }
      if (k == "spec") {
        return Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "selector") return OptLabelSelector(v2, &pdb->selector);
          if (k2 == "minAvailable") return IntOrStringValue(v2, &pdb->min_available);
          if (k2 == "maxUnavailable") return IntOrStringValue(v2, &pdb->max_unavailable);
          return true;
        });
      }
      if (k == "status") {
        return Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "disruptionsAllowed") return Int32(v2, &pdb->disruptions_allowed);
          return true;
        });
      }
      return true;
    });
  }

  bool Body(dom::element e, PriorityClass* pc) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "value") return Int32(v, &pc->value);
      if (k == "globalDefault") return Bool(v, &pc->global_default);
      if (k == "preemptionPolicy") return String(v, &pc->preemption_policy);
      return true;
    });
  }

  bool Body(dom::element e, Node* node) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "spec") {
        return Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "unschedulable") return Bool(v2, &node->unschedulable);
          if (k2 == "taints") {
            return List(v2, &node->taints,
                        [this](dom::element x, Taint* t) { return TaintValue(x, t); });
          }
          return true;
        });
      }
      if (k == "status") {
        return Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "capacity") return Resources(v2, &node->capacity);
          if (k2 == "allocatable") return Resources(v2, &node->allocatable);
          if (k2 == "conditions") {
            return List(v2, &node->conditions, [this](dom::element x, NodeCondition* c) {
              return Fields(x, [&](std::string_view k3, dom::element v3) {
                if (k3 == "type") return String(v3, &c->type);
                if (k3 == "status") return String(v3, &c->status);
                return true;
              });
            });
          }
          if (k2 == "images") {
            return List(v2, &node->images, [this](dom::element x, ContainerImage* img) {
              return Fields(x, [&](std::string_view k3, dom::element v3) {
                if (k3 == "names") return Strings(v3, &img->names);
                if (k3 == "sizeBytes") return Int64(v3, &img->size_bytes);
                return true;
              });
            });
          }
          return true;
        });
      }
      return true;
    });
  }

  // Objects whose only interesting part is spec.selector as a plain map.
  // `has_selector` records whether spec.selector is present and not null:
  // a nil Service selector selects nothing while {} selects everything.
  bool MapSelectorBody(dom::element e, Labels* selector, bool* has_selector) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k != "spec") return true;
      return Fields(v, [&](std::string_view k2, dom::element v2) {
        if (k2 != "selector") return true;
        *has_selector = !v2.is_null();
        return LabelMap(v2, selector);
      });
    });
  }
  bool Body(dom::element e, Service* s) {
    return MapSelectorBody(e, &s->selector, &s->has_selector);
  }
  bool Body(dom::element e, ReplicationController* rc) {
    if (!MapSelectorBody(e, &rc->selector, &rc->has_selector)) return false;
    // spec.template.metadata.labels: the selector's default (api/defaults.h).
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k != "spec") return true;
      return Fields(v, [&](std::string_view k2, dom::element v2) {
        if (k2 != "template") return true;
        return Fields(v2, [&](std::string_view k3, dom::element v3) {
          if (k3 != "metadata") return true;
          return Fields(v3, [&](std::string_view k4, dom::element v4) {
            if (k4 != "labels") return true;
            return LabelMap(v4, &rc->template_labels);
          });
        });
      });
    });
  }

  bool Body(dom::element e, ReplicaSet* rs) {
    bool of_deployment = false;
    for (const OwnerReference& o : rs->meta.owner_references)
      of_deployment = of_deployment || (o.controller && o.kind == "Deployment");
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k != "spec") return true;
      return Fields(v, [&](std::string_view k2, dom::element v2) {
        if (k2 == "selector") return OptLabelSelector(v2, &rs->selector);
        if (k2 == "template" && of_deployment) rs->template_digest = PodTemplateDigest(v2);
        return true;
      });
    });
  }

  bool Body(dom::element e, DaemonSet* ds) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k != "spec") return true;
      return Fields(v, [&](std::string_view k2, dom::element v2) {
        if (k2 == "selector") return OptLabelSelector(v2, &ds->selector);
        if (k2 != "template") return true;
        return Fields(v2, [&](std::string_view k3, dom::element v3) {
          if (k3 == "spec") {
            ds->has_template_spec = !v3.is_null();
            return PodSpecValue(v3, &ds->template_spec);
          }
          if (k3 != "metadata") return true;
          return Fields(v3, [&](std::string_view k4, dom::element v4) {
            if (k4 == "labels") return LabelMap(v4, &ds->template_labels);
            if (k4 == "annotations") return StringMap(v4, &ds->template_annotations);
            return true;
          });
        });
      });
    });
  }

  bool PersistentVolumeSpec(dom::element e, PersistentVolume* pv) {
    // The in-tree source's id field, by source key.
    auto source = [&](dom::element v, VolumeKind kind, std::string_view id_key) {
      pv->kind = kind;
      return Fields(v, [&](std::string_view k, dom::element v2) {
        if (k == id_key) return String(v2, &pv->volume_id);
        if (kind == VolumeKind::kCSI && k == "driver") return String(v2, &pv->csi_driver);
        if (kind == VolumeKind::kAzureDisk && k == "diskURI")
          return String(v2, &pv->azure_disk_uri);
        if (kind == VolumeKind::kAzureDisk && k == "kind" && !v2.is_null()) {
          std::string azure_kind;
          if (!String(v2, &azure_kind)) return false;
          pv->azure_kind = std::move(azure_kind);
        }
        return true;
      });
    };
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "capacity") {
        return Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "storage") return QuantityValue(v2, &pv->capacity);
          return true;
        });
      }
      if (k == "accessModes") return Strings(v, &pv->access_modes);
      if (k == "storageClassName") return String(v, &pv->storage_class_name);
      if (k == "volumeMode") return String(v, &pv->volume_mode);
      if (k == "volumeAttributesClassName") return String(v, &pv->volume_attributes_class_name);
      if (k == "nodeAffinity") {
        return Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "required") return OptNodeSelector(v2, &pv->node_affinity);
          return true;
        });
      }
      if (k == "claimRef") {
        if (v.is_null()) return true;
        std::pair<std::string, std::string> ref;
        bool ok = Fields(v, [&](std::string_view k2, dom::element v2) {
          if (k2 == "namespace") return String(v2, &ref.first);
          if (k2 == "name") return String(v2, &ref.second);
          if (k2 == "uid") return String(v2, &pv->claim_ref_uid);
          return true;
        });
        if (!ok) return false;
        pv->claim_ref = std::move(ref);
        return true;
      }
      if (v.is_null()) return true;
      if (k == "gcePersistentDisk") return source(v, VolumeKind::kGCEPersistentDisk, "pdName");
      if (k == "awsElasticBlockStore") {
        return source(v, VolumeKind::kAWSElasticBlockStore, "volumeID");
      }
      if (k == "azureDisk") return source(v, VolumeKind::kAzureDisk, "diskName");
      if (k == "cinder") return source(v, VolumeKind::kCinder, "volumeID");
      if (k == "csi") return source(v, VolumeKind::kCSI, "volumeHandle");
      return true;
    });
  }

  bool Body(dom::element e, PersistentVolume* pv) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "spec") return PersistentVolumeSpec(v, pv);
      if (k == "status") return Phase(v, &pv->phase);
      return true;
    });
  }

  bool Body(dom::element e, PersistentVolumeClaim* pvc) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "status") return Phase(v, &pvc->phase);
      if (k != "spec") return true;
      return Fields(v, [&](std::string_view k2, dom::element v2) {
        if (k2 == "volumeName") return String(v2, &pvc->volume_name);
        if (k2 == "storageClassName") {
          if (v2.is_null()) return true;
          std::string cls;
          if (!String(v2, &cls)) return false;
          pvc->storage_class_name = std::move(cls);
          return true;
        }
        if (k2 == "accessModes") return Strings(v2, &pvc->access_modes);
        if (k2 == "volumeMode") return String(v2, &pvc->volume_mode);
        if (k2 == "volumeAttributesClassName") {
          return String(v2, &pvc->volume_attributes_class_name);
        }
        if (k2 == "selector") return OptLabelSelector(v2, &pvc->selector);
        if (k2 == "resources") {
          return Fields(v2, [&](std::string_view k3, dom::element v3) {
            if (k3 != "requests") return true;
            return Fields(v3, [&](std::string_view k4, dom::element v4) {
              if (k4 == "storage") return QuantityValue(v4, &pvc->request);
              return true;
            });
          });
        }
        return true;
      });
    });
  }

  bool Body(dom::element, Namespace*) { return true; }

  bool Body(dom::element e, CSINode* n) {
    if (const std::string* a = n->meta.Annotation(kMigratedPluginsAnnotation)) {
      n->migrated_plugins = SplitMigratedPlugins(*a);
    }
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k != "spec") return true;
      return Fields(v, [&](std::string_view k2, dom::element v2) {
        if (k2 != "drivers") return true;
        return List(v2, &n->drivers, [this](dom::element x, CSINodeDriver* d) {
          return Fields(x, [&](std::string_view k3, dom::element v3) {
            if (k3 == "name") return String(v3, &d->name);
            if (k3 == "nodeID") return String(v3, &d->node_id);
            if (k3 == "topologyKeys") return Strings(v3, &d->topology_keys);
            if (k3 == "allocatable") {
              return Fields(v3, [&](std::string_view k4, dom::element v4) {
                if (k4 == "count") return OptInt32(v4, &d->allocatable_count);
                return true;
              });
            }
            return true;
          });
        });
      });
    });
  }

  bool Body(dom::element e, CSIDriver* d) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k != "spec") return true;
      return Fields(v, [&](std::string_view k2, dom::element v2) {
        if (k2 == "attachRequired") return Bool(v2, &d->attach_required);
        if (k2 == "storageCapacity") return Bool(v2, &d->storage_capacity);
        return true;
      });
    });
  }

  bool Body(dom::element e, CSIStorageCapacity* c) {
    return Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "storageClassName") return String(v, &c->storage_class_name);
      if (k == "nodeTopology") return OptLabelSelector(v, &c->node_topology);
      if (k == "capacity") return QuantityValue(v, &c->capacity);
      if (k == "maximumVolumeSize") return QuantityValue(v, &c->maximum_volume_size);
      return true;
    });
  }

  bool Body(dom::element e, StorageClass* sc) {
    bool ok = Fields(e, [&](std::string_view k, dom::element v) {
      if (k == "provisioner") return String(v, &sc->provisioner);
      if (k == "volumeBindingMode") return String(v, &sc->volume_binding_mode);
      if (k == "allowedTopologies") {
        return List(v, &sc->allowed_topologies,
                    [this](dom::element term, std::vector<TopologySelectorRequirement>* reqs) {
                      return Fields(term, [&](std::string_view k2, dom::element v2) {
                        if (k2 != "matchLabelExpressions") return true;
                        return List(v2, reqs,
                                    [this](dom::element x, TopologySelectorRequirement* r) {
                                      return Fields(x, [&](std::string_view k3, dom::element v3) {
                                        if (k3 == "key") return String(v3, &r->key);
                                        if (k3 == "values") return Strings(v3, &r->values);
                                        return true;
                                      });
                                    });
                      });
                    });
      }
      return true;
    });
    if (sc->volume_binding_mode.empty()) sc->volume_binding_mode = "Immediate";
    return ok;
  }

#include "api/decode_dra.inc"

 private:
  std::string msg_;
  std::vector<std::string> rev_path_;  // innermost segment first
};

// Static facts about each kind.
template <typename T>
struct KindInfo;
template <>
struct KindInfo<Pod> {
  static constexpr std::string_view kName = "Pod";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<DaemonSet> {
  static constexpr std::string_view kName = "DaemonSet";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<Node> {
  static constexpr std::string_view kName = "Node";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<Service> {
  static constexpr std::string_view kName = "Service";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<ReplicationController> {
  static constexpr std::string_view kName = "ReplicationController";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<PersistentVolume> {
  static constexpr std::string_view kName = "PersistentVolume";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<PersistentVolumeClaim> {
  static constexpr std::string_view kName = "PersistentVolumeClaim";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<PodDisruptionBudget> {
  static constexpr std::string_view kName = "PodDisruptionBudget";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<PriorityClass> {
  static constexpr std::string_view kName = "PriorityClass";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<Namespace> {
  static constexpr std::string_view kName = "Namespace";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<CSINode> {
  static constexpr std::string_view kName = "CSINode";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<CSIDriver> {
  static constexpr std::string_view kName = "CSIDriver";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<CSIStorageCapacity> {
  static constexpr std::string_view kName = "CSIStorageCapacity";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<StorageClass> {
  static constexpr std::string_view kName = "StorageClass";
  static constexpr bool kNamespaced = false;
};

template <>
struct KindInfo<DeviceClass> {
  static constexpr std::string_view kName = "DeviceClass";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<ResourceSlice> {
  static constexpr std::string_view kName = "ResourceSlice";
  static constexpr bool kNamespaced = false;
};
template <>
struct KindInfo<ResourceClaim> {
  static constexpr std::string_view kName = "ResourceClaim";
  static constexpr bool kNamespaced = true;
};
template <>
struct KindInfo<ResourceClaimTemplate> {
  static constexpr std::string_view kName = "ResourceClaimTemplate";
  static constexpr bool kNamespaced = true;
};

// The UTF-8 byte order mark some editors write first.
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// How an object is named in messages while its name is unknown.
std::string Unnamed(std::string_view kind, std::string_view where) {
  return where.empty() ? std::string(kind) : std::string(where) + " (" + std::string(kind) + ")";
}

// How an object is named in messages: `Kind namespace/name`, or `Kind name`
// for cluster-scoped kinds. Read straight from the metadata element so that it
// works even when decoding the metadata itself failed (say, on its labels).
std::string ObjectLabel(std::string_view kind, bool namespaced, dom::element meta,
                        std::string_view where) {
  std::string_view name, ns;
  if (meta.at_key("name").get(name) != SUCCESS || name.empty()) return Unnamed(kind, where);
  if (namespaced && (meta.at_key("namespace").get(ns) != SUCCESS || ns.empty())) ns = "default";
  std::string label(kind);
  label.push_back(' ');
  if (namespaced) {
    label.append(ns);
    label.push_back('/');
  }
  label.append(name);
  return label;
}

// ReplicaSet and StatefulSet share one struct, so their kind name is a
// parameter rather than a trait.
template <typename T>
Result<T> DecodeKind(dom::element e, std::string_view kind, bool namespaced, std::string_view file,
                     std::string_view where) {
  if (!e.is_object()) {
    return MakeError(
        Compose({file, Unnamed(kind, where), "expected an object, got " + Describe(e)}));
  }
  Decoder d;
  T obj;
  dom::element meta;
  if (e.at_key("metadata").get(meta) != SUCCESS) {
    return MakeError(Compose({file, Unnamed(kind, where), "metadata.name: missing"}));
  }
  if (!d.Meta(meta, namespaced, &obj.meta)) {
    return MakeError(Compose({file, ObjectLabel(kind, namespaced, meta, where), d.Message()}));
  }
  if (!d.Body(e, &obj)) {
    return MakeError(Compose({file, ObjectLabel(kind, namespaced, meta, where), d.Message()}));
  }
  return obj;
}

template <typename T>
Result<T> DecodeKind(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<T>(e, KindInfo<T>::kName, KindInfo<T>::kNamespaced, file, where);
}

template <typename T>
Status Append(Result<T> r, std::vector<T>* out) {
  if (!r.ok()) return r.error();
  out->push_back(std::move(r.value()));
  return Status::Ok();
}

// Records in out->field_notes what object `e` (just decoded as `meta`) holds
// that v1.15 does not know: typos, and later fields that change scheduling.
void NoteFields(dom::element e, std::string_view kind, std::string_view file,
                const ObjectMeta& meta, ObjectSet* out) {
  thread_local std::vector<FoundField> found;
  found.clear();
  FindUnknownFields(e, kind, &found, IsSkewField);
  for (FoundField& f : found) {
    std::vector<int> skews;
    if (f.what == FieldFinding::What::kNewer) {
      skews = SkewIndices(f);
      if (skews.empty()) continue;
    } else {
      skews.push_back(-1);
    }
    FieldNote note;
    note.file.assign(file);
    note.kind.assign(kind);
    note.object = meta.ns == kEmptyStr ? meta.name : std::string(Str(meta.ns)) + "/" + meta.name;
    // The finding without its value: the parsed document goes away.
    note.finding = std::move(static_cast<FieldFinding&>(f));
    // One note per entry of the skew table the field stands for.
    for (size_t i = 0; i + 1 < skews.size(); ++i) {
      FieldNote copy = note;
      copy.skew = skews[i];
      out->field_notes.push_back(std::move(copy));
    }
    note.skew = skews.back();
    out->field_notes.push_back(std::move(note));
  }
}

// Append, then NoteFields for the object appended.
template <typename T>
Status AppendNoted(Result<T> r, std::vector<T>* list, dom::element e, std::string_view kind,
                   std::string_view file, ObjectSet* out) {
  // Not through Append: a Pod moved once more per object costs 5% of a
  // 100,000-pod load.
  if (!r.ok()) return r.error();
  list->push_back(std::move(r.value()));
  NoteFields(e, kind, file, list->back().meta, out);
  return Status::Ok();
}

// 1-based line and column of byte `offset` in `text`.
std::string LineCol(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

// simdjson says what is wrong but not where. nlohmann's SAX parser is used
// (only on this error path) to find the offset of the first syntax error in
// the document starting at `start`.
std::optional<size_t> SyntaxErrorOffset(std::string_view text, size_t start) {
  struct Locator : nlohmann::json_sax<nlohmann::json> {
    std::optional<size_t> pos;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception&) override {
      pos = position;
      return false;
    }
  };
  Locator loc;
  std::string_view doc = text.substr(std::min(start, text.size()));
  nlohmann::json::sax_parse(doc.begin(), doc.end(), &loc, nlohmann::json::input_format_t::json,
                            /*strict=*/false);
  if (!loc.pos) return std::nullopt;
  // nlohmann counts the offending character itself.
  return start + (*loc.pos > 0 ? *loc.pos - 1 : 0);
}

Error JsonSyntaxError(std::string_view text, std::string_view filename, size_t doc_start,
                      simdjson::error_code err) {
  std::string where(filename);
  if (auto off = SyntaxErrorOffset(text, doc_start)) where += ":" + LineCol(text, *off);
  return MakeError(Compose({where, std::string("invalid JSON: ") + simdjson::error_message(err)}));
}

// The position of a child inside `where`: "items[3]", "[3].items[0]",
// "document 2: items[3]".
std::string Child(std::string_view where, std::string_view name, size_t i) {
  std::string s(where);
  if (!s.empty()) s.append(s.back() == ']' ? (name.empty() ? "" : ".") : ": ");
  s.append(name);
  s.push_back('[');
  s.append(std::to_string(i));
  s.push_back(']');
  return s;
}

// Sizes the vectors of *out for the items of a list before decoding them. A
// snapshot holds ~100k pods of ~600 bytes each: growing the vector by doubling
// would move every pod several times and fault in twice the memory.
void ReserveFor(dom::array items, std::string_view default_kind, ObjectSet* out) {
  size_t pods = 0, nodes = 0;
  for (dom::element item : items) {
    std::string_view kind = default_kind;
    if (dom::element k; item.at_key("kind").get(k) == SUCCESS && k.is_string()) {
      kind = k.get_string().value_unsafe();
    }
    if (kind == "Pod") {
      ++pods;
    } else if (kind == "Node") {
      ++nodes;
    }
  }
  out->pods.reserve(out->pods.size() + pods);
  out->nodes.reserve(out->nodes.size() + nodes);
}

// What to say about an object without `kind`: what ksched reads, and, for a
// file meant for another command, which command.
std::string MissingKind(dom::object obj, std::string_view where) {
  dom::element unused;
  if (where.empty() && (obj.at_key("cluster").get(unused) == SUCCESS ||
                        obj.at_key("pending").get(unused) == SUCCESS)) {
    return "kind: missing: this looks like a ksched scenario file (it has \"cluster\" or "
           "\"pending\"), not a snapshot; run it with: ksched replay FILE (or ksched bench "
           "FILE)";
  }
  std::string s =
      "kind: missing: ksched reads `kubectl get -o yaml` or `-o json` output: a List, or "
      "objects that each carry apiVersion and kind";
  if (!where.empty() && where[0] == '[') {
    s += " (a bare JSON array is read only when each object names its kind)";
  } else {
    s += " (objects stored without kind, as OpenShift Insights or sonobuoy dumps keep them, "
         "need `kind: Pod`, `kind: Node`, ... added)";
  }
  return s;
}

// Decodes a parsed document: an object, a List, or an array of them.
Status DecodeRoot(dom::element root, std::string_view file, std::string_view where,
                  ObjectSet* out) {
  if (dom::array arr; root.get(arr) == SUCCESS) {
    ReserveFor(arr, "", out);
    size_t i = 0;
    for (dom::element item : arr) {
      if (Status s = DecodeAny(item, file, Child(where, "", i++), out); !s.ok()) return s;
    }
    return Status::Ok();
  }
  return DecodeAny(root, file, where, out);
}

Error TooDeep(std::string_view file) {
  return MakeError(
      Compose({file, "JSON nested deeper than " + std::to_string(kMaxYamlDepth) + " levels"}));
}

// `text` must be followed by SIMDJSON_PADDING readable bytes.
Status DecodeJson(std::string_view text, std::string_view file, ObjectSet* out) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  dom::parser parser;
  // Same nesting cap as for YAML; real objects are less than 20 levels deep.
  if (parser.allocate(std::max<size_t>(text.size(), 4096), kMaxYamlDepth) != SUCCESS) {
    return MakeError(Compose({file, "out of memory"}));
  }
  dom::element root;
  simdjson::error_code err = parser.parse(bytes, text.size(), false).get(root);
  if (err == SUCCESS) return DecodeRoot(root, file, "", out);
  if (err == simdjson::DEPTH_ERROR) return TooDeep(file);

  // Several concatenated documents ({...} {...}, or one per line) do not
  // parse as one; try them as a stream before calling it a syntax error.
  // The stream is walked twice: first to validate every document, so that a
  // syntax error in document 3 is reported as such instead of after documents
  // 1 and 2 were decoded, then to decode.
  const size_t batch = std::max<size_t>(text.size() + 64, dom::MINIMAL_BATCH_SIZE);
  size_t count = 0;
  {
    dom::parser checker;
    dom::document_stream docs;
    if (checker.parse_many(bytes, text.size(), batch).get(docs) != SUCCESS) {
      return JsonSyntaxError(text, file, 0, err);
    }
    for (auto it = docs.begin(); it != docs.end(); ++it) {
      dom::element doc;
      if (simdjson::error_code e = (*it).get(doc); e != SUCCESS) {
        if (e == simdjson::DEPTH_ERROR) return TooDeep(file);
        return JsonSyntaxError(text, file, it.current_index(), e);
      }
      ++count;
    }
    if (count < 2 || docs.truncated_bytes() != 0) return JsonSyntaxError(text, file, 0, err);
  }
  dom::document_stream docs;
  if (parser.parse_many(bytes, text.size(), batch).get(docs) != SUCCESS) {
    return JsonSyntaxError(text, file, 0, err);
  }
  size_t n = 0;
  for (auto it = docs.begin(); it != docs.end(); ++it) {
    dom::element doc;
    if (simdjson::error_code e = (*it).get(doc); e != SUCCESS) {
      return JsonSyntaxError(text, file, it.current_index(), e);
    }
    std::string where = "document " + std::to_string(++n);
    if (Status s = DecodeRoot(doc, file, where, out); !s.ok()) return s;
  }
  return Status::Ok();
}

Status DecodeYaml(std::string_view text, std::string_view file, ObjectSet* out) {
  auto docs = YamlDocumentsToJson(text, file);
  if (!docs.ok()) return docs.error();
  dom::parser parser;
  for (size_t i = 0; i < docs->size(); ++i) {
    const std::string& json = (*docs)[i];
    std::string where = docs->size() > 1 ? "document " + std::to_string(i + 1) : "";
    dom::element root;
    if (simdjson::error_code err = parser.parse(json).get(root); err != SUCCESS) {
      // The converter writes valid JSON; what simdjson can still refuse is
      // content such as invalid UTF-8.
      return MakeError(Compose(
          {file, where, std::string("invalid YAML content: ") + simdjson::error_message(err)}));
    }
    if (Status s = DecodeRoot(root, file, where, out); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

bool LooksLikeJson(std::string_view text) {
  // UTF-16 text goes to the YAML path, which names its encoding.
  if (text.size() >= 2 && (text[0] == '\0' || text[1] == '\0')) return false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    // A UTF-8 byte order mark is not JSON; such input goes to the YAML path,
    // which accepts it (and JSON is valid YAML).
    return c == '{' || c == '[';
  }
  return false;
}

Result<simdjson::dom::element> ParseJson(simdjson::dom::parser& parser, std::string_view text,
                                         std::string_view filename) {
  simdjson::padded_string padded(text);
  return ParseJsonPadded(parser, padded, filename);
}

Result<simdjson::dom::element> ParseJsonPadded(simdjson::dom::parser& parser, std::string_view text,
                                               std::string_view filename) {
  if (parser.allocate(std::max<size_t>(text.size(), 4096), kMaxYamlDepth) != SUCCESS) {
    return MakeError(Compose({filename, "out of memory"}));
  }
  dom::element root;
  simdjson::error_code err =
      parser.parse(reinterpret_cast<const uint8_t*>(text.data()), text.size(), false).get(root);
  if (err == simdjson::DEPTH_ERROR) return TooDeep(filename);
  if (err != SUCCESS) return JsonSyntaxError(text, filename, 0, err);
  return root;
}

Status DecodeAny(simdjson::dom::element e, std::string_view file, std::string_view where,
                 ObjectSet* out, std::string_view default_kind) {
  dom::object obj;
  if (e.get(obj) != SUCCESS) {
    return MakeError(Compose({file, where, "expected an object, got " + Describe(e)}));
  }
  std::string_view kind = default_kind;
  if (dom::element k; obj.at_key("kind").get(k) == SUCCESS && !k.is_null()) {
    if (k.get(kind) != SUCCESS) {
      return MakeError(Compose({file, where, "kind: expected a string, got " + Describe(k)}));
    }
  }
  if (kind.empty()) return MakeError(Compose({file, where, MissingKind(obj, where)}));

  if (kind.size() >= 4 && kind.substr(kind.size() - 4) == "List") {
    // `List` holds any kinds; `PodList`, `NodeList`, ... hold one kind and
    // their items may leave it out.
    std::string_view item_kind =
        kind == "List" ? std::string_view() : kind.substr(0, kind.size() - 4);
    dom::element items;
    if (obj.at_key("items").get(items) != SUCCESS || items.is_null()) return Status::Ok();
    dom::array arr;
    if (items.get(arr) != SUCCESS) {
      return MakeError(Compose({file, where, "items: expected an array, got " + Describe(items)}));
    }
    ReserveFor(arr, item_kind, out);
    size_t i = 0;
    for (dom::element item : arr) {
      std::string w = Child(where, "items", i++);
      if (Status s = DecodeAny(item, file, w, out, item_kind); !s.ok()) return s;
    }
    return Status::Ok();
  }

  if (kind == "Pod") return AppendNoted(DecodePod(e, file, where), &out->pods, e, kind, file, out);
  if (kind == "Node")
    return AppendNoted(DecodeNode(e, file, where), &out->nodes, e, kind, file, out);
  if (kind == "Service")
    return AppendNoted(DecodeService(e, file, where), &out->services, e, kind, file, out);
  if (kind == "ReplicationController") {
    return AppendNoted(DecodeReplicationController(e, file, where), &out->replication_controllers,
                       e, kind, file, out);
  }
  if (kind == "ReplicaSet")
    return AppendNoted(DecodeReplicaSet(e, file, where), &out->replica_sets, e, kind, file, out);
  if (kind == "StatefulSet") {
    return AppendNoted(DecodeStatefulSet(e, file, where), &out->stateful_sets, e, kind, file, out);
  }
  if (kind == "DaemonSet")
    return AppendNoted(DecodeDaemonSet(e, file, where), &out->daemon_sets, e, kind, file, out);
  if (kind == "PersistentVolume") {
    return AppendNoted(DecodePersistentVolume(e, file, where), &out->persistent_volumes, e, kind,
                       file, out);
  }
  if (kind == "PersistentVolumeClaim") {
    return AppendNoted(DecodePersistentVolumeClaim(e, file, where), &out->persistent_volume_claims,
                       e, kind, file, out);
  }
  if (kind == "StorageClass") {
    return AppendNoted(DecodeStorageClass(e, file, where), &out->storage_classes, e, kind, file,
                       out);
  }
  if (kind == "PodDisruptionBudget") {
    return AppendNoted(DecodePodDisruptionBudget(e, file, where), &out->pod_disruption_budgets, e,
                       kind, file, out);
  }
  if (kind == "PriorityClass") {
    return AppendNoted(DecodePriorityClass(e, file, where), &out->priority_classes, e, kind, file,
                       out);
  }
  if (kind == "Namespace") {
    return AppendNoted(DecodeNamespace(e, file, where), &out->namespaces, e, kind, file, out);
  }
  if (kind == "CSINode")
    return AppendNoted(DecodeCSINode(e, file, where), &out->csi_nodes, e, kind, file, out);
  if (kind == "CSIDriver")
    return AppendNoted(DecodeCSIDriver(e, file, where), &out->csi_drivers, e, kind, file, out);
  if (kind == "CSIStorageCapacity") {
    return AppendNoted(DecodeCSIStorageCapacity(e, file, where), &out->csi_storage_capacities, e,
                       kind, file, out);
  }
  if (kind == "DeviceClass") {
    return AppendNoted(DecodeDeviceClass(e, file, where), &out->device_classes, e, kind, file, out);
  }
  if (kind == "ResourceSlice") {
    return AppendNoted(DecodeResourceSlice(e, file, where), &out->resource_slices, e, kind, file,
                       out);
  }
  if (kind == "ResourceClaim") {
    return AppendNoted(DecodeResourceClaim(e, file, where), &out->resource_claims, e, kind, file,
                       out);
  }
  if (kind == "ResourceClaimTemplate") {
    return AppendNoted(DecodeResourceClaimTemplate(e, file, where), &out->resource_claim_templates,
                       e, kind, file, out);
  }
  ++out->skipped;
  return Status::Ok();
}

Status DecodeObjects(std::string_view text, std::string_view filename, ObjectSet* out) {
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
  if (LooksLikeJson(text)) {
    simdjson::padded_string padded(text);
    return DecodeJson(padded, filename, out);
  }
  return DecodeYaml(text, filename, out);
}

Status DecodeFile(const std::string& path, ObjectSet* out) {
  Result<PaddedFile> file = PaddedFile::Load(path);
  if (!file.ok()) return file.error();
  std::string_view name = path == "-" ? std::string_view("<stdin>") : std::string_view(path);
  std::string_view text = file->view();
  // A UTF-8 byte order mark is skipped (the padding still follows the text).
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
  if (LooksLikeJson(text)) return DecodeJson(text, name, out);
  return DecodeYaml(text, name, out);
}

// ------------------------------------------------------------------ PaddedFile

PaddedFile& PaddedFile::operator=(PaddedFile&& other) noexcept {
  if (this != &other) {
    this->~PaddedFile();
    map_ = std::exchange(other.map_, nullptr);
    map_len_ = std::exchange(other.map_len_, 0);
    size_ = std::exchange(other.size_, 0);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

PaddedFile::~PaddedFile() {
  if (map_ != nullptr) munmap(map_, map_len_);
  map_ = nullptr;
}

Result<PaddedFile> PaddedFile::Load(const std::string& path) {
  PaddedFile f;
  if (path == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) return MakeError("<stdin>: read error");
    f.buffer_ = simdjson::padded_string(text);
    return f;
  }
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return MakeError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return MakeError(path + ": cannot stat: " + std::strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return MakeError(path + ": is a directory");
  }
  // Below a megabyte a copy costs nothing worth avoiding.
  constexpr size_t kMapThreshold = size_t{1} << 20;
  if (S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) >= kMapThreshold) {
    size_t size = static_cast<size_t>(st.st_size);
    size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_t len = (size + simdjson::SIMDJSON_PADDING + page - 1) / page * page;
    // Reserve zeroed anonymous memory for file + padding, then map the file
    // over its start: the bytes past the end of the file read as zeros.
    void* region = mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region != MAP_FAILED) {
      void* mapped = mmap(region, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0);
      if (mapped != MAP_FAILED) {
        close(fd);
        f.map_ = region;
        f.map_len_ = len;
        f.size_ = size;
        return f;
      }
      munmap(region, len);
    }
    // Fall through to reading.
  }
  std::string text;
  if (S_ISREG(st.st_mode)) text.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      return MakeError(path + ": read error: " + std::strerror(e));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  f.buffer_ = simdjson::padded_string(text);
  return f;
}

Result<Pod> DecodePod(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<Pod>(e, file, where);
}
Result<Node> DecodeNode(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<Node>(e, file, where);
}
Result<Service> DecodeService(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<Service>(e, file, where);
}
Result<ReplicationController> DecodeReplicationController(dom::element e, std::string_view file,
                                                          std::string_view where) {
  return DecodeKind<ReplicationController>(e, file, where);
}
Result<ReplicaSet> DecodeReplicaSet(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<ReplicaSet>(e, "ReplicaSet", true, file, where);
}
Result<StatefulSet> DecodeStatefulSet(dom::element e, std::string_view file,
                                      std::string_view where) {
  return DecodeKind<StatefulSet>(e, "StatefulSet", true, file, where);
}
Result<DaemonSet> DecodeDaemonSet(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<DaemonSet>(e, file, where);
}
Result<PersistentVolume> DecodePersistentVolume(dom::element e, std::string_view file,
                                                std::string_view where) {
  return DecodeKind<PersistentVolume>(e, file, where);
}
Result<PersistentVolumeClaim> DecodePersistentVolumeClaim(dom::element e, std::string_view file,
                                                          std::string_view where) {
  return DecodeKind<PersistentVolumeClaim>(e, file, where);
}
Result<StorageClass> DecodeStorageClass(dom::element e, std::string_view file,
                                        std::string_view where) {
  return DecodeKind<StorageClass>(e, file, where);
}
Result<PodDisruptionBudget> DecodePodDisruptionBudget(dom::element e, std::string_view file,
                                                      std::string_view where) {
  return DecodeKind<PodDisruptionBudget>(e, file, where);
}
Result<PriorityClass> DecodePriorityClass(dom::element e, std::string_view file,
                                          std::string_view where) {
  return DecodeKind<PriorityClass>(e, file, where);
}
Result<Namespace> DecodeNamespace(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<Namespace>(e, file, where);
}
Result<CSINode> DecodeCSINode(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<CSINode>(e, file, where);
}
Result<CSIDriver> DecodeCSIDriver(dom::element e, std::string_view file, std::string_view where) {
  return DecodeKind<CSIDriver>(e, file, where);
}

Result<CSIStorageCapacity> DecodeCSIStorageCapacity(dom::element e, std::string_view file,
                                                    std::string_view where) {
  return DecodeKind<CSIStorageCapacity>(e, file, where);
}

Result<DeviceClass> DecodeDeviceClass(dom::element e, std::string_view file,
                                      std::string_view where) {
  return DecodeKind<DeviceClass>(e, file, where);
}
Result<ResourceSlice> DecodeResourceSlice(dom::element e, std::string_view file,
                                          std::string_view where) {
  return DecodeKind<ResourceSlice>(e, file, where);
}
Result<ResourceClaim> DecodeResourceClaim(dom::element e, std::string_view file,
                                          std::string_view where) {
  return DecodeKind<ResourceClaim>(e, file, where);
}
Result<ResourceClaimTemplate> DecodeResourceClaimTemplate(dom::element e, std::string_view file,
                                                          std::string_view where) {
  return DecodeKind<ResourceClaimTemplate>(e, file, where);
}

std::vector<std::string> SplitMigratedPlugins(std::string_view annotation) {
  std::vector<std::string> out;
  if (annotation.empty()) return out;
  size_t start = 0;
  while (start <= annotation.size()) {
    size_t comma = annotation.find(',', start);
    if (comma == std::string_view::npos) comma = annotation.size();
    // Exact tokens, as upstream's strings.Split: " x" does not name "x".
    out.emplace_back(annotation.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace ksched
