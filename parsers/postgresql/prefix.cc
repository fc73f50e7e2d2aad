// See prefix.h. Each log_line_prefix escape becomes one RE2 capture group;
// %q makes the rest optional, as elog.c stops there for background
// processes. Escape table: shared/docs/reference/postgresql-logs.md §6.2.
#include "parsers/postgresql/prefix.h"

#include <re2/re2.h>

#include <charconv>
#include <map>
#include <mutex>

#include "parsers/postgresql/labels.h"
#include "parsers/postgresql/prefix_skeleton.h"
#include "text/number.h"

namespace lockgraph {
namespace {

constexpr const char* kTimeMs = R"((\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}(?: [A-Za-z0-9+:\-]+)?))";
constexpr const char* kTimeS = R"((\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: [A-Za-z0-9+:\-]+)?))";

std::string_view View(const re2::StringPiece& p) { return {p.data(), p.size()}; }

PrefixToken Of(PrefixToken::Kind kind) {
  PrefixToken t;
  t.kind = kind;
  return t;
}

PrefixToken Literal(std::string text) {
  PrefixToken t;
  t.text = std::move(text);
  return t;
}

// RE2::Match with groups, asked first without any: an anchored match with
// groups on a short text goes straight to RE2's backtracker (about 12,000
// instructions for a prefix), which a text that does not match (a prefix
// DetectPrefix tries and loses) pays in full; without groups the DFA says
// no in a few hundred.
bool MatchesWithGroups(const RE2& re, const re2::StringPiece& text, RE2::Anchor anchor,
                       re2::StringPiece* groups, int n) {
  return re.Match(text, 0, text.size(), anchor, nullptr, 0) &&
         re.Match(text, 0, text.size(), anchor, groups, n);
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// "[unknown]" (and its translations) means the field has no value.
bool IsSqlstate(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) return false;
  return s.size() == 5;
}

std::string_view Known(std::string_view s) {
  s = Trim(s);
  if (s.size() > 2 && s.front() == '[' && s.back() == ']' && s != "[local]") return {};
  return s;
}

}  // namespace

class PrefixCompiler {
  // An escape's regex (one capture group), the field it fills (none: the
  // group is matched, not kept) and how PrefixWalk reads it; `flag` is
  // kTime's milliseconds, kDigits' "may be empty".
  struct Escape {
    char escape;
    const char* pattern;
    int PrefixMatcher::*slot;
    PrefixToken::Kind kind;
    bool flag;
  };

  static const Escape* Find(char c) {
    using K = PrefixToken::Kind;
    using M = PrefixMatcher;
    static const Escape kEscapes[] = {
        {'m', kTimeMs, &M::time_group_, K::kTime, true},
        {'t', kTimeS, &M::time_group_, K::kTime, false},
        {'n', R"((\d+\.\d{3}))", &M::time_group_, K::kEpoch, false},
        {'s', kTimeS, nullptr, K::kTime, false},
        {'p', R"((\d+))", &M::pid_group_, K::kDigits, false},
        {'P', R"((\d*))", nullptr, K::kDigits, true},
        {'l', R"((\d+))", &M::line_group_, K::kDigits, false},
        // Role and database names with spaces are rare; application names
        // with spaces are common ("PostgreSQL JDBC Driver").
        {'u', "([^ ]*?)", &M::user_group_, K::kWord, false},
        {'d', "([^ ]*?)", &M::db_group_, K::kWord, false},
        {'a', "(.*?)", &M::app_group_, K::kAny, false},
        {'h', "(.*?)", &M::host_group_, K::kAny, false},
        {'r', "(.*?)", &M::host_group_, K::kAny, false},
        {'L', "(.*?)", nullptr, K::kAny, false},
        {'b', "(.*?)", &M::btype_group_, K::kAny, false},
        {'i', "(.*?)", &M::tag_group_, K::kAny, false},
        {'c', R"(([0-9a-f]+\.[0-9a-f]+))", &M::session_group_, K::kSession, false},
        {'x', R"((\d+))", &M::xid_group_, K::kDigits, false},
        {'v', R"(((?:-?\d+/\d+)?))", &M::vxid_group_, K::kVxid, false},
        {'e', R"(([0-9A-Z]{5}))", &M::state_group_, K::kState, false},
        {'Q', R"((-?\d+))", &M::qid_group_, K::kSignedDigits, false},
        {'*', "(.*?)", nullptr, K::kAny, false},  // lockgraph's own: any text
    };
    for (const Escape& e : kEscapes)
      if (e.escape == c) return &e;
    return nullptr;
  }

