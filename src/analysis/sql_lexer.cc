// See sql_lexer.h. Follows PostgreSQL's scan.l where it matters for
// telling literals from identifiers; everything else is a symbol.
#include "analysis/sql_lexer.h"

namespace lockgraph {
namespace {

// <cctype>'s classes in the "C" locale, the only one lockgraph runs in (it
// never calls setlocale), without a call per byte: every statement of
// every event is lexed.
bool IsAsciiDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsAsciiAlpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool IsAsciiSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool IsAsciiHex(unsigned char c) { return IsAsciiDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
bool IsIdentStart(unsigned char c) { return IsAsciiAlpha(c) || c == '_' || c >= 0x80; }
bool IsIdentChar(unsigned char c) { return IsIdentStart(c) || IsAsciiDigit(c) || c == '$'; }

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : s_(sql) {}

  std::vector<SqlToken> Run() {
    std::vector<SqlToken> out;
    out.reserve(s_.size() / 4 + 1);
    while (SkipSpaceAndComments()) {
      size_t begin = i_;
      out.push_back(Next());
      out.back().begin = begin;
      out.back().end = i_;
    }
    return out;
  }

 private:
  // Whether the two bytes at i_ are `a` and `b` (compare() on a string_view
  // was a call to memcmp per token).
  bool At2(char a, char b) const { return i_ + 1 < s_.size() && s_[i_] == a && s_[i_ + 1] == b; }

  bool SkipSpaceAndComments() {
    for (;;) {
      if (i_ >= s_.size()) return false;
      unsigned char c = s_[i_];
      if (IsAsciiSpace(c)) {
        ++i_;
      } else if (At2('-', '-')) {
        size_t nl = s_.find('\n', i_);
        i_ = nl == std::string_view::npos ? s_.size() : nl + 1;
      } else if (At2('/', '*')) {
        SkipBlockComment();
      } else {
        return true;
      }
    }
  }

  void SkipBlockComment() {  // nested, as in PostgreSQL
    int depth = 0;
    while (i_ < s_.size()) {
      if (At2('/', '*')) {
        ++depth;
        i_ += 2;
      } else if (At2('*', '/')) {
        i_ += 2;
        if (--depth == 0) return;
      } else {
        ++i_;
      }
    }
  }

  SqlToken Next() {
    unsigned char c = s_[i_];
    if ((c == 'e' || c == 'E' || c == 'b' || c == 'B' || c == 'x' || c == 'X' || c == 'n' ||
         c == 'N') &&
        i_ + 1 < s_.size() && s_[i_ + 1] == '\'') {
      ++i_;  // E'..', B'..', X'..', N'..': a string with a prefix letter
      return Quoted('\'', SqlToken::Kind::kString);
    }
    if (c == '\'') return Quoted('\'', SqlToken::Kind::kString);
    if (c == '"') return Quoted('"', SqlToken::Kind::kQuoted);
    if (c == '$') return Dollar();
    if (IsAsciiDigit(c) || (c == '.' && i_ + 1 < s_.size() && IsAsciiDigit(s_[i_ + 1])))
      return Number();
    if (IsIdentStart(c)) return Word();
    return Symbol();
  }

  // 'it''s' -> it's; an unterminated literal runs to the end of the text.
  SqlToken Quoted(char quote, SqlToken::Kind kind) {
    SqlToken t{kind, ""};
    ++i_;
    while (i_ < s_.size()) {
      if (s_[i_] == quote) {
        if (i_ + 1 < s_.size() && s_[i_ + 1] == quote) {
          t.text += quote;
          i_ += 2;
          continue;
        }
        ++i_;
        return t;
      }
      if (quote == '\'' && s_[i_] == '\\' && i_ + 1 < s_.size()) t.text += s_[i_++];
      t.text += s_[i_++];
    }
    return t;
  }

  // $1 (a parameter), or $tag$...$tag$ / $$...$$ (a dollar-quoted string).
  SqlToken Dollar() {
    size_t j = i_ + 1;
    while (j < s_.size() && IsAsciiDigit(s_[j])) ++j;
    if (j > i_ + 1) {
      SqlToken t{SqlToken::Kind::kParam, std::string(s_.substr(i_, j - i_))};
      i_ = j;
      return t;
    }
    j = i_ + 1;
    while (j < s_.size() && IsIdentChar(s_[j]) && s_[j] != '$') ++j;
    if (j < s_.size() && s_[j] == '$') {
      std::string_view tag = s_.substr(i_, j - i_ + 1);
      size_t end = s_.find(tag, j + 1);
      size_t body = j + 1;
      SqlToken t{SqlToken::Kind::kString, ""};
      if (end == std::string_view::npos) {
        t.text = std::string(s_.substr(body));
        i_ = s_.size();
      } else {
        t.text = std::string(s_.substr(body, end - body));
        i_ = end + tag.size();
      }
      return t;
    }
    return Symbol();
  }

  SqlToken Number() {
    size_t j = i_;
    if (At2('0', 'x') || At2('0', 'X')) {
      j += 2;
      while (j < s_.size() && IsAsciiHex(s_[j])) ++j;
    } else {
      while (j < s_.size() && (IsAsciiDigit(s_[j]) || s_[j] == '.' || s_[j] == '_'))
        ++j;
      if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
        size_t k = j + 1;
        if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
        if (k < s_.size() && IsAsciiDigit(s_[k])) {
          j = k;
          while (j < s_.size() && IsAsciiDigit(s_[j])) ++j;
        }
      }
    }
    SqlToken t{SqlToken::Kind::kNumber, std::string(s_.substr(i_, j - i_))};
    i_ = j;
    return t;
  }

  SqlToken Word() {
    size_t j = i_;
    while (j < s_.size() && IsIdentChar(s_[j])) ++j;
    SqlToken t{SqlToken::Kind::kWord, std::string(s_.substr(i_, j - i_))};
    for (char& ch : t.text)
      if (ch >= 'A' && ch <= 'Z') ch = char(ch - 'A' + 'a');
    i_ = j;
    return t;
  }

  // Two-character operators that matter for reading statements; any other
  // character is a symbol of its own.
  SqlToken Symbol() {
    static constexpr std::string_view kPairs[] = {"::", "<=", ">=", "<>", "!=", "||", "->"};
    const char c = s_[i_];
    const bool may_pair = c == ':' || c == '<' || c == '>' || c == '!' || c == '|' || c == '-';
    for (std::string_view p : kPairs) {
      if (!may_pair) break;
      if (At2(p[0], p[1])) {
        i_ += 2;
        return {SqlToken::Kind::kSymbol, std::string(p)};
      }
    }
    return {SqlToken::Kind::kSymbol, std::string(1, s_[i_++])};
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

std::vector<SqlToken> TokenizeSql(std::string_view sql) { return Lexer(sql).Run(); }

bool IsLiteral(const SqlToken& token) {
  return token.kind == SqlToken::Kind::kNumber || token.kind == SqlToken::Kind::kString ||
         token.kind == SqlToken::Kind::kParam;
}

}  // namespace lockgraph
