// See syslog_frame.h. Every framed line of a syslog file is split here, so
// the split is on the hot path: a scanner walks the common shape by hand,
// and RE2's patterns, the definition, decide every line it does not take.
// The scanner takes a line only where the ASCII pattern matches it with the
// same groups (tests/fuzz/fuzz_pg_syslog_frame.cc checks that on any input).
#include "parsers/postgresql/syslog_frame.h"

#include <re2/re2.h>

#include <algorithm>

#include "text/number.h"

namespace lockgraph {

std::string_view UnescapeSyslog(std::string_view in, std::string* out) {
  if (in.find('#') == std::string_view::npos) return in;
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '#' && in.substr(i + 1, 3) == "011") {
      out->push_back('\t');
      i += 3;
    } else if (in[i] == '#' && in.substr(i + 1, 3) == "012") {
      out->push_back('\n');
      i += 3;
    } else {
      out->push_back(in[i]);
    }
  }
  return *out;
}

namespace {

/// What either way of matching finds: views into the line.
struct FrameGroups {
  std::string_view time, host, ident, pid;
  size_t message_at = 0;        // where the message starts
  std::string_view seq, chunk;  // empty data(): absent
  size_t end = 0;               // end of the match: where the text starts
};

bool Fill(std::string_view line, const FrameGroups& g, SyslogFrame* out) {
  auto pid = ParseNumber<int64_t>(g.pid);
  if (!pid) return false;
  out->time = g.time;
  out->host = g.host;
  out->ident = g.ident;
  out->pid = *pid;
  out->seq = g.seq.data() ? ParseNumber<uint64_t>(g.seq) : std::nullopt;
  out->chunk = g.chunk.data() ? ParseNumber<uint64_t>(g.chunk) : std::nullopt;
  out->message = line.substr(g.message_at);
  out->text = line.substr(g.end);
  return true;
}

// ---- The scanner: the ASCII pattern below, piece by piece. Where a piece
// is optional or repeated, the pattern's first choice is the only one that
// can lead to a match (the next piece needs a character the other choice
// leaves in front), so no step needs to look back.

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsSpace(char c) {  // RE2's \s
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

class FrameScan {
 public:
  explicit FrameScan(std::string_view s) : s_(s) {}

  /// True when the ASCII pattern matches; false when it does not or when
  /// the line's host or ident has a byte over 0x7f (left to RE2).
  bool Run(FrameGroups* g) const {
    size_t i = Pri();
    size_t end = 0;
    if (!IsoTime(i, &end) && !BsdTime(i, &end)) return false;
    g->time = s_.substr(i, end - i);
    if (At(end) != ' ') return false;
    const size_t host = end + 1;
    size_t k = host;
    while (k < s_.size() && !IsSpace(s_[k]) && Ascii(k)) ++k;
    if (k == host || At(k) != ' ') return false;
    g->host = s_.substr(host, k - host);
    const size_t ident = k + 1;
    k = ident;
    while (k < s_.size() && !IsSpace(s_[k]) && s_[k] != '[' && s_[k] != ']' && Ascii(k)) ++k;
    if (k == ident || At(k) != '[') return false;
    g->ident = s_.substr(ident, k - ident);
    const size_t pid_digits = Digits(k + 1);
    if (pid_digits == 0 || !Shape(k + 1 + pid_digits, "]:")) return false;
    g->pid = s_.substr(k + 1, pid_digits);
    k += 1 + pid_digits + 2;
    if (k < s_.size()) {
      if (s_[k] != ' ') return false;
      ++k;
    }
    g->message_at = g->end = k;
    g->seq = g->chunk = {};
    SeqChunk(k, g);
    return true;
  }

 private:
  char At(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }
  bool Ascii(size_t i) const { return (s_[i] & 0x80) == 0; }
  size_t Digits(size_t i) const {
    size_t k = i;
    while (k < s_.size() && IsDigit(s_[k])) ++k;
    return k - i;
  }
  /// True when the text at `i` has `shape`: 'd' a digit, any other
  /// character itself.
  bool Shape(size_t i, std::string_view shape) const {
    if (i > s_.size() || s_.size() - i < shape.size()) return false;
    for (size_t k = 0; k < shape.size(); ++k) {
      const char c = s_[i + k];
      if (shape[k] == 'd' ? !IsDigit(c) : c != shape[k]) return false;
    }
    return true;
  }
  /// Digits after `i` when the text there is `lead` followed by digits.
  size_t Fraction(size_t i, std::string_view leads) const {
    if (i >= s_.size() || leads.find(s_[i]) == std::string_view::npos) return 0;
    const size_t d = Digits(i + 1);
    return d ? 1 + d : 0;
  }

  // (?:<\d{1,3}>(?:1 )?)?
  size_t Pri() const {
    if (At(0) != '<') return 0;
    const size_t d = Digits(1);
    if (d < 1 || d > 3 || At(1 + d) != '>') return 0;
    return Shape(2 + d, "1 ") ? 4 + d : 2 + d;
  }

  // \d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?
  bool IsoTime(size_t i, size_t* end) const {
    if (!Shape(i, "dddd-dd-dd") || (At(i + 10) != 'T' && At(i + 10) != ' ') ||
        !Shape(i + 11, "dd:dd:dd"))
      return false;
    i += 19;
    i += Fraction(i, ".,");
    if (At(i) == 'Z') {
      ++i;
    } else if ((At(i) == '+' || At(i) == '-') && Shape(i + 1, "dd")) {
      if (Shape(i + 3, ":dd")) {
        i += 6;
      } else if (Shape(i + 3, "dd")) {
        i += 5;
      }
    }
    *end = i;
    return true;
  }

  // [A-Za-z]{2,9}\.? {1,2}\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?
  bool BsdTime(size_t i, size_t* end) const {
    size_t letters = 0;
    while (letters < 10 && IsLetter(At(i + letters))) ++letters;
    if (letters < 2 || letters > 9) return false;
    i += letters;
    if (At(i) == '.') ++i;
    size_t spaces = 0;
    while (spaces < 3 && At(i + spaces) == ' ') ++spaces;
    if (spaces == 0 || spaces == 3) return false;
    i += spaces;
    const size_t day = Digits(i);
    if (day == 0 || day > 2 || !Shape(i + day, " dd:dd:dd")) return false;
    i += day + 9;
    *end = i + Fraction(i, ".");
    return true;
  }

  // (?:\[(\d+)(?:-(\d+))?\](?: |$))?
  void SeqChunk(size_t i, FrameGroups* g) const {
    if (At(i) != '[') return;
    const size_t seq = Digits(i + 1);
    if (seq == 0) return;
    size_t k = i + 1 + seq;
    size_t chunk = 0;
    if (At(k) == '-') {
      chunk = Digits(k + 1);
      if (chunk == 0) return;
      k += 1 + chunk;
    }
    if (At(k) != ']' || (k + 1 < s_.size() && s_[k + 1] != ' ')) return;
    g->seq = s_.substr(i + 1, seq);
    if (chunk) g->chunk = s_.substr(k - chunk, chunk);
    g->end = std::min(k + 2, s_.size());
  }

  std::string_view s_;
};

// ---- The patterns. Groups: time, host, ident, pid, (empty: where the
// message starts), seq, chunk. `month`: the letters of a BSD timestamp's
// month.
std::string FramePattern(const char* month) {
  return std::string(R"((?:<\d{1,3}>(?:1 )?)?)"
                     R"((\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)"
                     R"(|)") +
         month +
         R"(\.? {1,2}\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?))"
         R"( (\S+) ([^\s\[\]]+)\[(\d+)\]:(?: |$)())"
         R"((?:\[(\d+)(?:-(\d+))?\](?: |$))?)";
}

std::string_view View(const re2::StringPiece& p) { return {p.data(), p.size()}; }

bool MatchPattern(const RE2& re, std::string_view line, FrameGroups* out) {
  re2::StringPiece g[8];
  if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::ANCHOR_START,
                g, 8))
    return false;
  out->time = View(g[1]);
  out->host = View(g[2]);
  out->ident = View(g[3]);
  out->pid = View(g[4]);
  out->message_at = static_cast<size_t>(g[5].data() - line.data());
  out->seq = View(g[6]);
  out->chunk = View(g[7]);
  out->end = g[0].size();
  return true;
}

}  // namespace

