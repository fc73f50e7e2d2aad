// syslog: the framing, the chunk joiner, the record reader (reference §6.5,
// §9.6, §9.11, pitfalls 1 and 6), sniffing, and the events the format yields.
#include <catch2/catch.hpp>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/syslog_chunks.h"
#include "parsers/postgresql/syslog_frame.h"
#include "parsers/postgresql/syslog_reader.h"
#include "record_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

using record_test::Collected;
using record_test::Lines;
using record_test::Read;
using test::CycleString;

// Reference §9.11, byte for byte (rsyslog, pgbadger fixture).
constexpr std::string_view kExcerpt911 =
    R"(Feb 11 13:15:39 test-pc postgres[10808]: [3-1] db=,user=,app=,client= LOG:  ending log output to stderr
Feb 11 13:15:39 test-pc postgres[10808]: [3-2] db=,user=,app=,client= HINT:  Future log output will go to log destination "syslog".
Feb 11 13:15:39 test-pc postgres[10809]: [4-1] db=,user=,app=,client= LOG:  database system was shut down at 2019-02-11 13:14:59 CET
Feb 11 13:15:39 test-pc postgres[10808]: [4-1] db=,user=,app=,client= LOG:  database system is ready to accept connections
Feb 11 13:15:39 test-pc postgres[10816]: [5-1] db=[unknown],user=[unknown],app=[unknown],client=[local] LOG:  connection received: host=[local]
Feb 11 13:15:40 test-pc postgres[10819]: [5-1] db=[unknown],user=[unknown],app=[unknown],client=[local] LOG:  connection received: host=[local]
Feb 11 13:15:40 test-pc postgres[10819]: [7-1] db=postgres,user=postgres,app=psql,client=[local] LOG:  duration: 13.997 ms  statement: SELECT d.datname as "Name",
Feb 11 13:15:40 test-pc postgres[10819]: [7-2] #011       pg_catalog.pg_get_userbyid(d.datdba) as "Owner",
)";
constexpr const char* kPrefix911 = "db=%d,user=%u,app=%a,client=%h ";

// Reference §9.6 (journald, localized month), the wait queue as shortened
// there.
constexpr std::string_view kExcerpt96 =
    R"(nov. 30 02:30:07 productivity postgres[1383234]: [1383234] LOG:  process 1383234 still waiting for ShareLock on transaction 803394 after 1002.197 ms
nov. 30 02:30:07 productivity postgres[1383234]: [1383234] DETAIL:  Process holding the lock: 1383240. Wait queue: 1383074, 1383238, 1382516, […], 1382524, 1383234.
nov. 30 02:30:07 productivity postgres[1383234]: [1383234] CONTEXT:  while rechecking updated tuple (17,5) in relation "oc_authtoken"
)";

TEST_CASE("ParseSyslogFrame: BSD, journald and ISO timestamps, [seq-chunk], [seq], none") {
  SyslogFrame f;
  REQUIRE(ParseSyslogFrame(
      "Feb 11 13:15:39 test-pc postgres[10808]: [3-2] db=,user= HINT:  x", &f));
  CHECK(f.time == "Feb 11 13:15:39");
  CHECK(f.host == "test-pc");
  CHECK(f.ident == "postgres");
  CHECK(f.pid == 10808);
  CHECK(f.seq == 3u);
  CHECK(f.chunk == 2u);
  CHECK(f.message == "[3-2] db=,user= HINT:  x");
  CHECK(f.text == "db=,user= HINT:  x");

  REQUIRE(ParseSyslogFrame("Feb  1 03:04:05 h pg_main[7]: [12-10] #011Process 7: x", &f));
  CHECK(f.time == "Feb  1 03:04:05");
  CHECK(f.ident == "pg_main");
  CHECK(f.seq == 12u);
  CHECK(f.chunk == 10u);
  CHECK(f.text == "#011Process 7: x");

  REQUIRE(ParseSyslogFrame(
      "nov. 30 02:30:07 productivity postgres[1383234]: [1383234] LOG:  x", &f));
  CHECK(f.time == "nov. 30 02:30:07");
  CHECK(f.seq == 1383234u);
  CHECK_FALSE(f.chunk.has_value());
  CHECK(f.text == "LOG:  x");

  REQUIRE(ParseSyslogFrame(
      "2026-12-02T10:00:00.123456+00:00 db1 postgres[123]: [5-1]  starts with a space", &f));
  CHECK(f.time == "2026-12-02T10:00:00.123456+00:00");
  CHECK(f.host == "db1");
  CHECK(f.pid == 123);
  CHECK(f.text == " starts with a space");

  REQUIRE(ParseSyslogFrame("<134>2026-12-02T10:00:00Z db1 postgres[9]: plain text", &f));
  CHECK(f.time == "2026-12-02T10:00:00Z");
  CHECK_FALSE(f.seq.has_value());
  CHECK(f.message == "plain text");
  CHECK(f.text == "plain text");

  REQUIRE(ParseSyslogFrame("déc. 02 10:00:00 h postgres[9]: [1-1] ", &f));
  CHECK(f.time == "déc. 02 10:00:00");
  CHECK(f.text.empty());
  // Any letters make a month (the full pattern, for non-ASCII lines only),
  // and a non-ASCII message after an ASCII month stays on the ASCII one.
  REQUIRE(ParseSyslogFrame("дек  2 10:00:00 хост postgres[9]: [2-1] ОШИБКА:  x", &f));
  CHECK(f.time == "дек  2 10:00:00");
  CHECK(f.host == "хост");
  CHECK(f.text == "ОШИБКА:  x");
  REQUIRE(ParseSyslogFrame("Dec  2 10:00:00 h postgres[9]: [3-1] ОШИБКА:  x", &f));
  CHECK(f.time == "Dec  2 10:00:00");
  CHECK(f.text == "ОШИБКА:  x");
  REQUIRE(ParseSyslogFrame("Decé 2 10:00:00 h postgres[9]: x", &f));
  CHECK(f.time == "Decé 2 10:00:00");
  CHECK_FALSE(ParseSyslogFrame("2021-01-21 12:58:34.900 CET [4136] ОШИБКА:  взаимоблокировка", &f));

  CHECK_FALSE(ParseSyslogFrame("2021-01-21 12:58:34.900 CET [4136] ERROR:  deadlock detected", &f));
  CHECK_FALSE(ParseSyslogFrame("Feb 11 13:15:39 test-pc kernel: no pid here", &f));
  CHECK_FALSE(ParseSyslogFrame("", &f));
}

