// The syslog framing around PostgreSQL's messages (reference §6.5, §6.6):
// `[<PRI>[1 ]]TIME HOST IDENT[PID]: [SEQ-CHUNK] text`, TIME either BSD
// (`Feb 11 13:15:39`, any month word) or RFC 3339 / ISO 8601; and rsyslog's
// escapes of control characters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lockgraph {

/// One syslog line, split. Views point into the line.
struct SyslogFrame {
  std::string_view time;   // "Feb 11 13:15:39", "nov. 30 02:30:07", ISO 8601
  std::string_view host;
  std::string_view ident;  // syslog_ident, "postgres" by default
  int64_t pid = 0;
  std::optional<uint64_t> seq;    // [seq-chunk] or [n]
  std::optional<uint64_t> chunk;  // only in [seq-chunk]
  std::string_view message;       // after "ident[pid]: " (raw, still escaped)
  std::string_view text;          // `message` after "[seq-chunk] " or "[n] "
};

/// Splits `line` (BSD `Mon DD HH:MM:SS host ident[pid]: ` with any month
/// word, or an RFC 3339 / ISO timestamp, optionally `<PRI>`) into *out.
/// Returns false when the line has no such framing. Thread-safe.
bool ParseSyslogFrame(std::string_view line, SyslogFrame* out);

/// Cuts a trailing '\r' off *line, then ParseSyslogFrame(*line, out).
bool SplitSyslogLine(std::string_view* line, SyslogFrame* out);

/// The two ways ParseSyslogFrame takes, apart, for the tests that hold
/// them equal (tests/fuzz/fuzz_pg_syslog_frame.cc). ScanSyslogFrame: the
/// hand-written scanner, tried first; false where it leaves the line to the
/// patterns (no framing, a byte over 0x7f in host or ident, a pid out of
/// range). ParseSyslogFrameByPattern: RE2's patterns, the definition.
bool ScanSyslogFrame(std::string_view line, SyslogFrame* out);
bool ParseSyslogFrameByPattern(std::string_view line, SyslogFrame* out);

/// Undoes rsyslog's escapes of control characters: `#011` becomes a TAB,
/// `#012` a newline. Returns `in` itself when it has no '#', else the text
/// written into *buffer.
std::string_view UnescapeSyslog(std::string_view in, std::string* buffer);

}  // namespace lockgraph
