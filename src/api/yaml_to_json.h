// YAML to JSON text, so that every input format ends up in one decoder.
//
// Kubernetes objects and scheduler Policy files are written in YAML as often as
// in JSON. Rather than keep two decoders in sync, YAML documents are rewritten
// as JSON text and handed to the same simdjson-based decoder. The YAML is read
// with libyaml's event parser, the C library that go-yaml (and so upstream's
// own YAML reading) was ported from.
//
// Scalars are typed the way the YAML 1.2 core schema types them: plain (unquoted)
// `null`, `~` and empty values become null; `true`/`false` booleans; integers
// (decimal, `0x` hex, `0o` octal) and floats become JSON numbers. Quoted and
// block scalars always stay strings. Mapping keys are always strings. Numbers
// too large for JSON's 64-bit integers or doubles, and `.inf`/`.nan`, become
// strings holding the text as written, so that a quantity such as
// `memory: 100000000000000000000` still reaches the quantity parser intact.
//
// Anchors and aliases are expanded (with a cap on the expanded size, against
// "billion laughs" inputs); merge keys (`<<`) and non-scalar mapping keys are
// rejected. Documents nested deeper than kMaxYamlDepth levels are rejected
// before anything recursive touches them.
//
// Errors are reported as `file:line:col: message` (1-based line and column).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace ksched {

inline constexpr int kMaxYamlDepth = 256;

// Converts a YAML stream that holds exactly one document (empty documents are
// ignored; a stream with no document at all gives "null"). A stream with more
// than one non-empty document is an error: use YamlDocumentsToJson for those.
Result<std::string> YamlToJson(std::string_view yaml, std::string_view filename);

// Converts every document of a multi-document stream (`---` separated), in
// order. Documents that are empty or hold only `null` are dropped.
Result<std::vector<std::string>> YamlDocumentsToJson(std::string_view yaml,
                                                     std::string_view filename);

}  // namespace ksched
