// The design notes' lessons as rules (issue 16 item 6): PG015
// idle-session-advisory-lock, PG016 re-run-duplicate-key, PG017
// queue-without-skip-locked, firing and silent side by side, on the real
// samples of scripts/make-rule-samples-lessons.sh and excerpts of them.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "rule_excerpts_lessons.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string ReadSample(const std::string& relative) {
  std::ifstream in(std::string(LOCKGRAPH_SAMPLES_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Run-level evidence names the analyzed file: AnalyzeText's temporary one.
std::vector<std::string> InputNamed(std::vector<std::string> lines) {
  for (std::string& l : lines) l = std::regex_replace(l, std::regex("/tmp/lockgraph-test-\\w+:"), "input:");
  return lines;
}

const char* const kPg015Hint =
    "Outside a transaction only a session-level advisory lock (pg_advisory_lock, "
    "pg_try_advisory_lock) stays held: until pg_advisory_unlock on this very connection, or "
    "until it closes. The application took it and did not release it here: a code path that "
    "skips the unlock, or a transaction-mode pooler (PgBouncer pool_mode = transaction) that "
    "sent the unlock over another server connection and left this one holding the lock while "
    "it serves other clients. Use pg_advisory_xact_lock inside the transaction that needs it "
    "(released at commit or rollback), or give this worker a session-mode pool. Now: `SELECT "
    "pg_terminate_backend(24371)` releases the lock.";

}  // namespace

TEST_CASE("PG015 fires on the idle session holding a session-level advisory lock",
          "[rules][PG015]") {
  Report r = AnalyzeSample("postgresql/rules-lessons-pooled.csv");
  auto f = EventFindings(r, "PG015");
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule_name == "idle-session-advisory-lock");
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "24371 (lg_l_pooled_advisory_A) is idle, no transaction open, for 1.5 s and holds "
        "advisory lock 4242 that 24384 waits for; its last query: SELECT pg_advisory_lock(4242);");
  CHECK(f[0].hint == kPg015Hint);
  CHECK(f[0].evidence ==
        std::vector<std::string>{
            "lines 2-3: blocking tree rooted at 24371, state idle",
            "24371 holds ExclusiveLock on advisory lock [16384,0,4242,1]",
            "24384 waits for ExclusiveLock on advisory lock [16384,0,4242,1], blocked by 24371"});
}

TEST_CASE("PG015 stays silent when the holder is in a transaction or active", "[rules][PG015]") {
  std::string csv = ReadSample("postgresql/rules-lessons-pooled.csv");
  // The same rows with A idle in transaction (an xact lock, PG014's case) or active.
  for (const char* state : {",idle in transaction,", ",active,"}) {
    Report r = AnalyzeText(Replace(csv, ",idle,", state));
    int trees = 0;
    for (const Event& ev : r.events) trees += ev.chain ? 1 : 0;
    CHECK(trees == 1);
    CHECK(EventFindings(r, "PG015").empty());
  }
  // The snapshot of the watch scenarios: its advisory cycle's holders are active,
  // the idle-in-transaction root holds a transaction lock.
  CHECK(EventFindings(AnalyzeSample("postgresql/snapshots/snapshot.csv"), "PG015").empty());
  // The queue snapshot: the root is idle in transaction, no advisory lock.
  CHECK(EventFindings(AnalyzeSample("postgresql/rules-lessons-queue.csv"), "PG015").empty());
}

TEST_CASE("PG016 fires on the re-run's duplicate key after its wait", "[rules][PG016]") {
  Report r = AnalyzeText(excerpts::kRerun);
  CHECK(r.summary.unique_violations == 1);
  CHECK(r.summary.lock_waits == 1);
  CHECK(r.events.size() == 1);  // the 23505 is no event of the report
  CHECK(r.summary.lines.parsed == 10);
  auto f = RunFindings(r, "PG016");
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule_name == "re-run-duplicate-key");
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "1 duplicate-key error (23505) on invoices (constraint invoices_customer_id_period_key on "
        "(customer_id, period)) within 60 s of 1 lock wait or deadlock on invoices; the failing "
        "backend had waited for the lock first");
  CHECK(f[0].hint ==
        "Two runs of the same work inserted the same rows of invoices at the same time: one "
        "waited for the other's uncommitted row and failed with 23505 when that one committed. "
        "A lock (advisory or FOR UPDATE) only stops runs that overlap, never a re-run after the "
        "first committed; the UNIQUE key on the run's natural key is what stops the double "
        "work, so keep invoices_customer_id_period_key (or add one) on that key (customer_id, "
        "period), and write INSERT ... ON CONFLICT (customer_id, period) DO NOTHING so that a "
        "re-run or an overlapping run skips the rows already made instead of failing and "
        "rolling back its whole batch.");
  const std::string insert =
      "INSERT INTO invoices (customer_id, period, amount) SELECT g, '2026-11', 10 * g FROM "
      "generate_series(1, 5) g;";
  CHECK(InputNamed(f[0].evidence) ==
        std::vector<std::string>{
            "input:8-10: 24656 failed: duplicate key value violates unique constraint "
            "invoices_customer_id_period_key",
            "key: (customer_id, period)=(1, 2026-11)", "statement: " + insert,
            "input:1-7: 24656 waited 354.9 ms for ShareLock on transaction 732 (acquired)",
            "statement: " + insert});
  // --redact masks the key's values and the statements' literals.
  AnalyzeOptions options;
  options.redact = true;
  Analyzer analyzer(options, nullptr);
  std::string path = std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/rules-lessons.log", error;
  REQUIRE(analyzer.AnalyzeInput(path, &error));
  Report redacted = std::move(analyzer.Finish());
  auto masked = RunFindings(redacted, "PG016");
  REQUIRE(masked.size() == 1);
  CHECK(masked[0].message == f[0].message);
  CHECK(masked[0].evidence[1] == "key: (customer_id, period)=(?)");
  CHECK(masked[0].evidence[2] ==
        "statement: INSERT INTO invoices (customer_id, period, amount) SELECT g, ?, ? * g FROM "
        "generate_series(?, ?) g;");
}

