// With --threads 3 or more, the stderr reader reads a block's parts on
// several threads (parsers/postgresql/stderr_chunks.h): it must deliver
// exactly what it delivers line by line, the same events, lines not
// understood, diagnostics and counts, in the same order and with the same
// line numbers. On every stderr file of samples/, tests/corpus/ and
// tests/golden/, on logs with what pastes and editors do to lines, and on
// logs made to send parts each way: taken over at a clean point, or read
// again because a record stays open across the part's first lines, another
// prefix is taken on a line, or a TAB line changes how later lines read.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/prefix.h"
#include "parsers/postgresql/prefix_redetect.h"
#include "parsers/postgresql/record_assembler.h"
#include "parsers/postgresql/stderr_chunks.h"
#include "parsers/postgresql/stderr_lines.h"
#include "record_test_util.h"
#include "stderr_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

using stderr_test::HostileStderr;

/// 3, 4 and 7 threads (2, 3 and 6 parsing), blocks of 97 bytes to 1 MiB.
bool ExpectSameOnThreads(std::string_view text, const std::string& what) {
  return stderr_test::ExpectSameByBlocks(text, what, {3u, 4u, 7u},
                                         {size_t{97}, size_t{4096}, size_t{1} << 20});
}

/// What StderrLines delivers, each record with every field.
struct Delivered final : StderrOutput {
  std::vector<std::string> items;
  void OnRecord(LogRecord&& r) override { items.push_back(record_test::Describe(r)); }
  void OnUnparsed(uint64_t line_no, std::string_view text) override {
    items.push_back("unparsed " + std::to_string(line_no) + " " + std::string(text));
  }
  void OnNote(Diagnostic&& d) override {
    items.push_back("note " + std::to_string(d.line) + " " + d.message);
  }
};

struct Read {
  std::vector<std::string> items;
  StderrChunks::Stats stats;
};

/// The real reader as the stderr parser makes it (prefix sniffed on the
/// first 200 lines, redetection on), fed blocks of `block` bytes, each cut
/// into `parts` parts (1: read on this thread only).
Read ReadInParts(std::string_view text, unsigned parts, size_t block) {
  std::vector<std::string> head;
  for (const std::string& line : test::SplitLines(std::string(text))) {
    if (head.size() == 200) break;
    head.push_back(line);
  }
  const SniffResult sniff = MakePgStderrFormat()->Sniff(head, ParseOptions{});
  REQUIRE(sniff.verdict == SniffResult::Verdict::kMatch);
  PrefixRedetector redetect(true);
  StderrLines::Mood mood;
  for (const std::string& line : head) {
    redetect.Fits(line);
    mood.tabs_seen = mood.tabs_seen || (!line.empty() && line[0] == '\t');
  }
  Delivered out;
  StderrLines lines("f", PrefixMatcher::Compile(sniff.detected, nullptr), &redetect, &out);
  lines.set_mood(mood);
  std::unique_ptr<StderrChunks> chunks;
  if (parts > 1) chunks = std::make_unique<StderrChunks>("f", parts);
  test::ForEachBlockOf(text, block, [&](std::string_view data, bool) {
    if (chunks) {
      chunks->ParseBlock(data, lines);
    } else {
      lines.ParseLines(data);
    }
    return data.size();
  });
  lines.assembler().Finish();
  out.items.push_back(stderr_test::Counts(lines.counts()));
  Read read;
  read.items = std::move(out.items);
  if (chunks) read.stats = chunks->stats();
  return read;
}

/// `text` read in 2 to 4 parts a block gives what one thread gives; the
/// stats of every way, summed.
StderrChunks::Stats ExpectSameInParts(std::string_view text, size_t block) {
  const std::vector<std::string> expected = ReadInParts(text, 1, block).items;
  StderrChunks::Stats sum;
  for (unsigned parts : {2u, 3u, 4u}) {
    INFO(parts << " parts, blocks of " << block << " bytes");
    const Read got = ReadInParts(text, parts, block);
    REQUIRE(got.items.size() == expected.size());
    for (size_t i = 0; i < got.items.size(); ++i) {
      INFO("item " << i);
      REQUIRE(got.items[i] == expected[i]);
    }
    sum.parts += got.stats.parts;
    sum.taken_over += got.stats.taken_over;
    sum.lines_again += got.stats.lines_again;
  }
  return sum;
}

std::string SessionLine(int pid, const std::string& label, const std::string& text) {
  return "2026-12-02 10:15:19.176 UTC [" + std::to_string(pid) + "] postgres@lockgraph/app " +
         label + ":  " + text + "\n";
}

