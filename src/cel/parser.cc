#include "cel/parser.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <set>
#include <string>

namespace ksched::cel {
namespace {

enum class Tok : uint8_t {
  kEOF,
  kInt,
  kUint,
  kFloat,
  kString,
  kBytes,
  kIdent,
  kEscIdent,
  kTrue,
  kFalse,
  kNull,
  kIn,
  kEq,
  kNe,
  kLt,
  kLe,
  kGe,
  kGt,
  kAnd,
  kOr,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kLParen,
  kRParen,
  kDot,
  kComma,
  kMinus,
  kBang,
  kQuestion,
  kColon,
  kPlus,
  kStar,
  kSlash,
  kPercent,
};

struct Token {
  Tok kind = Tok::kEOF;
  std::string_view text;
  int32_t offset = 0;  // code points
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsIdentChar(char c) { return IsLetter(c) || IsDigit(c) || c == '_'; }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  // Returns false with an error message on a token recognition error.
  bool Next(Token& t, std::string& error) {
    SkipSpace();
    t.offset = cp_;
    size_t start = i_;
    if (i_ >= s_.size()) {
      t.kind = Tok::kEOF;
      t.text = {};
      return true;
    }
    char c = s_[i_];
    auto one = [&](Tok k, size_t len = 1) {
      Advance(len);
      t.kind = k;
      t.text = s_.substr(start, len);
      return true;
    };
    auto peek = [&](size_t k) -> char { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; };
    switch (c) {
      case '=':
        if (peek(1) == '=') return one(Tok::kEq, 2);
        break;
      case '!':
        if (peek(1) == '=') return one(Tok::kNe, 2);
        return one(Tok::kBang);
      case '<':
        if (peek(1) == '=') return one(Tok::kLe, 2);
        return one(Tok::kLt);
      case '>':
        if (peek(1) == '=') return one(Tok::kGe, 2);
        return one(Tok::kGt);
      case '&':
        if (peek(1) == '&') return one(Tok::kAnd, 2);
        break;
      case '|':
        if (peek(1) == '|') return one(Tok::kOr, 2);
        break;
      case '[':
        return one(Tok::kLBracket);
      case ']':
        return one(Tok::kRBracket);
      case '{':
        return one(Tok::kLBrace);
      case '}':
        return one(Tok::kRBrace);
      case '(':
        return one(Tok::kLParen);
      case ')':
        return one(Tok::kRParen);
      case ',':
        return one(Tok::kComma);
      case '-':
        return one(Tok::kMinus);
      case '?':
        return one(Tok::kQuestion);
      case ':':
        return one(Tok::kColon);
      case '+':
        return one(Tok::kPlus);
      case '*':
        return one(Tok::kStar);
      case '/':
        return one(Tok::kSlash);
      case '%':
        return one(Tok::kPercent);
      case '.':
        if (IsDigit(peek(1))) return Number(t, error);
        return one(Tok::kDot);
      case '"':
      case '\'':
        return String(t, error, 0, Tok::kString);
      case '`':
        return EscIdent(t, error);
      default:
        break;
    }
    if (IsDigit(c)) return Number(t, error);
    if (IsLetter(c) || c == '_') {
      // String prefixes: r"..", b"..", br"..", rb is not one.
      char c1 = peek(1), c2 = peek(2);
      bool q1 = c1 == '"' || c1 == '\'';
      if ((c == 'r' || c == 'R') && q1) return String(t, error, 1, Tok::kString);
      if ((c == 'b' || c == 'B') && q1) return String(t, error, 1, Tok::kBytes);
      if ((c == 'b' || c == 'B') && (c1 == 'r' || c1 == 'R') && (c2 == '"' || c2 == '\''))
        return String(t, error, 2, Tok::kBytes);
      size_t n = 1;
      while (i_ + n < s_.size() && IsIdentChar(s_[i_ + n])) ++n;
      std::string_view word = s_.substr(i_, n);
      Tok k = Tok::kIdent;
      if (word == "true")
        k = Tok::kTrue;
      else if (word == "false")
        k = Tok::kFalse;
      else if (word == "null")
        k = Tok::kNull;
      else if (word == "in")
        k = Tok::kIn;
      return one(k, n);
    }
    // Token recognition error: ANTLR names the offending character.
    size_t len = SeqLen(i_);
    error = fmt::format("token recognition error at: '{}'", s_.substr(i_, len));
    t.offset = cp_;
    return false;
  }

  int32_t cp() const { return cp_; }

