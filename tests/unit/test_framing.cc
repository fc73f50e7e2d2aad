// Framings (parsers/framing/): each framing's Strip on published lines, the
// choice between framings and formats, stream separation, skipped lines
// counted with their reasons, and one deadlock through each framing with its
// exact cycle.
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "parsers/framing/framing.h"
#include "record_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

using record_test::Lines;
using test::AnalyzeText;
using test::CycleString;

/// Strips `line` with a fresh stripper of `framing` (head: the line itself).
/// The views stay valid until the next call.
StrippedLine StripOne(std::unique_ptr<Framing> framing, const std::string& line,
                      std::string* stream = nullptr) {
  static std::unique_ptr<FrameStripper> stripper;
  static std::string kept;
  kept = line;
  stripper = framing->NewStripper({kept});
  StrippedLine out;
  stripper->Strip(kept, &out);
  if (stream) *stream = std::string(out.stream);
  return out;
}

// Reference postgresql-logs.md §9.5 (https://github.com/superdurable/dex/issues/51).
TEST_CASE("docker compose: service prefix, padding, bare '|', colours, -t", "[framing]") {
  std::string stream;
  StrippedLine s = StripOne(MakeDockerComposeFraming(),
                            "dev-postgres-1  | 2023-10-18 14:53:56.152 UTC [14344] ERROR:  "
                            "deadlock detected",
                            &stream);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(stream == "dev-postgres-1");
  CHECK(s.inner == "2023-10-18 14:53:56.152 UTC [14344] ERROR:  deadlock detected");
  s = StripOne(MakeDockerComposeFraming(),
               "dev-postgres-1  | \tProcess 14722 waits for ShareLock on transaction 4425; "
               "blocked by process 14344.");
  CHECK(s.inner == "\tProcess 14722 waits for ShareLock on transaction 4425; blocked by "
                   "process 14344.");
  s = StripOne(MakeDockerComposeFraming(), "dev-postgres-1  |", &stream);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(stream == "dev-postgres-1");
  CHECK(s.inner == "");
  // docker-compose v1 names, compose v2's colours, `logs -t`.
  s = StripOne(MakeDockerComposeFraming(), "db_1   | 2026-12-02 10:15:18.556 UTC [6497] LOG:  x",
               &stream);
  CHECK(stream == "db_1");
  CHECK(s.inner == "2026-12-02 10:15:18.556 UTC [6497] LOG:  x");
  s = StripOne(MakeDockerComposeFraming(),
               "\x1b[36mdb-1  | \x1b[0m2026-12-02T10:15:18.556000000Z 2026-12-02 10:15:18.556 "
               "UTC [6497] LOG:  x",
               &stream);
  CHECK(stream == "db-1");
  CHECK(s.time == "2026-12-02T10:15:18.556000000Z");
  CHECK(s.inner == "2026-12-02 10:15:18.556 UTC [6497] LOG:  x");
  CHECK(StripOne(MakeDockerComposeFraming(), "2026-12-02 10:15:18.556 UTC [6497] LOG:  x").kind ==
        StrippedLine::Kind::kNoFrame);
}

// The shape of kubectl's --prefix ("[pod/NAME/CONTAINER] ") and
// --timestamps (RFC3339Nano) as kubectl's reference describes them.
TEST_CASE("kubectl: [pod/NAME/CONTAINER] and --timestamps", "[framing]") {
  std::string stream;
  StrippedLine s = StripOne(MakeKubectlFraming(),
                            "[pod/pg-0/postgres] 2026-12-02T10:15:19.504123456Z 2026-12-02 "
                            "10:15:19.504 UTC [6544] ERROR:  deadlock detected",
                            &stream);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(stream == "pod/pg-0/postgres");
  CHECK(s.time == "2026-12-02T10:15:19.504123456Z");
  CHECK(s.inner == "2026-12-02 10:15:19.504 UTC [6544] ERROR:  deadlock detected");
  s = StripOne(MakeKubectlFraming(), "[pod/pg-0/postgres] \tProcess 6531: UPDATE t", &stream);
  CHECK(s.inner == "\tProcess 6531: UPDATE t");
  CHECK(s.time.empty());
}

