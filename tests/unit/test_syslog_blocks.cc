// A syslog file's blocks read on several threads (syslog_blocks.h) give
// what the syslog reader gives line by line: every event, line not
// understood, diagnostic and count, in order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/syslog_blocks.h"
#include "parsers/postgresql/syslog_frame.h"
#include "stderr_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

using stderr_test::ExpectSameByBlocks;

const std::string kJournald =
    LOCKGRAPH_SAMPLES_DIR + std::string("/postgresql/rendered/framing-journald.log");

/// The journald sample (a real server's run under journald, host
/// "dbhost") `times` times over.
std::string Repeated(int times) {
  const std::string one = test::ReadFile(kJournald);
  std::string out;
  for (int i = 0; i < times; ++i) out += one;
  return out;
}

/// A stderr log as PostgreSQL's syslog output: each line a `[seq-chunk]`
/// record of its backend (seq per line, TAB lines the next chunks as
/// `#011`), lines over 900 bytes cut into further chunks at a space.
std::string AsSyslog(const std::string& stderr_text) {
  std::string out;
  std::string pid = "1";
  int seq = 0, chunk = 0;
  for (const std::string& line : test::SplitLines(stderr_text)) {
    std::string text = line;
    if (!text.empty() && text[0] == '\t') {
      text.replace(0, 1, "#011");
    } else {
      const size_t open = text.find(" [");
      const size_t close = text.find("] ", open == std::string::npos ? 0 : open);
      if (open != std::string::npos && close != std::string::npos)
        pid = text.substr(open + 2, close - open - 2);
      ++seq;
      chunk = 0;
    }
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) pid = "1";
    while (true) {
      size_t cut = text.size();
      if (cut > 900) {
        cut = text.rfind(' ', 900);
        if (cut == std::string::npos || cut == 0) cut = 900;
      }
      out += "Dec  6 10:00:00 db1 postgres[" + pid + "]: [" + std::to_string(seq) + "-" +
             std::to_string(++chunk) + "] " + text.substr(0, cut) + "\n";
      if (cut == text.size()) break;
      text.erase(0, cut);
    }
  }
  return out;
}

/// One syslog line of host `host` and process `pid`.
std::string Line(const std::string& host, int pid, int seq, int chunk, const std::string& text) {
  return "Dec  6 10:00:00 " + host + " postgres[" + std::to_string(pid) + "]: [" +
         std::to_string(seq) + "-" + std::to_string(chunk) + "] " + text + "\n";
}

TEST_CASE("Syslog blocks on threads: every syslog sample as line by line", "[syslog-blocks]") {
  const auto format = MakePgSyslogFormat();
  const size_t read = stderr_test::OnEverySample([&](const std::string& text, const std::string& path) {
    return ExpectSameByBlocks(*format, text, path, {2, 3, 4, 7}, {97, 4096, 1 << 20});
  });
  CHECK(read >= 2);
  // The stderr samples as syslog records.
  for (const char* name : {"scenarios.log", "groups.log", "rules.log", "rules-lessons.log"}) {
    const std::string path = LOCKGRAPH_SAMPLES_DIR + std::string("/postgresql/") + name;
    CHECK(ExpectSameByBlocks(*format, AsSyslog(test::ReadFile(path)), path, {2, 3, 4, 7},
                             {97, 4096, 1 << 20}));
  }
}