 public:
  static std::unique_ptr<PrefixMatcher> Run(std::string_view given, std::string* error) {
    std::unique_ptr<PrefixMatcher> m(new PrefixMatcher());
    m->prefix_ = std::string(given);
    // The blanks that end a prefix are matched as "any number of spaces"
    // (appended below): pastes and editors add or eat them, and a --prefix
    // typed without its trailing space still fits.
    std::string_view prefix = given;
    while (!prefix.empty() && prefix.back() == ' ') prefix.remove_suffix(1);
    std::string re = "^";
    int group = 0;
    int optional_depth = 0;
    std::string literal;       // literal text since the last escape
    bool after_pid = false;    // collecting the literal that follows %p
    for (size_t i = 0; i < prefix.size(); ++i) {
      char c = prefix[i];
      if (c != '%' || i + 1 >= prefix.size()) {
        re += RE2::QuoteMeta(re2::StringPiece(&prefix[i], 1));
        m->walk_.Add(Literal(std::string(1, c)));
        literal += c;
        if (after_pid) m->pid_after_ += c;
        continue;
      }
      if (prefix[i + 1] == '%') {
        re += "%";
        m->walk_.Add(Literal("%"));
        literal += '%';
        if (after_pid) m->pid_after_ += '%';
        ++i;
        continue;
      }
      after_pid = false;
      if (prefix[i + 1] == 'p' && !m->pid_group_) {
        m->pid_before_ = literal;
        m->pid_at_start_ = (i == 0);
        after_pid = true;
      }
      literal.clear();
      ++i;
      bool padded = false;  // %-10u, %10p: a width pads with spaces
      while (i < prefix.size() && (prefix[i] == '-' || (prefix[i] >= '0' && prefix[i] <= '9'))) {
        padded = true;
        ++i;
      }
      if (i >= prefix.size()) break;
      AddEscape(m.get(), prefix[i], padded, &re, &group, &optional_depth);
    }
    return Finish(std::move(m), std::move(re), group, optional_depth, error);
  }

 private:
  // The escape `c` (after its width, if any) into the regex and the walk.
  static void AddEscape(PrefixMatcher* m, char c, bool padded, std::string* re, int* group,
                        int* optional_depth) {
    if (c == '%') {  // a padded "%%"
      *re += "%";
      m->walk_.Add(Literal("%"));
      return;
    }
    if (c == 'q') {
      *re += "(?:";
      ++*optional_depth;
      m->walk_.Add(Of(PrefixToken::Kind::kOptional));
      return;
    }
    const Escape* escape = Find(c);
    if (!escape) return;  // unknown escapes print nothing (elog.c)
    ++*group;
    if (escape->slot) m->*(escape->slot) = *group;
    *re += padded ? std::string(" *") + escape->pattern + " *" : std::string(escape->pattern);
    PrefixToken token = Of(escape->kind);
    token.with_ms = token.may_be_empty = escape->flag;
    token.group = *group;
    m->walk_.Add(std::move(token));
    if (padded) m->walk_.GiveUp();  // " *X *": not walked
  }