TEST_CASE("docker --timestamps and CloudWatch: told apart by the fraction", "[framing]") {
  const std::string docker = "2026-12-02T10:15:18.556123456Z 2026-12-02 10:15:18.556 UTC [1] LOG:  x";
  // platforms.md §1.2, darold/pgbadger#521.
  const std::string cloudwatch =
      "2019-08-09T18:00:00.000Z 2019-08-09 18:00:00 UTC:10.50.72.222(33436):lmn@lmn_db:[26802]:"
      "LOG:  duration: 13.817 ms  statement: SELECT id,name from abc";
  StrippedLine s = StripOne(MakeDockerTimestampsFraming(), docker);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(s.time == "2026-12-02T10:15:18.556123456Z");
  CHECK(s.inner == "2026-12-02 10:15:18.556 UTC [1] LOG:  x");
  CHECK(StripOne(MakeCloudWatchFraming(), docker).kind == StrippedLine::Kind::kNoFrame);
  s = StripOne(MakeCloudWatchFraming(), cloudwatch);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(s.time == "2019-08-09T18:00:00.000Z");
  CHECK(s.inner ==
        "2019-08-09 18:00:00 UTC:10.50.72.222(33436):lmn@lmn_db:[26802]:LOG:  duration: 13.817 "
        "ms  statement: SELECT id,name from abc");
}

TEST_CASE("Heroku: classic drain and HTTPS drain", "[framing]") {
  std::string stream;
  // postgresql-logs.md §9.1 (darold/pgbadger t/fixtures/logplex.gz).
  StrippedLine s = StripOne(MakeHerokuFraming(),
                            "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-1]  "
                            "sql_error_code = 40P01 ERROR:  deadlock detected",
                            &stream);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(stream == "app[postgres]");
  CHECK(s.pid == 4849);
  CHECK(s.time == "2019-03-14T00:23:00+00:00");
  CHECK(s.inner == " sql_error_code = 40P01 ERROR:  deadlock detected");
  s = StripOne(MakeHerokuFraming(),
               "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-3] \tProcess 4821 "
               "waits for ShareLock on transaction 259635221; blocked by process 4796.");
  CHECK(s.inner ==
        "\tProcess 4821 waits for ShareLock on transaction 259635221; blocked by process 4796.");
  // platforms.md §1.6: pganalyze input/system/heroku/http_syslog_parser_test.go.
  s = StripOne(MakeHerokuFraming(),
               "451 <134>1 2023-06-05T19:33:14+00:00 host app postgres.1105947 - [YELLOW] [12-1]  "
               "sql_error_code = 00000 time_ms = \"2023-06-05 19:33:14.793 UTC\" pid=\"1991397\" "
               "LOG:  duration: 2405.887 ms",
               &stream);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(stream == "app[postgres]");
  CHECK(s.pid == 1105947);
  CHECK(s.inner == " sql_error_code = 00000 time_ms = \"2023-06-05 19:33:14.793 UTC\" "
                   "pid=\"1991397\" LOG:  duration: 2405.887 ms");
  // Heroku's own metrics lines are a stream of their own.
  s = StripOne(MakeHerokuFraming(),
               "2023-06-05T19:27:18+00:00 app[heroku-postgres]: source=HEROKU_POSTGRESQL_YELLOW "
               "sample#db_size=10311979679bytes",
               &stream);
  CHECK(stream == "app[heroku-postgres]");
  CHECK_FALSE(s.pid);
}

// RFC 5424 §6.5, examples 1 and 3 (BOM spelled out in the RFC as "BOM").
TEST_CASE("RFC 5424: header, structured data, BOM, octet count", "[framing]") {
  std::string stream;
  StrippedLine s = StripOne(MakeRfc5424Framing(),
                            "<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - "
                            "\xEF\xBB\xBF'su root' failed for lonvick on /dev/pts/8",
                            &stream);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(stream == "mymachine.example.com/su");
  CHECK_FALSE(s.pid);
  CHECK(s.inner == "'su root' failed for lonvick on /dev/pts/8");
  s = StripOne(MakeRfc5424Framing(),
               "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 "
               "[exampleSDID@32473 iut=\"3\" eventSource=\"Appl\\]ication\" eventID=\"1011\"] "
               "An application event log entry...");
  CHECK(s.inner == "An application event log entry...");
  s = StripOne(MakeRfc5424Framing(),
               "83 <134>1 2026-12-02T10:15:18.556Z dbhost postgres 6497 - - 2026-12-02 "
               "10:15:18.556 UTC [6497] LOG:  x",
               &stream);
  CHECK(stream == "dbhost/postgres");
  CHECK(s.pid == 6497);
  CHECK(s.inner == "2026-12-02 10:15:18.556 UTC [6497] LOG:  x");
}