bool ParseSyslogFrameByPattern(std::string_view line, SyslogFrame* out) {
  // A month is any letters (\pL: "déc.", "Okt"), but RE2 takes about 10 ms
  // to compile \pL{2,9}, in every run that sniffs an input. The ASCII
  // pattern is tried first; the full one, compiled when first needed, only
  // on a line with a byte over 0x7f, the only kind it can match when the
  // ASCII one does not (where both match they agree: the month's letters
  // are followed by '.' or ' ', so both take the same run).
  static const RE2 kAsciiFrame(FramePattern("[A-Za-z]{2,9}"));
  FrameGroups g;
  if (!MatchPattern(kAsciiFrame, line, &g)) {
    if (std::all_of(line.begin(), line.end(), [](char c) { return (c & 0x80) == 0; }))
      return false;
    static const RE2 kFrame(FramePattern(R"(\pL{2,9})"));
    if (!MatchPattern(kFrame, line, &g)) return false;
  }
  return Fill(line, g, out);
}

bool ScanSyslogFrame(std::string_view line, SyslogFrame* out) {
  FrameGroups g;
  return FrameScan(line).Run(&g) && Fill(line, g, out);
}

bool ParseSyslogFrame(std::string_view line, SyslogFrame* out) {
  return ScanSyslogFrame(line, out) || ParseSyslogFrameByPattern(line, out);
}

bool SplitSyslogLine(std::string_view* line, SyslogFrame* out) {
  if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
  return ParseSyslogFrame(*line, out);
}

}  // namespace lockgraph