  // Closes the %q groups, adds the label, and compiles the prefix's regex.
  static std::unique_ptr<PrefixMatcher> Finish(std::unique_ptr<PrefixMatcher> m, std::string re,
                                               int group, int optional_depth,
                                               std::string* error) {
    for (int d = 0; d < optional_depth; ++d) re += ")?";
    re += " *";
    const std::string prefix_only = re.substr(1);  // without "^": matched whole
    // Every label is a run of label characters: a line this does not match
    // at its start cannot match the full regex (LabelGate).
    std::string gate = re + LabelCharClass() + "+ ?:";
    // The severity or part label, "ERROR:  " (fr: "ASTUCE :  ", tr: none),
    // then with log_error_verbosity = verbose "40P01: ".
    re += "(" + LabelAlternation() + ") ?:(?: {1,2})?(?:([0-9A-Z]{5}): )?";
    m->label_group_ = ++group;
    m->sqlstate_group_ = ++group;
    m->ngroups_ = group;
    RE2::Options options;
    options.set_log_errors(false);
    // The regex with the label alternation (every language's labels: about
    // 3 M instructions to compile) is compiled when a line first needs it:
    // most logs' lines are read by the walk, and DetectPrefix tries up to
    // 18 prefixes on every input.
    m->gate_ = std::make_unique<PrefixMatcher::LazyRegex>();
    m->gate_->pattern = std::move(gate);
    m->full_ = std::make_unique<PrefixMatcher::LazyRegex>();
    m->full_->pattern = std::move(re);
    m->prefix_re_ = std::make_unique<RE2>(prefix_only, options);
    if (!m->prefix_re_->ok()) {
      if (error)
        *error = "cannot compile log_line_prefix '" + m->prefix_ + "': " + m->prefix_re_->error();
      return nullptr;
    }
    return m;
  }
};

std::optional<int64_t> PrefixMatcher::QuickPid(std::string_view prefix) const {
  if (!pid_group_ || (pid_before_.empty() && !pid_at_start_)) return std::nullopt;
  // The first place where the literal before %p is followed by digits and
  // the literal after it ("[local]" comes before "[13566]" in RDS lines).
  for (size_t pos = pid_at_start_ ? 0 : prefix.find(pid_before_); pos != std::string_view::npos;
       pos = pid_at_start_ ? std::string_view::npos : prefix.find(pid_before_, pos + 1)) {
    size_t digits = pos + pid_before_.size(), end = digits;
    while (end < prefix.size() && prefix[end] >= '0' && prefix[end] <= '9') ++end;
    if (end > digits && prefix.substr(end, pid_after_.size()) == pid_after_)
      return ParseNumber<int64_t>(prefix.substr(digits, end - digits));
  }
  return std::nullopt;
}

std::unique_ptr<PrefixMatcher> PrefixMatcher::Compile(std::string_view prefix,
                                                      std::string* error) {
  return PrefixCompiler::Run(prefix, error);
}

PrefixMatcher::~PrefixMatcher() = default;

const RE2& PrefixMatcher::Compiled(LazyRegex* lazy) {
  std::call_once(lazy->once, [lazy] {
    RE2::Options options;
    options.set_log_errors(false);
    lazy->re = std::make_unique<RE2>(lazy->pattern, options);
  });
  return *lazy->re;
}

const RE2& PrefixMatcher::FullRegex() const { return Compiled(full_.get()); }
const RE2& PrefixMatcher::LabelGate() const { return Compiled(gate_.get()); }

bool PrefixMatcher::Match(std::string_view line, PrefixedLine* out,
                          SessionInfo* session) const {
  re2::StringPiece groups[40];
  if (ngroups_ + 1 > 40) return false;
  // Fast path: find the label without the regex, then match only the
  // prefix before it, anchored at both ends (no label alternation to run).
  std::string_view word;
  if (const size_t start = FindLabelStart(line, &word); start != std::string_view::npos) {
    std::optional<LabelInfo> info = LookupLabel(word);
    re2::StringPiece prefix(line.data(), start);
    if (info && (walk_.Match(std::string_view(prefix.data(), prefix.size()), groups, ngroups_ - 1) ||
                 MatchesWithGroups(*prefix_re_, prefix, RE2::ANCHOR_BOTH, groups, ngroups_ - 1))) {
      std::string_view text = line.substr(start + word.size() + 3);
      std::string_view sqlstate;
      if (info->label == PartLabel::kPrimary && text.size() > 7 && text[5] == ':' &&
          text[6] == ' ' && IsSqlstate(text.substr(0, 5))) {
        sqlstate = text.substr(0, 5);  // log_error_verbosity = verbose
        text.remove_prefix(7);
      }
      Fill(line, groups, *info, sqlstate, text, out, session);
      return true;
    }
  }
  // The gate first: the full regex costs about 3 M instructions to compile,
  // and DetectPrefix asked it of up to 8 losing prefixes on every input.
  const RE2& gate = LabelGate();
  if (gate.ok() && !gate.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(),
                               RE2::ANCHOR_START, nullptr, 0))
    return false;
  const RE2& full = FullRegex();
  if (!full.ok() || !MatchesWithGroups(full, re2::StringPiece(line.data(), line.size()),
                                       RE2::ANCHOR_START, groups, ngroups_ + 1))
    return false;
  std::optional<LabelInfo> info = LookupLabel(View(groups[label_group_]));
  if (!info) return false;
  Fill(line, groups, *info, View(groups[sqlstate_group_]), line.substr(groups[0].size()), out,
       session);
  return true;
}