// The scanner ParseSyslogFrame tries first must take exactly what RE2's
// ASCII pattern takes, with the same fields (tests/fuzz/fuzz_pg_syslog_frame.cc
// does the same on any input). Each line tests one choice of the pattern.
TEST_CASE("ScanSyslogFrame takes what the patterns take, with the same fields") {
  const std::vector<std::pair<std::string, bool>> lines = {
      {"Feb 11 13:15:39 test-pc postgres[10808]: [3-2] db=,user= HINT:  x", true},
      {"Feb  1 03:04:05 h pg_main[7]: [12-10] #011Process 7: x", true},
      {"Feb   1 03:04:05 h postgres[7]: x", false},       // three spaces
      {"Feb 123 03:04:05 h postgres[7]: x", false},       // three-digit day
      {"F 1 03:04:05 h postgres[7]: x", false},           // one letter
      {"Septembers 1 03:04:05 h postgres[7]: x", false},  // ten letters
      {"September 1 03:04:05 h postgres[7]: x", true},    // nine
      {"Sept. 1 03:04:05.123 h postgres[7]: x", true},
      {"Sept.. 1 03:04:05 h postgres[7]: x", false},
      {"Feb 1 03:04:05. h postgres[7]: x", false},         // '.' without digits
      {"<13>Feb 1 03:04:05 h postgres[7]: x", true},
      {"<13>1 2026-12-02T10:00:00Z h postgres[7]: x", true},
      {"<1234>Feb 1 03:04:05 h postgres[7]: x", false},
      {"<13Feb 1 03:04:05 h postgres[7]: x", false},
      {"2026-12-02 10:00:00,5+0100 h postgres[7]: x", true},
      {"2026-12-02T10:00:00.5-01:00 h postgres[7]: x", true},
      {"2026-12-02T10:00:00+01:0 h postgres[7]: x", false},
      {"2026-12-02T10:00:00+01 h postgres[7]: x", false},
      {"2026-12-02X10:00:00 h postgres[7]: x", false},
      {"2026-12-02T10:00:00Z  h postgres[7]: x", false},  // empty host
      {"2026-12-02T10:00:00Z h\tx postgres[7]: x", false},  // a TAB ends the host
      {"2026-12-02T10:00:00Z h\x0bx postgres[7]: x", true},  // \v is no \s
      {"2026-12-02T10:00:00Z h\fx postgres[7]: x", false},
      {"2026-12-02T10:00:00Z h po]st[7]: x", false},
      {"2026-12-02T10:00:00Z h post(gres)[7]: x", true},
      {"2026-12-02T10:00:00Z h postgres[]: x", false},
      {"2026-12-02T10:00:00Z h postgres[7]:x", false},
      {"2026-12-02T10:00:00Z h postgres[7]:", true},
      {"2026-12-02T10:00:00Z h postgres[7]: ", true},
      {"2026-12-02T10:00:00Z h postgres[7]: [12]", true},
      {"2026-12-02T10:00:00Z h postgres[7]: [12-]", true},    // no seq: the text keeps it
      {"2026-12-02T10:00:00Z h postgres[7]: [12-3]x", true},  // likewise
      {"2026-12-02T10:00:00Z h postgres[7]: [12-3] ", true},
      {"2026-12-02T10:00:00Z h postgres[7]: [-3] x", true},
      {"2026-12-02T10:00:00Z h postgres[99999999999999999999]: x", false},  // pid too large
      {"2026-12-02T10:00:00Z h postgres[7]: [99999999999999999999-1] x", true},
      {"Feb 11 13:15:39 test-pc postgres[10808]: [3-2] db=,user= HINT:  x\r", true},
      {"", false},
  };
  for (const auto& [line, expected] : lines) {
    INFO(line);
    SyslogFrame scanned, matched;
    const bool scan = ScanSyslogFrame(line, &scanned);
    REQUIRE(ParseSyslogFrameByPattern(line, &matched) == expected);
    REQUIRE(scan == expected);
    if (!scan) continue;
    CHECK(scanned.time.data() == matched.time.data());
    CHECK(scanned.time == matched.time);
    CHECK(scanned.host == matched.host);
    CHECK(scanned.ident == matched.ident);
    CHECK(scanned.pid == matched.pid);
    CHECK(scanned.seq == matched.seq);
    CHECK(scanned.chunk == matched.chunk);
    CHECK(scanned.message.data() == matched.message.data());
    CHECK(scanned.message.size() == matched.message.size());
    CHECK(scanned.text.data() == matched.text.data());
    CHECK(scanned.text.size() == matched.text.size());
  }
  // A byte over 0x7f in the host: left to the patterns, which take it.
  SyslogFrame f;
  CHECK_FALSE(ScanSyslogFrame("Dec  2 10:00:00 хост postgres[9]: x", &f));
  REQUIRE(ParseSyslogFrame("Dec  2 10:00:00 хост postgres[9]: x", &f));
  CHECK(f.host == "хост");
}

