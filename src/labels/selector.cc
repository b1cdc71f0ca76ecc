#include "labels/selector.h"

#include <algorithm>
#include <set>

#include "labels/validation.h"

namespace ksched::labels {

std::string_view OpName(Op op) {
  switch (op) {
    case Op::kIn:
      return "in";
    case Op::kNotIn:
      return "notin";
    case Op::kExists:
      return "exists";
    case Op::kDoesNotExist:
      return "!";
    case Op::kGt:
      return "gt";
    case Op::kLt:
      return "lt";
    case Op::kEquals:
      return "=";
    case Op::kDoubleEquals:
      return "==";
    case Op::kNotEquals:
      return "!=";
  }
  return "";
}

// ------------------------------------------------------------ Requirement

Result<Requirement> Requirement::Make(std::string_view key, Op op,
                                      const std::vector<std::string>& values) {
  if (Status s = ValidateLabelKey(key); !s.ok()) return s.error();
  Requirement r;
  switch (op) {
    case Op::kIn:
    case Op::kNotIn:
      if (values.empty()) {
        return MakeError("for 'in', 'notin' operators, values set can't be empty");
      }
      break;
    case Op::kEquals:
    case Op::kDoubleEquals:
    case Op::kNotEquals:
      if (values.size() != 1)
        return MakeError("exact-match compatibility requires one single value");
      break;
    case Op::kExists:
    case Op::kDoesNotExist:
      if (!values.empty()) {
        return MakeError("values set must be empty for exists and does not exist");
      }
      break;
    case Op::kGt:
    case Op::kLt: {
      if (values.size() != 1) {
        return MakeError("for 'Gt', 'Lt' operators, exactly one value is required");
      }
      std::optional<int64_t> n = ParseInt64(values[0]);
      if (!n) return MakeError("for 'Gt', 'Lt' operators, the value must be an integer");
      r.bound_ = *n;
      break;
    }
    default:
      return MakeError("operator '" + std::to_string(static_cast<int>(op)) + "' is not recognized");
  }
  for (const std::string& v : values) {
    if (Status s = ValidateLabelValue(key, v); !s.ok()) return s.error();
  }
  r.key_ = Intern(key);
  r.op_ = op;
  r.given_values_.reserve(values.size());
  for (const std::string& v : values) r.given_values_.push_back(Intern(v));
  r.values_ = r.given_values_;
  std::sort(r.values_.begin(), r.values_.end());
  r.values_.erase(std::unique(r.values_.begin(), r.values_.end()), r.values_.end());
  return r;
}

bool Requirement::HasValue(StrId v) const {
  // A short linear scan beats binary search for the usual one to four values.
  if (values_.size() <= 8) {
    for (StrId x : values_) {
      if (x == v) return true;
    }
    return false;
  }
  return std::binary_search(values_.begin(), values_.end(), v);
}

bool Requirement::CompareInt(StrId v) const {
  // Parsing a short string is cheaper than any shared cache would be, and
  // Str() is lock-free.
  std::optional<int64_t> n = ParseInt64(Str(v));
  if (!n) return false;
  return op_ == Op::kGt ? *n > bound_ : *n < bound_;
}

std::string Requirement::String() const {
  std::string out;
  if (op_ == Op::kDoesNotExist) out += '!';
  out += Str(key_);
  switch (op_) {
    case Op::kEquals:
      out += "=";
      break;
    case Op::kDoubleEquals:
      out += "==";
      break;
    case Op::kNotEquals:
      out += "!=";
      break;
    case Op::kIn:
      out += " in ";
      break;
    case Op::kNotIn:
      out += " notin ";
      break;
    case Op::kGt:
      out += ">";
      break;
    case Op::kLt:
      out += "<";
      break;
    case Op::kExists:
    case Op::kDoesNotExist:
      return out;
  }
  bool set_op = op_ == Op::kIn || op_ == Op::kNotIn;
  if (set_op) out += '(';
  std::vector<std::string_view> vals;
  vals.reserve(given_values_.size());
  for (StrId id : given_values_) vals.push_back(Str(id));
  std::sort(vals.begin(), vals.end());
  for (size_t i = 0; i < vals.size(); ++i) {
    if (i > 0) out += ',';
    out += vals[i];
  }
  if (set_op) out += ')';
  return out;
}

// ------------------------------------------------------------ Selector

namespace {

void SortByKey(std::vector<Requirement>* reqs) {
  std::stable_sort(reqs->begin(), reqs->end(), [](const Requirement& a, const Requirement& b) {
    return a.key_str() < b.key_str();
  });
}

}  // namespace

Selector Selector::FromRequirements(std::vector<Requirement> reqs) {
  Selector s;
  s.reqs_ = std::move(reqs);
  SortByKey(&s.reqs_);
  return s;
}

void Selector::Add(Requirement r) {
  if (nothing_) return;
  reqs_.push_back(std::move(r));
  SortByKey(&reqs_);
}

std::string Selector::String() const {
  std::string out;
  for (size_t i = 0; i < reqs_.size(); ++i) {
    if (i > 0) out += ',';
    out += reqs_[i].String();
  }
  return out;
}

Selector FromSet(const Labels& set) {
  std::vector<Requirement> reqs;
  reqs.reserve(set.size());
  for (const auto& [k, v] : set) {
    Result<Requirement> r = Requirement::Make(Str(k), Op::kEquals, {std::string(Str(v))});
    if (!r.ok()) return Selector::Everything();  // upstream quirk, see header
    reqs.push_back(std::move(r).value());
  }
  return Selector::FromRequirements(std::move(reqs));
}

// ------------------------------------------------------------ Parse

namespace {

enum class Token : uint8_t {
  kError,
  kEndOfString,
  kClosedPar,
  kComma,
  kDoesNotExist,
  kDoubleEquals,
  kEquals,
  kGreaterThan,
  kIdentifier,
  kIn,
  kLessThan,
  kNotEquals,
  kNotIn,
  kOpenPar,
};

// The literal spellings of every token except identifiers, end and error.
bool LiteralToken(std::string_view s, Token* tok) {
  static constexpr std::pair<std::string_view, Token> kTable[] = {
      {")", Token::kClosedPar},     {",", Token::kComma},    {"!", Token::kDoesNotExist},
      {"==", Token::kDoubleEquals}, {"=", Token::kEquals},   {">", Token::kGreaterThan},
      {"in", Token::kIn},           {"<", Token::kLessThan}, {"!=", Token::kNotEquals},
      {"notin", Token::kNotIn},     {"(", Token::kOpenPar},
  };
  for (const auto& [lit, t] : kTable) {
    if (lit == s) {
      *tok = t;
      return true;
    }
  }
  return false;
}

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool IsSpecialSymbol(char c) {
  switch (c) {
    case '=':
    case '!':
    case '(':
    case ')':
    case ',':
    case '>':
    case '<':
      return true;
    default:
      return false;
  }
}

struct Item {
  Token tok;
  std::string lit;
};

// Byte-at-a-time lexer with upstream's behaviour: Read() yields 0 at the end
// (without advancing) and also for a NUL byte in the input (advancing), so a
// NUL ends the current token and is swallowed, and where a token would start
// it ends the whole input.
class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Item Lex() {
    char c = Read();
    while (IsWhitespace(c)) c = Read();
    if (c == 0) return {Token::kEndOfString, ""};
    Unread();
    if (IsSpecialSymbol(c)) return ScanSpecialSymbol();
    return ScanIdOrKeyword();
  }

