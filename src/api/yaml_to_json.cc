#include "api/yaml_to_json.h"

#include <simdjson.h>
#include <yaml.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace ksched {
namespace {

// Where something went wrong: 0-based, as libyaml counts.
struct Mark {
  size_t line = 0;
  size_t column = 0;
};

// Returned by the writer to abandon the conversion.
struct ConvertError {
  Mark mark;
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

  while (int_part.size() > 1 && int_part[0] == '0') int_part.remove_prefix(1);
  if (frac_part.empty() && exp_part.empty()) {
    // `5.`: written as a JSON integer, which must then fit 64 bits like any
    // other integer (found by fuzzing: `444...4.` gave invalid JSON).
    return AppendInteger(negative, int_part.empty() ? "0" : int_part, 10, out);
  }
  std::string text;
  if (negative) text.push_back('-');
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

// True for the spellings of null that a plain scalar may use.
bool IsPlainNull(std::string_view v) {
  return v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL";
}

// Builds JSON text from libyaml's event stream, one document at a time.
//
// Anchored nodes are remembered as byte ranges of the document being written
// (out_ only grows until the document ends), so an alias costs one append and
// no copy is kept per anchor.
class JsonWriter {
 public:
  explicit JsonWriter(size_t max_output) : max_output_(max_output) {}

  std::vector<std::string>& documents() { return documents_; }

  // Consumes one event; returns an error to stop the conversion.
  std::optional<ConvertError> Handle(const yaml_event_t& e) {
    Mark mark{e.start_mark.line, e.start_mark.column};
    switch (e.type) {
      case YAML_DOCUMENT_START_EVENT:
        out_.clear();
        stack_.clear();
        anchors_.clear();
        return std::nullopt;
      case YAML_DOCUMENT_END_EVENT:
        if (out_ != "null") documents_.push_back(std::move(out_));
        out_.clear();
        return std::nullopt;
      case YAML_ALIAS_EVENT:
        return OnAlias(mark, Text(e.data.alias.anchor));
      case YAML_SCALAR_EVENT:
        return OnScalar(mark, e);
      case YAML_SEQUENCE_START_EVENT:
        return StartCollection(mark, /*is_map=*/false, Text(e.data.sequence_start.anchor));
      case YAML_MAPPING_START_EVENT:
        return StartCollection(mark, /*is_map=*/true, Text(e.data.mapping_start.anchor));
      case YAML_SEQUENCE_END_EVENT:
        EndCollection(']');
        return std::nullopt;
      case YAML_MAPPING_END_EVENT:
        EndCollection('}');
        return std::nullopt;
      default:  // stream start/end, and YAML_NO_EVENT
        return std::nullopt;
    }
  }

 private:
  struct Frame {
    bool is_map = false;
    bool expect_key = true;  // maps only
    bool first = true;
    std::string anchor;  // empty: none
    size_t start = 0;    // offset of this collection's text in out_
  };
  struct Anchored {
    size_t begin = 0, end = 0;  // the node's JSON text, as a range of out_
    bool is_scalar = false;
    std::string scalar_text;  // scalars: as written, for aliases used as keys
  };

  static std::string_view Text(const yaml_char_t* s) {
    return s == nullptr ? std::string_view() : std::string_view(reinterpret_cast<const char*>(s));
  }

  bool InKeyPosition() const {
    return !stack_.empty() && stack_.back().is_map && stack_.back().expect_key;
  }

  std::optional<ConvertError> OnAlias(Mark mark, std::string_view name) {
    auto it = anchors_.find(std::string(name));
    if (it == anchors_.end())
      return ConvertError{mark, "unknown alias \"" + std::string(name) + '"'};
    const Anchored& a = it->second;
    bool done = false;
    if (auto err = BeginNode(mark, a.is_scalar, a.scalar_text, &done)) return err;
    if (done) return std::nullopt;
    size_t length = a.end - a.begin;
    if (out_.size() + length > max_output_) {
      return ConvertError{mark, "document too large after expanding aliases"};
    }
    // Reserve first so that the source range stays valid while appending.
    out_.reserve(out_.size() + length);
    out_.append(out_.data() + a.begin, length);
    AfterValue();
    return std::nullopt;
  }

