// RecordChunks (parsers/postgresql/record_chunks.h): csvlog and jsonlog read
// in blocks, on several threads, deliver exactly what one reader reading
// the lines one by one delivers: the same records field for field, unparsed
// lines and diagnostics, in the same order, with the same line numbers and
// counts. On every file of samples/ and tests/corpus/ and on generated
// inputs made to be cut badly (multi-line fields whose lines look like
// records, cut records, a BOM, CRLF, no final newline), with blocks and parts
// small enough that every few lines is a cut.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/postgresql/csvlog_reader.h"
#include "parsers/postgresql/event_builder.h"
#include "parsers/postgresql/jsonlog_reader.h"
#include "parsers/postgresql/record_chunks.h"
#include "record_test_util.h"
#include "support.h"

namespace fs = std::filesystem;

namespace lockgraph {
namespace {

using record_test::Describe;

/// What a reader delivers, in order, as RecordReaderParser asks for it.
struct Delivered {
  std::vector<std::string> items;
  RecordCallbacks Callbacks() {
    RecordCallbacks cb;
    cb.on_record = [this](LogRecord&& r) { items.push_back(Describe(r)); };
    cb.on_unparsed = [this](uint64_t line, std::string_view text) {
      items.push_back("unparsed " + std::to_string(line) + " " + std::string(text));
    };
    cb.on_diagnostic = [this](Diagnostic&& d) {
      items.push_back("diagnostic " + d.file + ":" + std::to_string(d.line) + " " + d.message +
                      " | " + d.text);
    };
    cb.interesting = &PgEventBuilder::IsInteresting;
    cb.orphan_detail = &PgEventBuilder::IsOrphanDetail;
    cb.deliver_uninteresting = false;
    return cb;
  }
};

std::string Counts(const LineCounts& c) {
  return "counts " + std::to_string(c.total) + " " + std::to_string(c.parsed) + " " +
         std::to_string(c.skipped) + " " + std::to_string(c.unparsed) + " " +
         std::to_string(c.unattached);
}

template <typename Reader>
std::vector<std::string> LineByLine(std::string_view text) {
  Delivered out;
  Reader reader("f", out.Callbacks());
  uint64_t line_no = 0;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = std::min(text.find('\n', begin), text.size());
    reader.ParseLine(text.substr(begin, end - begin), ++line_no);
    begin = end + 1;
  }
  reader.Finish();
  out.items.push_back(Counts(reader.counts()));
  return out.items;
}

/// As LineReader::ForEachBlock hands blocks over.
template <typename Reader>
std::vector<std::string> ByBlocks(std::string_view text, unsigned threads, size_t block,
                                  size_t min_part) {
  Delivered out;
  RecordChunks<Reader> chunks("f", out.Callbacks(), threads, min_part);
  test::ForEachBlockOf(text, block, [&](std::string_view data, bool at_end) {
    const size_t took = chunks.ParseBlock(data, at_end);
    if (at_end) REQUIRE(took == data.size());
    return took;
  });
  out.items.push_back(Counts(chunks.counts()));
  return out.items;
}

/// Both readers, several ways of cutting: the same as line by line.
template <typename Reader>
void ExpectSameByBlocks(std::string_view text, const std::string& what) {
  const std::vector<std::string> expected = LineByLine<Reader>(text);
  struct Way {
    unsigned threads;
    size_t block, min_part;
  };
  for (Way w : {Way{2, 64, 1}, Way{3, 500, 16}, Way{4, 4096, 64}, Way{2, 1 << 16, 1024},
                Way{1, 300, 1}}) {
    INFO(what << ": threads " << w.threads << ", blocks of " << w.block << ", parts of at least "
              << w.min_part);
    const std::vector<std::string> got = ByBlocks<Reader>(text, w.threads, w.block, w.min_part);
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      INFO("item " << i);
      REQUIRE(got[i] == expected[i]);
    }
  }
}

std::vector<fs::path> SampleFiles() {
  std::vector<fs::path> files;
  for (const char* root : {LOCKGRAPH_SAMPLES_DIR "/postgresql", LOCKGRAPH_TEST_DIR "/corpus"})
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && e.file_size() < (4 << 20) && e.path().extension() != ".md" &&
          e.path().extension() != ".gz" && e.path().extension() != ".zst")
        files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// A csvlog built to be cut badly: records of the samples in random order,