 private:
  size_t SeqLen(size_t i) const {
    unsigned char c = static_cast<unsigned char>(s_[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + n > s_.size()) return 1;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s_[i + k]) & 0xC0) != 0x80) return 1;
    return n;
  }
  void Advance(size_t bytes) {
    size_t end = i_ + bytes;
    while (i_ < end) {
      i_ += SeqLen(i_);
      ++cp_;
    }
  }
  void SkipSpace() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
        Advance(1);
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') Advance(1);
      } else {
        break;
      }
    }
  }
  bool Number(Token& t, std::string& error) {
    (void)error;
    size_t start = i_, j = i_;
    auto digits = [&](size_t& k) {
      size_t b = k;
      while (k < s_.size() && IsDigit(s_[k])) ++k;
      return k > b;
    };
    auto exponent = [&](size_t& k) {
      size_t m = k;
      if (m < s_.size() && (s_[m] == 'e' || s_[m] == 'E')) {
        ++m;
        if (m < s_.size() && (s_[m] == '+' || s_[m] == '-')) ++m;
        if (digits(m)) {
          k = m;
          return true;
        }
      }
      return false;
    };
    Tok kind = Tok::kInt;
    if (s_[j] == '.') {
      ++j;
      digits(j);
      exponent(j);
      kind = Tok::kFloat;
    } else if (s_[j] == '0' && j + 2 < s_.size() + 0 && (s_[j + 1] == 'x') && IsHex(s_[j + 2])) {
      j += 2;
      while (j < s_.size() && IsHex(s_[j])) ++j;
      if (j < s_.size() && (s_[j] == 'u' || s_[j] == 'U')) {
        ++j;
        kind = Tok::kUint;
      }
    } else {
      digits(j);
      size_t k = j;
      if (k + 1 < s_.size() && s_[k] == '.' && IsDigit(s_[k + 1])) {
        ++k;
        digits(k);
        exponent(k);
        j = k;
        kind = Tok::kFloat;
      } else if (exponent(k)) {
        j = k;
        kind = Tok::kFloat;
      } else if (j < s_.size() && (s_[j] == 'u' || s_[j] == 'U')) {
        ++j;
        kind = Tok::kUint;
      }
    }
    Advance(j - start);
    t.kind = kind;
    t.text = s_.substr(start, j - start);
    return true;
  }
  // A quoted string starting at i_ + prefix.
  bool String(Token& t, std::string& error, size_t prefix, Tok kind) {
    size_t start = i_;
    size_t j = i_ + prefix;
    bool raw = false;
    for (size_t k = i_; k < j; ++k)
      if (s_[k] == 'r' || s_[k] == 'R') raw = true;
    char q = s_[j];
    bool triple = j + 2 < s_.size() && s_[j + 1] == q && s_[j + 2] == q;
    j += triple ? 3 : 1;
    bool closed = false;
    while (j < s_.size()) {
      char c = s_[j];
      if (triple) {
        if (c == q && j + 2 < s_.size() && s_[j + 1] == q && s_[j + 2] == q) {
          j += 3;
          closed = true;
          break;
        }
      } else {
        if (c == q) {
          ++j;
          closed = true;
          break;
        }
        if (c == '\n' || c == '\r') break;
      }
      if (c == '\\' && !raw) {
        // The lexer accepts only CEL's escape sequences.
        size_t n = EscapeLen(j);
        if (n == 0) break;
        j += n;
        continue;
      }
      ++j;
    }
    if (!closed) {
      error = fmt::format("token recognition error at: '{}'",
                          s_.substr(start, j - start + (j < s_.size() ? 1 : 0)));
      t.offset = cp_;
      return false;
    }
    Advance(j - start);
    t.kind = kind;
    t.text = s_.substr(start, j - start);
    return true;
  }
  // Length of a valid escape sequence at j (a backslash), 0 when invalid.
  size_t EscapeLen(size_t j) const {
    if (j + 1 >= s_.size()) return 0;
    char c = s_[j + 1];
    switch (c) {
      case 'a':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
      case 'v':
      case '"':
      case '\'':
      case '\\':
      case '?':
      case '`':
        return 2;
      case 'x':
      case 'X':
        return j + 3 < s_.size() && IsHex(s_[j + 2]) && IsHex(s_[j + 3]) ? 4 : 0;
      case 'u':
      case 'U': {
        size_t n = c == 'u' ? 4 : 8;
        if (j + 1 + n >= s_.size()) return 0;
        for (size_t k = 0; k < n; ++k)
          if (!IsHex(s_[j + 2 + k])) return 0;
        return 2 + n;
      }
      case '0':
      case '1':
      case '2':
      case '3':
        if (j + 3 < s_.size() && s_[j + 2] >= '0' && s_[j + 2] <= '7' && s_[j + 3] >= '0' &&
            s_[j + 3] <= '7')
          return 4;
        return 0;
      default:
        return 0;
    }
  }
  bool EscIdent(Token& t, std::string& error) {
    size_t j = i_ + 1;
    while (j < s_.size() &&
           (IsIdentChar(s_[j]) || s_[j] == '.' || s_[j] == '-' || s_[j] == '/' || s_[j] == ' '))
      ++j;
    if (j == i_ + 1 || j >= s_.size() || s_[j] != '`') {
      error = "token recognition error at: '`'";
      t.offset = cp_;
      return false;
    }
    ++j;
    size_t start = i_;
    Advance(j - start);
    t.kind = Tok::kEscIdent;
    t.text = s_.substr(start, j - start);
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
  int32_t cp_ = 0;
};

void AppendUtf8(std::string& out, uint32_t r) {
  if (r < 0x80) {
    out += static_cast<char>(r);
  } else if (r < 0x800) {
    out += static_cast<char>(0xC0 | (r >> 6));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += static_cast<char>(0xE0 | (r >> 12));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (r >> 18));
    out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  }
}

bool ValidRune(uint32_t r) { return r < 0xD800 || (r > 0xDFFF && r <= 0x10FFFF); }

