// Writing a record as PostgreSQL's syslog output lands in a file written by
// rsyslog (reference §6.5): write_syslog() takes the message's stderr text
// (prefix on every part, a TAB after each embedded newline) and sends it as
// `[seq-chunk] text` records, one per physical line, lines of more than 900
// bytes cut at a word boundary (the next chunk then starts with that
// whitespace); seq counts the process's messages. rsyslog adds
// `Mon DD HH:MM:SS host postgres[pid]: ` and writes a TAB as `#011`.
#include "generator.h"

#include <algorithm>

namespace gen_pglog {
namespace {

constexpr size_t kSyslogLimit = 900;  // PG_SYSLOG_LIMIT
constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/// The length of the next chunk of `text` from `pos`, as write_syslog()
/// cuts it: up to the newline or kSyslogLimit bytes, not in a UTF-8
/// character, and back to the last whitespace rather than in a word.
size_t ChunkLength(const std::string& text, size_t pos) {
  size_t len = std::min(kSyslogLimit, text.size() - pos);
  const size_t nl = text.find('\n', pos);
  if (nl != std::string::npos && nl - pos < len) len = nl - pos;
  while (len > 0 && pos + len < text.size() && (text[pos + len] & 0xC0) == 0x80) --len;
  if (pos + len < text.size() && !IsSpace(text[pos + len])) {
    size_t i = len - 1;
    while (i > 0 && !IsSpace(text[pos + i])) --i;
    if (i > 0) len = i;
  }
  return len;
}

}  // namespace

void Generator::WriteSyslog(const Rec& r, Proc& p, const std::string& msg) {
  const size_t start = buf_.size();
  WriteStderr(r, p, msg);
  syslog_text_.assign(buf_, start);
  buf_.resize(start);
  // "2026-11-29 08:09:34" -> "Nov 29 08:09:34", the day padded with a space.
  syslog_head_.assign(kMonths[std::atoi(sec_str_.c_str() + 5) - 1]);
  syslog_head_ += ' ';
  syslog_head_ += sec_str_[8] == '0' ? ' ' : sec_str_[8];
  syslog_head_ += sec_str_[9];
  syslog_head_.append(sec_str_, 10, 9);
  syslog_head_ += " db1 postgres[";
  AppU(syslog_head_, p.pid);
  syslog_head_ += "]: [";
  AppU(syslog_head_, ++p.syslog_seq);
  syslog_head_ += '-';
  const std::string& text = syslog_text_;
  uint64_t chunk = 0;
  for (size_t pos = 0; pos < text.size();) {
    if (text[pos] == '\n') {
      ++pos;
      continue;
    }
    const size_t len = ChunkLength(text, pos);
    buf_ += syslog_head_;
    AppU(buf_, ++chunk);
    buf_ += "] ";
    for (size_t i = pos; i < pos + len; ++i) {
      if (text[i] == '\t') {
        buf_ += "#011";
      } else {
        buf_ += text[i];
      }
    }
    buf_ += '\n';
    pos += len;
  }
}

}  // namespace gen_pglog