TEST_CASE("PG016 fires on the sample in every format, once", "[rules][PG016]") {
  for (const char* kind : {"log", "csv", "json"}) {
    Report r = AnalyzeSample(std::string("postgresql/rules-lessons.") + kind);
    CHECK(r.summary.unique_violations == 1);
    auto f = RunFindings(r, "PG016");
    REQUIRE(f.size() == 1);
    CHECK(f[0].message ==
          "1 duplicate-key error (23505) on invoices (constraint invoices_customer_id_period_key "
          "on (customer_id, period)) within 60 s of 1 lock wait or deadlock on invoices; the "
          "failing backend had waited for the lock first");
  }
}

TEST_CASE("PG016 stays silent without a lock wait of the table nearby", "[rules][PG016]") {
  std::string text = excerpts::kRerun;
  std::string error_only = text.substr(text.find("2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B ERROR"));
  Report alone = AnalyzeText(error_only);
  CHECK(alone.summary.unique_violations == 1);
  CHECK(RunFindings(alone, "PG016").empty());
  // The error on another table than the wait.
  Report other = AnalyzeText(Replace(text, "ERROR:  duplicate key value violates unique constraint \"invoices_customer_id_period_key\"\n"
                                           "2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B DETAIL:  Key (customer_id, period)=(1, 2026-11) already exists.\n"
                                           "2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO invoices",
                                     "ERROR:  duplicate key value violates unique constraint \"payments_pkey\"\n"
                                     "2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B DETAIL:  Key (id)=(1) already exists.\n"
                                     "2026-12-03 16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B STATEMENT:  INSERT INTO payments"));
  CHECK(other.summary.unique_violations == 1);
  CHECK(RunFindings(other, "PG016").empty());
  // The error more than 60 s after the wait.
  Report late = AnalyzeText(Replace(text, "16:52:39.878 UTC [24656] postgres@lockgraph/lg_l_rerun_B ERROR",
                                    "16:53:39.879 UTC [24656] postgres@lockgraph/lg_l_rerun_B ERROR"));
  CHECK(RunFindings(late, "PG016").empty());
  // No duplicate key at all: the wait alone.
  CHECK(RunFindings(AnalyzeText(text.substr(0, text.find(error_only))), "PG016").empty());
}

TEST_CASE("PG017 fires once on three workers waiting for one queue row (log)", "[rules][PG017]") {
  Report r = AnalyzeText(excerpts::kQueue);
  auto f = EventFindings(r, "PG017");
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule_name == "queue-without-skip-locked");
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "3 backends (24796, 24819 and 24843) wait at once for rows of jobs in the same SELECT ... "
        "FOR UPDATE ... LIMIT, a queue taken one worker at a time: SELECT id, payload FROM jobs "
        "WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;");
  CHECK(f[0].hint ==
        "The workers all ask for the first free row of jobs, and all queue on the row the first "
        "one locked: they run one at a time, and under READ COMMITTED a worker that waited "
        "re-reads the row after the holder commits and may get nothing at all. Add SKIP LOCKED "
        "(`SELECT ... ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`): each worker takes the next "
        "row nobody holds, without waiting, and N workers take N jobs. Keep the job's "
        "transaction short (mark it taken and commit, then work), and index the queue's WHERE "
        "and ORDER BY columns.");
  CHECK(f[0].evidence ==
        std::vector<std::string>{
            "lines 1-13: 24796 waited 1208.1 ms for ShareLock on transaction 734, held by 24770 "
            "(acquired)",
            "lines 5-15: 24819 waited 839.1 ms for AccessExclusiveLock on tuple (0,1) of 16411, "
            "held by 24796 (acquired)",
            "lines 8-17: 24843 waited 521.5 ms for AccessExclusiveLock on tuple (0,1) of 16411, "
            "held by 24796 (acquired)",
            "statement: SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 "
            "FOR UPDATE;"});
  // The whole sample: the same finding, and none on the later waits (two at once).
  Report all = AnalyzeSample("postgresql/rules-lessons.log");
  CHECK(EventFindings(all, "PG017").size() == 1);
}