int Unhex(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// cel-go's unescape (parser/unescape.go): text is the token without the
// bytes prefix; returns false with a message on error.
bool Unescape(std::string_view text, bool is_bytes, std::string& out, std::string& error) {
  std::string value;
  value.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {  // newline normalization
    if (text[i] == '\r') {
      value += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      value += text[i];
    }
  }
  std::string_view v = value;
  bool raw = false;
  if (!v.empty() && (v[0] == 'r' || v[0] == 'R')) {
    v.remove_prefix(1);
    raw = true;
  }
  size_t n = v.size();
  if (n < 2 || v[0] != v[n - 1] || (v[0] != '"' && v[0] != '\'')) {
    error = "unable to unescape string";
    return false;
  }
  if (n >= 6 && (v.starts_with("'''") || v.starts_with("\"\"\""))) {
    v = v.substr(3, n - 6);
  } else {
    v = v.substr(1, n - 2);
  }
  if (raw || v.find('\\') == std::string_view::npos) {
    out.assign(v);
    return true;
  }
  out.clear();
  size_t i = 0;
  while (i < v.size()) {
    char c = v[i];
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 >= v.size()) {
      error = "unable to unescape string, found '\\' as last character";
      return false;
    }
    char e = v[i + 1];
    i += 2;
    uint32_t r = 0;
    bool encode = false;
    switch (e) {
      case 'a':
        r = '\a';
        break;
      case 'b':
        r = '\b';
        break;
      case 'f':
        r = '\f';
        break;
      case 'n':
        r = '\n';
        break;
      case 'r':
        r = '\r';
        break;
      case 't':
        r = '\t';
        break;
      case 'v':
        r = '\v';
        break;
      case '\\':
        r = '\\';
        break;
      case '\'':
        r = '\'';
        break;
      case '"':
        r = '"';
        break;
      case '`':
        r = '`';
        break;
      case '?':
        r = '?';
        break;
      case 'x':
      case 'X':
      case 'u':
      case 'U': {
        size_t digits = (e == 'x' || e == 'X') ? 2 : e == 'u' ? 4 : 8;
        encode = (e == 'x' || e == 'X') ? !is_bytes : true;
        if ((e == 'u' || e == 'U') && is_bytes) {
          error = "unable to unescape string";
          return false;
        }
        if (i + digits > v.size()) {
          error = "unable to unescape string";
          return false;
        }
        for (size_t k = 0; k < digits; ++k) {
          if (!IsHex(v[i + k])) {
            error = "unable to unescape string";
            return false;
          }
          r = (r << 4) | Unhex(v[i + k]);
        }
        i += digits;
        if (!is_bytes && !ValidRune(r)) {
          error = "invalid unicode code point";
          return false;
        }
        break;
      }
      case '0':
      case '1':
      case '2':
      case '3': {
        if (i + 2 > v.size()) {
          error = "unable to unescape octal sequence in string";
          return false;
        }
        r = e - '0';
        for (size_t k = 0; k < 2; ++k) {
          char x = v[i + k];
          if (x < '0' || x > '7') {
            error = "unable to unescape octal sequence in string";
            return false;
          }
          r = r * 8 + (x - '0');
        }
        i += 2;
        encode = !is_bytes;
        break;
      }
      default:
        error = "unable to unescape string";
        return false;
    }
    if (r < 0x80 || !encode) {
      out += static_cast<char>(r);
    } else {
      AppendUtf8(out, r);
    }
  }
  return true;
}

const std::set<std::string_view>& ReservedIds() {
  static const std::set<std::string_view> kIds = {
      "as",        "break", "const",  "continue", "else", "false", "for",
      "function",  "if",    "import", "in",       "let",  "loop",  "package",
      "namespace", "null",  "return", "true",     "var",  "void",  "while"};
  return kIds;
}

constexpr std::string_view kAccu = "@result";

struct SyntaxError {};

class Parser {
 public:
  explicit Parser(std::string_view src) : lex_(src), src_(src) {}

  ParseResult Run() {
    ParseResult out;
    try {
      Advance();
      ExprPtr e = ParseExpr();
      if (tok_.kind != Tok::kEOF) Mismatch("<EOF>");
      if (issues_.empty()) out.expr = std::move(e);
    } catch (const SyntaxError&) {
    }
    out.issues = std::move(issues_);
    out.next_id = next_id_;
    return out;
  }

 private:
  [[noreturn]] void Fail(int32_t offset, std::string msg) {
    issues_.push_back({offset, std::move(msg)});
    throw SyntaxError{};
  }
  void Report(int32_t offset, std::string msg) { issues_.push_back({offset, std::move(msg)}); }

  std::string TokText(const Token& t) const {
    if (t.kind == Tok::kEOF) return "<EOF>";
    return std::string(t.text);
  }
  [[noreturn]] void Mismatch(std::string_view expecting) {
    if (tok_.kind == Tok::kEOF && expecting != "<EOF>") {
      Fail(tok_.offset,
           fmt::format("Syntax error: mismatched input '<EOF>' expecting {}", expecting));
    }
    if (expecting == "<EOF>") {
      Fail(tok_.offset,
           fmt::format("Syntax error: extraneous input '{}' expecting <EOF>", TokText(tok_)));
    }
    Fail(tok_.offset,
         fmt::format("Syntax error: mismatched input '{}' expecting {}", TokText(tok_), expecting));
  }
  void Advance() {
    std::string err;
    if (!lex_.Next(tok_, err)) Fail(tok_.offset, "Syntax error: " + err);
  }
  void Expect(Tok k, std::string_view what) {
    if (tok_.kind != k) SyntaxFail(what);
    Advance();
  }
  [[noreturn]] void SyntaxFail(std::string_view expecting) {
    std::string msg;
    if (tok_.kind == Tok::kEOF) {
      msg = fmt::format("mismatched input '<EOF>' expecting {}", expecting);
    } else {
      msg = fmt::format("mismatched input '{}' expecting {}", TokText(tok_), expecting);
    }
    Fail(tok_.offset, "Syntax error: " + msg);
  }

