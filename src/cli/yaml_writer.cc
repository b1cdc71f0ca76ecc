// DocumentWriter for block-style YAML.
//
// The layout is yaml-cpp's (which printed ksched's YAML before), so reports
// read as they did:
//
//   - pod: "default/web-1"        a sequence item that is a map starts on the
//     node: ~                     dash line; its other keys align with the first
//     feasible:
//       - "node-a"                nested collections are indented by two
//     failures:
//       {}                        an empty collection sits on its own line
//
// Strings are always double-quoted (so "true" or "10" stay strings). Keys are
// plain when they start with a letter and hold only letters, digits, '.', '_',
// '/' and '-' and are not one of YAML 1.1's boolean or null words; otherwise
// they are double-quoted (yaml-cpp left "true" or "10" plain, which a reader
// takes for a boolean or a number). Keys longer than YAML's 1024-character
// limit for simple keys use the explicit "? key" form.
#include <charconv>
#include <vector>

#include "cli/document_writer.h"

namespace ksched {
namespace {

constexpr size_t kMaxSimpleKey = 1024;

bool IsPlainKey(std::string_view k) {
  if (k.empty() || k.size() > kMaxSimpleKey) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!alpha(k[0])) return false;
  for (char c : k) {
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '.' && c != '_' && c != '/' && c != '-')
      return false;
  }
  if (k.size() > 5) return true;
  static constexpr std::string_view kWords[] = {
      "y",  "Y",    "yes",  "Yes",  "YES",   "n",     "N",     "no", "No",
      "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On",
      "ON", "off",  "Off",  "OFF",  "null",  "Null",  "NULL"};
  for (std::string_view w : kWords)
    if (k == w) return false;
  return true;
}