  std::optional<ConvertError> OnScalar(Mark mark, const yaml_event_t& e) {
    std::string_view value(reinterpret_cast<const char*>(e.data.scalar.value),
                           e.data.scalar.length);
    std::string_view tag = Text(e.data.scalar.tag);
    std::string_view anchor = Text(e.data.scalar.anchor);
    // Untagged plain scalars are typed by their text; so are values whose
    // explicit standard tag is one of the typed ones. Quoted and block
    // scalars, !!str and any other tag stay strings.
    bool typed = tag.empty()
                     ? e.data.scalar.plain_implicit != 0
                     : (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" ||
                        tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:null");
    bool plain_untagged = tag.empty() && e.data.scalar.plain_implicit != 0;
    if (plain_untagged && value == "<<" && InKeyPosition()) {
      return ConvertError{mark, "YAML merge keys (<<) are not supported"};
    }
    // A plain null used as a key is spelled "null", whichever way it was written.
    std::string_view key_text = plain_untagged && IsPlainNull(value) ? "null" : value;
    bool done = false;
    if (auto err = BeginNode(mark, /*is_scalar=*/true, key_text, &done)) return err;
    if (done) {
      // An anchored key: an alias may repeat it as a key or as a value.
      if (!anchor.empty()) {
        anchors_[std::string(anchor)] =
            Anchored{key_begin_, key_end_, /*is_scalar=*/true, std::string(key_text)};
      }
      return std::nullopt;
    }
    size_t begin = out_.size();
    if (typed) {
      AppendPlainScalar(value, &out_);
    } else {
      AppendJsonString(value, &out_);
    }
    if (!anchor.empty()) {
      anchors_[std::string(anchor)] =
          Anchored{begin, out_.size(), /*is_scalar=*/true, std::string(key_text)};
    }
    AfterValue();
    return std::nullopt;
  }

  // Emits the separator before a node. A node in key position is written here
  // as a JSON string (its range kept in key_begin_/key_end_) and *done is set:
  // the caller has nothing left to do.
  std::optional<ConvertError> BeginNode(Mark mark, bool is_scalar, std::string_view scalar_text,
                                        bool* done) {
    *done = false;
    if (stack_.empty()) return std::nullopt;
    Frame& f = stack_.back();
    if (f.is_map && f.expect_key) {
      if (!is_scalar) return ConvertError{mark, "mapping keys must be scalars"};
      if (!f.first) out_.push_back(',');
      f.first = false;
      key_begin_ = out_.size();
      AppendJsonString(scalar_text, &out_);
      key_end_ = out_.size();
      out_.push_back(':');
      f.expect_key = false;
      *done = true;
      return std::nullopt;
    }
    if (!f.is_map) {
      if (!f.first) out_.push_back(',');
      f.first = false;
    }
    return std::nullopt;
  }

  // Called once a value (not a key) has been written completely.
  void AfterValue() {
    if (!stack_.empty() && stack_.back().is_map) stack_.back().expect_key = true;
  }

  std::optional<ConvertError> StartCollection(Mark mark, bool is_map, std::string_view anchor) {
    bool done = false;
    if (auto err = BeginNode(mark, /*is_scalar=*/false, "", &done)) return err;
    if (static_cast<int>(stack_.size()) >= kMaxYamlDepth) {
      return ConvertError{
          mark, "document nested deeper than " + std::to_string(kMaxYamlDepth) + " levels"};
    }
    stack_.push_back(Frame{is_map, true, true, std::string(anchor), out_.size()});
    out_.push_back(is_map ? '{' : '[');
    return std::nullopt;
  }

  void EndCollection(char close) {
    Frame& f = stack_.back();
    out_.push_back(close);
    if (!f.anchor.empty()) {
      anchors_[std::move(f.anchor)] = Anchored{f.start, out_.size(), /*is_scalar=*/false, ""};
    }
    stack_.pop_back();
    AfterValue();
  }

  size_t max_output_;
  std::string out_;
  std::vector<Frame> stack_;
  std::unordered_map<std::string, Anchored> anchors_;
  size_t key_begin_ = 0, key_end_ = 0;
  std::vector<std::string> documents_;
};

std::string Located(std::string_view filename, Mark mark, std::string_view msg) {
  std::string s(filename);
  s += ':' + std::to_string(mark.line + 1) + ':' + std::to_string(mark.column + 1) + ": ";
  s += msg;
  return s;
}

// True when line `line` (0-based) of `text` has a tab before column
// `column` in its indentation, or at that column.
bool TabAt(std::string_view text, size_t line, size_t column) {
  size_t start = 0;
  for (size_t l = 0; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return false;
    ++start;
  }
  for (size_t i = start; i < text.size() && i <= start + column; ++i) {
    if (text[i] == '\t') return true;
    if (text[i] != ' ') return false;
  }
  return false;
}

// The error libyaml reports, in the file:line:col form used everywhere else.
std::string ParserError(const yaml_parser_t& p, std::string_view filename, std::string_view text) {
  std::string_view problem = p.problem != nullptr ? p.problem : "unknown problem parsing YAML";
  switch (p.error) {
    case YAML_MEMORY_ERROR:
      return std::string(filename) + ": YAML: out of memory";
    case YAML_READER_ERROR:
      return std::string(filename) + ": YAML: " + std::string(problem) + " at byte " +
             std::to_string(p.problem_offset);
    default:
      break;
  }
  std::string msg(problem);
  if (p.context != nullptr) {
    msg += std::string(" (") + p.context + " at line " + std::to_string(p.context_mark.line + 1) +
           ", column " + std::to_string(p.context_mark.column + 1) + ")";
  }
  if (TabAt(text, p.problem_mark.line, p.problem_mark.column))
    msg += ": a tab indents this line, and YAML indents with spaces only";
  return Located(filename, Mark{p.problem_mark.line, p.problem_mark.column}, msg);
}

// YAML streams may hold only printable characters (go-yaml: "control
// characters are not allowed") in valid UTF-8. Checked up front, for the whole
// text, so that the error names the first offending line and column.
std::optional<std::string> CheckYamlText(std::string_view yaml, std::string_view filename) {
  // UTF-16 (Windows PowerShell's `>` writes it): a byte order mark, or the
  // zero bytes of ASCII text in two-byte units.
  auto byte = [&](size_t i) { return i < yaml.size() ? static_cast<unsigned char>(yaml[i]) : 1; };
  if ((byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF) ||
      (yaml.size() >= 2 && (byte(0) == 0 || byte(1) == 0))) {
    return std::string(filename) +
           ": the file is UTF-16, and ksched reads UTF-8 (as kubectl writes it); convert it, "
           "e.g. iconv -f UTF-16 -t UTF-8, or in PowerShell write it with Out-File -Encoding "
           "utf8";
  }
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
  // A UTF-8 byte order mark (Windows editors write one) is no content.
  if (yaml.starts_with("\xEF\xBB\xBF")) yaml.remove_prefix(3);
  if (std::optional<std::string> bad = CheckYamlText(yaml, filename)) return MakeError(*bad);
  // Aliases may legitimately repeat parts of a document, but not without bound.
  JsonWriter writer(yaml.size() * 16 + (size_t{1} << 20));
  yaml_parser_t parser;
  if (yaml_parser_initialize(&parser) == 0) {
    return MakeError(std::string(filename) + ": YAML: out of memory");
  }
  std::unique_ptr<yaml_parser_t, void (*)(yaml_parser_t*)> parser_owner(&parser,
                                                                        &yaml_parser_delete);
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(yaml.data()),
                               yaml.size());
  yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
  for (;;) {
    yaml_event_t event;
    if (yaml_parser_parse(&parser, &event) == 0)
      return MakeError(ParserError(parser, filename, yaml));
    std::unique_ptr<yaml_event_t, void (*)(yaml_event_t*)> event_owner(&event, &yaml_event_delete);
    if (std::optional<ConvertError> err = writer.Handle(event)) {
      return MakeError(Located(filename, err->mark, err->message));
    }
    if (event.type == YAML_STREAM_END_EVENT) break;
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