  ExprPtr New(ExprKind k, int32_t offset) {
    auto e = std::make_unique<Expr>();
    e->id = next_id_++;
    e->kind = k;
    e->offset = offset;
    return e;
  }
  ExprPtr Call(int32_t offset, std::string fn, std::vector<ExprPtr> args,
               ExprPtr target = nullptr) {
    ExprPtr e = New(ExprKind::kCall, offset);
    e->name = std::move(fn);
    e->args = std::move(args);
    e->target = std::move(target);
    return e;
  }
  ExprPtr Call2(int32_t offset, std::string fn, ExprPtr a, ExprPtr b) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    return Call(offset, std::move(fn), std::move(args));
  }
  ExprPtr Ident(int32_t offset, std::string_view name) {
    ExprPtr e = New(ExprKind::kIdent, offset);
    e->name = std::string(name);
    return e;
  }
  ExprPtr BoolLit(int32_t offset, bool b) {
    ExprPtr e = New(ExprKind::kConst, offset);
    e->const_kind = ConstKind::kBool;
    e->bool_value = b;
    return e;
  }
  ExprPtr IntLit(int32_t offset, int64_t v) {
    ExprPtr e = New(ExprKind::kConst, offset);
    e->const_kind = ConstKind::kInt;
    e->int_value = v;
    return e;
  }

  struct DepthGuard {
    Parser* p;
    explicit DepthGuard(Parser* parser) : p(parser) {
      if (++p->depth_ > kMaxRecursionDepth) {
        p->issues_.push_back(
            {-1, fmt::format("expression recursion limit exceeded: {}", kMaxRecursionDepth)});
        throw SyntaxError{};
      }
    }
    ~DepthGuard() { --p->depth_; }
  };

  // Tree depth of left-associative chains, as cel-go's visitor counts it.
  void ChainDepth(int n) {
    if (depth_ + n > kMaxRecursionDepth) {
      issues_.push_back({-1, "max recursion depth exceeded"});
      throw SyntaxError{};
    }
  }

  ExprPtr ParseExpr() {
    DepthGuard g(this);
    ExprPtr cond = ParseOr();
    if (tok_.kind != Tok::kQuestion) return cond;
    int32_t off = tok_.offset;
    Advance();
    ExprPtr t = ParseOr();
    Expect(Tok::kColon, "':'");
    ExprPtr f = ParseExpr();
    std::vector<ExprPtr> args;
    args.push_back(std::move(cond));
    args.push_back(std::move(t));
    args.push_back(std::move(f));
    return Call(off, "_?_:_", std::move(args));
  }

  // The logical operators are balanced trees (cel-go's logicManager).
  ExprPtr Balance(std::vector<ExprPtr>& terms, std::vector<int32_t>& ops, const std::string& fn,
                  int lo, int hi) {
    int mid = (lo + hi + 1) / 2;
    ExprPtr left = mid == lo ? std::move(terms[mid]) : Balance(terms, ops, fn, lo, mid - 1);
    ExprPtr right = mid == hi ? std::move(terms[mid + 1]) : Balance(terms, ops, fn, mid + 1, hi);
    // The node takes its operator's id order after its children, as cel-go.
    return Call2(ops[mid], fn, std::move(left), std::move(right));
  }
  ExprPtr ParseOr() {
    std::vector<ExprPtr> terms;
    std::vector<int32_t> ops;
    terms.push_back(ParseAnd());
    while (tok_.kind == Tok::kOr) {
      ops.push_back(tok_.offset);
      Advance();
      terms.push_back(ParseAnd());
    }
    if (terms.size() == 1) return std::move(terms[0]);
    return Balance(terms, ops, "_||_", 0, static_cast<int>(ops.size()) - 1);
  }
  ExprPtr ParseAnd() {
    std::vector<ExprPtr> terms;
    std::vector<int32_t> ops;
    terms.push_back(ParseRelation());
    while (tok_.kind == Tok::kAnd) {
      ops.push_back(tok_.offset);
      Advance();
      terms.push_back(ParseRelation());
    }
    if (terms.size() == 1) return std::move(terms[0]);
    return Balance(terms, ops, "_&&_", 0, static_cast<int>(ops.size()) - 1);
  }
  static const char* RelOp(Tok k) {
    switch (k) {
      case Tok::kLt:
        return "_<_";
      case Tok::kLe:
        return "_<=_";
      case Tok::kGe:
        return "_>=_";
      case Tok::kGt:
        return "_>_";
      case Tok::kEq:
        return "_==_";
      case Tok::kNe:
        return "_!=_";
      case Tok::kIn:
        return "@in";
      default:
        return nullptr;
    }
  }
  ExprPtr ParseRelation() {
    ExprPtr lhs = ParseAdd();
    int n = 0;
    while (const char* op = RelOp(tok_.kind)) {
      ChainDepth(++n);
      int32_t off = tok_.offset;
      Advance();
      ExprPtr rhs = ParseAdd();
      lhs = Call2(off, op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }
  ExprPtr ParseAdd() {
    ExprPtr lhs = ParseMul();
    int n = 0;
    while (tok_.kind == Tok::kPlus || tok_.kind == Tok::kMinus) {
      ChainDepth(++n);
      const char* op = tok_.kind == Tok::kPlus ? "_+_" : "_-_";
      int32_t off = tok_.offset;
      Advance();
      ExprPtr rhs = ParseMul();
      lhs = Call2(off, op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }
  ExprPtr ParseMul() {
    ExprPtr lhs = ParseUnary();
    int n = 0;
    while (tok_.kind == Tok::kStar || tok_.kind == Tok::kSlash || tok_.kind == Tok::kPercent) {
      ChainDepth(++n);
      const char* op = tok_.kind == Tok::kStar ? "_*_" : tok_.kind == Tok::kSlash ? "_/_" : "_%_";
      int32_t off = tok_.offset;
      Advance();
      ExprPtr rhs = ParseUnary();
      lhs = Call2(off, op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }
  ExprPtr ParseUnary() {
    if (tok_.kind == Tok::kBang || tok_.kind == Tok::kMinus) {
      Tok k = tok_.kind;
      int32_t first = tok_.offset;
      int count = 0;
      Token saved;
      while (tok_.kind == k) {
        saved = tok_;
        ++count;
        Advance();
      }
      if (k == Tok::kMinus && count == 1 && (tok_.kind == Tok::kInt || tok_.kind == Tok::kFloat)) {
        // "-1" is a negative literal, not a negation (ANTLR picks the
        // literal alternative first).
        return ParseMember(&saved);
      }
      ExprPtr operand = ParseMember(nullptr);
      if (count % 2 == 0) return operand;
      std::vector<ExprPtr> args;
      args.push_back(std::move(operand));
      return Call(first, k == Tok::kBang ? "!_" : "-_", std::move(args));
    }
    return ParseMember(nullptr);
  }

  std::string NormalizeIdent(const Token& t) {
    if (t.kind == Tok::kEscIdent) {
      Report(t.offset, "unsupported syntax: '`'");
      return std::string(t.text.substr(1, t.text.size() - 2));
    }
    return std::string(t.text);
  }

  std::vector<ExprPtr> ParseArgs() {
    // At '(' already consumed.
    std::vector<ExprPtr> args;
    if (tok_.kind == Tok::kRParen) {
      Advance();
      return args;
    }
    args.push_back(ParseExpr());
    while (tok_.kind == Tok::kComma) {
      Advance();
      args.push_back(ParseExpr());
    }
    Expect(Tok::kRParen, "{')', ','}");
    return args;
  }

  ExprPtr ParseMember(const Token* sign) {
    ExprPtr e = ParsePrimary(sign);
    int n = 0;
    for (;;) {
      if (tok_.kind == Tok::kDot) {
        ChainDepth(++n);
        int32_t off = tok_.offset;
        Advance();
        bool opt = false;
        if (tok_.kind == Tok::kQuestion) {
          opt = true;
          Advance();
        }
        if (tok_.kind != Tok::kIdent && tok_.kind != Tok::kEscIdent)
          SyntaxFail("{IDENTIFIER, ESC_IDENTIFIER}");
        Token id = tok_;
        Advance();
        if (!opt && id.kind == Tok::kIdent && tok_.kind == Tok::kLParen) {
          int32_t open = tok_.offset;
          Advance();
          std::vector<ExprPtr> args = ParseArgs();
          e = ReceiverCallOrMacro(open, std::string(id.text), std::move(e), std::move(args));
          continue;
        }
        std::string field = NormalizeIdent(id);
        if (opt) {
          ExprPtr lit = New(ExprKind::kConst, id.offset);
          lit->const_kind = ConstKind::kString;
          lit->string_value = field;
          e = Call2(off, "_?._", std::move(e), std::move(lit));
        } else {
          ExprPtr sel = New(ExprKind::kSelect, off);
          sel->target = std::move(e);
          sel->name = std::move(field);
          e = std::move(sel);
        }
      } else if (tok_.kind == Tok::kLBracket) {
        ChainDepth(++n);
        int32_t off = tok_.offset;
        Advance();
        bool opt = false;
        if (tok_.kind == Tok::kQuestion) {
          opt = true;
          Advance();
        }
        ExprPtr index = ParseExpr();
        Expect(Tok::kRBracket, "']'");
        e = Call2(off, opt ? "_[?_]" : "_[_]", std::move(e), std::move(index));
      } else {
        return e;
      }
    }
  }

  ExprPtr Literal(const Token* sign) {
    const Token t = tok_;
    int32_t off = sign ? sign->offset : t.offset;
    Advance();
    ExprPtr e = New(ExprKind::kConst, off);
    std::string_view text = t.text;
    switch (t.kind) {
      case Tok::kInt: {
        std::string s = sign ? "-" : "";
        int base = 10;
        if (text.starts_with("0x")) {
          base = 16;
          text.remove_prefix(2);
        }
        s += text;
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(s.c_str(), &end, base);
        if (errno != 0 || *end != '\0') Fail(off, "invalid int literal");
        e->const_kind = ConstKind::kInt;
        e->int_value = v;
        return e;
      }
      case Tok::kUint: {
        text.remove_suffix(1);
        int base = 10;
        if (text.starts_with("0x")) {
          base = 16;
          text.remove_prefix(2);
        }
        uint64_t v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
        if (ec != std::errc() || p != text.data() + text.size()) Fail(off, "invalid uint literal");
        e->const_kind = ConstKind::kUint;
        e->uint_value = v;
        return e;
      }
      case Tok::kFloat: {
        std::string s = sign ? "-" : "";
        s += text;
        // Go's ParseFloat: out of range gives +-Inf with an error.
        errno = 0;
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
          Fail(off, "invalid double literal");
        e->const_kind = ConstKind::kDouble;
        e->double_value = d;
        return e;
      }
      case Tok::kString:
      case Tok::kBytes: {
        bool bytes = t.kind == Tok::kBytes;
        std::string err;
        if (!Unescape(bytes ? text.substr(1) : text, bytes, e->string_value, err))
          Fail(t.offset, err);
        e->const_kind = bytes ? ConstKind::kBytes : ConstKind::kString;
        return e;
      }
      case Tok::kTrue:
      case Tok::kFalse:
        e->const_kind = ConstKind::kBool;
        e->bool_value = t.kind == Tok::kTrue;
        return e;
      case Tok::kNull:
        e->const_kind = ConstKind::kNull;
        return e;
      default:
        break;
    }
    return e;
  }

  ExprPtr ParsePrimary(const Token* sign) {
    if (sign) return Literal(sign);
    switch (tok_.kind) {
      case Tok::kInt:
      case Tok::kUint:
      case Tok::kFloat:
      case Tok::kString:
      case Tok::kBytes:
      case Tok::kTrue:
      case Tok::kFalse:
      case Tok::kNull:
        return Literal(nullptr);
      case Tok::kLParen: {
        Advance();
        ExprPtr e = ParseExpr();
        Expect(Tok::kRParen, "')'");
        return e;
      }
      case Tok::kLBracket: {
        int32_t off = tok_.offset;
        Advance();
        ExprPtr list = New(ExprKind::kList, off);
        while (tok_.kind != Tok::kRBracket) {
          bool opt = false;
          if (tok_.kind == Tok::kQuestion) {
            opt = true;
            Advance();
          }
          if (opt) list->optional_indices.push_back(static_cast<int32_t>(list->args.size()));
          list->args.push_back(ParseExpr());
          if (tok_.kind == Tok::kComma) {
            Advance();
            continue;
          }
          if (tok_.kind != Tok::kRBracket) SyntaxFail("{',', ']'}");
        }
        Advance();
        return list;
      }
      case Tok::kLBrace: {
        int32_t off = tok_.offset;
        Advance();
        ExprPtr map = New(ExprKind::kMap, off);
        while (tok_.kind != Tok::kRBrace) {
          bool opt = false;
          if (tok_.kind == Tok::kQuestion) {
            opt = true;
            Advance();
          }
          if (opt) map->optional_indices.push_back(static_cast<int32_t>(map->args.size() / 2));
          map->args.push_back(ParseExpr());
          Expect(Tok::kColon, "':'");
          map->args.push_back(ParseExpr());
          if (tok_.kind == Tok::kComma) {
            Advance();
            continue;
          }
          if (tok_.kind != Tok::kRBrace) SyntaxFail("{',', '}'}");
        }
        Advance();
        return map;
      }
      case Tok::kDot:
      case Tok::kIdent: {
        std::string name;
        int32_t off = tok_.offset;
        if (tok_.kind == Tok::kDot) {
          name = ".";
          Advance();
          if (tok_.kind != Tok::kIdent) SyntaxFail("IDENTIFIER");
        }
        Token id = tok_;
        Advance();
        if (tok_.kind == Tok::kLParen) {
          if (ReservedIds().count(id.text))
            Fail(id.offset, fmt::format("reserved identifier: {}", id.text));
          int32_t open = tok_.offset;
          Advance();
          std::vector<ExprPtr> args = ParseArgs();
          return GlobalCallOrMacro(open, name + std::string(id.text), std::move(args));
        }
        if (tok_.kind == Tok::kLBrace || (tok_.kind == Tok::kDot && LooksLikeMessage())) {
          return ParseMessage(name + std::string(id.text), off);
        }
        if (ReservedIds().count(id.text))
          Fail(id.offset, fmt::format("reserved identifier: {}", id.text));
        return Ident(name.empty() ? id.offset : off, name + std::string(id.text));
      }
      default:
        break;
    }
    std::string what = tok_.kind == Tok::kEOF ? "<EOF>" : std::string(tok_.text);
    Fail(tok_.offset,
         fmt::format(
             "Syntax error: mismatched input '{}' expecting {{'[', '{{', '(', '.', '-', '!', "
             "'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}}",
             what));
  }

  // After "a" with "." next: is this "a.b.c{" (a message name)? Looks ahead
  // without consuming by re-lexing from a copy.
  bool LooksLikeMessage() {
    Lexer copy = lex_;
    Token t;
    std::string err;
    // tok_ is '.', copy is positioned after it.
    for (;;) {
      if (!copy.Next(t, err) || t.kind != Tok::kIdent) return false;
      if (!copy.Next(t, err)) return false;
      if (t.kind == Tok::kLBrace) return true;
      if (t.kind != Tok::kDot) return false;
    }
  }
  ExprPtr ParseMessage(std::string name, int32_t off) {
    (void)off;
    while (tok_.kind == Tok::kDot) {
      Advance();
      if (tok_.kind != Tok::kIdent) SyntaxFail("IDENTIFIER");
      name += "." + std::string(tok_.text);
      Advance();
    }
    int32_t brace = tok_.offset;
    Expect(Tok::kLBrace, "'{'");
    ExprPtr msg = New(ExprKind::kMap, brace);
    msg->name = name;  // a message construction: a kMap with a type name
    msg->test_only = true;
    while (tok_.kind != Tok::kRBrace) {
      bool opt = false;
      if (tok_.kind == Tok::kQuestion) {
        opt = true;
        Advance();
      }
      if (tok_.kind != Tok::kIdent && tok_.kind != Tok::kEscIdent) SyntaxFail("IDENTIFIER");
      Token f = tok_;
      Advance();
      if (opt) msg->optional_indices.push_back(static_cast<int32_t>(msg->args.size() / 2));
      ExprPtr key = New(ExprKind::kConst, f.offset);
      key->const_kind = ConstKind::kString;
      key->string_value = NormalizeIdent(f);
      msg->args.push_back(std::move(key));
      Expect(Tok::kColon, "':'");
      msg->args.push_back(ParseExpr());
      if (tok_.kind == Tok::kComma) {
        Advance();
        continue;
      }
      if (tok_.kind != Tok::kRBrace) SyntaxFail("{',', '}'}");
    }
    Advance();
    return msg;
  }

  // ---- macros ----
  static bool SimpleIdent(const ExprPtr& e, std::string& name) {
    if (e->kind != ExprKind::kIdent) return false;
    name = e->name;
    return true;
  }
  ExprPtr Comprehension(int32_t off, ExprPtr range, std::string iter, std::string iter2,
                        std::string accu, ExprPtr init, ExprPtr cond, ExprPtr step,
                        ExprPtr result) {
    ExprPtr c = New(ExprKind::kComprehension, off);
    c->iter_range = std::move(range);
    c->iter_var = std::move(iter);
    c->iter_var2 = std::move(iter2);
    c->accu_var = std::move(accu);
    c->accu_init = std::move(init);
    c->loop_condition = std::move(cond);
    c->loop_step = std::move(step);
    c->result = std::move(result);
    return c;
  }
  ExprPtr Accu(int32_t off) { return Ident(off, kAccu); }
  ExprPtr EmptyList(int32_t off) { return New(ExprKind::kList, off); }
  ExprPtr ListOf(int32_t off, ExprPtr e) {
    ExprPtr l = New(ExprKind::kList, off);
    l->args.push_back(std::move(e));
    return l;
  }
  ExprPtr Ternary(int32_t off, ExprPtr c, ExprPtr t, ExprPtr f) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(c));
    a.push_back(std::move(t));
    a.push_back(std::move(f));
    return Call(off, "_?_:_", std::move(a));
  }
  ExprPtr Unary(int32_t off, std::string fn, ExprPtr e) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(e));
    return Call(off, std::move(fn), std::move(a));
  }
  bool CheckIterVar(const ExprPtr& arg, std::string& v, const char* not_ident) {
    if (!SimpleIdent(arg, v)) {
      Fail(arg->offset, not_ident);
    }
    if (v == kAccu || v == "__result__")
      Fail(arg->offset, "iteration variable overwrites accumulator variable");
    return true;
  }

  enum class Quant { kAll, kExists, kExistsOne };
  ExprPtr Quantifier(int32_t off, Quant q, ExprPtr target, std::string v, std::string v2,
                     ExprPtr pred) {
    ExprPtr init, cond, step, result;
    switch (q) {
      case Quant::kAll:
        init = BoolLit(off, true);
        cond = Unary(off, "@not_strictly_false", Accu(off));
        step = Call2(off, "_&&_", Accu(off), std::move(pred));
        result = Accu(off);
        break;
      case Quant::kExists:
        init = BoolLit(off, false);
        cond = Unary(off, "@not_strictly_false", Unary(off, "!_", Accu(off)));
        step = Call2(off, "_||_", Accu(off), std::move(pred));
        result = Accu(off);
        break;
      case Quant::kExistsOne:
        init = IntLit(off, 0);
        cond = BoolLit(off, true);
        step =
            Ternary(off, std::move(pred), Call2(off, "_+_", Accu(off), IntLit(off, 1)), Accu(off));
        result = Call2(off, "_==_", Accu(off), IntLit(off, 1));
        break;
    }
    return Comprehension(off, std::move(target), std::move(v), std::move(v2), std::string(kAccu),
                         std::move(init), std::move(cond), std::move(step), std::move(result));
  }

  ExprPtr GlobalCallOrMacro(int32_t off, std::string fn, std::vector<ExprPtr> args) {
    if (fn == "has" && args.size() == 1) {
      if (args[0]->kind != ExprKind::kSelect)
        Fail(args[0]->offset, "invalid argument to has() macro");
      ExprPtr sel = std::move(args[0]);
      sel->test_only = true;
      return sel;
    }
    return Call(off, std::move(fn), std::move(args));
  }

  std::pair<std::string, std::string> IterVars2(const ExprPtr& a0, const ExprPtr& a1) {
    std::string v1, v2;
    if (!SimpleIdent(a0, v1)) Fail(a0->offset, "argument must be a simple name");
    if (!SimpleIdent(a1, v2)) Fail(a1->offset, "argument must be a simple name");
    if (v1 == v2) Fail(a1->offset, fmt::format("duplicate variable name: {}", v1));
    if (v1 == kAccu || v1 == "__result__")
      Fail(a0->offset, "iteration variable overwrites accumulator variable");
    if (v2 == kAccu || v2 == "__result__")
      Fail(a1->offset, "iteration variable overwrites accumulator variable");
    return {v1, v2};
  }

  ExprPtr ReceiverCallOrMacro(int32_t off, std::string fn, ExprPtr target,
                              std::vector<ExprPtr> args) {
    size_t n = args.size();
    if (fn == "bind" && n == 3 && target->kind == ExprKind::kIdent && target->name == "cel") {
      std::string v;
      if (!SimpleIdent(args[0], v))
        Fail(args[0]->offset, "cel.bind() variable names must be simple identifiers");
      return Comprehension(off, EmptyList(off), "#unused", "", v, std::move(args[1]),
                           BoolLit(off, false), Ident(off, v), std::move(args[2]));
    }
    if ((fn == "all" || fn == "exists" || fn == "exists_one") && n == 2) {
      std::string v;
      CheckIterVar(args[0], v, "argument must be a simple name");
      Quant q = fn == "all" ? Quant::kAll : fn == "exists" ? Quant::kExists : Quant::kExistsOne;
      return Quantifier(off, q, std::move(target), v, "", std::move(args[1]));
    }
    if ((fn == "all" || fn == "exists" || fn == "existsOne" || fn == "exists_one") && n == 3) {
      auto [v1, v2] = IterVars2(args[0], args[1]);
      Quant q = fn == "all" ? Quant::kAll : fn == "exists" ? Quant::kExists : Quant::kExistsOne;
      return Quantifier(off, q, std::move(target), v1, v2, std::move(args[2]));
    }
    if (fn == "map" && (n == 2 || n == 3)) {
      std::string v;
      CheckIterVar(args[0], v, "argument is not an identifier");
      ExprPtr fnx = std::move(args[n - 1]);
      ExprPtr step = Call2(off, "_+_", Accu(off), ListOf(off, std::move(fnx)));
      if (n == 3) step = Ternary(off, std::move(args[1]), std::move(step), Accu(off));
      return Comprehension(off, std::move(target), v, "", std::string(kAccu), EmptyList(off),
                           BoolLit(off, true), std::move(step), Accu(off));
    }
    if (fn == "filter" && n == 2) {
      std::string v;
      CheckIterVar(args[0], v, "argument is not an identifier");
      ExprPtr step = Call2(off, "_+_", Accu(off), ListOf(off, Ident(args[0]->offset, v)));
      step = Ternary(off, std::move(args[1]), std::move(step), Accu(off));
      return Comprehension(off, std::move(target), v, "", std::string(kAccu), EmptyList(off),
                           BoolLit(off, true), std::move(step), Accu(off));
    }
    if (fn == "transformList" && (n == 3 || n == 4)) {
      auto [v1, v2] = IterVars2(args[0], args[1]);
      ExprPtr step = Call2(off, "_+_", Accu(off), ListOf(off, std::move(args[n - 1])));
      if (n == 4) step = Ternary(off, std::move(args[2]), std::move(step), Accu(off));
      return Comprehension(off, std::move(target), v1, v2, std::string(kAccu), EmptyList(off),
                           BoolLit(off, true), std::move(step), Accu(off));
    }
    if ((fn == "transformMap" || fn == "transformMapEntry") && (n == 3 || n == 4)) {
      auto [v1, v2] = IterVars2(args[0], args[1]);
      ExprPtr step;
      if (fn == "transformMap") {
        std::vector<ExprPtr> a;
        a.push_back(Accu(off));
        a.push_back(Ident(off, v1));
        a.push_back(std::move(args[n - 1]));
        step = Call(off, "cel.@mapInsert", std::move(a));
      } else {
        step = Call2(off, "cel.@mapInsert", Accu(off), std::move(args[n - 1]));
      }
      if (n == 4) step = Ternary(off, std::move(args[2]), std::move(step), Accu(off));
      return Comprehension(off, std::move(target), v1, v2, std::string(kAccu),
                           New(ExprKind::kMap, off), BoolLit(off, true), std::move(step),
                           Accu(off));
    }
    if ((fn == "optMap" || fn == "optFlatMap") && n == 2) {
      std::string v;
      if (!SimpleIdent(args[0], v))
        Fail(args[0]->offset, fmt::format("{}() variable name must be a simple identifier", fn));
      // target.hasValue() ? optional.of(bind(v, target.value(), f)) : optional.none()
      // cel-go binds the value by a comprehension; the target is evaluated
      // twice here, which has no side effects in CEL.
      ExprPtr copy = Clone(*target);
      ExprPtr has_value = Call(off, "hasValue", {}, std::move(target));
      ExprPtr value = Call(off, "value", {}, std::move(copy));
      ExprPtr body = Comprehension(off, EmptyList(off), "#unused", "", v, std::move(value),
                                   BoolLit(off, false), Ident(off, v), std::move(args[1]));
      if (fn == "optMap") {
        std::vector<ExprPtr> a;
        a.push_back(std::move(body));
        body = Call(off, "optional.of", std::move(a));
      }
      return Ternary(off, std::move(has_value), std::move(body), Call(off, "optional.none", {}));
    }
    return Call(off, std::move(fn), std::move(args), std::move(target));
  }

  ExprPtr Clone(const Expr& e) {
    ExprPtr c = std::make_unique<Expr>();
    c->id = next_id_++;
    c->offset = e.offset;
    c->kind = e.kind;
    c->const_kind = e.const_kind;
    c->bool_value = e.bool_value;
    c->int_value = e.int_value;
    c->uint_value = e.uint_value;
    c->double_value = e.double_value;
    c->string_value = e.string_value;
    c->name = e.name;
    c->test_only = e.test_only;
    c->optional_indices = e.optional_indices;
    c->iter_var = e.iter_var;
    c->iter_var2 = e.iter_var2;
    c->accu_var = e.accu_var;
    auto cl = [&](const ExprPtr& p) { return p ? Clone(*p) : nullptr; };
    c->target = cl(e.target);
    for (const ExprPtr& a : e.args) c->args.push_back(Clone(*a));
    c->iter_range = cl(e.iter_range);
    c->accu_init = cl(e.accu_init);
    c->loop_condition = cl(e.loop_condition);
    c->loop_step = cl(e.loop_step);
    c->result = cl(e.result);
    return c;
  }

  Lexer lex_;
  std::string_view src_;
  Token tok_;
  std::vector<Issue> issues_;
  int64_t next_id_ = 1;
  int depth_ = 0;
};

}  // namespace

ParseResult Parse(std::string_view source) {
  size_t cps = 0;
  for (unsigned char c : source) cps += (c & 0xC0) != 0x80;
  if (cps > kExpressionSizeCodePointLimit) {
    ParseResult r;
    r.issues.push_back(
        {-1, fmt::format("expression code point size exceeds limit: size: {}, limit {}", cps,
                         kExpressionSizeCodePointLimit)});
    return r;
  }
  Parser p(source);
  ParseResult r = p.Run();
  // Syntax errors come from the lexer/parser with "Syntax error: " already;
  // semantic parse errors (literals, macros, reserved words) without.
  return r;
}

}  // namespace ksched::cel