TEST_CASE("grep: -H, -n, context lines, '--', file names with '-'", "[framing]") {
  const std::vector<std::string> head = {
      "postgresql-15-main.log-11-2026-12-02 10:15:19.504 UTC [6544] LOG:  before",
      "postgresql-15-main.log:12:2026-12-02 10:15:19.504 UTC [6544] ERROR:  deadlock detected",
      "postgresql-15-main.log-13-\tProcess 6531 waits for ShareLock",
      "--",
  };
  auto stripper = MakeGrepFraming()->NewStripper(head);
  StrippedLine s;
  stripper->Strip(head[0], &s);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(s.stream == "postgresql-15-main.log");
  CHECK(s.inner == "2026-12-02 10:15:19.504 UTC [6544] LOG:  before");
  stripper->Strip(head[1], &s);
  CHECK(s.inner == "2026-12-02 10:15:19.504 UTC [6544] ERROR:  deadlock detected");
  stripper->Strip(head[2], &s);
  CHECK(s.stream == "postgresql-15-main.log");
  CHECK(s.inner == "\tProcess 6531 waits for ShareLock");
  stripper->Strip(head[3], &s);
  CHECK(s.kind == StrippedLine::Kind::kSkip);
  CHECK(s.reason == "grep's separator between groups of context lines (--)");
  // grep -n on one file: no names.
  const std::vector<std::string> numbered = {"12:2026-12-02 10:15:19.504 UTC [6544] ERROR:  x",
                                             "13-\tProcess 6531 waits"};
  stripper = MakeGrepFraming()->NewStripper(numbered);
  stripper->Strip(numbered[1], &s);
  CHECK(s.kind == StrippedLine::Kind::kLine);
  CHECK(s.stream.empty());
  CHECK(s.inner == "\tProcess 6531 waits");
  // A plain stderr log is not grep output.
  const std::vector<std::string> plain = {"2026-12-02 10:15:19.504 UTC [6544] ERROR:  x"};
  stripper = MakeGrepFraming()->NewStripper(plain);
  stripper->Strip(plain[0], &s);
  CHECK(s.kind == StrippedLine::Kind::kNoFrame);
}

// The two_way scenario of samples/postgresql/scenarios.log (real server).
constexpr std::string_view kTwoWay =
    R"(2026-12-02 10:15:19.176 UTC [6531] postgres@lockgraph/lg_two_way_A LOG:  process 6531 still waiting for ShareLock on transaction 730 after 105.327 ms
2026-12-02 10:15:19.176 UTC [6531] postgres@lockgraph/lg_two_way_A DETAIL:  Process holding the lock: 6544. Wait queue: 6531.
2026-12-02 10:15:19.176 UTC [6531] postgres@lockgraph/lg_two_way_A CONTEXT:  while updating tuple (0,2) in relation "accounts"
2026-12-02 10:15:19.176 UTC [6531] postgres@lockgraph/lg_two_way_A STATEMENT:  UPDATE accounts SET balance = balance + 10 WHERE id = 2;
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B LOG:  process 6544 detected deadlock while waiting for ShareLock on transaction 729 after 100.102 ms
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B DETAIL:  Process holding the lock: 6531. Wait queue: .
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B CONTEXT:  while updating tuple (0,1) in relation "accounts"
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B STATEMENT:  UPDATE accounts SET balance = balance + 20 WHERE id = 1;
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B ERROR:  deadlock detected
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B DETAIL:  Process 6544 waits for ShareLock on transaction 729; blocked by process 6531.
	Process 6531 waits for ShareLock on transaction 730; blocked by process 6544.
	Process 6544: UPDATE accounts SET balance = balance + 20 WHERE id = 1;
	Process 6531: UPDATE accounts SET balance = balance + 10 WHERE id = 2;
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B HINT:  See server log for query details.
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B CONTEXT:  while updating tuple (0,1) in relation "accounts"
2026-12-02 10:15:19.504 UTC [6544] postgres@lockgraph/lg_two_way_B STATEMENT:  UPDATE accounts SET balance = balance + 20 WHERE id = 1;
2026-12-02 10:15:19.521 UTC [6531] postgres@lockgraph/lg_two_way_A LOG:  process 6531 acquired ShareLock on transaction 730 after 450.432 ms
)";
constexpr const char* kTwoWayCycle =
    "6544 -ShareLock/transaction 729-> 6531; 6531 -ShareLock/transaction 730-> 6544";

std::string Wrap(std::string_view text, const std::function<std::string(const std::string&)>& f) {
  std::string out;
  for (const std::string& line : Lines(text)) out += f(line) + "\n";
  return out;
}

const Event* OnlyDeadlock(const Report& r) {
  const Event* found = nullptr;
  for (const Event& ev : r.events)
    if (ev.deadlock) {
      if (found) return nullptr;
      found = &ev;
    }
  return found;
}