TEST_CASE("UnescapeSyslog turns #011 into TAB and #012 into a newline") {
  std::string buffer;
  CHECK(UnescapeSyslog("no escapes", &buffer) == "no escapes");
  CHECK(UnescapeSyslog("#011a#012b #01 #0111", &buffer) == "\ta\nb #01 \t1");
}

// Runs a joiner whose "prefix" is the text "pg " before a label.
struct JoinerRun {
  std::vector<std::string> out;  // "part <pid> <line>: text" / "cont <line>: text"
  std::vector<bool> taken;
  std::vector<uint64_t> when;  // the input line being read at each delivery

  uint64_t reading = 0;

  explicit JoinerRun(std::string_view text) {
    SyslogLineJoiner joiner(SyslogLineJoiner::Callbacks{
        [](std::string_view t) { return t.substr(0, 3) == "pg " && t.find(":  ") != t.npos; },
        [this](int64_t pid, std::string_view time, std::string_view line, uint64_t n) {
          out.push_back("part " + std::to_string(pid) + " " + std::to_string(n) + ": " +
                        std::string(line));
          when.push_back(reading);
        },
        [this](std::string_view t, uint64_t n) {
          out.push_back("cont " + std::to_string(n) + ": " + std::string(t));
          when.push_back(reading);
        }});
    for (const std::string& line : Lines(text)) {
      SyslogFrame f;
      REQUIRE(ParseSyslogFrame(line, &f));
      taken.push_back(joiner.OnFrame(f, ++reading));
    }
    ++reading;  // Finish()
    joiner.Finish();
  }
};

TEST_CASE("SyslogLineJoiner: a part and its continuations stay together, parts in log order") {
  JoinerRun run(
      "Mar 14 00:23:00 h postgres[11]: [19-1] pg ERROR:  deadlock detected\n"
      "Mar 14 00:23:00 h postgres[11]: [19-2] pg DETAIL:  Process 11 waits\n"
      "Mar 14 00:23:00 h postgres[22]: [19-1] pg LOG:  other process, same seq\n"
      "Mar 14 00:23:00 h postgres[11]: [19-3] #011Process 22 waits\n"
      "Mar 14 00:23:00 h postgres[11]: [19-4] \tProcess 11: SELECT 1\n"
      "Mar 14 00:23:00 h postgres[11]: [19-5] pg HINT:  See server log\n"
      "Mar 14 00:23:01 h postgres[22]: [20-1] pg LOG:  next message of 22\n");
  CHECK(run.taken == std::vector<bool>(7, true));
  CHECK(run.out == std::vector<std::string>{
                       "part 11 1: pg ERROR:  deadlock detected",
                       "part 11 2: pg DETAIL:  Process 11 waits",
                       "cont 4: Process 22 waits",
                       "cont 5: Process 11: SELECT 1",
                       "part 22 3: pg LOG:  other process, same seq",
                       "part 11 6: pg HINT:  See server log",
                       "part 22 7: pg LOG:  next message of 22",
                   });
}

TEST_CASE("SyslogLineJoiner: a chunk that is neither TAB nor part rejoins its line") {
  // write_syslog cuts lines over 900 bytes at a space; the next chunk starts
  // with that space.
  JoinerRun run(
      "Mar 14 00:23:00 h postgres[11]: [19-1] pg STATEMENT:  SELECT a,\n"
      "Mar 14 00:23:00 h postgres[11]: [19-2]  b, c\n"
      "Mar 14 00:23:00 h postgres[11]: [19-3] #011FROM t\n"
      "Mar 14 00:23:00 h postgres[11]: [19-4]  WHERE x\n"
      "Mar 14 00:23:00 h postgres[11]: [19-5] pg LOG:  with syslog_split_messages off#012#011line 2#012pg HINT:  h\n");
  CHECK(run.taken == std::vector<bool>(5, true));
  CHECK(run.out == std::vector<std::string>{
                       "part 11 1: pg STATEMENT:  SELECT a, b, c",
                       "cont 3: FROM t WHERE x",
                       "part 11 5: pg LOG:  with syslog_split_messages off",
                       "cont 5: line 2",
                       "part 11 5: pg HINT:  h",
                   });
}