TEST_CASE("Syslog blocks on threads: a long run, parts taken over", "[syslog-blocks]") {
  const auto format = MakePgSyslogFormat();
  const std::string text = Repeated(12);  // 4 MB
  CHECK(ExpectSameByBlocks(*format, text, "journald x 12", {3, 5}, {1 << 20, 4 << 20}));
  const std::string records = AsSyslog(test::ReadFile(LOCKGRAPH_SAMPLES_DIR +
                                                      std::string("/postgresql/scenarios.log")));
  std::string many;
  for (int i = 0; i < 8; ++i) many += records;
  CHECK(ExpectSameByBlocks(*format, many, "scenarios as syslog x 8", {3, 5}, {1 << 20}));

  // Driven directly: parts meet the real reader within their lines. (Not
  // all: a backend of this run may stay silent for longer than a part, its
  // last message open in the real reader all that time; on the generated
  // 1 GiB file 255 of 256 parts are taken over.)
  RecordCallbacks none;
  SyslogReader real("f", none, std::string("%m [%p] %q%u@%d/%a "));
  SyslogBlocks blocks("f", 4);
  uint64_t line_no = 0;
  const SyslogBlocks::ReadLine read_line = [&](std::string_view line, uint64_t n) {
    real.ParseLine(line, n);
  };
  test::ForEachBlockOf(text, 1 << 20, [&](std::string_view data, bool) {
    blocks.ParseBlock(data, real, "dbhost", read_line, [] { return true; }, &line_no);
    return data.size();
  });
  real.Finish();
  CHECK(line_no == real.counts().total);
  CHECK(blocks.stats().parts > 4);
  INFO(blocks.stats().taken_over << " of " << blocks.stats().parts << " parts taken over");
  CHECK(blocks.stats().taken_over * 2 >= blocks.stats().parts);
}

TEST_CASE("Syslog blocks on threads: a second host, another prefix, lines not understood",
          "[syslog-blocks]") {
  const auto format = MakePgSyslogFormat();
  // The first block is read line by line (no host yet): the cases come
  // after more than a block.
  const std::string base = Repeated(12);
  std::vector<std::string> lines = test::SplitLines(base);
  // From line 14,000 on, a second server's lines between the first's: the
  // same run again, host "replica" (its events name it).
  std::string two_hosts;
  for (size_t i = 0; i < lines.size(); ++i) {
    two_hosts += lines[i] + "\n";
    if (i < 14000) continue;
    std::string other = lines[i - 14000];
    const size_t host = other.find(" dbhost ");
    if (host != std::string::npos) other.replace(host, 8, " replica ");
    two_hosts += other + "\n";
  }
  CHECK(ExpectSameByBlocks(*format, two_hosts, "two hosts", {2, 4}, {4096, 1 << 20}));

  // The first 400 lines are a server's startup (no user@db): the prefix
  // sniffed is "%m [%p] ". The sessions' lines after them do not fit it, and
  // the first makes the reader take "%m [%p] %q%u@%d/%a " (line 401, after
  // the redetector's 256 lines of evidence, when blocks are cut into
  // parts): parts that meet such a line are read again.
  std::string prefixes;
  for (int i = 0; i < 400; ++i)
    prefixes += "2026-12-02 10:15:18.556 UTC [6497] LOG:  checkpoint starting: time " +
                std::to_string(i) + "\n";
  auto session = [](int pid, const std::string& label, const std::string& text) {
    return "2026-12-02 10:15:19.176 UTC [" + std::to_string(pid) + "] postgres@lockgraph/app " +
           label + ":  " + text + "\n";
  };
  for (int i = 0; i < 2000; ++i)
    prefixes += session(7000 + i % 50, "LOG", "duration: " + std::to_string(i % 97) + ".5 ms");
  prefixes += session(6531, "ERROR", "deadlock detected");
  prefixes += session(6531, "DETAIL", "Process 6531 waits for ShareLock on transaction 730; "
                                      "blocked by process 6544.");
  prefixes += "\tProcess 6544 waits for ShareLock on transaction 729; blocked by process 6531.\n";
  for (int i = 0; i < 500; ++i)
    prefixes += session(7000 + i % 50, "LOG", "duration: " + std::to_string(i % 97) + ".5 ms");
  CHECK(ExpectSameByBlocks(*format, AsSyslog(prefixes), "another prefix", {3, 4},
                           {8 << 10, 64 << 10}));

  // 100,000 short framed lines no prefix fits: past a part's 1 MiB of
  // findings.
  std::string garbage = Repeated(13);
  for (int i = 0; i < 100000; ++i) garbage += Line("dbhost", 100 + i % 50, i, 1, "x");
  garbage += Repeated(1);
  CHECK(ExpectSameByBlocks(*format, garbage, "lines not understood", {3}, {4 << 20}));
}

}  // namespace
}  // namespace lockgraph
