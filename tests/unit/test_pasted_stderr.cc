// stderr logs as they reach users: the cursor position after a message,
// CRLF and trailing blanks, TABs turned into spaces or lost, a DETAIL whose
// ERROR line grep did not keep, no %p in the prefix; and the line counts
// that say what was skipped or not understood (docs/postgresql.md).
#include <catch2/catch.hpp>

#include "support.h"

using namespace lockgraph;
using test::AnalyzeText;
using test::CycleString;

namespace {

// A real 2-process report (samples/postgresql/rules.log, PostgreSQL 15),
// written as the server writes it; tests change its blanks.
const char* kReport =
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/app ERROR:  deadlock detected at "
    "character 8\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/app DETAIL:  Process 9828 waits for "
    "ShareLock on transaction 1001; blocked by process 9809.\n"
    "\tProcess 9809 waits for ShareLock on transaction 1002; blocked by process 9828.\n"
    "\tProcess 9828: UPDATE accounts SET balance = 1\n"
    "\t  WHERE id = 9;\n"
    "\tProcess 9809: UPDATE accounts SET balance = 2 WHERE id = 10;\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/app HINT:  See server log for query "
    "details.\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/app CONTEXT:  while updating tuple "
    "(0,9) in relation \"accounts\"\n"
    "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/app STATEMENT:  UPDATE accounts SET "
    "balance = 1\n"
    "\t  WHERE id = 9;\n";

const char* kCycle =
    "9828 -ShareLock/transaction 1001-> 9809; 9809 -ShareLock/transaction 1002-> 9828";

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// The one deadlock of `r`, checked whole as far as every rendering keeps it.
void CheckReport(const Report& r, bool complete = true) {
  REQUIRE(r.summary.deadlocks == 1);
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.victim == "9828");
  CHECK(d.message == "deadlock detected");
  CHECK(CycleString(d) == kCycle);
  CHECK(d.complete == complete);
  REQUIRE(d.processes.size() == 2);
  CHECK(d.processes[0].query.substr(0, 30) == "UPDATE accounts SET balance = ");
  CHECK(d.processes[1].query == "UPDATE accounts SET balance = 2 WHERE id = 10;");
  REQUIRE(d.context.size() == 1);
  CHECK(d.context[0].relation == "accounts");
}

}  // namespace

TEST_CASE("deadlock detected at character N is a deadlock", "[stderr][paste]") {
  Report r = AnalyzeText(kReport);
  CheckReport(r);
  CHECK(r.events[0].deadlock->processes[0].query == "UPDATE accounts SET balance = 1\n  WHERE id = 9;");
  CHECK(r.summary.lines.total == 10);
  CHECK(r.summary.lines.parsed == 10);
  CHECK(r.summary.lines.unparsed == 0);
}

TEST_CASE("CRLF, trailing blanks and blank lines between records", "[stderr][paste]") {
  std::string text = Replace(kReport, "\n", "  \r\n");
  text = "\r\n" + text + "\r\n\r\n";
  Report r = AnalyzeText(text);
  CheckReport(r);
  CHECK(r.summary.lines.total == 13);
  CHECK(r.summary.lines.parsed == 12);
  CHECK(r.summary.lines.skipped == 1);  // the blank line before the first record
  // The two after the last one belong to its STATEMENT (query text may end
  // in blank lines); nothing is left over.
  CHECK(r.summary.lines.unparsed == 0);
}

TEST_CASE("continuation TABs turned into spaces", "[stderr][paste]") {
  Report r = AnalyzeText(Replace(kReport, "\t", "        "));
  CheckReport(r);
  CHECK(r.events[0].deadlock->processes[0].query == "UPDATE accounts SET balance = 1\nWHERE id = 9;");
  CHECK(r.summary.lines.parsed == 10);
}

TEST_CASE("continuation TABs lost, and one space after each label (HTML)", "[stderr][paste]") {
  std::string text = Replace(Replace(kReport, "\t", ""), ":  ", ": ");
  Report r = AnalyzeText(text);
  CheckReport(r);
  CHECK(r.summary.lines.parsed == 10);
  CHECK(r.summary.lines.unparsed == 0);
}