TEST_CASE("SyslogLineJoiner: lines of a part without prefix, and orphans, are not taken") {
  JoinerRun run(
      "Mar 14 00:23:00 h postgres[11]: [19-1] no prefix here\n"
      "Mar 14 00:23:00 h postgres[11]: [19-2] #011its continuation\n"
      "Mar 14 00:23:00 h postgres[33]: [40-7] #011continues nothing we saw\n"
      "Mar 14 00:23:00 h postgres[11]: [20-1] pg LOG:  fine\n"
      "Mar 14 00:23:00 h sshd[44]: Accepted publickey\n");
  CHECK(run.taken == std::vector<bool>{false, false, false, true, false});
  CHECK(run.out == std::vector<std::string>{"part 11 4: pg LOG:  fine"});
}

TEST_CASE("SyslogLineJoiner: a process silent for kWindowLines lines is delivered") {
  // At the first line past kWindowLines silent ones, whatever came before:
  // when a part closes depends only on the lines since its last one (a
  // block's part read from a fresh state must close it on the same line).
  for (uint64_t before : {0, 1, 63, 777}) {
    INFO(before);
    std::string text;
    for (uint64_t i = 0; i < before; ++i)
      text += "Mar 14 00:23:00 h postgres[33]: [" + std::to_string(i + 1) + "-1] pg LOG:  b\n";
    text += "Mar 14 00:23:00 h postgres[11]: [1-1] pg LOG:  early\n";
    for (uint64_t i = 0; i < SyslogLineJoiner::kWindowLines + 64; ++i)
      text += "Mar 14 00:23:00 h postgres[22]: [" + std::to_string(i + 2) + "-1] pg LOG:  n\n";
    JoinerRun run(text);
    const uint64_t lines = before + SyslogLineJoiner::kWindowLines + 65;
    REQUIRE(run.out.size() == lines);
    // 11's part leaves once the window has passed, before the input ends; the
    // parts of 22 waited behind it and keep the log's order.
    const uint64_t early = before;  // its index in out
    CHECK(run.out[early] == "part 11 " + std::to_string(before + 1) + ": pg LOG:  early");
    CHECK(run.when[early] == before + 1 + SyslogLineJoiner::kWindowLines + 1);
    CHECK(run.out[early + 1] == "part 22 " + std::to_string(before + 2) + ": pg LOG:  n");
    CHECK(run.when[early + 1] == run.when[early]);
    CHECK(run.out[lines - 1] == "part 22 " + std::to_string(lines) + ": pg LOG:  n");
  }
}

TEST_CASE("syslog excerpt §9.11: records with the syslog pid and time") {
  Collected out = Read<SyslogReader>(kExcerpt911, std::optional<std::string>(kPrefix911));
  CHECK(out.unparsed.empty());
  CHECK(out.diagnostics.empty());
  CHECK(out.counts.total == 8);
  CHECK(out.counts.parsed == 8);
  REQUIRE(out.records.size() == 6);

  const LogRecord& r0 = out.records[0];
  CHECK(r0.pid == 10808);
  CHECK(r0.time == "Feb 11 13:15:39");
  CHECK(r0.severity == "LOG");
  CHECK(r0.message == "ending log output to stderr");
  CHECK(r0.hint == R"(Future log output will go to log destination "syslog".)");
  CHECK(r0.source.first_line == 1);
  CHECK(r0.source.last_line == 2);
  CHECK(r0.session.user.empty());
  CHECK(r0.session.database.empty());

  CHECK(out.records[1].pid == 10809);
  CHECK(out.records[1].message == "database system was shut down at 2019-02-11 13:14:59 CET");
  CHECK(out.records[2].pid == 10808);
  CHECK(out.records[2].message == "database system is ready to accept connections");
  CHECK(out.records[2].source.first_line == 4);

  const LogRecord& r3 = out.records[3];
  CHECK(r3.pid == 10816);
  CHECK(r3.message == "connection received: host=[local]");
  CHECK(r3.session.host == "[local]");
  CHECK(r3.session.user.empty());  // [unknown]

  CHECK(out.records[4].pid == 10819);
  CHECK(out.records[4].time == "Feb 11 13:15:40");

  const LogRecord& r5 = out.records[5];
  CHECK(r5.pid == 10819);
  CHECK(r5.message ==
        "duration: 13.997 ms  statement: SELECT d.datname as \"Name\",\n"
        "       pg_catalog.pg_get_userbyid(d.datdba) as \"Owner\",");
  CHECK(r5.session.user == "postgres");
  CHECK(r5.session.database == "postgres");
  CHECK(r5.session.application == "psql");
  CHECK(r5.session.host == "[local]");
  CHECK(r5.source.first_line == 7);
  CHECK(r5.source.last_line == 8);
}

TEST_CASE("syslog excerpt §9.6 (journald): [%p] inside, read with or without --prefix") {
  for (const std::optional<std::string>& prefix :
       {std::optional<std::string>(), std::optional<std::string>("[%p] ")}) {
    INFO("prefix " << prefix.value_or("(detected)"));
    Collected out = Read<SyslogReader>(kExcerpt96, prefix);
    CHECK(out.counts.parsed == 3);
    CHECK(out.unparsed.empty());
    REQUIRE(out.records.size() == 1);
    const LogRecord& r = out.records[0];
    CHECK(r.pid == 1383234);
    CHECK(r.time == "nov. 30 02:30:07");
    CHECK(r.severity == "LOG");
    CHECK(r.message ==
          "process 1383234 still waiting for ShareLock on transaction 803394 after 1002.197 ms");
    CHECK(r.detail ==
          "Process holding the lock: 1383240. Wait queue: 1383074, 1383238, 1382516, […], "
          "1382524, 1383234.");
    CHECK(r.context == R"(while rechecking updated tuple (17,5) in relation "oc_authtoken")");
  }
}

