// See redact.h. The query texts are redacted from the tokens' positions, so
// what is not a literal stays exactly as logged. Findings were written from
// the unredacted event (the rules need the key values to compare them), so
// the values they quote are found again and replaced.
#include "analysis/redact.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "analysis/sql_lexer.h"

namespace lockgraph {
namespace {

bool IsRedacted(const SqlToken& t) {
  return t.kind == SqlToken::Kind::kNumber || t.kind == SqlToken::Kind::kString;
}

// The literal values of an event's queries, as the findings may quote them.
struct LiteralValues {
  std::set<std::string> quoted;   // 'it''s', E'x', $$body$$, and 'value' as rules write keys
  std::set<std::string> numbers;  // 42, 4.2

  void Add(std::string_view sql) {
    for (const SqlToken& t : TokenizeSql(sql)) {
      if (t.kind == SqlToken::Kind::kNumber) numbers.insert(t.text);
      if (t.kind != SqlToken::Kind::kString) continue;
      quoted.insert(std::string(sql.substr(t.begin, t.end - t.begin)));
      quoted.insert("'" + t.text + "'");
    }
  }
};

bool Digit(const std::string& s, size_t i) {
  return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
}

// True when the character at `i` continues a number or a word: a letter,
// digit or '_', '$' before it (a $1 parameter in lockgraph's own hints:
// `ANY($1)`), or a decimal point between digits (10.5; "id = 10." ends).
bool Continues(const std::string& s, size_t i, bool after) {
  if (i >= s.size()) return false;
  unsigned char c = s[i];
  if (std::isalnum(c) || c == '_' || (!after && c == '$')) return true;
  return c == '.' && (after ? Digit(s, i + 1) : i > 0 && Digit(s, i - 1));
}

// Replaces whole occurrences of `value` in *text: quoted spellings anywhere,
// numbers only where nothing continues them (so that pid 9828 stays when
// the literal is 98).
void ReplaceAll(std::string* text, const std::string& value, bool number) {
  if (value.empty() || value == "?") return;
  for (size_t at = text->find(value); at != std::string::npos; at = text->find(value, at)) {
    size_t end = at + value.size();
    bool whole = !number || ((at == 0 || !Continues(*text, at - 1, false)) &&
                             !Continues(*text, end, true));
    if (whole) text->replace(at, value.size(), "?");
    ++at;
  }
}

// Longest first, so that '10' is not left as '1?' by the value 1.
std::vector<std::string> LongestFirst(const std::set<std::string>& values) {
  std::vector<std::string> v(values.begin(), values.end());
  std::stable_sort(v.begin(), v.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return v;
}

// A `code span` that uses a $n parameter is a statement lockgraph wrote for
// any case (`SELECT 1 FROM t WHERE k = ANY($1) ...`), not the event's: it
// quotes no value, and keeps its own numbers.
bool IsTemplateSpan(std::string_view span) {
  for (size_t i = span.find('$'); i != std::string_view::npos; i = span.find('$', i + 1))
    if (i + 1 < span.size() && std::isdigit(static_cast<unsigned char>(span[i + 1]))) return true;
  return false;
}

void RedactValues(std::string* text, const LiteralValues& values) {
  // Template spans are set aside under a mark without digits or quotes.
  std::vector<std::string> kept;
  for (size_t open = text->find('`'); open != std::string::npos; open = text->find('`', open + 1)) {
    size_t close = text->find('`', open + 1);
    if (close == std::string::npos) break;
    std::string span = text->substr(open, close - open + 1);
    if (!IsTemplateSpan(span)) {
      open = close;
      continue;
    }
    std::string mark = "\x01" + std::string(1, char('a' + kept.size() % 26)) +
                       std::string(kept.size() / 26, 'z') + "\x01";
    kept.push_back(std::move(span));
    text->replace(open, close - open + 1, mark);
    open += mark.size() - 1;
  }
  for (const std::string& q : LongestFirst(values.quoted)) ReplaceAll(text, q, false);
  for (const std::string& n : LongestFirst(values.numbers)) ReplaceAll(text, n, true);
  for (size_t i = 0; i < kept.size(); ++i) {
    std::string mark = "\x01" + std::string(1, char('a' + i % 26)) + std::string(i / 26, 'z') + "\x01";
    size_t at = text->find(mark);
    if (at != std::string::npos) text->replace(at, mark.size(), kept[i]);
  }
}

// Evidence lines that quote SQL: "process 12 (victim): UPDATE ...",
// "statement: ...", "CONTEXT: ...".
std::string RedactEvidence(const std::string& line) {
  if (line.rfind("CONTEXT: ", 0) == 0) return "CONTEXT: " + RedactContextLine(line.substr(9));
  if (line.rfind("statement: ", 0) == 0) return "statement: " + RedactSql(line.substr(11));
  // A unique violation's "key: (a, b)=(1, x)" (PG016): the columns stay.
  if (line.rfind("key: ", 0) == 0) {
    size_t values = line.find(")=(");
    if (values != std::string::npos) return line.substr(0, values + 2) + "(?)";
  }
  if (line.rfind("process ", 0) == 0) {
    size_t colon = line.find(": ");
    if (colon != std::string::npos) return line.substr(0, colon + 2) + RedactSql(line.substr(colon + 2));
  }
  return line;
}

void RedactFrame(ContextFrame* f) {
  f->text = RedactContextLine(f->text);
  if (!f->statement.empty()) f->statement = RedactSql(f->statement);
}

void RedactBackend(Backend* b, LiteralValues* values) {
  values->Add(b->query);
  b->query = RedactSql(b->query);
}

// Collects the literal values of every query of the event and redacts them.
void RedactQueries(Event* event, LiteralValues* values) {
  auto sql = [values](std::string* s) {
    values->Add(*s);
    *s = RedactSql(*s);
  };
  auto frames = [values](std::vector<ContextFrame>* fs) {
    for (ContextFrame& f : *fs) {
      values->Add(f.statement);
      RedactFrame(&f);
    }
  };
  if (event->deadlock) {
    Deadlock& d = *event->deadlock;
    for (Participant& p : d.processes) {
      sql(&p.query);
      frames(&p.frames);
    }
    sql(&d.statement);
    frames(&d.context);
  }
  if (event->lock_wait) {
    sql(&event->lock_wait->statement);
    frames(&event->lock_wait->context);
  }
  if (event->chain)
    for (BlockingTree::Member& m : event->chain->members) RedactBackend(&m.backend, values);
  if (event->cycle)
    for (Backend& b : event->cycle->members) RedactBackend(&b, values);
  if (event->wait_change) RedactBackend(&event->wait_change->waiter, values);
}

// The text between two tokens: whitespace and comments only (the lexer
// drops nothing else). A comment keeps its delimiters and words; the
// literals in it are redacted as SQL (`-- customer 42` -> `-- customer ?`),
// nested /* */ comments too.
std::string RedactGap(std::string_view gap) {
  std::string out;
  size_t i = 0;
  while (i < gap.size()) {
    if (gap.compare(i, 2, "--") == 0) {
      size_t end = std::min(gap.find('\n', i), gap.size());
      out += "--" + RedactSql(gap.substr(i + 2, end - i - 2));
      i = end;
    } else if (gap.compare(i, 2, "/*") == 0) {
      size_t j = i + 2;
      int depth = 1;
      while (j < gap.size() && depth > 0) {
        if (gap.compare(j, 2, "/*") == 0) ++depth, j += 2;
        else if (gap.compare(j, 2, "*/") == 0) --depth, j += 2;
        else ++j;
      }
      size_t body_end = depth == 0 ? j - 2 : gap.size();  // clipped: open to the end
      out += "/*" + RedactSql(gap.substr(i + 2, body_end - i - 2));
      if (depth == 0) out += "*/";
      i = j;
    } else {
      out += gap[i++];
    }
  }
  return out;
}

}  // namespace

std::string RedactSql(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  size_t copied = 0;
  for (const SqlToken& t : TokenizeSql(sql)) {
    out.append(RedactGap(sql.substr(copied, t.begin - copied)));
    if (IsRedacted(t))
      out += '?';
    else
      out.append(sql.substr(t.begin, t.end - t.begin));
    copied = t.end;
  }
  out.append(RedactGap(sql.substr(copied)));
  return out;
}

std::string RedactContextLine(std::string_view line) {
  constexpr std::string_view kSql = "SQL statement \"";
  if (line.rfind(kSql, 0) == 0) {
    size_t close = line.rfind('"');
    if (close < kSql.size()) close = line.size();  // clipped: no closing quote
    return std::string(kSql) + RedactSql(line.substr(kSql.size(), close - kSql.size())) +
           std::string(line.substr(close));
  }
  if (line.rfind("COPY ", 0) == 0) {
    size_t data = line.find(": \"");
    if (data != std::string_view::npos) return std::string(line.substr(0, data)) + ": ?";
  }
  return std::string(line);
}

void RedactEvent(Event* event) {
  LiteralValues values;
  RedactQueries(event, &values);
  for (Finding& f : event->findings) {
    RedactValues(&f.message, values);
    RedactValues(&f.hint, values);
    for (std::string& e : f.evidence) {
      e = RedactEvidence(e);
      // "edge 2: ..." numbers the edges: lockgraph's label, not a value.
      size_t label = e.rfind("edge ", 0) == 0 ? e.find(": ") : std::string::npos;
      std::string rest = label == std::string::npos ? e : e.substr(label);
      RedactValues(&rest, values);
      e = label == std::string::npos ? rest : e.substr(0, label) + rest;
    }
  }
}

void RedactRunFinding(Finding* finding) {
  for (std::string& e : finding->evidence) e = RedactEvidence(e);
}

}  // namespace lockgraph