TEST_CASE("TABs lost: an uninteresting message's STATEMENT runs over lines too", "[stderr][paste]") {
  // The error's STATEMENT goes the fast way (no record is opened for it),
  // the deadlock's the slow way: the unindented lines after either are the
  // rest of a STATEMENT, not lines the tool did not understand.
  const std::string text =
      "2026-12-05 10:00:00.000 UTC [10] u@d/psql LOG:  statement: BEGIN;\n"
      "2026-12-05 10:00:01.000 UTC [11] u@d/psql ERROR:  relation \"nope\" does not exist at character 15\n"
      "2026-12-05 10:00:01.000 UTC [11] u@d/psql STATEMENT:  SELECT *\n"
      "FROM nope\n"
      "WHERE x = 1;\n"
      "2026-12-05 10:00:02.000 UTC [12] u@d/psql ERROR:  deadlock detected\n"
      "2026-12-05 10:00:02.000 UTC [12] u@d/psql DETAIL:  Process 12 waits for ShareLock on "
      "transaction 5; blocked by process 13.\n"
      "Process 13 waits for ShareLock on transaction 6; blocked by process 12.\n"
      "Process 12: UPDATE a SET x = 1;\n"
      "Process 13: UPDATE b SET x = 1;\n"
      "2026-12-05 10:00:02.000 UTC [12] u@d/psql STATEMENT:  UPDATE a\n"
      "SET x = 1;\n";
  Report r = AnalyzeText(text);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].deadlock->statement == "UPDATE a\nSET x = 1;");
  CHECK(r.summary.lines.total == 12);
  CHECK(r.summary.lines.parsed == 12);
  CHECK(r.summary.lines.unparsed == 0);
}

TEST_CASE("a DETAIL whose ERROR line is missing (grep -A from the DETAIL)", "[stderr][paste]") {
  std::string text = kReport;
  text = text.substr(text.find('\n') + 1);  // no ERROR line
  Report r = AnalyzeText(text);
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.victim == "9828");
  CHECK(CycleString(d) == kCycle);
  CHECK_FALSE(d.complete);
  REQUIRE(d.problems.size() == 1);
  CHECK(d.problems[0] ==
        "the \"ERROR:  deadlock detected\" line is missing: the input begins at the report's "
        "DETAIL (grep output or an excerpt)");
  CHECK(d.processes.size() == 2);
  CHECK(r.summary.deadlocks_incomplete == 1);
}

TEST_CASE("grep 'blocked by': two reports, only their edge lines", "[stderr][paste]") {
  Report r = AnalyzeText(
      "2026-12-02 11:26:16.484 UTC [9828] postgres@lockgraph/app DETAIL:  Process 9828 waits "
      "for ShareLock on transaction 1001; blocked by process 9809.\n"
      "\tProcess 9809 waits for ShareLock on transaction 1002; blocked by process 9828.\n"
      "2026-12-02 11:27:00.001 UTC [9828] postgres@lockgraph/app DETAIL:  Process 9828 waits "
      "for ExclusiveLock on tuple (0,5) of relation 16390 of database 16384; blocked by process "
      "9900.\n"
      "\tProcess 9900 waits for ShareLock on transaction 1010; blocked by process 9828.\n");
  REQUIRE(r.events.size() == 2);
  CHECK(CycleString(*r.events[0].deadlock) == kCycle);
  CHECK(CycleString(*r.events[1].deadlock) ==
        "9828 -ExclusiveLock/tuple (0,5) of relation 16390 of database 16384-> 9900; "
        "9900 -ShareLock/transaction 1010-> 9828");
  for (const Event& ev : r.events) {
    CHECK(ev.deadlock->victim == "9828");
    CHECK_FALSE(ev.deadlock->complete);
    CHECK(ev.deadlock->problems.size() == 2);  // no ERROR line; no query lines
  }
  CHECK(r.summary.lines.parsed == 4);
}