// Appends the UTF-8 encoding of a code point.
void PutCodePoint(OutputBuffer* out, uint32_t cp) {
  if (cp < 0x80) {
    out->Put(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->Put(static_cast<char>(0xC0 | (cp >> 6)));
    out->Put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->Put(static_cast<char>(0xE0 | (cp >> 12)));
    out->Put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->Put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->Put(static_cast<char>(0xF0 | (cp >> 18)));
    out->Put(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->Put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->Put(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

void PutEscape(OutputBuffer* out, char kind, uint32_t cp, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->Put('\\');
  out->Put(kind);
  for (int d = digits - 1; d >= 0; --d) out->Put(kHex[(cp >> (4 * d)) & 0xF]);
}

// Decodes the UTF-8 sequence at s[*i] (a byte >= 0x80) and advances *i past
// it. A malformed sequence yields U+FFFD and advances past the bytes that
// were consumed, as yaml-cpp does.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  unsigned char lead = static_cast<unsigned char>(s[*i]);
  ++*i;
  int more = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : -1;
  if (more < 0) return 0xFFFD;
  uint32_t cp = lead & (0x3F >> more);
  for (; more > 0; --more) {
    if (*i == s.size() || (static_cast<unsigned char>(s[*i]) & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (static_cast<unsigned char>(s[*i]) & 0x3F);
    ++*i;
  }
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0xFFFD;
  return cp;
}

// A YAML double-quoted scalar. Printable ASCII and UTF-8 text are copied;
// control characters, C1 controls and no-break space (\xNN, as yaml-cpp), and
// the characters a YAML reader would not keep as they are (byte order mark,
// line and paragraph separators, non-characters) are escaped.
void PutQuoted(OutputBuffer* out, std::string_view s) {
  out->Put('"');
  size_t i = 0;
  while (i < s.size()) {
    size_t run = i;
    while (run < s.size()) {
      unsigned char c = static_cast<unsigned char>(s[run]);
      if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') break;
      ++run;
    }
    if (run > i) {
      out->Write(s.substr(i, run - i));
      i = run;
      if (i == s.size()) break;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      switch (c) {
        case '"':
          out->Write("\\\"");
          break;
        case '\\':
          out->Write("\\\\");
          break;
        case '\n':
          out->Write("\\n");
          break;
        case '\t':
          out->Write("\\t");
          break;
        case '\r':
          out->Write("\\r");
          break;
        case '\b':
          out->Write("\\b");
          break;
        case '\f':
          out->Write("\\f");
          break;
        default:
          PutEscape(out, 'x', c, 2);  // other controls and DEL
      }
      continue;
    }
    uint32_t cp = NextCodePoint(s, &i);
    if (cp <= 0xA0) {
      PutEscape(out, 'x', cp, 2);
    } else if (cp == 0xFEFF || cp == 0x2028 || cp == 0x2029 || (cp >= 0xFDD0 && cp <= 0xFDEF) ||
               (cp & 0xFFFE) == 0xFFFE) {
      if (cp <= 0xFFFF) {
        PutEscape(out, 'u', cp, 4);
      } else {
        PutEscape(out, 'U', cp, 8);
      }
    } else {
      PutCodePoint(out, cp);
    }
  }
  out->Put('"');
}

class YamlWriter final : public DocumentWriter {
 public:
  explicit YamlWriter(OutputBuffer* out) : out_(out) {}

  void BeginObject() override { BeginCollection(true); }
  void BeginArray() override { BeginCollection(false); }
  void EndObject() override { EndCollection(); }
  void EndArray() override { EndCollection(); }

  void Key(std::string_view key) override {
    Frame& f = stack_.back();
    Open(&f);
    if (f.inline_first) {
      f.inline_first = false;  // right after the parent's "- "
    } else {
      out_->Fill(' ', f.indent);
    }
    if (key.size() > kMaxSimpleKey) {
      out_->Write("? ");
      PutQuoted(out_, key);
      out_->Put('\n');
      out_->Fill(' ', f.indent);
    } else if (IsPlainKey(key)) {
      out_->Write(key);
    } else {
      PutQuoted(out_, key);
    }
    out_->Put(':');
    line_open_ = true;
  }

  void String(std::string_view value) override {
    BeforeScalar();
    PutQuoted(out_, value);
    AfterScalar();
  }
  void Int(int64_t value) override {
    BeforeScalar();
    char buf[24];
    char* end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    out_->Write(std::string_view(buf, static_cast<size_t>(end - buf)));
    AfterScalar();
  }
  void Null() override {
    BeforeScalar();
    out_->Put('~');
    AfterScalar();
  }
  void Literal(std::string_view json_text) override {
    BeforeScalar();
    out_->Write(json_text);
    AfterScalar();
  }
  void EndDocument() override {
    if (line_open_) out_->Put('\n');
    line_open_ = false;
    stack_.clear();
  }

 private:
  enum class Parent { kTop, kSequence, kMap };
  struct Frame {
    bool is_map;
    Parent parent;
    size_t indent;      // column of this collection's keys or dashes
    bool open = false;  // has an entry been written
    bool inline_first = false;
  };

  // Where a value goes: after the dash of a new sequence item, after a map's
  // "key:", or at the top. Returns the parent kind and its column.
  Parent PlaceValue(size_t* column) {
    if (stack_.empty()) {
      *column = 0;
      return Parent::kTop;
    }
    Frame& f = stack_.back();
    *column = f.indent;
    if (f.is_map) return Parent::kMap;
    Open(&f);
    out_->Fill(' ', f.indent);
    out_->Put('-');
    line_open_ = true;
    return Parent::kSequence;
  }

  void BeforeScalar() {
    size_t column;
    if (PlaceValue(&column) != Parent::kTop) out_->Put(' ');
  }
  void AfterScalar() {
    if (stack_.empty()) {  // a top-level scalar: EndDocument ends the line
      line_open_ = true;
      return;
    }
    out_->Put('\n');
    line_open_ = false;
  }

  void BeginCollection(bool is_map) {
    size_t column;
    Parent parent = PlaceValue(&column);
    stack_.push_back(Frame{is_map, parent, parent == Parent::kTop ? 0 : column + 2});
  }

  // The first entry of a collection decides how its parent's line ends.
  void Open(Frame* f) {
    if (f->open) return;
    f->open = true;
    if (f->parent == Parent::kTop) return;
    if (f->parent == Parent::kSequence && f->is_map) {
      out_->Put(' ');  // "- key: ..."
      f->inline_first = true;
      return;
    }
    out_->Put('\n');
    line_open_ = false;
  }

  void EndCollection() {
    Frame f = stack_.back();
    stack_.pop_back();
    if (f.open) return;  // every entry ended its own line
    const char* empty = f.is_map ? "{}" : "[]";
    if (f.parent == Parent::kTop) {
      out_->Write(empty);
      line_open_ = true;
      return;
    }
    out_->Put('\n');
    out_->Fill(' ', f.indent);
    out_->Write(empty);
    out_->Put('\n');
    line_open_ = false;
  }

  OutputBuffer* out_;
  std::vector<Frame> stack_;
  bool line_open_ = false;  // the last line has no newline yet
};

}  // namespace

std::unique_ptr<DocumentWriter> MakeYamlWriter(OutputBuffer* out) {
  return std::make_unique<YamlWriter>(out);
}

}  // namespace ksched
