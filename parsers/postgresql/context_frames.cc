// CONTEXT lines of PostgreSQL messages split into frames (messages.h,
// ParseContext): row waits, PL/pgSQL and SQL functions, SPI statements, in
// English and in the server catalogues' translations (catalog.h).
// Formats: shared/docs/reference/postgresql-logs.md §3.5 and §8.
#include <re2/re2.h>

#include <charconv>
#include <utility>

#include "parsers/postgresql/catalog_match.h"
#include "parsers/postgresql/message_scan.h"
#include "parsers/postgresql/message_text.h"
#include "parsers/postgresql/messages.h"

namespace lockgraph {
namespace {

using message_text::Piece;
using message_text::SplitLines;
using message_text::Str;
using message_text::ToInt;

// A translated row-wait CONTEXT line (XactLockTableWaitErrorCb's eight
// strings); the action is named as in English.
bool ReadTranslatedRowWait(std::string_view line, ContextFrame* f) {
  static constexpr struct {
    PgText id;
    const char* action;
  } kActions[] = {{PgText::kCtxUpdating, "updating"},
                  {PgText::kCtxDeleting, "deleting"},
                  {PgText::kCtxLocking, "locking"},
                  {PgText::kCtxLockingUpdated, "locking updated version"},
                  {PgText::kCtxInsertingIndex, "inserting index"},
                  {PgText::kCtxCheckingUniqueness, "checking uniqueness of"},
                  {PgText::kCtxRechecking, "rechecking updated"},
                  {PgText::kCtxCheckingExclusion, "checking exclusion constraint on"}};
  PgTextMatch m;
  for (const auto& a : kActions) {
    if (!MatchPgText(a.id, line, &m) || m.args.size() < 3) continue;
    f->kind = ContextFrame::Kind::kRowWait;
    f->action = a.action;
    f->tuple = "(" + std::string(m.args[0]) + "," + std::string(m.args[1]) + ")";
    f->relation = std::string(m.args[2]);
    return true;
  }
  return false;
}

// A translated function or SPI frame (spi.c, functions.c and plpgsql's
// catalogue). PL/pgSQL's statement type "SQL statement" is given in English;
// other statement types are kept as logged.
bool ReadTranslatedCallFrame(std::string_view line, ContextFrame* f) {
  PgTextMatch m;
  for (PgText id : {PgText::kCtxPlpgsqlLineAt, PgText::kCtxPlpgsqlLine}) {
    if (!MatchPgText(id, line, &m) || m.args.size() < 3) continue;
    f->kind = ContextFrame::Kind::kFunction;
    f->function = std::string(m.args[0]);
    f->line = int(ToInt(m.args[1]));
    f->statement = MatchPgText(PgText::kPlpgsqlSqlStatement, m.args[2])
                       ? std::string(PgEnglish(PgText::kPlpgsqlSqlStatement))
                       : std::string(m.args[2]);
    return true;
  }
  if (MatchPgText(PgText::kCtxSqlFunction, line, &m) && m.args.size() == 2) {
    f->kind = ContextFrame::Kind::kFunction;
    f->function = std::string(m.args[0]);
    f->line = int(ToInt(m.args[1]));
    f->statement = "SQL function statement";
    return true;
  }
  for (PgText id : {PgText::kCtxSqlStatement, PgText::kCtxSqlExpression,
                    PgText::kCtxPlpgsqlAssignment}) {
    if (!MatchPgText(id, line, &m) || m.args.empty()) continue;
    f->kind = ContextFrame::Kind::kSqlStatement;
    f->statement = std::string(m.args[0]);
    return true;
  }
  return false;
}

bool ReadTranslatedFrame(std::string_view line, ContextFrame* f) {
  static const PgPrefixSet kPrefixes(
      {PgText::kCtxUpdating, PgText::kCtxDeleting, PgText::kCtxLocking,
       PgText::kCtxLockingUpdated, PgText::kCtxInsertingIndex, PgText::kCtxCheckingUniqueness,
       PgText::kCtxRechecking, PgText::kCtxCheckingExclusion, PgText::kCtxSqlStatement,
       PgText::kCtxSqlExpression, PgText::kCtxPlpgsqlAssignment, PgText::kCtxSqlFunction,
       PgText::kCtxPlpgsqlLineAt, PgText::kCtxPlpgsqlLine});
  // tr starts its row waits with the quoted relation name.
  if (!kPrefixes.MayMatch(line) && !(!line.empty() && line[0] == '"')) return false;
  return ReadTranslatedRowWait(line, f) || ReadTranslatedCallFrame(line, f);
}

bool EndsWith(std::string_view s, std::string_view end);

// The closing quote a frame that quotes an SPI statement still waits for
// (the statement spans lines): '"' in English and most catalogues, the
// guillemets of de (»...«), fr (« ... ») and es («...»), whichever opens
// first. Empty: no quote left open.
std::string_view OpenQuote(std::string_view line) {
  static constexpr std::pair<std::string_view, std::string_view> kPairs[] = {
      {" \"", "\""}, {"»", "«"}, {"«", "»"}};
  size_t first = std::string_view::npos;
  std::string_view close;
  for (const auto& [open, closing] : kPairs) {
    size_t at = line.find(open);
    if (at < first) {
      first = at;
      close = closing;
    }
  }
  if (first == std::string_view::npos || EndsWith(line, close)) return {};
  return close;
}

// Only an SPI frame quotes text that may span lines ("SQL statement \"...\"",
// English or translated); other frames are one line even when they hold a
// quote ("SQL function \"f\" statement 2").
bool IsSpiFrameStart(std::string_view line) {
  static constexpr std::string_view kEnglish[] = {
      "SQL statement \"", "SQL expression \"", "PL/pgSQL expression \"",
      "PL/pgSQL assignment \""};
  for (std::string_view p : kEnglish)
    if (line.substr(0, p.size()) == p) return true;
  static const PgPrefixSet kTranslated(
      {PgText::kCtxSqlStatement, PgText::kCtxSqlExpression, PgText::kCtxPlpgsqlAssignment});
  return kTranslated.MayMatch(line);
}

bool EndsWith(std::string_view s, std::string_view end) {
  return s.size() >= end.size() && s.substr(s.size() - end.size()) == end;
}

// The English frames; false when the line is none of them.
bool ReadEnglishFrame(std::string_view line, ContextFrame* f) {
  static const RE2 kRowWait(
      R"re(while (updating|deleting|locking|rechecking updated|inserting index|)re"
      R"re(checking uniqueness of|checking exclusion constraint on) tuple )re"
      R"re((\(\d+,\d+\)) in relation "(.*)")re");
  static const RE2 kLockUpdated(
      R"re(while locking updated version (\(\d+,\d+\)) of tuple in relation "(.*)")re");
  static const RE2 kPlpgsql(R"re(PL/pgSQL function (.+?) line (\d+) (?:at )?(.*))re");
  static const RE2 kSqlFunction(R"re(SQL function "(.*)" statement (\d+))re");
  static const RE2 kSpi(R"re((?s)(?:SQL statement|SQL expression|PL/pgSQL expression|)re"
                        R"re(PL/pgSQL assignment) "(.*)")re");
  re2::StringPiece a, b, c;
  re2::StringPiece in = Piece(line);
  if (RowWaitScan scan; ScanRowWait(line, &scan)) {
    f->kind = ContextFrame::Kind::kRowWait;
    f->action = std::string(scan.action);
    f->tuple = std::string(scan.tuple);
    f->relation = std::string(scan.relation);
  } else if (RE2::FullMatch(in, kRowWait, &a, &b, &c)) {
    f->kind = ContextFrame::Kind::kRowWait;
    f->action = Str(a);
    f->tuple = Str(b);
    f->relation = Str(c);
  } else if (RE2::FullMatch(in, kLockUpdated, &b, &c)) {
    f->kind = ContextFrame::Kind::kRowWait;
    f->action = "locking updated version";
    f->tuple = Str(b);
    f->relation = Str(c);
  } else if (RE2::FullMatch(in, kPlpgsql, &a, &b, &c)) {
    f->kind = ContextFrame::Kind::kFunction;
    f->function = Str(a);
    f->line = int(ToInt({b.data(), b.size()}));
    f->statement = Str(c);
  } else if (RE2::FullMatch(in, kSqlFunction, &a, &b)) {
    f->kind = ContextFrame::Kind::kFunction;
    f->function = Str(a);
    f->line = int(ToInt({b.data(), b.size()}));
    f->statement = "SQL function statement";
  } else if (RE2::FullMatch(in, kSpi, &a)) {
    f->kind = ContextFrame::Kind::kSqlStatement;
    f->statement = Str(a);
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::vector<ContextFrame> ParseContext(std::string_view context) {
  std::vector<ContextFrame> frames;
  if (context.empty()) return frames;
  std::vector<std::string_view> lines = SplitLines(context);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    // A multi-line SPI statement: its quoted text spans the next lines.
    std::string_view close = IsSpiFrameStart(line) ? OpenQuote(line) : std::string_view();
    if (!close.empty()) {
      size_t j = i;
      while (j + 1 < lines.size() && (lines[j].empty() || !EndsWith(lines[j], close))) ++j;
      if (j > i) {
        line = std::string_view(line.data(), lines[j].data() + lines[j].size() - line.data());
        i = j;
      }
    }
    ContextFrame f;
    f.text = std::string(line);
    if (!ReadEnglishFrame(line, &f)) ReadTranslatedFrame(line, &f);
    frames.push_back(std::move(f));
  }
  return frames;
}

}  // namespace lockgraph
