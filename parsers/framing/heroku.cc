// Heroku Postgres through logplex (platforms.md §1.6, postgresql-logs.md
// §6.6, §9.1): the classic drain and `heroku logs -p postgres`
// (`2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [18-1]  sql_...`)
// and the HTTPS drain (RFC 5424 with an RFC 6587 octet count, `451 <134>1
// 2023-06-05T19:33:14+00:00 host app postgres.1105947 - [YELLOW] [12-1] ...`).
// `[SEQ-PART] ` numbers the physical lines of one message; continuation
// lines keep their TAB after it. The classic frame's `.PID` is the backend's
// pid, used when the log_line_prefix has no %p. Streams: `app[postgres]`,
// `app[heroku-postgres]` (metrics, not PostgreSQL lines), ...
#include <re2/re2.h>

#include <charconv>

#include "parsers/framing/frame_util.h"
#include "parsers/framing/framing.h"

namespace lockgraph {
namespace {

std::optional<int64_t> Pid(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

class HerokuStripper : public FrameStripper {
 public:
  void Strip(std::string_view line, StrippedLine* out) override {
    // Groups: time, source ("app"), process ("postgres"), pid, message.
    static const RE2 kClassic(
        R"((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) )"
        R"((app|heroku)\[([A-Za-z0-9_-]+)(?:\.(\d+))?\]: ())");
    static const RE2 kHttps(
        R"((?:\d+ )?<\d{1,3}>1 (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) )"
        R"(\S+ (app|heroku) ([A-Za-z0-9_-]+)(?:\.(\d+))? \S+ ())");
    // Groups: the part number.
    static const RE2 kSeq(R"((?:\[[A-Z]+\] )?\[\d+-(\d+)\] ?)");
    std::string_view g[6];
    *out = StrippedLine();
    if (!MatchFrame(kClassic, line, g, 6) && !MatchFrame(kHttps, line, g, 6)) return;
    out->kind = StrippedLine::Kind::kLine;
    out->time = g[1];
    // "app[postgres" ... "]" is not contiguous in the HTTPS shape: name the
    // stream by source and process, which both shapes share.
    stream_.assign(g[2]).append("[").append(g[3]).append("]");
    out->stream = stream_;
    out->pid = Pid(g[4]);
    std::string_view message = line.substr(g[5].data() - line.data());
    std::string_view s[2];
    if (MatchFrame(kSeq, message, s, 2)) message.remove_prefix(s[0].size());
    out->inner = message;
  }

 private:
  std::string stream_;
};

class HerokuFraming : public Framing {
 public:
  StreamKind Streams() const override { return StreamKind::kProcess; }
  std::string Name() const override { return "heroku"; }
  std::string Description() const override {
    return "Heroku logplex: `<time> app[postgres.PID]: [COLOR] [SEQ-PART] <line>` (classic drain, "
           "heroku logs) or the same in RFC 5424 (HTTPS drain)";
  }
  std::unique_ptr<FrameStripper> NewStripper(const std::vector<std::string>&) const override {
    return std::make_unique<HerokuStripper>();
  }
  /// Heroku Postgres's two prefixes, classic and current (pganalyze
  /// collector, logs/parse.go, LogPrefixHeroku1 and LogPrefixHeroku2).
  std::vector<std::string> InnerPrefixes() const override {
    return {" sql_error_code = %e ",
            R"( sql_error_code = %e time_ms = "%m" pid="%p" proc_start_time="%s" )"
            R"(session_id="%c" vtid="%v" tid="%x" log_line="%l" %qdatabase="%d" )"
            R"(connection_source="%r" user="%u" application_name="%a" )"};
  }
};

}  // namespace

std::unique_ptr<Framing> MakeHerokuFraming() { return std::make_unique<HerokuFraming>(); }

}  // namespace lockgraph