 private:
  char Read() {
    if (pos_ < s_.size()) return s_[pos_++];
    return 0;
  }
  void Unread() { --pos_; }

  Item ScanIdOrKeyword() {
    std::string buf;
    while (true) {
      char c = Read();
      if (c == 0) break;
      if (IsSpecialSymbol(c) || IsWhitespace(c)) {
        Unread();
        break;
      }
      buf += c;
    }
    Token tok;
    if (LiteralToken(buf, &tok)) return {tok, buf};
    return {Token::kIdentifier, buf};
  }

  // Longest run of special symbols that still spells a token ("!=" rather
  // than "!" then "=").
  Item ScanSpecialSymbol() {
    std::string buf;
    Item last{Token::kError, ""};
    while (true) {
      char c = Read();
      if (c == 0) break;
      if (!IsSpecialSymbol(c)) {
        Unread();
        break;
      }
      buf += c;
      Token tok;
      if (LiteralToken(buf, &tok)) {
        last = {tok, buf};
      } else if (last.tok != Token::kError) {
        Unread();
        break;
      }
    }
    if (last.tok == Token::kError)
      return {Token::kError, "error expected: keyword found '" + buf + "'"};
    return last;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

// Whether "in"/"notin" are keywords (between key and values) or plain
// identifiers (anywhere a key or value may appear: "in in (in)" is valid).
enum class Context { kKeyAndOperator, kValues };

class Parser {
 public:
  explicit Parser(std::string_view s) {
    Lexer lexer(s);
    while (true) {
      items_.push_back(lexer.Lex());
      if (items_.back().tok == Token::kEndOfString) break;
    }
  }

  Result<std::vector<Requirement>> Parse() {
    std::vector<Requirement> reqs;
    while (true) {
      auto [tok, lit] = Lookahead(Context::kValues);
      switch (tok) {
        case Token::kIdentifier:
        case Token::kDoesNotExist: {
          Result<Requirement> r = ParseRequirement();
          if (!r.ok()) return MakeError("unable to parse requirement: " + r.error().message);
          reqs.push_back(std::move(r).value());
          auto [t, l] = Consume(Context::kValues);
          if (t == Token::kEndOfString) return reqs;
          if (t == Token::kComma) {
            auto [t2, l2] = Lookahead(Context::kValues);
            if (t2 != Token::kIdentifier && t2 != Token::kDoesNotExist) {
              return MakeError("found '" + l2 + "', expected: identifier after ','");
            }
            break;
          }
          return MakeError("found '" + l + "', expected: ',' or 'end of string'");
        }
        case Token::kEndOfString:
          return reqs;
        default:
          return MakeError("found '" + lit + "', expected: !, identifier, or 'end of string'");
      }
    }
  }

 private:
  struct View {
    Token tok;
    std::string lit;
  };

  View Lookahead(Context ctx) const { return Adjust(items_[pos_], ctx); }
  View Consume(Context ctx) { return Adjust(items_[pos_++], ctx); }
  static View Adjust(const Item& item, Context ctx) {
    Token tok = item.tok;
    if (ctx == Context::kValues && (tok == Token::kIn || tok == Token::kNotIn)) {
      tok = Token::kIdentifier;
    }
    return {tok, item.lit};
  }

  Result<Requirement> ParseRequirement() {
    // Key, with a leading '!' meaning DoesNotExist; a bare key means Exists.
    bool not_exists = false;
    View key_item = Consume(Context::kValues);
    if (key_item.tok == Token::kDoesNotExist) {
      not_exists = true;
      key_item = Consume(Context::kValues);
    }
    if (key_item.tok != Token::kIdentifier) {
      return MakeError("found '" + key_item.lit + "', expected: identifier");
    }
    const std::string& key = key_item.lit;
    if (Status s = ValidateLabelKey(key); !s.ok()) return s.error();
    // Upstream returns as soon as it sees '!': "!a=b" yields "!a", and the
    // caller then trips over "=".
    if (not_exists) return Requirement::Make(key, Op::kDoesNotExist, {});
    Token next = Lookahead(Context::kValues).tok;
    if (next == Token::kEndOfString || next == Token::kComma) {
      return Requirement::Make(key, Op::kExists, {});
    }

    Op op;
    auto [op_tok, op_lit] = Consume(Context::kKeyAndOperator);
    switch (op_tok) {
      case Token::kIn:
        op = Op::kIn;
        break;
      case Token::kEquals:
        op = Op::kEquals;
        break;
      case Token::kDoubleEquals:
        op = Op::kDoubleEquals;
        break;
      case Token::kGreaterThan:
        op = Op::kGt;
        break;
      case Token::kLessThan:
        op = Op::kLt;
        break;
      case Token::kNotIn:
        op = Op::kNotIn;
        break;
      case Token::kNotEquals:
        op = Op::kNotEquals;
        break;
      default:
        return MakeError("found '" + op_lit + "', expected: '=', '!=', '==', 'in', notin'");
    }

    // Values form a set: sorted, duplicates dropped (sets.String.List()).
    std::set<std::string> values;
    Status s =
        (op == Op::kIn || op == Op::kNotIn) ? ParseValues(&values) : ParseExactValue(&values);
    if (!s.ok()) return s.error();
    return Requirement::Make(key, op, std::vector<std::string>(values.begin(), values.end()));
  }

  // "(" list ")"; "()" is the set {""}.
  Status ParseValues(std::set<std::string>* values) {
    auto [tok, lit] = Consume(Context::kValues);
    if (tok != Token::kOpenPar) return MakeError("found '" + lit + "' expected: '('");
    auto [tok2, lit2] = Lookahead(Context::kValues);
    switch (tok2) {
      case Token::kIdentifier:
      case Token::kComma: {
        if (Status s = ParseIdentifiersList(values); !s.ok()) return s;
        if (Consume(Context::kValues).tok != Token::kClosedPar) {
          // Upstream reports the token after '(' here, not the one found.
          return MakeError("found '" + lit2 + "', expected: ')'");
        }
        return Status::Ok();
      }
      case Token::kClosedPar:
        Consume(Context::kValues);
        values->insert("");
        return Status::Ok();
      default:
        return MakeError("found '" + lit2 + "', expected: ',', ')' or identifier");
    }
  }

  // Comma-separated identifiers, any of which may be empty: "(,a,,b,)".
  Status ParseIdentifiersList(std::set<std::string>* values) {
    while (true) {
      auto [tok, lit] = Consume(Context::kValues);
      switch (tok) {
        case Token::kIdentifier: {
          values->insert(lit);
          auto [tok2, lit2] = Lookahead(Context::kValues);
          if (tok2 == Token::kComma) continue;
          if (tok2 == Token::kClosedPar) return Status::Ok();
          return MakeError("found '" + lit2 + "', expected: ',' or ')'");
        }
        case Token::kComma: {
          if (values->empty()) values->insert("");  // leading ","
          Token tok2 = Lookahead(Context::kValues).tok;
          if (tok2 == Token::kClosedPar) {  // trailing ","
            values->insert("");
            return Status::Ok();
          }
          if (tok2 == Token::kComma) {  // ",,"
            Consume(Context::kValues);
            values->insert("");
          }
          break;
        }
        default:
          return MakeError("found '" + lit + "', expected: ',', or identifier");
      }
    }
  }

  // The single value after =, ==, !=, > or <; nothing at all means "".
  Status ParseExactValue(std::set<std::string>* values) {
    Token tok = Lookahead(Context::kValues).tok;
    if (tok == Token::kEndOfString || tok == Token::kComma) {
      values->insert("");
      return Status::Ok();
    }
    auto [tok2, lit2] = Consume(Context::kValues);
    if (tok2 == Token::kIdentifier) {
      values->insert(lit2);
      return Status::Ok();
    }
    return MakeError("found '" + lit2 + "', expected: identifier");
  }

  std::vector<Item> items_;
  size_t pos_ = 0;
};

}  // namespace

Result<Selector> Parse(std::string_view s) {
  Result<std::vector<Requirement>> reqs = Parser(s).Parse();
  if (!reqs.ok()) return reqs.error();
  return Selector::FromRequirements(std::move(reqs).value());
}

}  // namespace ksched::labels
