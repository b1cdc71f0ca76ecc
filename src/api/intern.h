// String interning.
//
// Label keys and values, namespaces, resource names, image names and reason
// strings are compared millions of times per scheduling run. Interning them
// once at load time turns every such comparison into an integer compare and
// lets per-node label sets be flat sorted vectors of id pairs.
//
// The table is process-wide and append-only: ids stay valid forever, and the
// string behind an id never moves, so views returned by Str() stay valid.
// Intern() takes a lock (it is only called while decoding input); Str() and
// Find() are lock-free for ids handed out before the call.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ksched {

using StrId = uint32_t;

// Id 0 is always the empty string, so a value-initialised StrId means "".
inline constexpr StrId kEmptyStr = 0;
// Returned by Find() for strings never interned.
inline constexpr StrId kNoStr = 0xffffffffu;

// Returns the id of `s`, adding it to the table if needed.
StrId Intern(std::string_view s);
// Returns the id of `s` or kNoStr if it was never interned (never adds).
StrId FindInterned(std::string_view s);
// Returns the string for an id produced by Intern().
std::string_view Str(StrId id);
// Number of distinct strings interned so far.
size_t InternedCount();

}  // namespace ksched
