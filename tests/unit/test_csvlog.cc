// csvlog: the CSV splitter, the csvlog record reader (reference §6.3, §9.9,
// pitfall 23), sniffing, and the events the format yields.
#include <catch2/catch.hpp>

#include <random>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/csv_record_reader.h"
#include "parsers/postgresql/csvlog_reader.h"
#include "record_test_util.h"
#include "support.h"
#include "text/number.h"

namespace lockgraph {
namespace {

using record_test::Collected;
using record_test::Lines;
using record_test::Read;
using test::CycleString;

// Reference §9.9, byte for byte: PostgreSQL 12, 23 columns.
constexpr std::string_view kExcerpt99 =
    R"(2025-01-20 09:41:51.713 MSK,"postgres","locks",4496,"[local]",678dec59.1190,5,"UPDATE waiting",2025-01-20 09:25:29 MSK,9/10,6207443,LOG,00000,"process 4496 still waiting for ShareLock on transaction 6207444 after 223.755 ms","Process holding the lock: 4506. Wait queue: 4496.",,,,"while updating tuple (0,9) in relation ""test_no_pk""","update test_no_pk set amount =amount+100 where acc_no=2;",,,"psql"
2025-01-20 09:42:20.796 MSK,"postgres","locks",4508,"[local]",678dec5f.119c,4,"UPDATE waiting",2025-01-20 09:25:35 MSK,5/28,6207445,LOG,00000,"process 4508 detected deadlock while waiting for ShareLock on transaction 6207443 after 205.386 ms","Process holding the lock: 4496. Wait queue: .",,,,"while updating tuple (0,7) in relation ""test_no_pk""","UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;",,,"psql"
2025-01-20 09:42:20.796 MSK,"postgres","locks",4508,"[local]",678dec5f.119c,5,"UPDATE",2025-01-20 09:25:35 MSK,5/28,6207445,ERROR,40P01,"deadlock detected","Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.
Process 4496 waits for ShareLock on transaction 6207444; blocked by process 4506.
Process 4506 waits for ShareLock on transaction 6207445; blocked by process 4508.
Process 4508: UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;
Process 4496: update test_no_pk set amount =amount+100 where acc_no=2;
Process 4506: update test_no_pk set amount =amount+100 where acc_no=3;","See server log for query details.",,,"while updating tuple (0,7) in relation ""test_no_pk""","UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;",,,"psql"
2025-01-20 09:42:20.796 MSK,"postgres","locks",4506,"[local]",678dec5e.119a,4,"UPDATE waiting",2025-01-20 09:25:34 MSK,6/18,6207444,LOG,00000,"process 4506 acquired ShareLock on transaction 6207445 after 10266.330 ms",,,,,"while updating tuple (0,10) in relation ""test_no_pk""","update test_no_pk set amount =amount+100 where acc_no=3;",,,"psql"
)";

// One record as PostgreSQL 14+ writes it (26 columns), from a test cluster.
constexpr std::string_view kRecord26 =
    R"(2026-03-02 10:15:01.250 UTC,"app","shop",71234,"10.0.0.7:51234",65e2f0a1.11642,12,"UPDATE waiting",2026-03-02 10:14:58 UTC,4/77,912,LOG,00000,"process 71234 still waiting for ShareLock on transaction 911 after 1000.084 ms","Process holding the lock: 71200. Wait queue: 71234.",,,,"while updating tuple (0,3) in relation ""orders""","UPDATE orders SET qty = 2 WHERE id = 1;",,,"billing","client backend",,-4623036638694764959
)";

TEST_CASE("CsvRecordReader splits fields, unescapes quotes, tells missing from empty") {
  CsvRecordReader csv;
  REQUIRE(csv.Feed(R"(a,"b ""q"", c",,"",x)") == CsvRecordReader::State::kComplete);
  REQUIRE(csv.size() == 5);
  CHECK(csv.field(0) == "a");
  CHECK(csv.field(1) == R"(b "q", c)");
  CHECK(csv.field(2).empty());
  CHECK(csv.missing(2));
  CHECK(csv.field(3).empty());
  CHECK_FALSE(csv.missing(3));
  CHECK(csv.field(4) == "x");
  CHECK_FALSE(csv.missing(4));
}

TEST_CASE("CsvRecordReader joins a quoted field over lines and drops CR of CRLF") {
  CsvRecordReader csv;
  CHECK(csv.Feed("1,\"first\r") == CsvRecordReader::State::kOpen);
  CHECK(csv.open());
  CHECK(csv.Feed("second\r") == CsvRecordReader::State::kOpen);
  CHECK(csv.Feed("third\",\r") == CsvRecordReader::State::kComplete);
  CHECK_FALSE(csv.open());
  REQUIRE(csv.size() == 3);
  CHECK(csv.field(1) == "first\nsecond\nthird");
  CHECK(csv.missing(2));
  // The next Feed starts a fresh record.
  CHECK(csv.Feed("z") == CsvRecordReader::State::kComplete);
  REQUIRE(csv.size() == 1);
  CHECK(csv.field(0) == "z");
}

TEST_CASE("CsvRecordReader rejects quotes where CSV allows none") {
  CsvRecordReader csv;
  CHECK(csv.Feed(R"(ab"c,d)") == CsvRecordReader::State::kMalformed);
  CHECK(csv.Feed(R"("ab"c,d)") == CsvRecordReader::State::kMalformed);
  CHECK_FALSE(csv.open());
  CHECK(csv.Feed("\"open") == CsvRecordReader::State::kOpen);
  CHECK(csv.CloseCut());
  REQUIRE(csv.size() == 1);
  CHECK(csv.field(0) == "open");
  CHECK_FALSE(csv.CloseCut());
}

TEST_CASE("LooksLikeCsvlogStart wants a log_time, a zone and a user field") {
  CHECK(LooksLikeCsvlogStart(R"(2025-01-20 09:41:51.713 MSK,"postgres",)"));
  CHECK(LooksLikeCsvlogStart("2025-01-20 09:41:51 -03,,"));
  CHECK_FALSE(LooksLikeCsvlogStart("2025-01-20 09:41:51.713 MSK [4496] LOG:  x"));
  CHECK_FALSE(LooksLikeCsvlogStart(R"(2025-01-20 09:41:51.713,"postgres")"));
  CHECK_FALSE(LooksLikeCsvlogStart("Process 4496 waits for ShareLock"));
  CHECK_FALSE(LooksLikeCsvlogStart(""));
  // Each place of "YYYY-MM-DD HH:MM:SS" with a wrong byte: a digit where a
  // separator goes, a letter or a space where a digit goes.
  const std::string good = R"(2025-01-20 09:41:51.713 MSK,"postgres",)";
  REQUIRE(LooksLikeCsvlogStart(good));
  for (size_t i = 0; i < 19; ++i) {
    for (char c : {'0', 'x', ' ', '-', ':'}) {
      std::string bad = good;
      if (bad[i] == c || (IsDigit(bad[i]) && IsDigit(c))) continue;
      bad[i] = c;
      INFO(bad);
      CHECK_FALSE(LooksLikeCsvlogStart(bad));
    }
  }
  CHECK_FALSE(LooksLikeCsvlogStart(good.substr(0, 22)));
}

TEST_CASE("CsvRecordReader on random records gives back every field written", "[csv-random]") {
  // Fields of 0 to 40 bytes with commas, quotes and line breaks where CSV
  // allows them, quoted or not, missing or empty: the splitter's searches
  // go 16 bytes a step, so the sizes cross their steps in every way.
  std::mt19937 rng(20261207);
  auto pick = [&](size_t n) { return size_t(rng() % n); };
  for (int round = 0; round < 3000; ++round) {
    const size_t count = 1 + pick(30);
    std::vector<std::string> fields(count);
    std::vector<bool> quoted(count);
    std::vector<size_t> starts(count);
    std::string text;
    for (size_t f = 0; f < count; ++f) {
      quoted[f] = pick(2) == 0;
      starts[f] = text.size() + (f ? 1 : 0);
      const size_t size = pick(41);
      for (size_t k = 0; k < size; ++k) {
        const size_t r = pick(20);
        char c = char('a' + pick(26));
        if (quoted[f] && r == 0) c = '"';
        if (quoted[f] && r == 1) c = '\n';
        if (quoted[f] && r == 2) c = ',';
        fields[f] += c;
      }
      if (f) text += ',';
      if (!quoted[f]) {
        text += fields[f];
        continue;
      }
      text += '"';
      for (char c : fields[f]) text += c == '"' ? std::string("\"\"") : std::string(1, c);
      text += '"';
    }
    CsvRecordReader csv;
    CsvRecordReader::State state = CsvRecordReader::State::kOpen;
    size_t pos = 0;
    std::vector<std::string> lines;  // kept alive: fields may be views into them
    for (size_t nl; (nl = text.find('\n', pos)) != std::string::npos; pos = nl + 1)
      lines.push_back(text.substr(pos, nl - pos));
    lines.push_back(text.substr(pos));
    for (size_t l = 0; l < lines.size(); ++l) {
      state = csv.Feed(lines[l]);
      if (l + 1 < lines.size()) REQUIRE(state == CsvRecordReader::State::kOpen);
    }
    INFO(text);
    REQUIRE(state == CsvRecordReader::State::kComplete);
    REQUIRE(csv.size() == count);
    for (size_t f = 0; f < count; ++f) {
      CHECK(csv.field(f) == fields[f]);
      CHECK(csv.missing(f) == (!quoted[f] && fields[f].empty()));
    }
    // A quote in the middle of an unquoted field, or right after a quoted
    // one, makes the record malformed.
    const size_t f = pick(count);
    if (!quoted[f] && !fields[f].empty() && text.find('\n') == std::string::npos) {
      const size_t at = starts[f] + 1;  // after the field's first byte
      const std::string bad = text.substr(0, at) + '"' + text.substr(at);
      CsvRecordReader other;
      CHECK(other.Feed(bad) == CsvRecordReader::State::kMalformed);
    }
  }
}

TEST_CASE("csvlog excerpt §9.9: every field of every record") {
  Collected out = Read<CsvlogReader>(kExcerpt99);
  CHECK(out.unparsed.empty());
  CHECK(out.diagnostics.empty());
  CHECK(out.counts.total == 9);
  CHECK(out.counts.parsed == 9);
  CHECK(out.counts.unparsed == 0);
  REQUIRE(out.records.size() == 4);

  const LogRecord& r1 = out.records[0];
  CHECK(r1.source.file == "test.log");
  CHECK(r1.source.first_line == 1);
  CHECK(r1.source.last_line == 1);
  CHECK(r1.time == "2025-01-20 09:41:51.713 MSK");
  CHECK(r1.pid == 4496);
  CHECK(r1.severity == "LOG");
  CHECK(r1.sqlstate == "00000");
  CHECK(r1.message ==
        "process 4496 still waiting for ShareLock on transaction 6207444 after 223.755 ms");
  CHECK(r1.detail == "Process holding the lock: 4506. Wait queue: 4496.");
  CHECK(r1.hint.empty());
  CHECK(r1.context == R"(while updating tuple (0,9) in relation "test_no_pk")");
  CHECK(r1.statement == "update test_no_pk set amount =amount+100 where acc_no=2;");
  CHECK(r1.session.user == "postgres");
  CHECK(r1.session.database == "locks");
  CHECK(r1.session.host == "[local]");
  CHECK(r1.session.session_id == "678dec59.1190");
  CHECK(r1.session.session_line == 5u);
  CHECK(r1.session.command_tag == "UPDATE waiting");
  CHECK(r1.session.vxid == "9/10");
  CHECK(r1.session.xid == 6207443u);
  CHECK(r1.session.application == "psql");
  CHECK(r1.session.backend_type.empty());
  CHECK_FALSE(r1.session.query_id.has_value());
  CHECK_FALSE(r1.truncated);

  const LogRecord& r2 = out.records[1];
  CHECK(r2.source.first_line == 2);
  CHECK(r2.source.last_line == 2);
  CHECK(r2.time == "2025-01-20 09:42:20.796 MSK");
  CHECK(r2.pid == 4508);
  CHECK(r2.severity == "LOG");
  CHECK(r2.sqlstate == "00000");
  CHECK(r2.message ==
        "process 4508 detected deadlock while waiting for ShareLock on transaction 6207443 "
        "after 205.386 ms");
  CHECK(r2.detail == "Process holding the lock: 4496. Wait queue: .");
  CHECK(r2.hint.empty());
  CHECK(r2.context == R"(while updating tuple (0,7) in relation "test_no_pk")");
  CHECK(r2.statement == "UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;");
  CHECK(r2.session.user == "postgres");
  CHECK(r2.session.database == "locks");
  CHECK(r2.session.session_id == "678dec5f.119c");
  CHECK(r2.session.session_line == 4u);
  CHECK(r2.session.command_tag == "UPDATE waiting");
  CHECK(r2.session.vxid == "5/28");
  CHECK(r2.session.xid == 6207445u);
  CHECK(r2.session.application == "psql");

  const LogRecord& r3 = out.records[2];
  CHECK(r3.source.first_line == 3);
  CHECK(r3.source.last_line == 8);
  CHECK(r3.time == "2025-01-20 09:42:20.796 MSK");
  CHECK(r3.pid == 4508);
  CHECK(r3.severity == "ERROR");
  CHECK(r3.sqlstate == "40P01");
  CHECK(r3.message == "deadlock detected");
  CHECK(r3.detail ==
        "Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.\n"
        "Process 4496 waits for ShareLock on transaction 6207444; blocked by process 4506.\n"
        "Process 4506 waits for ShareLock on transaction 6207445; blocked by process 4508.\n"
        "Process 4508: UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;\n"
        "Process 4496: update test_no_pk set amount =amount+100 where acc_no=2;\n"
        "Process 4506: update test_no_pk set amount =amount+100 where acc_no=3;");
  CHECK(r3.hint == "See server log for query details.");
  CHECK(r3.context == R"(while updating tuple (0,7) in relation "test_no_pk")");
  CHECK(r3.statement == "UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;");
  CHECK(r3.session.user == "postgres");
  CHECK(r3.session.database == "locks");
  CHECK(r3.session.session_id == "678dec5f.119c");
  CHECK(r3.session.session_line == 5u);
  CHECK(r3.session.command_tag == "UPDATE");
  CHECK(r3.session.vxid == "5/28");
  CHECK(r3.session.xid == 6207445u);
  CHECK(r3.session.application == "psql");
  CHECK_FALSE(r3.truncated);

  const LogRecord& r4 = out.records[3];
  CHECK(r4.source.first_line == 9);
  CHECK(r4.source.last_line == 9);
  CHECK(r4.time == "2025-01-20 09:42:20.796 MSK");
  CHECK(r4.pid == 4506);
  CHECK(r4.severity == "LOG");
  CHECK(r4.sqlstate == "00000");
  CHECK(r4.message ==
        "process 4506 acquired ShareLock on transaction 6207445 after 10266.330 ms");
  CHECK(r4.detail.empty());
  CHECK(r4.hint.empty());
  CHECK(r4.context == R"(while updating tuple (0,10) in relation "test_no_pk")");
  CHECK(r4.statement == "update test_no_pk set amount =amount+100 where acc_no=3;");
  CHECK(r4.session.user == "postgres");
  CHECK(r4.session.database == "locks");
  CHECK(r4.session.session_id == "678dec5e.119a");
  CHECK(r4.session.session_line == 4u);
  CHECK(r4.session.command_tag == "UPDATE waiting");
  CHECK(r4.session.vxid == "6/18");
  CHECK(r4.session.xid == 6207444u);
  CHECK(r4.session.application == "psql");
}

TEST_CASE("csvlog with CRLF line ends reads like LF") {
  std::string crlf;
  for (const std::string& line : Lines(kExcerpt99)) crlf += line + "\r\n";
  Collected out = Read<CsvlogReader>(crlf);
  CHECK(out.counts.parsed == 9);
  REQUIRE(out.records.size() == 4);
  CHECK(out.records[2].detail.find('\r') == std::string::npos);
  CHECK(out.records[2].detail.substr(0, 82) ==
        "Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.\n");
  CHECK(out.records[3].session.application == "psql");
}

TEST_CASE("csvlog 26-column record (14+): backend_type and query_id") {
  Collected out = Read<CsvlogReader>(kRecord26);
  REQUIRE(out.records.size() == 1);
  const LogRecord& r = out.records[0];
  CHECK(r.pid == 71234);
  CHECK(r.session.host == "10.0.0.7:51234");
  CHECK(r.session.application == "billing");
  CHECK(r.session.backend_type == "client backend");
  CHECK(r.session.query_id == -4623036638694764959);
  CHECK(r.session.xid == 912u);
  CHECK(r.statement == "UPDATE orders SET qty = 2 WHERE id = 1;");
  CHECK(out.counts.parsed == 1);
}

TEST_CASE("csvlog 24-column record (13): backend_type, no query_id") {
  const std::string line =
      R"(2026-03-02 10:15:01.250 UTC,"app","shop",71234,"[local]",65e2f0a1.11642,12,"idle",)"
      R"(2026-03-02 10:14:58 UTC,4/77,0,LOG,00000,"connection authorized",,,,,,,,,"psql",)"
      R"("client backend")";
  Collected out = Read<CsvlogReader>(line);
  REQUIRE(out.records.size() == 1);
  CHECK(out.records[0].session.backend_type == "client backend");
  CHECK(out.records[0].session.application == "psql");
  CHECK(out.records[0].session.xid == 0u);
  CHECK_FALSE(out.records[0].session.query_id.has_value());
}

TEST_CASE("csvlog record cut at end of input: kept, truncated, with a warning") {
  // The deadlock record of §9.9, cut inside its DETAIL.
  const std::string text = R"(2025-01-20 09:41:51.713 MSK,"postgres","locks",4496,"[local]",678dec59.1190,5,"UPDATE waiting",2025-01-20 09:25:29 MSK,9/10,6207443,LOG,00000,"process 4496 still waiting for ShareLock on transaction 6207444 after 223.755 ms",,,,,,,,,"psql"
2025-01-20 09:42:20.796 MSK,"postgres","locks",4508,"[local]",678dec5f.119c,5,"UPDATE",2025-01-20 09:25:35 MSK,5/28,6207445,ERROR,40P01,"deadlock detected","Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.
Process 4496 waits for ShareLock on transaction 6207444; blocked by process 4506.
)";
  Collected out = Read<CsvlogReader>(text);
  CHECK(out.counts.total == 3);
  CHECK(out.counts.parsed == 3);
  CHECK(out.counts.unparsed == 0);
  REQUIRE(out.records.size() == 2);
  CHECK_FALSE(out.records[0].truncated);
  const LogRecord& cut = out.records[1];
  CHECK(cut.truncated);
  CHECK(cut.pid == 4508);
  CHECK(cut.severity == "ERROR");
  CHECK(cut.sqlstate == "40P01");
  CHECK(cut.message == "deadlock detected");
  CHECK(cut.detail ==
        "Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.\n"
        "Process 4496 waits for ShareLock on transaction 6207444; blocked by process 4506.");
  CHECK(cut.hint.empty());
  CHECK(cut.session.user == "postgres");
  CHECK(cut.source.first_line == 2);
  CHECK(cut.source.last_line == 3);
  REQUIRE(out.diagnostics.size() == 1);
  const Diagnostic& d = out.diagnostics[0];
  CHECK(d.severity == Diagnostic::Severity::kWarning);
  CHECK(d.file == "test.log");
  CHECK(d.line == 2);
  CHECK(d.message == "csvlog record cut: the input ends inside a quoted field");
  CHECK(d.text.size() == 200);
  CHECK(d.text.substr(0, 28) == "2025-01-20 09:42:20.796 MSK,");
}

TEST_CASE("csvlog: a whole record inside open quotes ends the open one as cut") {
  const std::string text = R"(2025-01-20 09:42:20.796 MSK,"postgres","locks",4508,"[local]",678dec5f.119c,5,"UPDATE",2025-01-20 09:25:35 MSK,5/28,6207445,ERROR,40P01,"deadlock detected","Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.
2025-01-20 09:43:00.001 MSK,"postgres","locks",4600,"[local]",678dec70.11f8,1,"idle",2025-01-20 09:43:00 MSK,3/2,0,LOG,00000,"connection authorized",,,,,,,,,"psql"
)";
  Collected out = Read<CsvlogReader>(text);
  REQUIRE(out.records.size() == 2);
  CHECK(out.records[0].truncated);
  CHECK(out.records[0].source.first_line == 1);
  CHECK(out.records[0].source.last_line == 1);
  CHECK(out.records[0].detail ==
        "Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.");
  CHECK_FALSE(out.records[1].truncated);
  CHECK(out.records[1].pid == 4600);
  CHECK(out.records[1].message == "connection authorized");
  REQUIRE(out.diagnostics.size() == 1);
  CHECK(out.diagnostics[0].line == 1);
  CHECK(out.diagnostics[0].message ==
        "csvlog record cut: a new record starts before its quoted field closed");
  CHECK(out.counts.parsed == 2);
  CHECK(out.counts.unparsed == 0);
}

TEST_CASE("csvlog: garbage and wrong field counts are unparsed, every line counted") {
  const std::string text = std::string("this is not csv\n") +
      // 22 fields: one short of the 9.6-12 layout.
      R"(2025-01-20 09:41:51.713 MSK,"postgres","locks",4496,"[local]",678dec59.1190,5,"idle",2025-01-20 09:25:29 MSK,9/10,0,LOG,00000,"short",,,,,,,,)" "\n" +
      std::string(kRecord26) +
      // 25 fields spread over two lines: both lines unparsed.
      R"(2025-01-20 09:41:51.713 MSK,"postgres","locks",4496,"[local]",678dec59.1190,5,"idle",2025-01-20 09:25:29 MSK,9/10,0,LOG,00000,"two)" "\n"
      R"(lines",,,,,,,,,"psql","client backend",)" "\n"
      // A misplaced quote.
      R"(2025-01-20 09:41:51.713 MSK,"postgres"x,"locks")" "\n"
      "\n";
  Collected out = Read<CsvlogReader>(text);
  CHECK(out.counts.total == 7);
  CHECK(out.counts.parsed == 1);
  CHECK(out.counts.unparsed == 6);
  REQUIRE(out.records.size() == 1);
  CHECK(out.records[0].pid == 71234);
  REQUIRE(out.unparsed.size() == 6);
  CHECK(out.unparsed[0] == std::make_pair(uint64_t{1}, std::string("this is not csv")));
  CHECK(out.unparsed[1].first == 2);
  CHECK(out.unparsed[2].first == 4);
  CHECK(out.unparsed[2].second.substr(out.unparsed[2].second.size() - 4) == "\"two");
  CHECK(out.unparsed[3] ==
        std::make_pair(uint64_t{5}, std::string(R"(lines",,,,,,,,,"psql","client backend",)")));
  CHECK(out.unparsed[4].first == 6);
  CHECK(out.unparsed[5] == std::make_pair(uint64_t{7}, std::string()));
  CHECK(out.diagnostics.empty());
}

TEST_CASE("csvlog: translated error_severity becomes English, unknown words stay") {
  auto line = [](std::string_view severity) {
    return std::string(R"(2024-10-23 14:50:42.630 MSK,"postgres","testlock",22870,"[local]",)"
                       R"(6718e2a1.5956,3,"UPDATE",2024-10-23 14:50:00 MSK,3/12,747,)") +
           std::string(severity) + R"(,00000,"x",,,,,,,,,"psql")" + "\n";
  };
  Collected out = Read<CsvlogReader>(line("ОШИБКА") + line("СООБЩЕНИЕ") + line("FEHLER") +
                                     line("ERROR") + line("GRAVE"));
  REQUIRE(out.records.size() == 5);
  CHECK(out.records[0].severity == "ERROR");
  CHECK(out.records[1].severity == "LOG");
  CHECK(out.records[2].severity == "ERROR");
  CHECK(out.records[3].severity == "ERROR");
  CHECK(out.records[4].severity == "GRAVE");
}

TEST_CASE("csvlog: records the callback finds uninteresting carry the message only") {
  Collected out;
  RecordCallbacks cb = out.Callbacks();
  cb.interesting = [](std::string_view m) { return m == "deadlock detected"; };
  CsvlogReader reader("test.log", std::move(cb));
  uint64_t n = 0;
  for (const std::string& line : Lines(kExcerpt99)) reader.ParseLine(line, ++n);
  reader.Finish();
  REQUIRE(out.records.size() == 4);
  const LogRecord& slim = out.records[0];
  CHECK(slim.pid == 4496);
  CHECK(slim.time == "2025-01-20 09:41:51.713 MSK");
  CHECK(slim.severity == "LOG");
  CHECK(slim.sqlstate == "00000");
  CHECK(slim.message ==
        "process 4496 still waiting for ShareLock on transaction 6207444 after 223.755 ms");
  CHECK(slim.detail.empty());
  CHECK(slim.context.empty());
  CHECK(slim.statement.empty());
  CHECK(slim.session.user.empty());
  CHECK(out.records[2].detail.size() > 400);
  CHECK(out.records[2].session.user == "postgres");
}

TEST_CASE("csvlog: with deliver_uninteresting off only interesting records are built") {
  Collected out;
  RecordCallbacks cb = out.Callbacks();
  cb.interesting = [](std::string_view m) { return m == "deadlock detected"; };
  cb.deliver_uninteresting = false;
  CsvlogReader reader("test.log", std::move(cb));
  uint64_t n = 0;
  for (const std::string& line : Lines(kExcerpt99)) reader.ParseLine(line, ++n);
  reader.Finish();
  REQUIRE(out.records.size() == 1);
  CHECK(out.records[0].message == "deadlock detected");
  CHECK(out.records[0].source.first_line == 3);
  CHECK(reader.counts().parsed == 9);
  CHECK(reader.counts().unparsed == 0);
}

TEST_CASE("csvlog sniff: a real majority of records matches, stderr does not") {
  auto format = MakePgCsvlogFormat();
  CHECK(format->Name() == "csvlog");
  SniffResult yes = format->Sniff(Lines(kExcerpt99), {});
  CHECK(yes.verdict == SniffResult::Verdict::kMatch);
  CHECK(yes.score == 9);
  CHECK(yes.reason == "9 of 9 lines are csvlog records");

  const std::vector<std::string> stderr_head = {
      "2021-01-21 12:58:34.900 CET [4136] ERROR:  deadlock detected",
      "2021-01-21 12:58:34.900 CET [4136] HINT:  See server log for query details.",
      "2021-01-21 12:58:34.900 CET [4136] STATEMENT:  SELECT * FROM history_tables()"};
  SniffResult no = format->Sniff(stderr_head, {});
  CHECK(no.verdict == SniffResult::Verdict::kNoMatch);
  CHECK(no.score == 0);
  CHECK(no.reason ==
        "only 0 of 3 lines are csvlog records (23, 24 or 26 fields starting with a "
        "log_time); line 1 is not");

  // Half the lines are not enough.
  std::vector<std::string> half = {std::string(kRecord26.substr(0, kRecord26.size() - 1)),
                                   "garbage"};
  CHECK(format->Sniff(half, {}).verdict == SniffResult::Verdict::kNoMatch);
}

TEST_CASE("csvlog §9.9 yields one deadlock: 4508 -> 4496 -> 4506 -> 4508, victim 4508") {
  record_test::CollectingSink sink;
  auto format = MakePgCsvlogFormat();
  LineCounts counts = record_test::ParseWith(*format, kExcerpt99, sink);
  CHECK(counts.total == 9);
  CHECK(counts.parsed == 9);
  CHECK(sink.unparsed.empty());
  std::vector<const Event*> deadlocks;
  for (const Event& ev : sink.events)
    if (ev.type == EventType::kDeadlock) deadlocks.push_back(&ev);
  REQUIRE(deadlocks.size() == 1);
  const Event& ev = *deadlocks[0];
  CHECK(ev.time == "2025-01-20 09:42:20.796 MSK");
  CHECK(ev.pid == 4508);
  CHECK(ev.source.first_line == 3);
  CHECK(ev.source.last_line == 8);
  CHECK_FALSE(ev.truncated);
  CHECK(ev.session.user == "postgres");
  CHECK(ev.session.database == "locks");
  REQUIRE(ev.deadlock);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victim == "4508");
  CHECK(d.complete);
  CHECK(d.problems.empty());
  CHECK(d.sqlstate == "40P01");
  REQUIRE(d.edges.size() == 3);
  CHECK(CycleString(d) ==
        "4508 -ShareLock/transaction 6207443-> 4496; "
        "4496 -ShareLock/transaction 6207444-> 4506; "
        "4506 -ShareLock/transaction 6207445-> 4508");
  CHECK(d.edges[0].lock.type == "transactionid");
  REQUIRE(d.processes.size() == 3);
  CHECK(d.processes[0].id == "4508");
  CHECK(d.processes[0].query ==
        "UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;");
  CHECK(d.processes[1].query == "update test_no_pk set amount =amount+100 where acc_no=2;");
  CHECK(d.processes[2].query == "update test_no_pk set amount =amount+100 where acc_no=3;");
  CHECK(d.statement == "UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;");
}

TEST_CASE("csvlog §9.9 is detected as csvlog by the whole pipeline") {
  Report r = test::AnalyzeText(std::string(kExcerpt99));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "csvlog");
  CHECK(r.summary.deadlocks == 1);
  CHECK(r.summary.lines.total == 9);
  CHECK(r.summary.lines.parsed == 9);
  CHECK(r.summary.lines.unparsed == 0);
}

}  // namespace
}  // namespace lockgraph
