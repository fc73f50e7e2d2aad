// Rules say nothing they cannot show (issue 16): string keys (PG002), each
// participant's own mode (PG004), the lock actually waited for and CREATE
// INDEX CONCURRENTLY (PG006), advisory locks mixed with row locks (PG007), a
// deadlock at COMMIT (PG012), no PG001 without the queries. Firing and
// silent cases side by side, on real server excerpts (rule_excerpts_precise.h).
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_excerpts_precise.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

std::string Replaced(std::string s, const std::vector<std::pair<std::string, std::string>>& swaps) {
  for (const auto& [from, to] : swaps)
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("PG002 fires on ids written as string literals ('9', '10')", "[rules][PG002]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kTextOrderStrings), "PG002");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "17789 locked id = '10' before id = '9', the order of a text sort ('10' < '9'), not of a "
        "numeric one; 17776 went 9 then 10");
}

TEST_CASE("PG002 stays silent on string keys that are not numbers", "[rules][PG002]") {
  using Swaps = std::vector<std::pair<std::string, std::string>>;
  const std::vector<Swaps> variants = {{{"'9'", "'x9'"}, {"'10'", "'x10'"}},
                                       {{"'9'", "'9.5'"}, {"'10'", "'10.5'"}},
                                       {{"'9'", "'+9'"}, {"'10'", "'+10'"}}};
  for (const Swaps& swaps : variants) {
    std::string text = Replaced(excerpts::kTextOrderStrings, swaps);
    INFO(text);
    CHECK(DeadlockFindings(AnalyzeText(text), "PG002").empty());
  }
}

TEST_CASE("PG004 names each participant's own requested mode", "[rules][PG004]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kUpgradeMixed), "PG004");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "17929 and 17914 each hold a lock on audit and each wait for a stronger one: 17929 for "
        "ExclusiveLock and 17914 for RowExclusiveLock");
  CHECK(f[0].hint ==
        "Each transaction first took a lock on audit that lets the others in too (LOCK TABLE ... "
        "IN SHARE MODE, CREATE INDEX, or a read) and then asked for ExclusiveLock and "
        "RowExclusiveLock. Take the strongest of these at the start of every such transaction "
        "(`LOCK TABLE audit IN ... MODE` first, in a mode that conflicts with itself), so that the "
        "second transaction waits before it holds anything. Retrying only repeats the deadlock.");
}

TEST_CASE("PG006 names the virtual transaction CREATE INDEX CONCURRENTLY waits for", "[rules][PG006]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kCic), "PG006");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "18066's CREATE INDEX CONCURRENTLY settings_v_idx ON settings (v); waits for ShareLock on "
        "virtual transaction 3/42 inside a deadlock: its transaction holds what the others need");
  CHECK(f[0].hint ==
        "CREATE INDEX CONCURRENTLY (and REINDEX CONCURRENTLY) holds ShareUpdateExclusiveLock on "
        "settings and waits, between its phases, for every transaction that could still see the "
        "table without the new index (here virtual transaction 3/42). A transaction open "
        "meanwhile that then asks for a lock conflicting with ShareUpdateExclusiveLock on settings "
        "(LOCK TABLE, ALTER TABLE, VACUUM, ANALYZE, another CREATE INDEX) closes a cycle. Run it "
        "when no long transaction touches settings, and give the others a lock_timeout (`SET "
        "lock_timeout = '2s'`) so that they give up instead.");
}

TEST_CASE("PG006 keeps its DDL hint for an ALTER TABLE in a cycle", "[rules][PG006]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kDdlDeadlock), "PG006");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "11348's ALTER TABLE settings ADD COLUMN note2 text; waits for AccessExclusiveLock on "
        "settings inside a deadlock: its transaction holds what the others need");
  CHECK(f[0].hint.find("commit the DML first") != std::string::npos);
}

TEST_CASE("PG007 fires on a cycle of an advisory lock and a row lock", "[rules][PG007]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kAdvisoryMixed), "PG007");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "18180 holds accounts row id = 5 (transaction 750) and waits for advisory lock 301; 18161 "
        "holds advisory lock 301 and waits for accounts row id = 5 (transaction 750)");
  CHECK(f[0].hint ==
        "Take the advisory lock and the row or table locks it guards in one order everywhere "
        "(here 18180 took accounts row id = 5 (transaction 750) before advisory lock 301 and 18161 "
        "took advisory lock 301 before accounts row id = 5 (transaction 750)): take the advisory "
        "lock first, before any statement that locks what it guards, in every transaction that "
        "uses it; an advisory lock taken after a row lock guards nothing and closes cycles.");
  // A row cycle alone is not PG007's.
  CHECK(DeadlockFindings(AnalyzeText(excerpts::kRowOrder), "PG007").empty());
}

TEST_CASE("PG012 fires on a deadlock at COMMIT of a deferred unique constraint", "[rules][PG012]") {
  Report r = AnalyzeText(excerpts::kCommitUnique);
  auto f = DeadlockFindings(r, "PG012");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "18322 and 18307 were waiting in COMMIT: the cycle closed while the deferred unique "
        "constraint of index slots_k_key was checked");
  CHECK(f[0].evidence.back() ==
        "victim's CONTEXT: while inserting index tuple (0,4) in relation \"slots_k_key\"");
  // Nothing else claims it: the statements show no row order (PG001 silent).
  CHECK(RuleIds(OnlyDeadlock(r)) == "PG012");
}

TEST_CASE("PG012 stays silent when no participant is at COMMIT", "[rules][PG012]") {
  for (const char* excerpt : {excerpts::kRowOrder, excerpts::kForeignKey, excerpts::kUpgradeMixed,
                              excerpts::kCic, excerpts::kAdvisoryMixed})
    CHECK(DeadlockFindings(AnalyzeText(excerpt), "PG012").empty());
}

TEST_CASE("PG001 stays silent when the participants' queries are missing", "[rules][PG001]") {
  // kRowOrder without its "Process N: query" lines (as a client gets the error).
  std::string text = Replaced(excerpts::kRowOrder,
                              {{"\tProcess 9658: UPDATE accounts SET balance = balance - 40 WHERE id = 3;\n", ""},
                               {"\tProcess 9627: UPDATE accounts SET balance = balance - 30 WHERE id = 4;\n", ""}});
  Report r = AnalyzeText(text);
  CHECK(OnlyDeadlock(r).deadlock->edges.size() == 2);
  CHECK(DeadlockFindings(r, "PG001").empty());
  // Nor when the server put placeholders where the queries go.
  std::string hidden = Replaced(excerpts::kRowOrder,
                                {{"Process 9658: UPDATE accounts SET balance = balance - 40 WHERE id = 3;",
                                  "Process 9658: <insufficient privilege>"},
                                 {"Process 9627: UPDATE accounts SET balance = balance - 30 WHERE id = 4;",
                                  "Process 9627: <insufficient privilege>"}});
  CHECK(DeadlockFindings(AnalyzeText(hidden), "PG001").empty());
  // With the queries it fires.
  CHECK(DeadlockFindings(AnalyzeText(excerpts::kRowOrder), "PG001").size() == 1);
}
