// libFuzzer target: the syslog framing's hand-written scanner against RE2's
// patterns (parsers/postgresql/syslog_frame.h), line by line. A finding
// (abort) is a line the scanner takes where the patterns do not, or takes
// with other fields; or an ASCII line the patterns take and the scanner
// leaves to them (no wrong output, but the scanner then misses its shape).
// Seeds and dictionary: syslog's (tests/fuzz/run.sh).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "parsers/postgresql/syslog_frame.h"

namespace {

bool Same(const lockgraph::SyslogFrame& a, const lockgraph::SyslogFrame& b) {
  // Views are compared by place, not only by text: both point into the line.
  auto same = [](std::string_view x, std::string_view y) {
    return x.data() == y.data() && x.size() == y.size();
  };
  return same(a.time, b.time) && same(a.host, b.host) && same(a.ident, b.ident) &&
         a.pid == b.pid && a.seq == b.seq && a.chunk == b.chunk && same(a.message, b.message) &&
         same(a.text, b.text);
}

void Fail(const char* what, std::string_view line) {
  std::fprintf(stderr, "syslog frame: %s: [%.*s]\n", what, static_cast<int>(line.size()),
               line.data());
  std::abort();
}

void Check(std::string_view line) {
  lockgraph::SyslogFrame scanned, matched;
  const bool scan = lockgraph::ScanSyslogFrame(line, &scanned);
  const bool pattern = lockgraph::ParseSyslogFrameByPattern(line, &matched);
  if (scan && !pattern) Fail("the scanner takes a line the patterns do not", line);
  if (scan && !Same(scanned, matched)) Fail("the scanner and the patterns differ", line);
  bool ascii = true;
  for (char c : line) ascii = ascii && (c & 0x80) == 0;
  if (pattern && ascii && !scan) Fail("the scanner leaves an ASCII frame to the patterns", line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  Check(input);  // the whole input as one line, newlines and all
  while (!input.empty()) {
    const size_t nl = input.find('\n');
    Check(input.substr(0, nl));
    if (nl == std::string_view::npos) break;
    input.remove_prefix(nl + 1);
  }
  return 0;
}