// A §9.1-like deadlock report as rsyslog writes it, prefix '%m [%p] ': TAB
// continuations as #011, another process's lines in between, and the query
// of 4849 longer than 900 bytes, cut by write_syslog at a space.
struct ChunkedDeadlock {
  std::string query;  // 4849's query, whole
  std::string text;   // the syslog file
};

ChunkedDeadlock MakeChunkedDeadlock() {
  ChunkedDeadlock c;
  c.query = "SELECT id";
  for (int i = 0; c.query.size() < 1200; ++i) c.query += ", column_" + std::to_string(i);
  c.query += " FROM redacted_table_2";
  const std::string line = "\tProcess 4849: " + c.query;  // the physical line
  const size_t cut = line.rfind(' ', 900);                // back to a space
  const std::string head = "Mar 14 00:23:00 db1 postgres[4849]: ";
  const std::string pfx = "2019-03-14 00:23:00.101 UTC [4849] ";
  const std::string statement = pfx + "STATEMENT:  " + c.query;
  const size_t cut2 = statement.rfind(' ', 900);
  c.text =
      head + "[18-1] " + pfx + "LOG:  process 4849 detected deadlock while waiting for ShareLock on transaction 259635360 after 1000.134 ms\n" +
      head + "[18-2] " + pfx + "DETAIL:  Process holding the lock: 4821. Wait queue: 4886, 4882.\n" +
      head + "[19-1] " + pfx + "ERROR:  deadlock detected\n" +
      head + "[19-2] " + pfx + "DETAIL:  Process 4849 waits for ShareLock on transaction 259635360; blocked by process 4821.\n" +
      head + "[19-3] #011Process 4821 waits for ShareLock on transaction 259635221; blocked by process 4796.\n" +
      "Mar 14 00:23:00 db1 postgres[4821]: [19-1] 2019-03-14 00:23:00.102 UTC [4821] LOG:  process 4821 acquired ShareLock on transaction 259635221 after 5634.256 ms\n" +
      head + "[19-4] #011Process 4796 waits for ShareLock on transaction 259635423; blocked by process 4849.\n" +
      head + "[19-5] #011" + line.substr(1, cut - 1) + "\n" +
      head + "[19-6] " + line.substr(cut) + "\n" +
      head + "[19-7] #011Process 4821: UPDATE t SET a = 1\n" +
      head + "[19-8] #011Process 4796: UPDATE t SET a = 2\n" +
      head + "[19-9] " + pfx + "HINT:  See server log for query details.\n" +
      head + "[19-10] " + pfx + "CONTEXT:  while locking tuple (1320064,42) in relation \"redacted_table_2\"\n" +
      head + "[19-11] " + statement.substr(0, cut2) + "\n" +
      head + "[19-12] " + statement.substr(cut2) + "\n";
  return c;
}

TEST_CASE("syslog chunked deadlock report: #011 lines, interleaving, 900-byte cut") {
  const ChunkedDeadlock c = MakeChunkedDeadlock();
  Collected out = Read<SyslogReader>(c.text, std::optional<std::string>("%m [%p] "));
  CHECK(out.unparsed.empty());
  CHECK(out.counts.total == 15);
  CHECK(out.counts.parsed == 15);
  std::vector<const LogRecord*> errors;
  for (const LogRecord& r : out.records)
    if (r.severity == "ERROR") errors.push_back(&r);
  REQUIRE(errors.size() == 1);
  const LogRecord& e = *errors[0];
  CHECK(e.pid == 4849);
  CHECK(e.time == "2019-03-14 00:23:00.101 UTC");
  CHECK(e.sqlstate.empty());  // this prefix has no %e
  CHECK(e.message == "deadlock detected");
  CHECK(e.detail ==
        "Process 4849 waits for ShareLock on transaction 259635360; blocked by process 4821.\n"
        "Process 4821 waits for ShareLock on transaction 259635221; blocked by process 4796.\n"
        "Process 4796 waits for ShareLock on transaction 259635423; blocked by process 4849.\n"
        "Process 4849: " + c.query + "\n"
        "Process 4821: UPDATE t SET a = 1\n"
        "Process 4796: UPDATE t SET a = 2");
  CHECK(e.hint == "See server log for query details.");
  CHECK(e.context == R"(while locking tuple (1320064,42) in relation "redacted_table_2")");
  CHECK(e.statement == c.query);
  CHECK(e.source.first_line == 3);
  CHECK_FALSE(e.truncated);
}