TEST_CASE("no %p in the prefix: the victim is the first edge's waiter", "[stderr][paste]") {
  // log_line_prefix = '%m ': what a server so configured writes.
  Report r = AnalyzeText(
      "2026-12-02 11:26:15.100 UTC LOG:  process 9828 still waiting for ShareLock on "
      "transaction 1001 after 100.123 ms\n"
      "2026-12-02 11:26:15.100 UTC DETAIL:  Process holding the lock: 9809. Wait queue: 9828.\n"
      "2026-12-02 11:26:15.200 UTC LOG:  process 9809 detected deadlock while waiting for "
      "ShareLock on transaction 1002 after 100.456 ms\n"
      "2026-12-02 11:26:15.200 UTC DETAIL:  Process holding the lock: 9828. Wait queue: .\n"
      "2026-12-02 11:26:15.200 UTC ERROR:  deadlock detected\n"
      "2026-12-02 11:26:15.200 UTC DETAIL:  Process 9809 waits for ShareLock on transaction "
      "1002; blocked by process 9828.\n"
      "\tProcess 9828 waits for ShareLock on transaction 1001; blocked by process 9809.\n"
      "\tProcess 9809: UPDATE accounts SET balance = 2 WHERE id = 10;\n"
      "\tProcess 9828: UPDATE accounts SET balance = 1 WHERE id = 9;\n"
      "2026-12-02 11:26:15.200 UTC HINT:  See server log for query details.\n"
      "2026-12-02 11:26:15.300 UTC LOG:  process 9828 acquired ShareLock on transaction 1001 "
      "after 300.789 ms\n");
  CHECK(r.inputs.at(0).detected == "%m ");
  REQUIRE(r.events.size() == 3);
  const Event& dl = r.events[2];
  REQUIRE(dl.deadlock);
  CHECK(dl.deadlock->victim == "9809");
  CHECK(*dl.pid == 9809);
  CHECK(dl.deadlock->complete);
  CHECK(CycleString(*dl.deadlock) ==
        "9809 -ShareLock/transaction 1002-> 9828; 9828 -ShareLock/transaction 1001-> 9809");
  const LockWait& first = *r.events[0].lock_wait;
  CHECK(*first.pid == 9828);
  CHECK(WaitOutcomeName(first.outcome) == std::string("acquired"));
  CHECK(*first.waited_ms == Approx(300.789));
  const LockWait& second = *r.events[1].lock_wait;
  CHECK(*second.pid == 9809);
  CHECK(WaitOutcomeName(second.outcome) == std::string("deadlock"));
}

TEST_CASE("continuation lines with no message to attach to are counted", "[stderr][paste]") {
  std::string text = "\tProcess 1: SELECT 1;\n        Process 2: SELECT 2;\n--\n";
  text += kReport;
  Report r = AnalyzeText(text, "stderr");
  CheckReport(r);
  CHECK(r.summary.lines.total == 13);
  CHECK(r.summary.lines.parsed == 10);
  CHECK(r.summary.lines.skipped == 1);  // grep's "--"
  CHECK(r.summary.lines.unparsed == 2);
  CHECK(r.summary.lines.unattached == 2);
}

TEST_CASE("an input read with the wrong format says so and names a better one", "[paste]") {
  Report r = AnalyzeText(kReport, "csvlog");
  CHECK(r.summary.deadlocks == 0);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].poorly_understood);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].severity == Diagnostic::Severity::kError);
  CHECK(r.diagnostics[0].message.find("the csvlog reader understood only 0 of 10 lines") == 0);
  CHECK(r.diagnostics[0].message.find("stderr fits the first lines better (--input-format stderr)") !=
        std::string::npos);
}

TEST_CASE("an empty input is no error", "[paste]") {
  Report r = AnalyzeText("");
  CHECK(r.events.empty());
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "empty");
  CHECK(r.summary.lines.total == 0);
  CHECK(r.diagnostics.empty());
}
