#include "api/pod_template_digest.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ksched {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// FNV-1a, 64 bits, fed piece by piece.
struct Fnv64 {
  uint64_t h = 14695981039346656037ull;
  void Add(std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
  }
};

// Feeds `e` in a canonical form: objects with their keys sorted, each value
// tagged with its type, so {"a":"1"} and {"a":1} differ. `depth` 0 is the
// template; its metadata.labels lose pod-template-hash.
void Feed(element e, int depth, std::string_view key_path, Fnv64* f) {
  switch (e.type()) {
    case element_type::OBJECT: {
      simdjson::dom::object obj;
      if (e.get(obj) != simdjson::SUCCESS) return;
      std::vector<std::pair<std::string_view, element>> fields;
      for (auto field : obj) fields.emplace_back(field.key, field.value);
      std::sort(fields.begin(), fields.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      f->Add("{");
      for (const auto& [k, v] : fields) {
        if (key_path == "metadata.labels" && k == "pod-template-hash") continue;
        f->Add(k);
        f->Add(":");
        std::string path;
        if (depth == 0) path = std::string(k);
        if (depth == 1 && key_path == "metadata") path = "metadata." + std::string(k);
        Feed(v, depth + 1, path, f);
        f->Add(",");
      }
      f->Add("}");
      return;
    }
    case element_type::ARRAY: {
      simdjson::dom::array arr;
      if (e.get(arr) != simdjson::SUCCESS) return;
      f->Add("[");
      for (element v : arr) {
        Feed(v, depth + 1, "", f);
        f->Add(",");
      }
      f->Add("]");
      return;
    }
    case element_type::STRING: {
      std::string_view v;
      if (e.get(v) != simdjson::SUCCESS) return;
      f->Add("s");
      f->Add(v);
      f->Add("\x01");
      return;
    }
    case element_type::INT64: {
      int64_t v = 0;
      if (e.get(v) != simdjson::SUCCESS) return;
      f->Add("i" + std::to_string(v));
      return;
    }
    case element_type::UINT64: {
      uint64_t v = 0;
      if (e.get(v) != simdjson::SUCCESS) return;
      f->Add("i" + std::to_string(v));
      return;
    }
    case element_type::DOUBLE: {
      double v = 0;
      if (e.get(v) != simdjson::SUCCESS) return;
      f->Add("d" + std::to_string(v));
      return;
    }
    case element_type::BOOL: {
      bool v = false;
      if (e.get(v) != simdjson::SUCCESS) return;
      f->Add(v ? "t" : "f");
      return;
    }
    case element_type::NULL_VALUE:
      f->Add("n");
      return;
    default:
      f->Add("?");
      return;
  }
}

}  // namespace

uint64_t PodTemplateDigest(element tmpl) {
  if (!tmpl.is_object()) return 0;
  Fnv64 f;
  Feed(tmpl, 0, "", &f);
  return f.h == 0 ? 1 : f.h;
}

}  // namespace ksched