TEST_CASE("syslog chunked deadlock report yields the cycle 4849 -> 4821 -> 4796 -> 4849") {
  const ChunkedDeadlock c = MakeChunkedDeadlock();
  record_test::CollectingSink sink;
  auto format = MakePgSyslogFormat();
  SniffResult sniff = format->Sniff(Lines(c.text), {});
  CHECK(sniff.verdict == SniffResult::Verdict::kMatch);
  CHECK(sniff.score == 15);
  CHECK(sniff.detected == "%m [%p] ");
  record_test::ParseWith(*format, c.text, sink, sniff.detected);
  std::vector<const Event*> deadlocks;
  for (const Event& ev : sink.events)
    if (ev.type == EventType::kDeadlock) deadlocks.push_back(&ev);
  REQUIRE(deadlocks.size() == 1);
  const Deadlock& d = *deadlocks[0]->deadlock;
  CHECK(d.victim == "4849");
  CHECK(d.complete);
  CHECK(CycleString(d) ==
        "4849 -ShareLock/transaction 259635360-> 4821; "
        "4821 -ShareLock/transaction 259635221-> 4796; "
        "4796 -ShareLock/transaction 259635423-> 4849");
  REQUIRE(d.processes.size() == 3);
  CHECK(d.processes[0].query == c.query);
  CHECK(d.statement == c.query);
}

TEST_CASE("syslog sniff: [seq-chunk] framing matches, stderr and csvlog do not") {
  auto format = MakePgSyslogFormat();
  CHECK(format->Name() == "syslog");
  SniffResult yes = format->Sniff(Lines(kExcerpt911), {});
  CHECK(yes.verdict == SniffResult::Verdict::kMatch);
  CHECK(yes.score == 8);

  ParseOptions given;
  given.has_prefix = true;
  given.log_line_prefix = kPrefix911;
  SniffResult forced = format->Sniff(Lines(kExcerpt911), given);
  CHECK(forced.verdict == SniffResult::Verdict::kMatch);
  CHECK(forced.detected == kPrefix911);
  CHECK(forced.reason == std::string("log_line_prefix '") + kPrefix911 + "' inside syslog messages");

  SniffResult stderr_log = format->Sniff(
      {"2021-01-21 12:58:34.900 CET [4136] ERROR:  deadlock detected",
       "2021-01-21 12:58:34.900 CET [4136] HINT:  See server log for query details."},
      {});
  CHECK(stderr_log.verdict == SniffResult::Verdict::kNoMatch);
  CHECK(stderr_log.score == 0);
  CHECK(stderr_log.reason ==
        "only 0 of 2 lines have syslog framing (`Mon DD HH:MM:SS host ident[pid]: `)");

  // Syslog framing of another daemon, no PostgreSQL inside.
  SniffResult other = format->Sniff({"Feb 11 13:15:39 h sshd[1]: Accepted publickey for a",
                                     "Feb 11 13:15:40 h sshd[1]: session opened"},
                                    {});
  CHECK(other.verdict == SniffResult::Verdict::kNoMatch);
}

TEST_CASE("syslog reader detects the prefix from the head, or warns and reads on") {
  const ChunkedDeadlock c = MakeChunkedDeadlock();
  Collected detected = Read<SyslogReader>(c.text, std::optional<std::string>());
  CHECK(detected.diagnostics.empty());
  CHECK(detected.counts.parsed == 15);
  CHECK(detected.records.size() == 3);

  Collected bad = Read<SyslogReader>(c.text, std::optional<std::string>("%m [%p] %u@%d "));
  // A prefix that does not fit: every line is unparsed, nothing invented.
  CHECK(bad.records.empty());
  CHECK(bad.counts.unparsed == 15);
}