TEST_CASE("one deadlock through each framing, with its exact cycle", "[framing]") {
  struct Case {
    const char* framing;
    std::function<std::string(const std::string&)> wrap;
  };
  const std::string t = "2026-12-02T10:15:19.504000000Z ";
  const Case cases[] = {
      {"docker-compose", [](const std::string& l) { return "db-1  | " + l; }},
      {"kubectl", [&](const std::string& l) { return "[pod/pg-0/postgres] " + t + l; }},
      {"docker-timestamps", [&](const std::string& l) { return t + l; }},
      {"cloudwatch",
       [](const std::string& l) { return l[0] == '\t' ? l : "2026-12-02T10:15:19.504Z " + l; }},
      {"rfc5424",
       [](const std::string& l) { return "<134>1 2026-12-02T10:15:19.504Z h postgres 1 - - " + l; }},
      {"grep", [](const std::string& l) { return (l[0] == '\t' ? "pg.log-" : "pg.log:") + l; }},
  };
  for (const Case& c : cases) {
    SECTION(c.framing) {
      Report r = AnalyzeText(Wrap(kTwoWay, c.wrap));
      REQUIRE(r.inputs.size() == 1);
      CHECK(r.inputs[0].format == "stderr");
      CHECK(r.inputs[0].framing == c.framing);
      CHECK(r.inputs[0].detected == "%m [%p] %q%u@%d/%a ");
      CHECK(r.inputs[0].lines.total == 17);
      CHECK(r.inputs[0].lines.parsed == 17);
      const Event* ev = OnlyDeadlock(r);
      REQUIRE(ev);
      CHECK(ev->deadlock->victim == "6544");
      CHECK(ev->deadlock->complete);
      CHECK(CycleString(*ev->deadlock) == kTwoWayCycle);
      CHECK(r.summary.lock_waits == 2);
    }
  }
}

// postgresql-logs.md §9.1 (darold/pgbadger t/fixtures/logplex.gz), the
// lines the reference quotes: the prefix has no %p; the frame's pid stands
// in.
constexpr std::string_view kHeroku91 =
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [18-1]  sql_error_code = 00000 LOG:  process 4849 detected deadlock while waiting for ShareLock on transaction 259635360 after 1000.134 ms\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [18-2]  sql_error_code = 00000 DETAIL:  Process holding the lock: 4821. Wait queue: 4886, 4882.\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-1]  sql_error_code = 40P01 ERROR:  deadlock detected\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-2]  sql_error_code = 40P01 DETAIL:  Process 4849 waits for ShareLock on transaction 259635360; blocked by process 4821.\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-3] \tProcess 4821 waits for ShareLock on transaction 259635221; blocked by process 4796.\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-4] \tProcess 4796 waits for ShareLock on transaction 259635423; blocked by process 4849.\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-5] \tProcess 4849: WITH redacted_table as (select redacted_field_1, key FROM redacted_table_2 […]\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-6] \tProcess 4821: WITH redacted_table as (select redacted_field_1, key FROM redacted_table_2 […]\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-7] \tProcess 4796: WITH redacted_table as (select redacted_field_1, key FROM redacted_table_2 […]\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-8]  sql_error_code = 40P01 HINT:  See server log for query details.\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-9]  sql_error_code = 40P01 CONTEXT:  while locking tuple (1320064,42) in relation \"redacted_table_2\"\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4849]: [GREEN] [19-10]  sql_error_code = 40P01 STATEMENT:  WITH redacted_table as (select redacted_field_1, key FROM redacted_table_2 […]\n"
    "2019-03-14T00:23:00+00:00 app[postgres.4821]: [GREEN] [19-1]  sql_error_code = 00000 LOG:  process 4821 acquired ShareLock on transaction 259635221 after 5634.256 ms\n";

TEST_CASE("Heroku §9.1: the 3-process deadlock with the frame's pid and time", "[framing]") {
  Report r = AnalyzeText(std::string(kHeroku91));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "stderr");
  CHECK(r.inputs[0].framing == "heroku");
  CHECK(r.inputs[0].detected == " sql_error_code = %e ");
  CHECK(r.inputs[0].lines.parsed == 13);
  CHECK(r.inputs[0].lines.unparsed == 0);
  const Event* ev = OnlyDeadlock(r);
  REQUIRE(ev);
  CHECK(ev->time == "2019-03-14T00:23:00+00:00");
  CHECK(ev->deadlock->victim == "4849");
  CHECK(CycleString(*ev->deadlock) ==
        "4849 -ShareLock/transaction 259635360-> 4821; "
        "4821 -ShareLock/transaction 259635221-> 4796; "
        "4796 -ShareLock/transaction 259635423-> 4849");
}