std::string Duration(int n) {
  return SessionLine(7000 + n % 50, "LOG", "duration: " + std::to_string(n % 97) + ".5 ms");
}

TEST_CASE("stderr on several threads: the samples", "[stderr-chunks]") {
  CHECK(stderr_test::OnEverySample(ExpectSameOnThreads) > 40);
}

TEST_CASE("stderr on several threads: what pastes and editors do to lines", "[stderr-chunks]") {
  const std::vector<std::string> pool = stderr_test::HostilePool();
  for (uint32_t seed = 1; seed <= 6; ++seed)
    CHECK(ExpectSameOnThreads(HostileStderr(seed, pool), "seed " + std::to_string(seed)));
}

TEST_CASE("stderr on several threads: most parts are taken over", "[stderr-chunks]") {
  // The samples' deadlocks and lock waits between runs of other sessions'
  // lines: a part that starts inside a report is met by the real reader a
  // few lines in, at the first line after the report's STATEMENT.
  const std::string scenarios =
      test::ReadFile(LOCKGRAPH_SAMPLES_DIR + std::string("/postgresql/scenarios.log"));
  std::string text;
  int n = 0;
  for (const std::string& line : test::SplitLines(scenarios)) {
    text += line + "\n";
    if (++n % 7 == 0)
      for (int i = 0; i < 20; ++i) text += Duration(n + i);
  }
  const StderrChunks::Stats stats = ExpectSameInParts(text, 16 << 10);
  INFO("parts " << stats.parts << ", taken over " << stats.taken_over << ", lines read again "
                << stats.lines_again);
  CHECK(stats.parts > 100);
  CHECK(stats.taken_over * 10 >= stats.parts * 9);
  CHECK(stats.lines_again < stats.parts * 20);
}

TEST_CASE("stderr on several threads: a record open across a part's first lines",
          "[stderr-chunks]") {
  // A lock wait whose DETAIL comes 300 lines of other sessions after it (a
  // server without the logging collector writes lines as they come): a
  // part that starts in between is read again by the real reader, and the
  // DETAIL still joins the record opened in another part. A part that
  // starts in the 300 lines after the STATEMENT is taken over.
  std::string text;
  for (int k = 0; k < 40; ++k) {
    const int pid = 9000 + k;
    text += SessionLine(pid, "LOG", "process " + std::to_string(pid) +
                                        " still waiting for ShareLock on transaction 7" +
                                        std::to_string(k) + " after 1000.5 ms");
    for (int i = 0; i < 300; ++i) text += Duration(k * 300 + i);
    text += SessionLine(pid, "DETAIL", "Process holding the lock: 8" + std::to_string(k) +
                                           ". Wait queue: " + std::to_string(pid) + ".");
    text += SessionLine(pid, "STATEMENT", "UPDATE accounts SET balance = 0");
    for (int i = 0; i < 300; ++i) text += Duration(k * 300 + i);  // nothing open
  }
  const StderrChunks::Stats stats = ExpectSameInParts(text, 8 << 10);
  CHECK(stats.parts > 0);
  CHECK(stats.taken_over < stats.parts);  // some were read again
  CHECK(stats.taken_over > 0);
  const std::vector<std::string> items = ReadInParts(text, 3, 8 << 10).items;
  size_t with_detail = 0;
  for (const std::string& item : items) with_detail += item.find("Wait queue: 90") != std::string::npos;
  CHECK(with_detail == 40);
}

TEST_CASE("stderr on several threads: another prefix taken on a line", "[stderr-chunks]") {
  // The first 200 lines are a server's startup (no user@db): the prefix
  // sniffed is "%m [%p] ". The sessions' lines after them do not fit it;
  // the durations go the fast way, on their label alone, but the deadlock
  // (line 2261) is matched whole and makes the reader take
  // "%m [%p] %q%u@%d/%a ": parts read with the old prefix, or that meet
  // that line, are read again.
  std::string text;
  for (int i = 0; i < 260; ++i)
    text += "2026-12-02 10:15:18.556 UTC [6497] LOG:  checkpoint starting: time " +
            std::to_string(i) + "\n";
  for (int i = 0; i < 2000; ++i) text += Duration(i);
  text += SessionLine(6531, "ERROR", "deadlock detected");
  text += SessionLine(6531, "DETAIL", "Process 6531 waits for ShareLock on transaction 730; "
                                      "blocked by process 6544.");
  text += "\tProcess 6544 waits for ShareLock on transaction 729; blocked by process 6531.\n";
  for (int i = 0; i < 500; ++i) text += Duration(i);
  const StderrChunks::Stats stats = ExpectSameInParts(text, 8 << 10);
  CHECK(stats.taken_over < stats.parts);
  const std::vector<std::string> items = ReadInParts(text, 4, 8 << 10).items;
  size_t notes = 0, deadlocks = 0;
  for (const std::string& item : items) {
    notes += item.starts_with("note 2261 log_line_prefix");
    deadlocks += item.find("|deadlock detected|") != std::string::npos;
  }
  CHECK(notes == 1);
  CHECK(deadlocks == 1);
}