// Real output: PostgreSQL 15.18 through rsyslog 8.2302 (traditional file
// format), log_line_prefix '%m [%p] %q%u@%d ', a two-process deadlock whose
// queries are over 900 bytes (cut by write_syslog) and contain TABs
// (#011#011), with the other backend's lines in the middle of the report.
constexpr std::string_view kRsyslogDeadlock = R"syslog(Dec  2 10:24:27 vm postgres[30256]: [7-1] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres LOG:  process 30256 detected deadlock while waiting for ShareLock on transaction 726 after 104.328 ms
Dec  2 10:24:27 vm postgres[30256]: [7-2] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres DETAIL:  Process holding the lock: 30257. Wait queue: .
Dec  2 10:24:27 vm postgres[30256]: [7-3] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres CONTEXT:  while updating tuple (0,2) in relation "t"
Dec  2 10:24:27 vm postgres[30256]: [7-4] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres STATEMENT:  UPDATE t
Dec  2 10:24:27 vm postgres[30256]: [7-5] #011   SET v = v + 1 /* word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 word25 word26 word27 word28 word29 word30 word31 word32 word33 word34 word35 word36 word37 word38 word39 word40 word41 word42 word43 word44 word45 word46 word47 word48 word49 word50 word51 word52 word53 word54 word55 word56 word57 word58 word59 word60 word61 word62 word63 word64 word65 word66 word67 word68 word69 word70 word71 word72 word73 word74 word75 word76 word77 word78 word79 word80 word81 word82 word83 word84 word85 word86 word87 word88 word89 word90 word91 word92 word93 word94 word95 word96 word97 word98 word99 word100 word101 word102 word103 word104 word105 word106 word107 word108 word109 word110 word111 word112 word113 word114 word115 word116 word117 word118 word119 word120 word121 word122
Dec  2 10:24:27 vm postgres[30256]: [7-6]  word123 word124 word125 word126 word127 word128 word129 word130 word131 word132 word133 word134 word135 word136 word137 word138 word139 word140 word141 word142 word143 word144 word145 word146 word147 word148 word149 word150 word151 word152 word153 word154 word155 word156 word157 word158 word159 word160 word161 word162 word163 word164 word165 word166 word167 word168 word169 word170 word171 word172 word173 word174 word175 word176 word177 word178 word179 word180 word181 word182 word183 word184 word185 word186 word187 word188 word189 word190 word191 word192 word193 word194 word195 word196 word197 word198 word199 word200 word201 word202 word203 word204 word205 word206 word207 word208 word209 word210 word211 word212 word213 word214 word215 word216 word217 word218 word219 */
Dec  2 10:24:27 vm postgres[30256]: [7-7] #011 WHERE id = 2;
Dec  2 10:24:27 vm postgres[30256]: [8-1] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres ERROR:  deadlock detected
Dec  2 10:24:27 vm postgres[30256]: [8-2] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres DETAIL:  Process 30256 waits for ShareLock on transaction 726; blocked by process 30257.
Dec  2 10:24:27 vm postgres[30256]: [8-3] #011Process 30257 waits for ShareLock on transaction 725; blocked by process 30256.
Dec  2 10:24:27 vm postgres[30256]: [8-4] #011Process 30256: UPDATE t
Dec  2 10:24:27 vm postgres[30257]: [7-1] 2026-12-02 10:24:27.684 UTC [30257] postgres@postgres LOG:  process 30257 still waiting for ShareLock on transaction 725 after 103.557 ms
Dec  2 10:24:27 vm postgres[30256]: [8-5] #011   SET v = v + 1 /* word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 word25 word26 word27 word28 word29 word30 word31 word32 word33 word34 word35 word36 word37 word38 word39 word40 word41 word42 word43 word44 word45 word46 word47 word48 word49 word50 word51 word52 word53 word54 word55 word56 word57 word58 word59 word60 word61 word62 word63 word64 word65 word66 word67 word68 word69 word70 word71 word72 word73 word74 word75 word76 word77 word78 word79 word80 word81 word82 word83 word84 word85 word86 word87 word88 word89 word90 word91 word92 word93 word94 word95 word96 word97 word98 word99 word100 word101 word102 word103 word104 word105 word106 word107 word108 word109 word110 word111 word112 word113 word114 word115 word116 word117 word118 word119 word120 word121 word122
Dec  2 10:24:27 vm postgres[30256]: [8-6]  word123 word124 word125 word126 word127 word128 word129 word130 word131 word132 word133 word134 word135 word136 word137 
Dec  2 10:24:27 vm postgres[30256]: [8-7] #011Process 30257: UPDATE t
Dec  2 10:24:27 vm postgres[30256]: [8-8] #011#011SET v = v + 2 -- short
Dec  2 10:24:27 vm postgres[30256]: [8-9] #011#011WHERE id = 1;
Dec  2 10:24:27 vm postgres[30256]: [8-10] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres HINT:  See server log for query details.
Dec  2 10:24:27 vm postgres[30256]: [8-11] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres CONTEXT:  while updating tuple (0,2) in relation "t"
Dec  2 10:24:27 vm postgres[30256]: [8-12] 2026-12-02 10:24:27.680 UTC [30256] postgres@postgres STATEMENT:  UPDATE t
Dec  2 10:24:27 vm postgres[30256]: [8-13] #011   SET v = v + 1 /* word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 word25 word26 word27 word28 word29 word30 word31 word32 word33 word34 word35 word36 word37 word38 word39 word40 word41 word42 word43 word44 word45 word46 word47 word48 word49 word50 word51 word52 word53 word54 word55 word56 word57 word58 word59 word60 word61 word62 word63 word64 word65 word66 word67 word68 word69 word70 word71 word72 word73 word74 word75 word76 word77 word78 word79 word80 word81 word82 word83 word84 word85 word86 word87 word88 word89 word90 word91 word92 word93 word94 word95 word96 word97 word98 word99 word100 word101 word102 word103 word104 word105 word106 word107 word108 word109 word110 word111 word112 word113 word114 word115 word116 word117 word118 word119 word120 word121 word122
Dec  2 10:24:27 vm postgres[30256]: [8-14]  word123 word124 word125 word126 word127 word128 word129 word130 word131 word132 word133 word134 word135 word136 word137 word138 word139 word140 word141 word142 word143 word144 word145 word146 word147 word148 word149 word150 word151 word152 word153 word154 word155 word156 word157 word158 word159 word160 word161 word162 word163 word164 word165 word166 word167 word168 word169 word170 word171 word172 word173 word174 word175 word176 word177 word178 word179 word180 word181 word182 word183 word184 word185 word186 word187 word188 word189 word190 word191 word192 word193 word194 word195 word196 word197 word198 word199 word200 word201 word202 word203 word204 word205 word206 word207 word208 word209 word210 word211 word212 word213 word214 word215 word216 word217 word218 word219 */
Dec  2 10:24:27 vm postgres[30256]: [8-15] #011 WHERE id = 2;
Dec  2 10:24:27 vm postgres[30257]: [7-2] 2026-12-02 10:24:27.684 UTC [30257] postgres@postgres DETAIL:  Process holding the lock: 30256. Wait queue: 30257.
Dec  2 10:24:27 vm postgres[30257]: [7-3] 2026-12-02 10:24:27.684 UTC [30257] postgres@postgres CONTEXT:  while updating tuple (0,1) in relation "t"
Dec  2 10:24:27 vm postgres[30257]: [7-4] 2026-12-02 10:24:27.684 UTC [30257] postgres@postgres STATEMENT:  UPDATE t
Dec  2 10:24:27 vm postgres[30257]: [7-5] #011#011SET v = v + 2 -- short
Dec  2 10:24:27 vm postgres[30257]: [7-6] #011#011WHERE id = 1;
Dec  2 10:24:27 vm postgres[30257]: [8-1] 2026-12-02 10:24:27.688 UTC [30257] postgres@postgres LOG:  process 30257 acquired ShareLock on transaction 725 after 107.548 ms
Dec  2 10:24:27 vm postgres[30257]: [8-2] 2026-12-02 10:24:27.688 UTC [30257] postgres@postgres CONTEXT:  while updating tuple (0,1) in relation "t"
Dec  2 10:24:27 vm postgres[30257]: [8-3] 2026-12-02 10:24:27.688 UTC [30257] postgres@postgres STATEMENT:  UPDATE t
Dec  2 10:24:27 vm postgres[30257]: [8-4] #011#011SET v = v + 2 -- short
Dec  2 10:24:27 vm postgres[30257]: [8-5] #011#011WHERE id = 1;
)syslog";

