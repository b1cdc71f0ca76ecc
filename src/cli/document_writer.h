// Writing a report as a stream of JSON-shaped events (begin an object, a key,
// a string, ...), so the same code prints it as JSON lines, indented JSON or
// YAML without ever holding the whole document in memory.
//
// A writer checks nothing: the caller must send a well-formed sequence (keys
// only inside objects, each key followed by one value, every Begin closed).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "cli/output_buffer.h"

namespace ksched {

class DocumentWriter {
 public:
  virtual ~DocumentWriter() = default;

  virtual void BeginObject() = 0;
  virtual void EndObject() = 0;
  virtual void BeginArray() = 0;
  virtual void EndArray() = 0;
  virtual void Key(std::string_view key) = 0;
  virtual void String(std::string_view value) = 0;
  // The same, for text the caller knows JSON writes as it is (no control
  // character, '"' or '\\': JsonNeedsEscape is false), such as a node
  // name checked once: the JSON writer then skips its own check.
  virtual void PlainKey(std::string_view key) { Key(key); }
  virtual void PlainString(std::string_view value) { String(value); }
  virtual void Int(int64_t value) = 0;
  virtual void Null() = 0;
  // A number or boolean already spelt as JSON (from a small nlohmann value).
  virtual void Literal(std::string_view json_text) = 0;
  // Ends a complete top-level value with a newline; the writer is then ready
  // for the next one (JSON lines).
  virtual void EndDocument() = 0;
};

enum class JsonStyle {
  kCompact,   // one line, as nlohmann's dump()
  kIndented,  // two-space indent, as nlohmann's dump(2)
};

// Whether JSON must escape a byte of `s` (a control character, '"' or '\\').
bool JsonNeedsEscape(std::string_view s);

// JSON through RapidJSON's Writer, byte for byte what nlohmann::json's dump()
// or dump(2) prints for the same value (ensure_ascii off: UTF-8 is copied,
// control characters become \b \t \n \f \r or \u00xx).
std::unique_ptr<DocumentWriter> MakeJsonWriter(OutputBuffer* out, JsonStyle style);

// Block-style YAML in yaml-cpp's layout (what ksched printed before this
// writer): strings double-quoted, null as ~, keys plain when that cannot
// change their meaning. See yaml_writer.cc.
std::unique_ptr<DocumentWriter> MakeYamlWriter(OutputBuffer* out);

// Sends a (small) nlohmann value through a writer, keys in their order.
void WriteJsonValue(DocumentWriter* w, const nlohmann::ordered_json& value);

}  // namespace ksched
