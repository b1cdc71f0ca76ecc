#include "api/yaml_to_json.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace ksched {
namespace {

// Thrown from inside the event handler to abandon the parse; caught at the
// boundary below together with yaml-cpp's own exceptions.
struct ConvertError {
  YAML::Mark mark;
  std::string message;
};

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
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
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

bool IsDigits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = base == 8 ? (c >= '0' && c <= '7')
              : base == 10
                  ? (c >= '0' && c <= '9')
                  : ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
    if (!ok) return false;
  }
  return true;
}

// Appends `digits` (base `base`, with an optional minus) as a JSON integer if
// it fits simdjson's int64/uint64 range; returns false when it does not.
bool AppendInteger(bool negative, std::string_view digits, int base, std::string* out) {
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return false;
  if (negative && magnitude > (uint64_t{1} << 63)) return false;
  if (negative && magnitude != 0) out->push_back('-');
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, magnitude);
  out->append(buf, res.ptr);
  return true;
}

// Core-schema float syntax: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
// Appends it in JSON number syntax (no '+', no bare '.', no leading zeros) and
// returns true; false when `s` is not a float or is out of double range.
bool AppendFloat(std::string_view s, std::string* out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  size_t int_begin = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  std::string_view int_part = s.substr(int_begin, i - int_begin);
  std::string_view frac_part;
  if (i < s.size() && s[i] == '.') {
    size_t frac_begin = ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    frac_part = s.substr(frac_begin, i - frac_begin);
  }
  if (int_part.empty() && frac_part.empty()) return false;
  std::string_view exp_part;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t exp_begin = ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t digits_begin = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == digits_begin) return false;
    exp_part = s.substr(exp_begin, i - exp_begin);
  }
  if (i != s.size()) return false;

  std::string text;
  if (negative) text.push_back('-');
  while (int_part.size() > 1 && int_part[0] == '0') int_part.remove_prefix(1);
  text.append(int_part.empty() ? "0" : int_part);
  if (!frac_part.empty()) {
    text.push_back('.');
    text.append(frac_part);
  }
  if (!exp_part.empty()) {
    text.push_back('e');
    text.append(exp_part);
  }
  // JSON cannot hold infinities; let the caller keep the text as a string.
  double d = std::strtod(text.c_str(), nullptr);
  if (d == HUGE_VAL || d == -HUGE_VAL) return false;
  out->append(text);
  return true;
}

// Appends the JSON form of a plain scalar under the YAML 1.2 core schema.
void AppendPlainScalar(std::string_view v, std::string* out) {
  if (v == "true" || v == "True" || v == "TRUE") {
    out->append("true");
    return;
  }
  if (v == "false" || v == "False" || v == "FALSE") {
    out->append("false");
    return;
  }
  if (v == "null" || v == "Null" || v == "NULL" || v == "~" || v.empty()) {
    out->append("null");
    return;
  }
  if (v.size() > 2 && v[0] == '0' && v[1] == 'x' && IsDigits(v.substr(2), 16)) {
    if (AppendInteger(false, v.substr(2), 16, out)) return;
  } else if (v.size() > 2 && v[0] == '0' && v[1] == 'o' && IsDigits(v.substr(2), 8)) {
    if (AppendInteger(false, v.substr(2), 8, out)) return;
  } else {
    bool negative = !v.empty() && v[0] == '-';
    std::string_view digits = (!v.empty() && (v[0] == '-' || v[0] == '+')) ? v.substr(1) : v;
    if (IsDigits(digits, 10)) {
      if (AppendInteger(negative, digits, 10, out)) return;
    } else if (AppendFloat(v, out)) {
      return;
    }
  }
  // Not a number JSON can hold (or not a number at all): keep the text.
  AppendJsonString(v, out);
}

class JsonWriter : public YAML::EventHandler {
 public:
  JsonWriter(size_t max_output) : max_output_(max_output) {}

  std::vector<std::string>& documents() { return documents_; }

  void OnDocumentStart(const YAML::Mark&) override {
    out_.clear();
    stack_.clear();
    anchors_.clear();
  }