TEST_CASE("PG017 fires on the queue snapshot's tree", "[rules][PG017]") {
  Report r = AnalyzeSample("postgresql/rules-lessons-queue.csv");
  auto f = EventFindings(r, "PG017");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "3 backends (24796, 24819 and 24843) wait at once for rows of jobs in the same SELECT ... "
        "FOR UPDATE ... LIMIT, a queue taken one worker at a time: SELECT id, payload FROM jobs "
        "WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE;");
  CHECK(f[0].evidence ==
        std::vector<std::string>{
            "lines 2-6: blocking tree rooted at 24770",
            "24796 waits for ShareLock on transaction 734, blocked by 24770",
            "24819 waits for AccessExclusiveLock on tuple (0,1) of jobs, blocked by 24796",
            "24843 waits for AccessExclusiveLock on tuple (0,1) of jobs, blocked by 24796",
            "24843 waits for AccessExclusiveLock on tuple (0,1) of jobs, blocked by 24819",
            "statement: SELECT id, payload FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 "
            "FOR UPDATE;"});
}

TEST_CASE("PG017 on the queue snapshot: limit in any case fires, no limit stays silent",
          "[rules][PG017]") {
  // Trees skip the statements without "limit" before reading them.
  const std::string csv = ReadSample("postgresql/rules-lessons-queue.csv");
  CHECK(EventFindings(AnalyzeText(Replace(csv, "LIMIT 1", "lImIt 1")), "PG017").size() == 1);
  CHECK(EventFindings(AnalyzeText(Replace(csv, " LIMIT 1", "")), "PG017").empty());
}

TEST_CASE("PG017 stays silent: two waiters, SKIP LOCKED, no LIMIT, no overlap", "[rules][PG017]") {
  std::string text = excerpts::kQueue;
  // Two waiters: D's lines dropped.
  std::string two;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    std::string line = text.substr(at, end - at + 1);
    if (line.find("[24843]") == std::string::npos) two += line;
    at = end + 1;
  }
  CHECK(EventFindings(AnalyzeText(two), "PG017").empty());
  CHECK(EventFindings(AnalyzeText(Replace(text, "LIMIT 1 FOR UPDATE;", "LIMIT 1 FOR UPDATE SKIP LOCKED;")), "PG017").empty());
  CHECK(EventFindings(AnalyzeText(Replace(text, "LIMIT 1 FOR UPDATE;", "LIMIT 1 FOR UPDATE NOWAIT;")), "PG017").empty());
  CHECK(EventFindings(AnalyzeText(Replace(text, "ORDER BY id LIMIT 1 FOR UPDATE;", "AND id = 1 FOR UPDATE;")), "PG017").empty());
  CHECK(EventFindings(AnalyzeText(Replace(text, "LIMIT 1 FOR UPDATE;", "LIMIT 1 FOR SHARE;")), "PG017").empty());
  // D's wait starts after B's and C's ended: never three at once.
  std::string apart = Replace(text, "16:52:41.343 UTC [24843]", "16:52:43.343 UTC [24843]");
  apart = Replace(apart, "16:52:41.760 UTC [24843]", "16:52:43.760 UTC [24843]");
  CHECK(EventFindings(AnalyzeText(apart), "PG017").empty());
  // The snapshot of the watch scenarios: trees of UPDATEs and DDL.
  CHECK(EventFindings(AnalyzeSample("postgresql/snapshots/snapshot.csv"), "PG017").empty());
}

TEST_CASE("The lessons' rules stay silent on the other rule samples", "[rules][PG015][PG016][PG017]") {
  for (const char* sample : {"postgresql/rules.log", "postgresql/rules-precise.log", "postgresql/scenarios.log"}) {
    Report r = AnalyzeSample(sample);
    for (const char* id : {"PG015", "PG016", "PG017"}) {
      CHECK(EventFindings(r, id).empty());
      CHECK(RunFindings(r, id).empty());
    }
  }
}

TEST_CASE("PG006 stays silent on the queue's tuple locks: AccessExclusiveLock on a tuple is no DDL",
          "[rules][PG006]") {
  CHECK(EventFindings(AnalyzeText(excerpts::kQueue), "PG006").empty());
  CHECK(EventFindings(AnalyzeSample("postgresql/rules-lessons.log"), "PG006").empty());
  CHECK(EventFindings(AnalyzeSample("postgresql/rules-lessons-queue.csv"), "PG006").empty());
}
