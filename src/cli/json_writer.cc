// DocumentWriter for JSON, on RapidJSON's Writer / PrettyWriter.
//
// RapidJSON was chosen for speed (a replay step at 5,000 nodes is ~0.8 MB of
// JSON); the output must still be byte for byte what nlohmann's dump()
// printed before. The two agree on everything the reports contain except the
// hex digits of \u00xx escapes (RapidJSON writes upper case, nlohmann lower
// case), so strings holding such a control character are escaped here and
// passed through as raw values.
#include <rapidjson/prettywriter.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <cstring>

#include "cli/document_writer.h"

namespace ksched {
namespace {

// RapidJSON's output stream concept over an OutputBuffer. Flush() is a no-op:
// RapidJSON calls it after every top-level value, and a JSON line must not
// cost a system call; OutputBuffer writes when its block fills.
struct RapidStream {
  using Ch = char;
  OutputBuffer* out;
  void Put(char c) { out->Put(c); }
  void Flush() {}
};

// Found by argument-dependent lookup from RapidJSON's writers, in place of its
// generic versions (which put one byte at a time through Put()).
[[maybe_unused]] void PutReserve(RapidStream& s, size_t count) { s.out->Reserve(count); }
[[maybe_unused]] void PutUnsafe(RapidStream& s, char c) { s.out->PutUnsafe(c); }

// Whether `s` holds a control character that nlohmann writes as \u00xx.
bool HasHexEscape(std::string_view s) {
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r') return true;
  }
  return false;
}

// `s` as a JSON string literal, escaped as nlohmann escapes it.
std::string QuoteLikeNlohmann(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 8);
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

// Whether `s` holds a byte JSON escapes (a control character, '"' or '\\'),
// eight bytes at a time.
bool NeedsEscape(std::string_view s) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto has_zero = [&](uint64_t x) { return ((x - kOnes) & ~x & kHigh) != 0; };
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t x;
    std::memcpy(&x, s.data() + i, 8);
    // Bytes below 0x20: subtracting 0x20 borrows into the high bit of a byte
    // whose own high bit was clear.
    bool control = ((x - 0x20 * kOnes) & ~x & kHigh) != 0;
    if (control || has_zero(x ^ ('"' * kOnes)) || has_zero(x ^ ('\\' * kOnes))) return true;
  }
  for (; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') return true;
  }
  return false;
}

template <typename W>
class RapidJsonWriter final : public DocumentWriter {
 public:
  explicit RapidJsonWriter(OutputBuffer* out) : stream_{out}, w_(stream_) {
    if constexpr (std::is_same_v<W, rapidjson::PrettyWriter<RapidStream>>) w_.SetIndent(' ', 2);
  }

  void BeginObject() override { w_.StartObject(); }
  void EndObject() override { w_.EndObject(); }
  void BeginArray() override { w_.StartArray(); }
  void EndArray() override { w_.EndArray(); }
  void Key(std::string_view key) override { StringValue(key); }
  void String(std::string_view value) override { StringValue(value); }
  void PlainKey(std::string_view key) override { PlainValue(key); }
  void PlainString(std::string_view value) override { PlainValue(value); }
  void Int(int64_t value) override { w_.Int64(value); }
  void Null() override { w_.Null(); }
  void Literal(std::string_view json_text) override {
    w_.RawValue(json_text.data(), json_text.size(), rapidjson::kNumberType);
  }
  void EndDocument() override {
    stream_.out->Put('\n');
    w_.Reset(stream_);
  }

 private:
  // RapidJSON puts a string through its escape table one byte at a time,
  // which was most of a 5,000-node replay's time. Most strings here (node
  // names, reasons) need no escape at all: those are copied in one block,
  // after an empty raw value has made RapidJSON write the separator before
  // them (a comma or colon, and the indentation of the indented style).
  void PlainValue(std::string_view s) {
    w_.RawValue("", 0, rapidjson::kStringType);
    OutputBuffer* out = stream_.out;
    out->Reserve(s.size() + 2);
    out->PutUnsafe('"');
    out->Write(s);
    out->PutUnsafe('"');
  }
  void StringValue(std::string_view s) {
    if (!NeedsEscape(s)) {
      PlainValue(s);
    } else if (HasHexEscape(s)) {
      std::string quoted = QuoteLikeNlohmann(s);
      w_.RawValue(quoted.data(), quoted.size(), rapidjson::kStringType);
    } else {
      w_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    }
  }

  RapidStream stream_;
  W w_;
};

}  // namespace

bool JsonNeedsEscape(std::string_view s) { return NeedsEscape(s); }

std::unique_ptr<DocumentWriter> MakeJsonWriter(OutputBuffer* out, JsonStyle style) {
  if (style == JsonStyle::kIndented)
    return std::make_unique<RapidJsonWriter<rapidjson::PrettyWriter<RapidStream>>>(out);
  return std::make_unique<RapidJsonWriter<rapidjson::Writer<RapidStream>>>(out);
}

void WriteJsonValue(DocumentWriter* w, const nlohmann::ordered_json& value) {
  using value_t = nlohmann::ordered_json::value_t;
  switch (value.type()) {
    case value_t::object:
      w->BeginObject();
      for (auto it = value.begin(); it != value.end(); ++it) {
        w->Key(it.key());
        WriteJsonValue(w, it.value());
      }
      w->EndObject();
      break;
    case value_t::array:
      w->BeginArray();
      for (const auto& item : value) WriteJsonValue(w, item);
      w->EndArray();
      break;
    case value_t::string:
      w->String(value.get_ref<const std::string&>());
      break;
    case value_t::number_integer:
      w->Int(value.get<int64_t>());
      break;
    case value_t::null:
    case value_t::discarded:
      w->Null();
      break;
    default:  // booleans, unsigned and floating-point numbers
      w->Literal(value.dump());
  }
}

}  // namespace ksched