  void OnDocumentEnd() override {
    if (out_ != "null") documents_.push_back(std::move(out_));
    out_.clear();
  }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (BeginNode(mark, /*is_scalar=*/true, "null")) return;
    size_t start = out_.size();
    out_.append("null");
    EndScalar(anchor, start, "null");
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) throw ConvertError{mark, "unknown alias"};
    const Anchored& a = it->second;
    if (BeginNode(mark, a.is_scalar, a.scalar_text)) return;
    out_.append(a.json);
    if (out_.size() > max_output_) {
      throw ConvertError{mark, "document too large after expanding aliases"};
    }
    AfterValue();
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    if (tag == "?" && value == "<<" && InKeyPosition()) {
      throw ConvertError{mark, "YAML merge keys (<<) are not supported"};
    }
    if (BeginNode(mark, /*is_scalar=*/true, value)) {
      // An anchored key: an alias may repeat it as a key or as a value.
      if (anchor != 0) {
        std::string json;
        AppendJsonString(value, &json);
        anchors_[anchor] = Anchored{std::move(json), true, value};
      }
      return;
    }
    size_t start = out_.size();
    // "?" marks a plain scalar; "!" a quoted or block one. Explicit standard
    // tags other than !!str are typed as if the value had been written plain.
    if (tag == "?" || tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" ||
        tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:null") {
      AppendPlainScalar(value, &out_);
    } else {
      AppendJsonString(value, &out_);
    }
    EndScalar(anchor, start, value);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    StartCollection(mark, /*is_map=*/false, anchor);
  }
  void OnSequenceEnd() override { EndCollection(']'); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    StartCollection(mark, /*is_map=*/true, anchor);
  }
  void OnMapEnd() override { EndCollection('}'); }

 private:
  struct Frame {
    bool is_map = false;
    bool expect_key = true;  // maps only
    bool first = true;
    YAML::anchor_t anchor = 0;
    size_t start = 0;  // offset of this collection's text in out_
  };
  struct Anchored {
    std::string json;
    bool is_scalar = false;
    std::string scalar_text;  // for aliases used as mapping keys
  };

  bool InKeyPosition() const {
    return !stack_.empty() && stack_.back().is_map && stack_.back().expect_key;
  }

  // Emits the separator before a node. A node in key position is written here
  // as a JSON string, and true is returned: the caller has nothing left to do.
  bool BeginNode(const YAML::Mark& mark, bool is_scalar, std::string_view scalar_text) {
    if (stack_.empty()) return false;
    Frame& f = stack_.back();
    if (f.is_map && f.expect_key) {
      if (!is_scalar) throw ConvertError{mark, "mapping keys must be scalars"};
      if (!f.first) out_.push_back(',');
      f.first = false;
      AppendJsonString(scalar_text, &out_);
      out_.push_back(':');
      f.expect_key = false;
      return true;
    }
    if (!f.is_map) {
      if (!f.first) out_.push_back(',');
      f.first = false;
    }
    return false;
  }

  // Called once a value (not a key) has been written completely.
  void AfterValue() {
    if (!stack_.empty() && stack_.back().is_map) stack_.back().expect_key = true;
  }

  void EndScalar(YAML::anchor_t anchor, size_t start, std::string_view text) {
    if (anchor != 0) anchors_[anchor] = Anchored{out_.substr(start), true, std::string(text)};
    AfterValue();
  }

  void StartCollection(const YAML::Mark& mark, bool is_map, YAML::anchor_t anchor) {
    if (BeginNode(mark, /*is_scalar=*/false, "")) return;
    if (static_cast<int>(stack_.size()) >= kMaxYamlDepth) {
      throw ConvertError{
          mark, "document nested deeper than " + std::to_string(kMaxYamlDepth) + " levels"};
    }
    stack_.push_back(Frame{is_map, true, true, anchor, out_.size()});
    out_.push_back(is_map ? '{' : '[');
  }

  void EndCollection(char close) {
    Frame f = stack_.back();
    stack_.pop_back();
    out_.push_back(close);
    if (f.anchor != 0) anchors_[f.anchor] = Anchored{out_.substr(f.start), false, ""};
    AfterValue();
  }

  size_t max_output_;
  std::string out_;
  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;
  std::vector<std::string> documents_;
};

std::string Located(std::string_view filename, const YAML::Mark& mark, const std::string& msg) {
  std::string s(filename);
  if (!mark.is_null()) {
    s += ':' + std::to_string(mark.line + 1) + ':' + std::to_string(mark.column + 1);
  }
  s += ": ";
  s += msg;
  return s;
}

}  // namespace

namespace {

// YAML streams may hold only printable characters (go-yaml: "control
// characters are not allowed") in valid UTF-8. Checked before yaml-cpp sees
// the text: a NUL byte sends its scanner into an endless loop, and invalid
// UTF-8 would otherwise reach the JSON produced.
std::optional<std::string> CheckYamlText(std::string_view yaml, std::string_view filename) {
  if (!simdjson::validate_utf8(yaml.data(), yaml.size())) {
    return std::string(filename) + ": YAML: invalid UTF-8";
  }
  size_t line = 1, column = 1;
  for (unsigned char c : yaml) {
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      return std::string(filename) + ":" + std::to_string(line) + ":" + std::to_string(column) +
             ": control characters are not allowed";
    }
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<std::string>> YamlDocumentsToJson(std::string_view yaml,
                                                     std::string_view filename) {
  if (std::optional<std::string> bad = CheckYamlText(yaml, filename)) return MakeError(*bad);
  // Aliases may legitimately repeat parts of a document, but not without bound.
  JsonWriter writer(yaml.size() * 16 + (size_t{1} << 20));
  try {
    std::istringstream in{std::string(yaml)};
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(writer)) {
    }
  } catch (const ConvertError& e) {
    return MakeError(Located(filename, e.mark, e.message));
  } catch (const YAML::Exception& e) {
    return MakeError(Located(filename, e.mark, e.msg));
  } catch (const std::exception& e) {
    return MakeError(std::string(filename) + ": YAML: " + e.what());
  }
  return std::move(writer.documents());
}

Result<std::string> YamlToJson(std::string_view yaml, std::string_view filename) {
  auto docs = YamlDocumentsToJson(yaml, filename);
  if (!docs.ok()) return docs.error();
  if (docs->empty()) return std::string("null");
  if (docs->size() > 1) {
    return MakeError(std::string(filename) + ": expected a single YAML document, found " +
                     std::to_string(docs->size()));
  }
  return std::move((*docs)[0]);
}

}  // namespace ksched