void PrefixMatcher::Fill(std::string_view line, const re2::StringPiece* groups,
                         const LabelInfo& info, std::string_view sqlstate,
                         std::string_view text, PrefixedLine* out,
                         SessionInfo* session) const {
  auto group = [&](int g) -> std::string_view { return g > 0 ? View(groups[g]) : std::string_view(); };
  out->label = info.label;
  out->severity = info.canonical;
  out->sqlstate = sqlstate.empty() ? group(state_group_) : sqlstate;
  if (out->sqlstate == "00000") out->sqlstate = {};
  out->text = text;
  out->time = Trim(group(time_group_));
  out->pid = pid_group_ ? ParseNumber<int64_t>(group(pid_group_)) : std::nullopt;
  if (!pid_group_) {
    // No %p: the auto prefix (%*) still finds "[1234]" or "postgres[1234]".
    re2::StringPiece before(line.data(), text.data() - line.data());
    static const RE2 kBracketPid(R"(\[(\d+)\])");
    re2::StringPiece pid;
    if (RE2::PartialMatch(before, kBracketPid, &pid)) out->pid = ParseNumber<int64_t>(View(pid));
    static const RE2 kTime(R"((\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?: ?[A-Za-z]{2,5}|[+\-]\d\d(?::?\d\d)?)?))");
    re2::StringPiece time;
    if (!time_group_ && RE2::PartialMatch(before, kTime, &time)) out->time = View(time);
  }
  out->session = session;
  if (session) {
    session->user = Known(group(user_group_));
    session->database = Known(group(db_group_));
    session->application = Known(group(app_group_));
    session->host = Known(group(host_group_));
    session->session_id = group(session_group_);
    session->backend_type = Trim(group(btype_group_));
    session->command_tag = Trim(group(tag_group_));
    session->vxid = group(vxid_group_);
    session->xid = xid_group_ ? ParseNumber<uint64_t>(group(xid_group_)) : std::nullopt;
    session->session_line = line_group_ ? ParseNumber<uint64_t>(group(line_group_)) : std::nullopt;
    session->query_id = qid_group_ ? ParseNumber<int64_t>(group(qid_group_)) : std::nullopt;
  }
}