// The statement of 30256 as psql sent it.
std::string RsyslogStatement() {
  std::string words;
  for (int i = 0; i < 220; ++i) words += (i ? " word" : "word") + std::to_string(i);
  return "UPDATE t\n   SET v = v + 1 /* " + words + " */\n WHERE id = 2;";
}

TEST_CASE("syslog from a real server through rsyslog: the deadlock report is rebuilt") {
  Collected out = Read<SyslogReader>(kRsyslogDeadlock, std::optional<std::string>());
  CHECK(out.diagnostics.empty());
  CHECK(out.unparsed.empty());
  CHECK(out.counts.total == 33);
  CHECK(out.counts.parsed == 33);
  std::vector<const LogRecord*> errors;
  for (const LogRecord& r : out.records)
    if (r.severity == "ERROR") errors.push_back(&r);
  REQUIRE(errors.size() == 1);
  const LogRecord& e = *errors[0];
  const std::string statement = RsyslogStatement();
  CHECK(e.pid == 30256);
  CHECK(e.time == "2026-12-02 10:24:27.680 UTC");
  CHECK(e.message == "deadlock detected");
  // track_activity_query_size = 1024 clips each query to 1023 bytes.
  CHECK(e.detail ==
        "Process 30256 waits for ShareLock on transaction 726; blocked by process 30257.\n"
        "Process 30257 waits for ShareLock on transaction 725; blocked by process 30256.\n"
        "Process 30256: " + statement.substr(0, 1023) + "\n"
        "Process 30257: UPDATE t\n\tSET v = v + 2 -- short\n\tWHERE id = 1;");
  CHECK(e.hint == "See server log for query details.");
  CHECK(e.context == R"(while updating tuple (0,2) in relation "t")");
  CHECK(e.statement == statement);
  CHECK(e.session.user == "postgres");
  CHECK(e.session.database == "postgres");
  CHECK(e.source.first_line == 8);

  record_test::CollectingSink sink;
  auto format = MakePgSyslogFormat();
  SniffResult sniff = format->Sniff(Lines(kRsyslogDeadlock), {});
  CHECK(sniff.verdict == SniffResult::Verdict::kMatch);
  CHECK(sniff.detected == "%m [%p] %q%u@%d ");
  record_test::ParseWith(*format, kRsyslogDeadlock, sink, sniff.detected);
  std::vector<const Event*> deadlocks;
  for (const Event& ev : sink.events)
    if (ev.type == EventType::kDeadlock) deadlocks.push_back(&ev);
  REQUIRE(deadlocks.size() == 1);
  const Deadlock& d = *deadlocks[0]->deadlock;
  CHECK(d.victim == "30256");
  CHECK(d.complete);
  CHECK(CycleString(d) ==
        "30256 -ShareLock/transaction 726-> 30257; 30257 -ShareLock/transaction 725-> 30256");
  REQUIRE(d.processes.size() == 2);
  CHECK(d.processes[1].query == "UPDATE t\n\tSET v = v + 2 -- short\n\tWHERE id = 1;");
}

TEST_CASE("syslog inputs are detected as syslog by the whole pipeline") {
  Report excerpt = test::AnalyzeText(std::string(kExcerpt911));
  REQUIRE(excerpt.inputs.size() == 1);
  CHECK(excerpt.inputs[0].format == "syslog");
  CHECK(excerpt.summary.lines.total == 8);
  CHECK(excerpt.summary.lines.parsed == 8);

  Report chunked = test::AnalyzeText(MakeChunkedDeadlock().text);
  REQUIRE(chunked.inputs.size() == 1);
  CHECK(chunked.inputs[0].format == "syslog");
  CHECK(chunked.inputs[0].detected == "%m [%p] ");
  CHECK(chunked.summary.deadlocks == 1);
  CHECK(chunked.summary.deadlocks_incomplete == 0);
  CHECK(chunked.summary.lines.unparsed == 0);
}

}  // namespace
}  // namespace lockgraph
