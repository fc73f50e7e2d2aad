// PG011 missing-evidence (run-level): fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

std::vector<std::string> Messages(const Report& r) {
  std::vector<std::string> m;
  for (const Finding& f : RunFindings(r, "PG011")) m.push_back(f.message);
  return m;
}

}  // namespace

TEST_CASE("PG011 fires: log_lock_waits off and no pid in the prefix (rules-bare.log)",
          "[rules][PG011]") {
  Report r = AnalyzeSample("postgresql/rules-bare.log");
  auto f = RunFindings(r, "PG011");
  REQUIRE(f.size() == 2);
  CHECK(f[0].severity == Severity::kNote);
  CHECK(f[0].message ==
        "1 deadlock(s) but not one log_lock_waits line: the waits that led to them are not in "
        "the log");
  CHECK(f[0].hint ==
        "Set log_lock_waits = on (the default only from PostgreSQL 19; no restart: ALTER SYSTEM "
        "SET log_lock_waits = on; SELECT pg_reload_conf();). Every wait longer than "
        "deadlock_timeout is then logged with its holders and queue, deadlock or not.");
  CHECK(f[1].message == std::string(LOCKGRAPH_SAMPLES_DIR) +
                             "/postgresql/rules-bare.log: log_line_prefix '%m ' has no process "
                             "id (%p)");
}

TEST_CASE("PG011 fires: queries clipped at track_activity_query_size (rules.log)",
          "[rules][PG011]") {
  Report r = AnalyzeSample("postgresql/rules.log");
  auto m = Messages(r);
  REQUIRE(m.size() == 1);
  CHECK(m[0] == "2 query text(s) in deadlock reports are clipped at track_activity_query_size "
                "(1024 bytes by default), first at " + std::string(LOCKGRAPH_SAMPLES_DIR) +
                "/postgresql/rules.log:233");
}

TEST_CASE("PG011 fires: translated messages, not a missing log_lock_waits", "[rules][PG011]") {
  // German lc_messages (reference §8): the DETAIL cannot be read either.
  Report r = AnalyzeText(
      "2024-10-23 15:07:13.328 CEST [22870] FEHLER:  Verklemmung (Deadlock) entdeckt\n"
      "2024-10-23 15:07:13.328 CEST [22870] DETAIL:  Prozess 22870 wartet auf ShareLock-Sperre "
      "auf Transaktion 747; blockiert von Prozess 22800.\n"
      "\tProzess 22800 wartet auf ShareLock-Sperre auf Transaktion 748; blockiert von Prozess "
      "22870.\n"
      "\tProzess 22870: update t set a = 1 where id = 1;\n"
      "\tProzess 22800: update t set a = 1 where id = 2;\n"
      "2024-10-23 15:07:13.328 CEST [22870] TIPP:  Einzelheiten zur Anfrage finden Sie im "
      "Serverlog.\n");
  REQUIRE(r.summary.deadlocks == 1);
  auto m = Messages(r);
  REQUIRE(m.size() == 1);
  CHECK(m[0].rfind("1 deadlock report(s) are not in English (lc_messages), first at ", 0) == 0);
}

TEST_CASE("PG011 fires: a deadlock report without DETAIL (log_error_verbosity = terse)",
          "[rules][PG011]") {
  Report r = AnalyzeText(
      "2026-12-02 11:26:15.084 UTC [9658] postgres@lockgraph/lg_r_row_order_B ERROR:  deadlock "
      "detected\n"
      "2026-12-02 11:26:15.084 UTC [9658] postgres@lockgraph/lg_r_row_order_B STATEMENT:  "
      "UPDATE accounts SET balance = balance - 40 WHERE id = 3;\n");
  auto m = Messages(r);
  REQUIRE(m.size() == 2);
  CHECK(m[0] == "1 deadlock(s) but not one log_lock_waits line: the waits that led to them are "
                "not in the log");
  CHECK(m[1].rfind("1 deadlock report(s) have no DETAIL, so no cycle, first at ", 0) == 0);
}

TEST_CASE("PG011 stays silent on a log that has it all", "[rules][PG011]") {
  // Lock waits, English, whole queries, '%m [%p] ...'.
  CHECK(Messages(AnalyzeText(std::string(excerpts::kRowOrderWait) + excerpts::kRowOrder)).empty());
  CHECK(Messages(AnalyzeSample("postgresql/scenarios.log")).empty());
  CHECK(Messages(AnalyzeSample("postgresql/scenarios.csv")).empty());
  // No deadlocks, no lock waits: nothing to say about log_lock_waits.
  CHECK(Messages(AnalyzeText(
                     "2026-12-02 10:15:18.556 UTC [6497] LOG:  database system is ready to "
                     "accept connections\n"))
            .empty());
}
