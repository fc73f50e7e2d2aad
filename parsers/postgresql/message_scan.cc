// See message_scan.h. Each scan reads ASCII only (RE2's '.' and \S take
// UTF-8 characters, not bytes) and leaves any other line to its regex.
// Where a regex has a choice, the comment says why the text allows only
// one, or which one RE2 takes first.
#include "parsers/postgresql/message_scan.h"

#include "text/number.h"
#include "text/utf8.h"

namespace lockgraph {
namespace {

// \s in RE2: [\t\n\f\r ]; \S is every other character.
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

size_t DigitsFrom(std::string_view s, size_t from) {
  size_t end = from;
  while (end < s.size() && IsDigit(s[end])) ++end;
  return end - from;
}

// The digits that end s.substr(0, end): their count.
size_t DigitsBefore(std::string_view s, size_t end) {
  size_t begin = end;
  while (begin > 0 && IsDigit(s[begin - 1])) --begin;
  return end - begin;
}

// "(\d+) " at `*pos`: the digits (greedy, so all of them, and then the
// literal must follow at once).
bool DigitsThen(std::string_view s, size_t* pos, std::string_view then, std::string_view* out) {
  const size_t n = DigitsFrom(s, *pos);
  if (n == 0 || !s.substr(*pos + n).starts_with(then)) return false;
  *out = s.substr(*pos, n);
  *pos += n + then.size();
  return true;
}

// "(\S+) on " at `*pos`: \S+ stops at the first blank, which must start
// the literal.
bool WordThenOn(std::string_view s, size_t* pos, std::string_view* out) {
  size_t end = *pos;
  while (end < s.size() && !IsSpace(s[end])) ++end;
  if (end == *pos || !s.substr(end).starts_with(" on ")) return false;
  *out = s.substr(*pos, end - *pos);
  *pos = end + 4;
  return true;
}

bool Take(std::string_view s, size_t* pos, std::string_view literal) {
  if (!s.substr(*pos).starts_with(literal)) return false;
  *pos += literal.size();
  return true;
}

bool InHolderClass(char c) { return IsDigit(c) || c == ',' || c == ' '; }  // [\d, ]

// (a|b|c) then a literal, at `*pos`: no word is the start of another, so
// at most one fits (RE2 would try them in order). The word, past the
// literal.
template <size_t N>
bool OneOfThen(std::string_view s, size_t* pos, const std::string_view (&words)[N],
               std::string_view then, std::string_view* out) {
  for (std::string_view w : words)
    if (s.substr(*pos).starts_with(w) && s.substr(*pos + w.size()).starts_with(then)) {
      *out = s.substr(*pos, w.size());
      *pos += w.size() + then.size();
      return true;
    }
  return false;
}

}  // namespace

bool ScanEdge(std::string_view line, EdgeScan* out) {
  if (!IsAscii(line)) return false;
  size_t pos = 0;
  if (!Take(line, &pos, "Process ") || !DigitsThen(line, &pos, " waits for ", &out->waiter) ||
      !WordThenOn(line, &pos, &out->mode))
    return false;
  // The end is fixed: "; blocked by process " digits "." (the digits run
  // back to the literal's space), so the greedy (.+) is all before it.
  if (line.empty() || line.back() != '.') return false;
  const size_t digits = DigitsBefore(line, line.size() - 1);
  constexpr std::string_view kBlocked = "; blocked by process ";
  const size_t blocked = line.size() - 1 - digits;
  if (digits == 0 || blocked < pos + 1 + kBlocked.size() ||
      line.substr(blocked - kBlocked.size(), kBlocked.size()) != kBlocked)
    return false;
  out->tag = line.substr(pos, blocked - kBlocked.size() - pos);
  if (out->tag.find('\n') != std::string_view::npos) return false;
  out->blocker = line.substr(blocked, digits);
  return true;
}

bool ScanHolders(std::string_view line, HoldersScan* out) {
  if (!IsAscii(line)) return false;
  size_t pos = 0;
  if (!Take(line, &pos, "Process")) return false;
  // (?:es)? is tried with "es" first; without it " holding" must follow.
  if (!Take(line, &pos, "es holding the lock: ") && !Take(line, &pos, " holding the lock: "))
    return false;
  // ([\d, ]*)[.,]: the run, longest first (RE2's order), then '.' or ',',
  // then the rest, which has only one way to match.
  size_t run = 0;
  while (pos + run < line.size() && InHolderClass(line[pos + run])) ++run;
  constexpr std::string_view kQueue = " Wait queue: ";
  for (size_t h = run + 1; h-- > 0;) {
    const size_t sep = pos + h;
    if (sep >= line.size() || (line[sep] != '.' && line[sep] != ',')) continue;
    const size_t queue = sep + 1 + kQueue.size();
    if (line.substr(sep + 1, kQueue.size()) != kQueue) continue;
    if (queue >= line.size() || line.back() != '.') continue;
    bool in_class = true;
    for (size_t i = queue; i + 1 < line.size() && in_class; ++i) in_class = InHolderClass(line[i]);
    if (!in_class) continue;
    out->holders = line.substr(pos, h);
    out->queue = line.substr(queue, line.size() - 1 - queue);
    return true;
  }
  return false;
}

bool ScanRowWait(std::string_view line, RowWaitScan* out) {
  if (!IsAscii(line)) return false;
  size_t pos = 0;
  if (!Take(line, &pos, "while ")) return false;
  static constexpr std::string_view kActions[] = {
      "updating", "deleting", "locking", "rechecking updated", "inserting index",
      "checking uniqueness of", "checking exclusion constraint on"};
  if (!OneOfThen(line, &pos, kActions, " tuple ", &out->action)) return false;
  const size_t tuple = pos;
  std::string_view ignored;
  if (!Take(line, &pos, "(") || !DigitsThen(line, &pos, ",", &ignored) ||
      !DigitsThen(line, &pos, ")", &ignored))
    return false;
  out->tuple = line.substr(tuple, pos - tuple);
  // "(.*)" to the end: the relation is all between the quotes.
  if (!Take(line, &pos, " in relation \"") || line.size() < pos + 1 || line.back() != '"')
    return false;
  out->relation = line.substr(pos, line.size() - 1 - pos);
  return out->relation.find('\n') == std::string_view::npos;
}

bool ScanTimedWait(std::string_view message, TimedWaitScan* out) {
  if (!IsAscii(message)) return false;
  size_t pos = 0;
  if (!Take(message, &pos, "process ") || !DigitsThen(message, &pos, " ", &out->pid)) return false;
  static constexpr std::string_view kVerbs[] = {
      "still waiting for", "acquired", "avoided deadlock for",
      "detected deadlock while waiting for", "failed to acquire"};
  if (!OneOfThen(message, &pos, kVerbs, " ", &out->verb) ||
      !WordThenOn(message, &pos, &out->mode))
    return false;
  const size_t from = pos;  // the head's end: the tag starts here
  // The tail is a suffix of fixed shape, read from the end: an optional
  // " at character N", " ms", the fraction, '.', the milliseconds (their
  // digits run back to " after "), and an optional " by rearranging queue
  // order" before it, which the leftmost start takes when it lies after
  // the tag's first byte.
  size_t end = message.size();
  const size_t at_digits = DigitsBefore(message, end);
  constexpr std::string_view kAt = " at character ";
  if (at_digits > 0 && end - at_digits >= kAt.size() &&
      message.substr(end - at_digits - kAt.size(), kAt.size()) == kAt)
    end -= at_digits + kAt.size();
  if (end < 3 || message.substr(end - 3, 3) != " ms") return false;
  end -= 3;
  const size_t frac = DigitsBefore(message, end);
  if (frac == 0 || end - frac == 0 || message[end - frac - 1] != '.') return false;
  const size_t dot = end - frac - 1;
  const size_t ms = DigitsBefore(message, dot);
  constexpr std::string_view kAfter = " after ";
  if (ms == 0 || dot - ms < kAfter.size() ||
      message.substr(dot - ms - kAfter.size(), kAfter.size()) != kAfter)
    return false;
  const size_t after = dot - ms - kAfter.size();
  constexpr std::string_view kRearranging = " by rearranging queue order";
  size_t tail = after;
  if (after >= kRearranging.size() &&
      message.substr(after - kRearranging.size(), kRearranging.size()) == kRearranging &&
      after - kRearranging.size() >= from + 1)
    tail = after - kRearranging.size();
  if (tail < from + 1) return false;
  out->tag = message.substr(from, tail - from);
  out->ms = message.substr(dot - ms, ms);
  out->frac = message.substr(dot + 1, frac);
  return true;
}

}  // namespace lockgraph
