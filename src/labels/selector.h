// Label selectors (apimachinery pkg/labels) compiled for the hot loop.
//
// Predicates and priorities match every pod's selectors against every node's
// labels, so matching must be a handful of integer compares and allocate
// nothing. A Requirement is therefore validated and compiled once: its key and
// values are interned (api/intern.h) and the values kept sorted by id, so "is
// the node's value in the set" is a binary search over integers; Gt/Lt keep
// their bound as an int64.
//
// Semantics follow upstream exactly, including its quirks (documented where
// they appear): a missing key satisfies NotIn, != and DoesNotExist; Gt/Lt
// never match a missing or non-integer label; Nothing() differs from an empty
// selector, which matches everything.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/intern.h"
#include "api/types.h"
#include "util/result.h"

namespace ksched::labels {

// selection.Operator. Equals/DoubleEquals behave like In with one value and
// NotEquals like NotIn; they differ only in how String() spells them.
enum class Op : uint8_t {
  kIn,
  kNotIn,
  kExists,
  kDoesNotExist,
  kGt,
  kLt,
  kEquals,
  kDoubleEquals,
  kNotEquals,
};

// Upstream's spelling of the operator ("in", "notin", "exists", "!", "gt",
// "lt", "=", "==", "!="), as used in its error messages.
std::string_view OpName(Op op);

// One compiled requirement: key <op> values.
class Requirement {
 public:
  // labels.NewRequirement: the key must be a qualified name; In/NotIn need at
  // least one value, =, == and != exactly one, Exists/DoesNotExist none, Gt/Lt
  // exactly one that parses as a base-10 int64. Then every value (Gt/Lt's
  // included, as upstream does) must be a valid label value -- so "Gt -1" is
  // rejected. Errors carry upstream's messages.
  static Result<Requirement> Make(std::string_view key, Op op,
                                  const std::vector<std::string>& values);

  // Allocation-free; safe to call from many threads at once.
  bool Matches(const Labels& labels) const {
    std::optional<StrId> v = labels.Get(key_);
    switch (op_) {
      case Op::kIn:
      case Op::kEquals:
      case Op::kDoubleEquals:
        return v.has_value() && HasValue(*v);
      case Op::kNotIn:
      case Op::kNotEquals:
        return !v.has_value() || !HasValue(*v);
      case Op::kExists:
        return v.has_value();
      case Op::kDoesNotExist:
        return !v.has_value();
      case Op::kGt:
      case Op::kLt:
        return v.has_value() && CompareInt(*v);
    }
    return false;
  }

  StrId key() const { return key_; }
  std::string_view key_str() const { return Str(key_); }
  Op op() const { return op_; }
  // Distinct values, interned, sorted by id (not alphabetically).
  const std::vector<StrId>& values() const { return values_; }
  // Gt/Lt only: the bound.
  int64_t bound() const { return bound_; }

  // Upstream's Requirement.String(), e.g. "!a", "a in (x,y)", "a>5".
  std::string String() const;

 private:
  Requirement() = default;

  bool HasValue(StrId v) const;
  bool CompareInt(StrId v) const;

  StrId key_ = kEmptyStr;
  Op op_ = Op::kExists;
  int64_t bound_ = 0;
  std::vector<StrId> values_;
  // Values as given, duplicates kept, only for String() (upstream prints
  // duplicates: "a in (x,x)").
  std::vector<StrId> given_values_;
};

// An AND of requirements, kept sorted by key string as upstream's Add() does
// (that order only affects String()). Also represents labels.Nothing().
class Selector {
 public:
  // Default: the empty selector, which matches everything.
  Selector() = default;
  static Selector Everything() { return Selector(); }
  static Selector Nothing() {
    Selector s;
    s.nothing_ = true;
    return s;
  }
  // Sorts by key (stable, so equal keys keep their input order).
  static Selector FromRequirements(std::vector<Requirement> reqs);

  // Allocation-free; safe to call from many threads at once.
  bool Matches(const Labels& labels) const {
    if (nothing_) return false;
    for (const Requirement& r : reqs_) {
      if (!r.Matches(labels)) return false;
    }
    return true;
  }

  bool MatchesNothing() const { return nothing_; }
  // No requirements and not Nothing(): does not restrict anything.
  bool Empty() const { return !nothing_ && reqs_.empty(); }
  const std::vector<Requirement>& requirements() const { return reqs_; }

  // Adds a requirement (no effect on Nothing(), as upstream).
  void Add(Requirement r);

  // Upstream's String(): requirements joined by ","; "" for Nothing() and for
  // Everything().
  std::string String() const;

 private:
  std::vector<Requirement> reqs_;
  bool nothing_ = false;
};

// labels.Parse: the string syntax of `kubectl -l`, e.g.
//   "a=b,c!=d,e in (x,y),!f,g,h notin (z),i>5,j<3"
// with upstream's lexer and its error messages. Whitespace is ' ', '\t', '\r'
// and '\n'. A NUL byte ends the input where a token would start, and is
// swallowed as a separator right after a token (upstream reads it as its
// end-of-input marker). "" parses to Everything().
Result<Selector> Parse(std::string_view s);

// labels.SelectorFromSet: key=value for every pair; an empty set gives
// Everything(). Upstream quirk kept: if any key or value is not a valid label
// key/value, the result is Everything() -- the whole set is silently ignored.
Selector FromSet(const Labels& set);

}  // namespace ksched::labels
