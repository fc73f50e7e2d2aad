// Compressed input (src/io/decoder.h): gzip, bzip2, xz and zstd told apart
// by their magic bytes, concatenated members, a cut file (an error naming
// it, with the events before the cut still reported), and stdin.
#include <catch2/catch.hpp>

#include <bzlib.h>
#include <lzma.h>
#include <unistd.h>
#include <zstd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app/analyzer.h"
#include "io/line_reader.h"
#include "support.h"

namespace lockgraph {
namespace {

using test::Gzip;
using test::TempFile;

// Two deadlocks of samples/postgresql/scenarios.log (stderr, prefix
// '%m [%p] %q%u@%d/%a ').
std::string Log() {
  std::string text = test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/scenarios.log");
  // Up to the end of the second deadlock report's STATEMENT line.
  size_t at = text.find("deadlock detected");
  at = text.find("deadlock detected", at + 1);
  at = text.find("STATEMENT:", at);
  return text.substr(0, text.find('\n', at) + 1);
}

// Block size 100k (-1): a cut file still holds whole blocks to decode.
std::string Bzip2(const std::string& s) {
  std::string out(s.size() + s.size() / 100 + 700, '\0');
  unsigned len = unsigned(out.size());
  BZ2_bzBuffToBuffCompress(out.data(), &len, const_cast<char*>(s.data()), unsigned(s.size()), 1,
                           0, 0);
  out.resize(len);
  return out;
}

std::string Xz(const std::string& s) {
  std::string out(lzma_stream_buffer_bound(s.size()), '\0');
  size_t pos = 0;
  lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr,
                          reinterpret_cast<const uint8_t*>(s.data()), s.size(),
                          reinterpret_cast<uint8_t*>(out.data()), &pos, out.size());
  out.resize(pos);
  return out;
}

std::string Zstd(const std::string& s) {
  std::string out(ZSTD_compressBound(s.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), 3));
  return out;
}

struct Run {
  bool ok = false;
  std::string error;
  Report report;
};

Run Analyze(const std::string& path) {
  AnalyzeOptions options;
  Analyzer analyzer(options, nullptr);
  Run run;
  run.ok = analyzer.AnalyzeInput(path, &run.error);
  run.report = std::move(analyzer.Finish());
  return run;
}

std::vector<std::string> Cycles(const Report& r) {
  std::vector<std::string> out;
  for (const Event& ev : r.events)
    if (ev.deadlock) out.push_back(test::CycleString(*ev.deadlock));
  return out;
}

const std::vector<std::string> kCycles = {
    "6544 -ShareLock/transaction 729-> 6531; 6531 -ShareLock/transaction 730-> 6544",
    "6736 -ShareLock/transaction 731-> 6690; 6690 -ShareLock/transaction 732-> 6713; "
    "6713 -ShareLock/transaction 733-> 6736"};

struct Codec {
  const char* name;
  std::string (*compress)(const std::string&);
};
const Codec kCodecs[] = {{"gzip", Gzip}, {"bzip2", Bzip2}, {"xz", Xz}, {"zstd", Zstd}};

TEST_CASE("platform: each codec is read by its magic bytes, members concatenated", "[platform]") {
  const std::string log = Log();
  const size_t half = log.find('\n', log.size() / 2) + 1;
  for (const Codec& codec : kCodecs) {
    INFO(codec.name);
    // Two members/streams/frames, as `cat a.xz b.xz` makes.
    const std::string path =
        TempFile(codec.compress(log.substr(0, half)) + codec.compress(log.substr(half)));
    std::string error;
    auto reader = LineReader::Open(path, &error);
    REQUIRE(reader);
    CHECK(reader->compression() == codec.name);
    reader.reset();
    Run run = Analyze(path);
    unlink(path.c_str());
    CHECK(run.ok);
    CHECK(run.error.empty());
    REQUIRE(run.report.inputs.size() == 1);
    CHECK(run.report.inputs[0].format == "stderr");
    CHECK(run.report.inputs[0].lines.total == uint64_t(std::count(log.begin(), log.end(), '\n')));
    CHECK(run.report.inputs[0].lines.unparsed == 0);
    CHECK(Cycles(run.report) == kCycles);
  }
}

TEST_CASE("platform: a cut compressed file is an error that names it", "[platform]") {
  // The whole sample run (267 KB, several blocks of every codec): the first
  // deadlocks are decoded before the cut.
  const std::string log =
      test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/scenarios.log");
  for (const Codec& codec : kCodecs) {
    INFO(codec.name);
    const std::string whole = codec.compress(log);
    const std::string path = TempFile(whole.substr(0, whole.size() * 3 / 4));
    Run run = Analyze(path);
    unlink(path.c_str());
    CHECK_FALSE(run.ok);
    CHECK(run.error == path + ": truncated " + codec.name +
                           " input: it ends inside a compressed stream (cut download or copy?)");
    REQUIRE(run.report.inputs.size() == 1);
    CHECK(run.report.summary.deadlocks > 2);
    CHECK(Cycles(run.report)[0] == kCycles[0]);
  }
}

TEST_CASE("platform: compressed input on stdin", "[platform]") {
  const std::string log = Log();
  const std::string zst = Zstd(log);
  REQUIRE(zst.size() < 60000);  // fits in the pipe: no writer thread needed
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  REQUIRE(write(fds[1], zst.data(), zst.size()) == ssize_t(zst.size()));
  close(fds[1]);
  const int saved = dup(0);
  dup2(fds[0], 0);
  close(fds[0]);
  std::string error;
  auto reader = LineReader::Open("-", &error);
  std::string got;
  bool ok = reader && reader->ForEachLine(
                          [&](std::string_view line, uint64_t) {
                            got.append(line);
                            got.push_back('\n');
                          },
                          &error);
  dup2(saved, 0);
  close(saved);
  REQUIRE(reader);
  CHECK(reader->compression() == "zstd");
  CHECK(ok);
  CHECK(got == log);
}

}  // namespace
}  // namespace lockgraph
