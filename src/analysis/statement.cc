// See statement.h. Reads statements token by token; only the few forms the
// rules need are recognised, at parenthesis depth 0.
#include "analysis/statement.h"

#include <pg_query.h>

namespace lockgraph {
namespace {

using Kind = SqlToken::Kind;
using Tokens = std::vector<SqlToken>;

bool IsWord(const Tokens& t, size_t i, std::string_view w) {
  return i < t.size() && t[i].kind == Kind::kWord && t[i].text == w;
}
bool IsSymbol(const Tokens& t, size_t i, std::string_view s) {
  return i < t.size() && t[i].kind == Kind::kSymbol && t[i].text == s;
}
bool IsName(const Tokens& t, size_t i) {
  return i < t.size() && (t[i].kind == Kind::kWord || t[i].kind == Kind::kQuoted);
}

// A possibly qualified name at t[*i] ("public"."orders"): the last part.
std::string ReadName(const Tokens& t, size_t* i) {
  std::string name;
  while (IsName(t, *i)) {
    name = t[*i].text;
    ++*i;
    if (!IsSymbol(t, *i, ".")) break;
    ++*i;
  }
  return name;
}

// Index of the first word `w` at parenthesis depth 0 from `from`, or t.size().
size_t FindTopLevel(const Tokens& t, std::string_view w, size_t from = 0) {
  int depth = 0;
  for (size_t i = from; i < t.size(); ++i) {
    if (IsSymbol(t, i, "(")) ++depth;
    else if (IsSymbol(t, i, ")")) depth = depth > 0 ? depth - 1 : 0;
    else if (depth == 0 && IsWord(t, i, w)) return i;
  }
  return t.size();
}

// Skips the given optional words ("only", "if", "exists", ...).
void SkipWords(const Tokens& t, size_t* i, std::initializer_list<std::string_view> words) {
  for (bool again = true; again;) {
    again = false;
    for (std::string_view w : words)
      if (IsWord(t, *i, w)) {
        ++*i;
        again = true;
      }
  }
}

std::string TableAfter(const Tokens& t, size_t i, std::initializer_list<std::string_view> skip) {
  SkipWords(t, &i, skip);
  return ReadName(t, &i);
}

void ReadRowLock(const Tokens& t, StatementFacts* f) {
  for (size_t i = FindTopLevel(t, "for"); i < t.size(); i = FindTopLevel(t, "for", i + 1)) {
    if (IsWord(t, i + 1, "update")) f->row_lock = "for update";
    else if (IsWord(t, i + 1, "share")) f->row_lock = "for share";
    else if (IsWord(t, i + 1, "no") && IsWord(t, i + 3, "update")) f->row_lock = "for no key update";
    else if (IsWord(t, i + 1, "key") && IsWord(t, i + 2, "share")) f->row_lock = "for key share";
    if (!f->row_lock.empty()) return;
  }
}

void ReadLockTable(const Tokens& t, StatementFacts* f) {
  f->table = TableAfter(t, 1, {"table", "only"});
  size_t in = FindTopLevel(t, "in");
  f->lock_mode = "access exclusive";  // LOCK's default
  if (in < t.size()) {
    std::string mode;
    for (size_t i = in + 1; i < t.size() && !IsWord(t, i, "mode"); ++i)
      mode += (mode.empty() ? "" : " ") + t[i].text;
    if (!mode.empty()) f->lock_mode = mode;
  }
  f->ddl = f->lock_mode == "access exclusive";
}

void ReadTarget(const Tokens& t, StatementFacts* f) {
  const std::string& v = f->verb;
  if (v == "update") f->table = TableAfter(t, 1, {"only"});
  else if (v == "delete") f->table = TableAfter(t, 1, {"from", "only"});
  else if (v == "insert") f->table = TableAfter(t, 1, {"into"});
  else if (v == "truncate") f->table = TableAfter(t, 1, {"table", "only"});
  else if (v == "lock") ReadLockTable(t, f);
  else if (v == "select") {
    size_t from = FindTopLevel(t, "from");
    if (from < t.size()) {
      size_t i = from + 1;
      SkipWords(t, &i, {"only"});
      f->table = ReadName(t, &i);
      if (IsSymbol(t, i, "(")) f->table.clear();  // FROM f(...): a function
    }
    ReadRowLock(t, f);
  } else if (v == "alter" || v == "drop") {
    if (IsWord(t, 1, "table")) f->table = TableAfter(t, 2, {"if", "exists", "only"});
    f->ddl = true;
  } else if (v == "create") {
    size_t on = FindTopLevel(t, "on");
    if (FindTopLevel(t, "index") < t.size() && on < t.size())
      f->table = TableAfter(t, on + 1, {"only"});
    f->ddl = true;
  } else if (v == "reindex" || v == "cluster" || v == "refresh") {
    f->ddl = true;
  } else if (v == "vacuum") {
    f->ddl = FindTopLevel(t, "full") < t.size();
  }
  if (v == "truncate") f->ddl = true;
}

bool EndsWhere(const Tokens& t, size_t i) {
  static constexpr std::string_view kEnds[] = {"for", "returning", "order", "limit",
                                               "group", "having", "union", "offset"};
  for (std::string_view w : kEnds)
    if (IsWord(t, i, w)) return true;
  return IsSymbol(t, i, ";");
}

// "col = lit", "lit = col" and "col IN (lit, ...)" at depth 0 of WHERE.
void ReadKeys(const Tokens& t, StatementFacts* f) {
  size_t where = FindTopLevel(t, "where");
  int depth = 0;
  for (size_t i = where + 1; i < t.size(); ++i) {
    if (IsSymbol(t, i, "(")) ++depth;
    if (IsSymbol(t, i, ")")) --depth;
    if (depth < 0 || (depth == 0 && EndsWhere(t, i))) return;
    if (!IsName(t, i) || IsSymbol(t, i + 1, ".") || IsSymbol(t, i + 1, "(")) continue;
    const std::string& col = t[i].text;
    if (IsSymbol(t, i + 1, "=") && i + 2 < t.size() && IsLiteral(t[i + 2])) {
      f->keys.push_back({col, t[i + 2].text, t[i + 2].kind});
    } else if (i >= 2 && IsSymbol(t, i - 1, "=") && IsLiteral(t[i - 2]) &&
               !IsSymbol(t, i + 1, "=")) {
      f->keys.push_back({col, t[i - 2].text, t[i - 2].kind});
    } else if (IsWord(t, i + 1, "in") && IsSymbol(t, i + 2, "(")) {
      for (size_t j = i + 3; j < t.size() && IsLiteral(t[j]); j += 2) {
        f->keys.push_back({col, t[j].text, t[j].kind});
        if (!IsSymbol(t, j + 1, ",")) break;
      }
    }
  }
}

void ReadCalls(const Tokens& t, StatementFacts* f) {
  for (size_t i = 0; i + 1 < t.size(); ++i)
    if (t[i].kind == Kind::kWord && IsSymbol(t, i + 1, "(") && !IsWord(t, i, "in") &&
        !IsWord(t, i, "values") && !IsWord(t, i, "exists"))
      f->calls.push_back(t[i].text);
}

}  // namespace

std::string KeyLiteral::Text() const {
  if (kind == Kind::kString) return column + " = '" + value + "'";
  return column + " = " + value;
}

namespace {

/// Words after which "(" opens a list or a subquery, not a call's arguments.
bool KeepsSpaceBeforeParen(const std::string& word) {
  static const char* const kWords[] = {
      "all",    "and",   "as",     "by",     "else",  "exists", "from",   "having", "in",
      "into",   "is",    "join",   "lateral", "not",  "on",     "or",     "over",   "returning",
      "select", "set",   "table",  "then",   "union", "using",  "values", "when",   "where",
      "with",   "index", "update", "delete", "limit", "offset", "filter", "within", "do",
      "conflict", "key", "references"};
  for (const char* w : kWords)
    if (word == w) return true;
  return false;
}

/// Whether a space goes between the written token `prev` (and the one
/// before it, `prev2`) and `cur`, for ReadableSql.
bool SpaceBetween(const SqlToken* prev2, const SqlToken& prev, const SqlToken& cur) {
  const bool prev_sym = prev.kind == Kind::kSymbol, cur_sym = cur.kind == Kind::kSymbol;
  if (cur_sym && (cur.text == "." || cur.text == "," || cur.text == ")" || cur.text == "]" ||
                  cur.text == "::" || cur.text == ";"))
    return false;
  if (prev_sym && (prev.text == "." || prev.text == "(" || prev.text == "[" || prev.text == "::" ||
                   prev.text == "@" || prev.text == "#"))
    return false;
  if (cur_sym && cur.text == "[") return false;  // array[?], a[1]
  if (cur_sym && cur.text == "(" && (prev.kind == Kind::kWord || prev.kind == Kind::kQuoted)) {
    // f(x), any(...), t(a, b) after INTO/TABLE keeps its space: "into t (a, b)".
    if (KeepsSpaceBeforeParen(prev.text)) return true;
    if (prev2 && prev2->kind == Kind::kWord && (prev2->text == "into" || prev2->text == "table"))
      return true;
    return false;
  }
  return true;
}

/// The tokens NormalizeSql keeps of `t` (a statement's tokens), literals as
/// "?", lists of literals as one.
std::vector<SqlToken> NormalizedTokens(const Tokens& t, size_t max_tokens) {
  size_t end = t.size();
  while (end > 0 && IsSymbol(t, end - 1, ";")) --end;  // "UPDATE ...;" == "UPDATE ..."
  Tokens out;
  size_t n = 0;
  for (size_t i = 0; i < end && n < max_tokens; ++i, ++n) {
    // "?, ?, ?" -> "?": lists of literals of any length are one shape.
    if (IsLiteral(t[i]) && i >= 2 && IsSymbol(t, i - 1, ",") && IsLiteral(t[i - 2])) {
      out.pop_back();  // the "," written before
      continue;
    }
    SqlToken tok = t[i];
    if (IsLiteral(tok)) tok = SqlToken{Kind::kParam, "?"};
    else if (tok.kind == Kind::kQuoted) tok.text = '"' + tok.text + '"';
    out.push_back(std::move(tok));
  }
  return out;
}

std::string Joined(const Tokens& normalized) {
  std::string out;
  for (const SqlToken& tok : normalized) {
    if (!out.empty()) out += ' ';
    out += tok.text;
  }
  return out;
}

// The verb and what ReadTarget reads, from a statement's tokens.
void ReadVerbAndTarget(const Tokens& t, StatementFacts* f) {
  if (t.empty() || t[0].kind != Kind::kWord) return;
  f->verb = t[0].text;
  ReadTarget(t, f);
}

}  // namespace

std::string NormalizeSql(std::string_view sql, size_t max_tokens) {
  return Joined(NormalizedTokens(TokenizeSql(sql), max_tokens));
}

// One tokenizing serves the facts and the normalized text.
StatementFacts ReadStatement(std::string_view sql) {
  StatementFacts f;
  const Tokens t = TokenizeSql(sql);
  f.normalized = Joined(NormalizedTokens(t, 4096));
  ReadVerbAndTarget(t, &f);
  if (f.verb.empty()) return f;
  ReadKeys(t, &f);
  ReadCalls(t, &f);
  return f;
}

StatementFacts ReadStatementTarget(std::string_view sql) {
  StatementFacts f;
  ReadVerbAndTarget(TokenizeSql(sql), &f);
  return f;
}

std::string ReadableSql(std::string_view sql, size_t max_tokens) {
  const Tokens t = NormalizedTokens(TokenizeSql(sql), max_tokens);
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i > 0 && SpaceBetween(i >= 2 ? &t[i - 2] : nullptr, t[i - 1], t[i])) out += ' ';
    out += t[i].text;
  }
  return out;
}

std::string QueryFingerprint(std::string_view sql) {
  std::string text(sql);  // pg_query needs a NUL-terminated string
  PgQueryFingerprintResult r = pg_query_fingerprint(text.c_str());
  std::string out = (r.error || !r.fingerprint_str) ? "" : r.fingerprint_str;
  pg_query_free_fingerprint_result(r);
  return out;
}

std::string StatementShape(std::string_view sql, bool clipped) {
  if (!clipped) {
    std::string fp = QueryFingerprint(sql);
    if (!fp.empty()) return "fp:" + fp;
  }
  return "sql:" + NormalizeSql(sql, clipped ? 48 : 4096);
}

}  // namespace lockgraph
