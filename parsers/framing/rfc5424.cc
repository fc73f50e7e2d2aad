// RFC 5424 syslog (`<134>1 2023-06-05T19:33:14+00:00 host app procid msgid
// [sd] MSG`), optionally with RFC 6587 octet counting (`451 <134>1 ...`), as
// relays and drains forward PostgreSQL's stderr lines. One stream per host
// and app-name; a numeric PROCID is the pid (docs/postgresql.md#framings).
// PostgreSQL's own syslog output (`host postgres[pid]: [seq-chunk]`) is the
// `syslog` format, not this framing.
#include <re2/re2.h>

#include <charconv>

#include "parsers/framing/frame_util.h"
#include "parsers/framing/framing.h"

namespace lockgraph {
namespace {

/// The length of the STRUCTURED-DATA at the start of `s` ("-" or one or
/// more "[id k="v" ...]" with `\]` and `\"` escaped in values); 0 if none.
size_t StructuredDataLength(std::string_view s) {
  if (!s.empty() && s[0] == '-') return 1;
  size_t i = 0;
  while (i < s.size() && s[i] == '[') {
    bool quoted = false;
    for (++i; i < s.size(); ++i) {
      if (quoted && s[i] == '\\') {
        ++i;
      } else if (s[i] == '"') {
        quoted = !quoted;
      } else if (!quoted && s[i] == ']') {
        break;
      }
    }
    if (i >= s.size()) return 0;
    ++i;
  }
  return i;
}

// (?:\d+ )?< at the start of the line.
bool OpensHeader(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  if (i > 0) {
    if (i == line.size() || line[i] != ' ') return false;
    ++i;
  }
  return i < line.size() && line[i] == '<';
}

class Rfc5424Stripper : public FrameStripper {
 public:
  void Strip(std::string_view line, StrippedLine* out) override {
    *out = StrippedLine();
    // The header's first bytes, "[digits ]<", before the regex: a line that
    // lacks them cannot match, and most inputs are not RFC 5424 at all (the
    // regex, compiled on first use, costs about 14 M instructions).
    if (!OpensHeader(line)) return;
    // Groups: time, host, app-name, procid, (where SD starts).
    static const RE2 kHeader(
        R"((?:\d+ )?<\d{1,3}>1 (\S+) (\S{1,255}) (\S{1,48}) (\S{1,128}) \S{1,32} ())");
    std::string_view g[6];
    if (!MatchFrame(kHeader, line, g, 6)) return;
    std::string_view rest = line.substr(g[5].data() - line.data());
    size_t sd = StructuredDataLength(rest);
    if (!sd) return;
    rest.remove_prefix(sd);
    if (!rest.empty()) {
      if (rest[0] != ' ') return;
      rest.remove_prefix(1);
    }
    if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);  // MSG's UTF-8 BOM
    out->kind = StrippedLine::Kind::kLine;
    out->time = g[1];
    stream_.assign(g[2]).append("/").append(g[3]);
    out->stream = stream_;
    int64_t pid = 0;
    auto [end, ec] = std::from_chars(g[4].data(), g[4].data() + g[4].size(), pid);
    if (ec == std::errc() && end == g[4].data() + g[4].size()) out->pid = pid;
    out->inner = rest;
  }

 private:
  std::string stream_;
};

class Rfc5424Framing : public Framing {
 public:
  std::string Name() const override { return "rfc5424"; }
  std::string Description() const override {
    return "RFC 5424 syslog: `[<octets> ]<PRI>1 <time> <host> <app> <procid> <msgid> <sd> <line>`";
  }
  std::unique_ptr<FrameStripper> NewStripper(const std::vector<std::string>&) const override {
    return std::make_unique<Rfc5424Stripper>();
  }
};

}  // namespace

std::unique_ptr<Framing> MakeRfc5424Framing() { return std::make_unique<Rfc5424Framing>(); }

}  // namespace lockgraph