TEST_CASE("stderr on several threads: a TAB line changes how later lines read",
          "[stderr-chunks]") {
  // Until a TAB line comes, a line without prefix or indentation after a
  // DETAIL is its continuation (a paste lost the TABs); after one, it is
  // not understood. A part read from a block's start state, before the
  // earlier part's TAB line, must not be taken over where that mattered.
  auto paste = [](int from, int n) {
    std::string s;
    for (int i = from; i < from + n; ++i) {
      s += SessionLine(7000 + i % 50, "LOG", "statement: SELECT " + std::to_string(i));
      s += SessionLine(7000 + i % 50, "DETAIL", "parameters: $1 = 'x'");
      s += "and a line that lost its TAB " + std::to_string(i) + "\n";
    }
    return s;
  };
  std::string text = paste(0, 300);
  text += SessionLine(7001, "LOG", "statement: SELECT 1");
  text += "\tFROM t\n";
  text += paste(300, 300);
  // One block: parts after the TAB line start from the block's start.
  REQUIRE(text.size() < (1 << 20));
  const StderrChunks::Stats stats = ExpectSameInParts(text, 1 << 20);
  CHECK(stats.taken_over < stats.parts);
  const std::vector<std::string> items = ReadInParts(text, 3, 1 << 20).items;
  size_t unparsed = 0;
  for (const std::string& item : items) unparsed += item.starts_with("unparsed ");
  CHECK(unparsed == 300);
}

TEST_CASE("stderr on several threads: a part that finds more than it may keep",
          "[stderr-chunks]") {
  // 300,000 short lines not understood: a part's reader may keep 1 MiB of
  // findings (32 bytes a line here), so those parts are read again by the
  // real reader, and every line is still reported, in order.
  std::string text;
  for (int i = 0; i < 300; ++i) text += Duration(i);  // the sniff's 200 lines
  for (int i = 0; i < 300000; ++i) text += "x\n";
  for (int i = 0; i < 100; ++i) text += Duration(i);
  const StderrChunks::Stats stats = ExpectSameInParts(text, 1 << 20);
  CHECK(stats.taken_over < stats.parts);
  const std::vector<std::string> items = ReadInParts(text, 2, 1 << 20).items;
  REQUIRE(items.size() == 300001);
  CHECK(items[0] == "unparsed 301 x");
  CHECK(items[299999] == "unparsed 300300 x");
}

TEST_CASE("record assembler: a record idle for 20,000 lines is closed before the next",
          "[stderr-chunks]") {
  // Whatever came before: when a record closes for idleness depends only
  // on the lines since its last one, so that a part read on another thread
  // closes it where the real reader would.
  for (int before : {0, 1, 1023, 12345}) {
    for (int idle : {19999, 20000}) {
      INFO(before << " lines before, " << idle << " idle");
      std::vector<LogRecord> records;
      RecordAssembler a(
          "f", [&](LogRecord&& r) { records.push_back(std::move(r)); },
          [](std::string_view) { return true; });
      PrefixedLine line;
      line.pid = 2;
      for (int i = 0; i < before; ++i) a.OnPrefixed(line, i + 1);  // records of pid 2
      line.pid = 1;
      line.text = "process 1 still waiting";
      a.OnPrefixed(line, 100000);
      for (int i = 0; i < idle; ++i) a.OnSkippedLine(3);
      line.label = PartLabel::kDetail;
      line.text = "Process holding the lock: 4.";
      a.OnPrefixed(line, 200000);
      a.Finish();
      REQUIRE(!records.empty());
      const LogRecord& r = records.back();
      CHECK(r.pid == 1);
      CHECK(r.detail == (idle < 20000 ? "Process holding the lock: 4." : ""));
      CHECK(r.source.last_line == (idle < 20000 ? 200000u : 100000u));
    }
  }
}

}  // namespace
}  // namespace lockgraph