TEST_CASE("streams: two servers' pids never mix; other services are skipped", "[framing]") {
  // Two PostgreSQL services with the same pids, lines interleaved, and an
  // application between them.
  std::string text;
  int n = 0;
  for (const std::string& line : Lines(kTwoWay)) {
    text += "pg-a-1 | " + line + "\n";
    text += "pg-b-1 | " + line + "\n";
    if (++n % 4 == 0) text += "web-1  | GET /health 200\n";
  }
  text += "oops, a line without a frame\n";
  Report r = AnalyzeText(text);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].framing == "docker-compose");
  CHECK(r.summary.deadlocks == 2);
  for (const Event& ev : r.events)
    if (ev.deadlock) CHECK(CycleString(*ev.deadlock) == kTwoWayCycle);
  CHECK(r.summary.lock_waits == 4);
  const LineCounts& c = r.inputs[0].lines;
  CHECK(c.total == 17 * 2 + 4 + 1);
  CHECK(c.parsed == 34);
  CHECK(c.skipped == 4);
  CHECK(c.unparsed == 1);
  REQUIRE(r.unparsed.size() == 1);
  CHECK(r.unparsed[0].text == "oops, a line without a frame");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].severity == Diagnostic::Severity::kNote);
  CHECK(r.diagnostics[0].message ==
        "4 lines skipped: stream 'web-1' is not a PostgreSQL log: none of its first 200 lines "
        "fits stderr with log_line_prefix '%m [%p] %q%u@%d/%a '");
}

TEST_CASE("grep: '--' counted as skipped, two files are two streams", "[framing]") {
  std::string text;
  for (const std::string& line : Lines(kTwoWay)) text += "a.log:" + line + "\n";
  text += "--\n";
  for (const std::string& line : Lines(kTwoWay)) text += "b.log:" + line + "\n";
  Report r = AnalyzeText(text);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].framing == "grep");
  CHECK(r.summary.deadlocks == 2);
  CHECK(r.inputs[0].lines.skipped == 1);
  CHECK(r.inputs[0].lines.parsed == 34);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message ==
        "1 line skipped: grep's separator between groups of context lines (--)");
}

TEST_CASE("framings do not take plain logs; journald stays the syslog format", "[framing]") {
  Report plain = AnalyzeText(std::string(kTwoWay));
  CHECK(plain.inputs[0].format == "stderr");
  CHECK(plain.inputs[0].framing.empty());
  // postgresql-logs.md §9.6 (https://github.com/nextcloud/server/issues/35506).
  Report journald = AnalyzeText(
      "nov. 30 02:30:07 productivity postgres[1383234]: [1383234] LOG:  process 1383234 still "
      "waiting for ShareLock on transaction 803394 after 1002.197 ms\n"
      "nov. 30 02:30:07 productivity postgres[1383234]: [1383234] DETAIL:  Process holding the "
      "lock: 1383240. Wait queue: 1383074, 1383238.\n");
  CHECK(journald.inputs[0].format == "syslog");
  CHECK(journald.inputs[0].framing.empty());
}

TEST_CASE("--input-format stderr still takes the frames off", "[framing]") {
  Report r = AnalyzeText(Wrap(kTwoWay, [](const std::string& l) { return "db-1  | " + l; }),
                         "stderr");
  CHECK(r.inputs[0].framing == "docker-compose");
  CHECK(r.summary.deadlocks == 1);
}

}  // namespace
}  // namespace lockgraph

namespace lockgraph {
namespace {

TEST_CASE("grep's frame is weak: application output is not grep output", "[framing]") {
  // tests/corpus/41-json-escaped-error: `{"error":` is no file name, and
  // `DETAIL:  Key ...` would leave only stderr's catch-all prefix inside.
  Report json = AnalyzeText(
      "{\"error\":\"ERROR:  deadlock detected\\nDETAIL:  Process 16996 waits for ShareLock on "
      "transaction 33905; blocked by process 22164.\\n\"}\nStatusCode: 500\n");
  CHECK(json.inputs[0].framing.empty());
  Report app = AnalyzeText(
      "ActiveRecord::RecordNotUnique: PG::UniqueViolation: ERROR:  duplicate key value\n"
      "DETAIL:  Key (id)=(1) already exists.\n"
      "INFO: retrying after a deadlock detected earlier\n");
  CHECK(app.inputs[0].framing.empty());
}

}  // namespace
}  // namespace lockgraph