/// with multi-line fields whose lines look like records' first lines, cut
/// records, stray lines, CRLF records, blank lines.
std::string HostileCsvlog(uint32_t seed, const std::vector<std::string>& pool) {
  std::mt19937 rng(seed);
  std::string out = seed % 2 ? "\xEF\xBB\xBF" : "";
  const std::string looks_like =
      "2026-12-02 10:15:20.858 UTC,\"postgres\",\"db\",1,\"\",x,1,\"\",\"\",\"\",0,ERROR,40P01,"
      "\"deadlock detected\",\"Process 1 waits for ShareLock on transaction 2; blocked by process 3.\n"
      "2026-12-02 10:15:20.858 UTC,,looks like a record\n"
      "Process 3 waits for ShareLock on transaction 4; blocked by process 1.\",,,,,"
      "\"while updating tuple (0,1) in relation \"\"t\"\"\",\"UPDATE t SET a = 1\n"
      "2026-12-02 10:15:20.858 UTC,\"u\",\"d\",2,,,,,,,,,,,,,,,,,,,,\",,,\"psql\",\"client backend\",,0\n";
  for (int i = 0; i < 400; ++i) {
    switch (rng() % 10) {
      case 0: out += looks_like; break;
      case 1: out += "2026-12-02 10:15:21 UTC,\"u\",\"d\",9,,,,,,,,ERROR,40P01,\"deadlock detected\",\"cut\n"; break;
      case 2: out += "not a csvlog line\n\n"; break;
      case 3: {
        std::string r = pool[rng() % pool.size()];
        for (size_t p = 0; (p = r.find('\n', p)) != std::string::npos; p += 2) r.replace(p, 1, "\r\n");
        out += r;
        break;
      }
      default: out += pool[rng() % pool.size()];
    }
  }
  if (seed % 3 == 0 && !out.empty()) out.pop_back();  // no final newline
  return out;
}

/// The whole records of a csvlog file (a record ends where the next starts).
std::vector<std::string> CsvlogRecords(const std::string& text) {
  std::vector<std::string> records;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t next = begin;
    do {
      next = text.find('\n', next);
      next = next == std::string::npos ? text.size() : next + 1;
    } while (next < text.size() &&
             !LooksLikeCsvlogStart(std::string_view(text).substr(next, 64)));
    records.push_back(text.substr(begin, next - begin));
    begin = next;
  }
  return records;
}

TEST_CASE("csvlog and jsonlog read by blocks on several threads: samples", "[chunks]") {
  const std::vector<fs::path> files = SampleFiles();
  REQUIRE(files.size() > 50);
  for (const fs::path& f : files) {
    const std::string text = test::ReadFile(f.string());
    ExpectSameByBlocks<CsvlogReader>(text, "csvlog reader, " + f.string());
    ExpectSameByBlocks<JsonlogReader>(text, "jsonlog reader, " + f.string());
  }
}

TEST_CASE("csvlog read by blocks: records cut badly on purpose", "[chunks]") {
  std::string pool_text;
  for (const char* f : {"scenarios.csv", "rules.csv", "rules-lessons.csv", "rules-precise.csv"})
    pool_text += test::ReadFile(LOCKGRAPH_SAMPLES_DIR "/postgresql/" + std::string(f));
  const std::vector<std::string> pool = CsvlogRecords(pool_text);
  REQUIRE(pool.size() > 100);
  for (uint32_t seed = 1; seed <= 12; ++seed)
    ExpectSameByBlocks<CsvlogReader>(HostileCsvlog(seed, pool), "seed " + std::to_string(seed));
}

TEST_CASE("jsonlog read by blocks: broken and hostile lines", "[chunks]") {
  std::string lines = test::ReadFile(LOCKGRAPH_SAMPLES_DIR "/postgresql/scenarios.json") +
                      test::ReadFile(LOCKGRAPH_SAMPLES_DIR "/postgresql/rules.json");
  const std::vector<std::string> pool = [&] {
    std::vector<std::string> v;
    for (size_t b = 0, e; b < lines.size(); b = e + 1) {
      e = std::min(lines.find('\n', b), lines.size());
      v.push_back(lines.substr(b, e - b + 1));
    }
    return v;
  }();
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    std::string text;
    for (int i = 0; i < 600; ++i) {
      std::string l = pool[rng() % pool.size()];
      if (rng() % 13 == 0) l = l.substr(0, l.size() / 2) + "\n";   // cut
      if (rng() % 17 == 0) l = "{\"timestamp\":\"x\",\"message\":\"\xff\"}\n";
      if (rng() % 19 == 0) l = "\n";
      text += l;
    }
    ExpectSameByBlocks<JsonlogReader>(text, "seed " + std::to_string(seed));
  }
}

}  // namespace
}  // namespace lockgraph