// Compiled once per process: sniffing runs for every input (and every
// fuzzer input), and a PrefixMatcher is immutable and thread-safe.
static const PrefixMatcher* CachedMatcher(const std::string& prefix) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<PrefixMatcher>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(prefix);
  if (it == cache.end()) it = cache.emplace(prefix, PrefixMatcher::Compile(prefix, nullptr)).first;
  return it->second.get();
}

const std::vector<std::string>& KnownPrefixes() {
  static const std::vector<std::string> prefixes = {
      "%m [%p] %q%u@%d/%a ",  // lockgraph's samples
      "%m [%p] %q%u@%d ",     // Debian / Ubuntu packages
      "%m [%p] ",             // default since 10
      "%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ",  // pgBadger's advice
      "%t [%p]: user=%u,db=%d,app=%a,client=%h ",
      "%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ",
      "%t [%p]: [%l-1] ",
      "%t [%p]: [%l-1] db=%d,user=%u,app=%a,client=%h ",
      "db=%d,user=%u,app=%a,client=%h ",  // common inside syslog
      "%t:%r:%u@%d:[%p]:",    // Amazon RDS
      "%m [%p] [queryid=%Q] %u@%d ",
      "%m [%p] %q[user=%u,db=%d,app=%a] ",
      "%m %u %d [%p] ",
      "< %m > ",
      "%t [%p] ",
      "%m ",
      "%t ",
      "",                     // 9.x default: no prefix at all
  };
  return prefixes;
}

std::optional<std::string> DetectPrefix(const std::vector<std::string>& head,
                                        int* matched_lines) {
  std::vector<std::string_view> candidates;
  // Continuation lines have no prefix: TAB lines, and in pastes the same
  // lines indented with spaces or with no indentation left at all (the
  // edges and queries of a deadlock DETAIL).
  for (const std::string& line : head)
    if (!line.empty() && line[0] != '\t' && line[0] != ' ' && line != "--" &&
        line.compare(0, 8, "Process ") != 0)
      candidates.push_back(line);
  if (candidates.empty()) return std::nullopt;
  // Score: lines matched, then fields filled (a prefix whose %q part
  // matched, or that splits "db/app" in two, fits better), then bytes the
  // prefix consumed, then the shorter prefix string.
  std::optional<std::string> best;
  int best_score = 0;
  std::pair<size_t, size_t> best_fit{0, 0};
  auto consider = [&](const std::string& prefix) {
    // A prefix no line can fit scores 0 and is never chosen: not compiled.
    const PrefixSkeleton skeleton(prefix);
    std::vector<std::string_view> fitting;
    for (std::string_view line : candidates)
      if (skeleton.MayMatch(line)) fitting.push_back(line);
    if (fitting.empty()) return;
    const PrefixMatcher* m = CachedMatcher(prefix);
    if (!m) return;
    int score = 0;
    std::pair<size_t, size_t> fit{0, 0};
    PrefixedLine out;
    SessionInfo s;
    for (std::string_view line : fitting) {
      if (!m->Match(line, &out, &s)) continue;
      ++score;
      fit.first += !out.time.empty() + out.pid.has_value() + !s.user.empty() +
                   !s.database.empty() + !s.application.empty() + !s.host.empty() +
                   !s.session_id.empty() + s.session_line.has_value() + s.query_id.has_value();
      fit.second += line.size() - out.text.size();
    }
    bool better = score > best_score ||
                  (score == best_score && score > 0 &&
                   (fit > best_fit || (fit == best_fit && prefix.size() < best->size())));
    if (better) {
      best_score = score;
      best_fit = fit;
      best = prefix;
    }
  };
  for (const std::string& prefix : KnownPrefixes()) consider(prefix);
  // Nothing known fits most lines: fall back to "any text before the label".
  if (best_score * 2 <= int(candidates.size())) consider("%*");
  if (matched_lines) *matched_lines = best_score;
  if (best_score * 2 <= int(candidates.size())) return std::nullopt;
  return best;
}

}  // namespace lockgraph
