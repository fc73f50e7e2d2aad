// The SQL Server rules MS001-MS008, each with the reports that make it fire
// (real samples where one exists, else small reports made from them:
// sqlserver_rule_reports.h) and, side by side, the variants that must keep
// it silent.
#include <catch2/catch.hpp>

#include <sstream>

#include "emit/emitter.h"

#include "rule_test_util.h"
#include "sqlserver_rule_reports.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

std::string SampleText(const std::string& name) {
  return test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/sqlserver/" + name);
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kKeyLookup = "sqlserver-xe-event-keylookup-msdocs.xml";
const char* kTally = "sqlserver-deadlocklist-2proc-keylock-tally.xdl";
const char* kMultiVictim = "sqlserver-multivictim-objectlock-tempdb.xdl";
const char* k1222 = "sqlserver-1222-msdocs-ridlock-keylock.txt";
const char* k1204 = "sqlserver-1204-msdocs-rid-key.txt";

}  // namespace

TEST_CASE("MS001 fires on the key lookup sample with the covering index", "[rules][MS001]") {
  auto f = DeadlockFindings(AnalyzeText(SampleText(kKeyLookup)), "MS001");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "process27b9b0b9848 (spid 62) read AdventureWorks2022.dbo.t1 through index idx1 and waits "
        "for S on the row in cidx (a key lookup); process27b9ee33c28 (spid 58) holds X on that row "
        "and waits for X on idx1 to change the index");
  CHECK(Has(f[0].hint,
            "Make idx1 cover the query at AdventureWorks2022.dbo.p1 line 3 (`SELECT c2, c3 FROM t1 "
            "WHERE c2 BETWEEN @p1 AND @p1+`), so that it never visits cidx: `CREATE NONCLUSTERED "
            "INDEX idx1 ON dbo.t1 (c2) INCLUDE (c3) WITH (DROP_EXISTING = ON);`"));
  CHECK(Has(f[0].hint, "`ALTER DATABASE [AdventureWorks2022] SET READ_COMMITTED_SNAPSHOT ON;`"));
  CHECK(Has(f[0].hint, "WITH (NOLOCK) / READ UNCOMMITTED is not the fix"));
  CHECK(Has(f[0].hint, "A longer LOCK_TIMEOUT or command timeout does not help"));
  CHECK(f[0].evidence.size() == 5);
}

TEST_CASE("MS001 stays silent: two tables, one index, heaps, no reader", "[rules][MS001]") {
  std::string xe = SampleText(kKeyLookup);
  // The same report with the second key in another table, or both keys in one index.
  std::string two_tables = Replace(xe, "objectname=\"AdventureWorks2022.dbo.t1\" indexname=\"idx1\"",
                                   "objectname=\"AdventureWorks2022.dbo.t2\" indexname=\"idx1\"");
  std::string one_index = Replace(xe, "indexname=\"idx1\"", "indexname=\"cidx\"");
  REQUIRE(two_tables != xe);
  REQUIRE(one_index != xe);
  for (const std::string& text : {two_tables, one_index, SampleText(kTally), SampleText(k1222),
                                   SampleText(k1204), SampleText(kMultiVictim),
                                   ms_reports::ReaderWriter()}) {
    INFO(text.substr(0, 200));
    CHECK(DeadlockFindings(AnalyzeText(text), "MS001").empty());
  }
}

TEST_CASE("MS002 fires on the multi-victim table lock conversion", "[rules][MS002]") {
  auto f = DeadlockFindings(AnalyzeText(SampleText(kMultiVictim)), "MS002");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "process3749e50c8 and process37797c928 each hold S on objectlock on tempdb.dbo.junk "
        "(OBJECT: 2:264388011:0) and wait to convert it to IX; none can while the others keep S "
        "(10 processes of the report convert on it)");
  CHECK(Has(f[0].hint, "`UPDATE dbo.junk set i = @1` at adhoc line 6"));
  CHECK(Has(f[0].hint, "(TABLOCK hint and HOLDLOCK hint)"));
  CHECK(Has(f[0].hint, "WITH (TABLOCKX, HOLDLOCK) instead of WITH (TABLOCK, HOLDLOCK)"));
}

TEST_CASE("MS002 fires on a key read with HOLDLOCK then updated, silent on plain waits",
          "[rules][MS002]") {
  auto f = DeadlockFindings(AnalyzeText(ms_reports::Conversion()), "MS002");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "process91 and process92 each hold S on keylock on Shop.dbo.Orders index PK_Orders "
        "(KEY: 7:72057594045005824 (8194443284a0)) and wait to convert it to X; none can while "
        "the others keep S");
  CHECK(Has(f[0].hint, "(repeatable read isolation)"));
  CHECK(Has(f[0].hint, "Read with WITH (UPDLOCK)"));
  for (const std::string& text : {ms_reports::Conversion("wait"), SampleText(kKeyLookup),
                                  SampleText(kTally), SampleText(k1222)}) {
    INFO(text.substr(0, 200));
    CHECK(DeadlockFindings(AnalyzeText(text), "MS002").empty());
  }
}

TEST_CASE("MS003 fires on serializable range locks, silent without them", "[rules][MS003]") {
  auto f = DeadlockFindings(AnalyzeText(ms_reports::RangeLocks()), "MS003");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "process1a waits for RangeI-N on index IX_Orders_Customer of Shop.dbo.Orders held "
        "RangeS-S by process2b; process2b waits for RangeI-N on index IX_Orders_Customer of "
        "Shop.dbo.Orders held RangeS-S by process1a (process1a and process2b run at serializable)");
  CHECK(Has(f[0].hint, "`INSERT INTO dbo.Orders (CustomerId, Total) VALUES (@CustomerId, @Total)` "
                       "at Shop.dbo.usp_AddOrder line 9"));
  CHECK(Has(f[0].hint, "TransactionScope defaults to IsolationLevel.Serializable"));
  CHECK(Has(f[0].hint, "`SELECT ... FROM Orders WITH (UPDLOCK, HOLDLOCK) WHERE ...`"));
  for (const std::string& text : {ms_reports::RangeLocks("X", "X", "read committed (2)"),
                                  SampleText(kKeyLookup), SampleText(kTally), SampleText(k1222),
                                  SampleText(k1204), SampleText(kMultiVictim)}) {
    INFO(text.substr(0, 200));
    CHECK(DeadlockFindings(AnalyzeText(text), "MS003").empty());
  }
}

TEST_CASE("MS004 fires on a reader against a writer, with the level's advice", "[rules][MS004]") {
  auto f = DeadlockFindings(AnalyzeText(ms_reports::ReaderWriter()), "MS004");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "process70 (spid 70) reads (S on keylock on Shop.dbo.Orders index PK_Orders (KEY: "
        "7:72057594045005824 (8194443284a0)), held X by process75) while process75 (spid 75) "
        "writes (X on keylock on Shop.dbo.Customers index PK_Customers (KEY: 7:72057594045136896 "
        "(61a06abd401c)), held S by process70)");
  CHECK(Has(f[0].hint, "`ALTER DATABASE [Shop] SET READ_COMMITTED_SNAPSHOT ON;`"));
  CHECK(Has(f[0].hint, "WITH (NOLOCK) / READ UNCOMMITTED is not the fix"));

  auto rr = DeadlockFindings(AnalyzeText(ms_reports::ReaderWriter("repeatable read (3)")), "MS004");
  REQUIRE(rr.size() == 1);
  CHECK(Has(rr[0].hint, "runs at repeatable read, which keeps its S locks to the end of the "
                        "transaction; READ_COMMITTED_SNAPSHOT does not change that level"));
  CHECK_FALSE(Has(rr[0].hint, "ALTER DATABASE"));
}

TEST_CASE("MS004 leaves the key lookup to MS001, and is silent on writers only", "[rules][MS004]") {
  CHECK(DeadlockFindings(AnalyzeText(SampleText(kKeyLookup)), "MS004").empty());
  RuleSelection without_ms001;
  without_ms001.disable = {"MS001"};
  auto f = DeadlockFindings(AnalyzeWithRules(SampleText(kKeyLookup), without_ms001), "MS004");
  REQUIRE(f.size() == 1);
  CHECK(Has(f[0].hint, "`ALTER DATABASE [AdventureWorks2022] SET READ_COMMITTED_SNAPSHOT ON;`"));
  for (const std::string& text : {SampleText(kTally), SampleText(k1222), SampleText(k1204),
                                  SampleText(kMultiVictim), ms_reports::Conversion()}) {
    INFO(text.substr(0, 200));
    CHECK(DeadlockFindings(AnalyzeText(text), "MS004").empty());
  }
}

TEST_CASE("MS005 fires on exchange ports of one query, silent on lock cycles", "[rules][MS005]") {
  auto f = DeadlockFindings(AnalyzeText(ms_reports::Parallel()), "MS005");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "intra-query parallelism deadlock of spid 71 (3 threads) on 3 exchange resources "
        "(exchangeEvent Pipe2a1 (e_waitPipeGetRow, node 2), ...); the report names no victim");
  CHECK(Has(f[0].hint, "OPTION (MAXDOP 1)"));
  CHECK(Has(f[0].hint, "WITH (NOLOCK) does not help"));
  for (const char* name : {kKeyLookup, kTally, k1222, k1204, kMultiVictim}) {
    INFO(name);
    CHECK(DeadlockFindings(AnalyzeText(SampleText(name)), "MS005").empty());
  }
}

TEST_CASE("MS006 fires on an escalated table lock, silent on asked-for ones", "[rules][MS006]") {
  auto f = DeadlockFindings(AnalyzeText(ms_reports::Escalation()), "MS006");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "process52 (spid 52) holds X on the whole table Shop.dbo.Orders while its statement "
        "(`UPDATE dbo.Orders SET Status = 9 WHERE CreatedAt < @cutoff`) names rows; process60 "
        "waits for IX on it");
  CHECK(Has(f[0].hint, "Make `UPDATE dbo.Orders SET Status = 9 WHERE CreatedAt < @cutoff` "
                       "(process52) lock fewer rows"));
  CHECK(Has(f[0].hint, "`ALTER TABLE dbo.Orders SET (LOCK_ESCALATION = DISABLE);`"));
  CHECK(Has(f[0].hint, "batches of fewer than 5,000 rows"));
  for (const std::string& text : {ms_reports::Escalation(" WITH (TABLOCKX)"), SampleText(kMultiVictim),
                                  SampleText(kKeyLookup), SampleText(kTally), SampleText(k1222)}) {
    INFO(text.substr(0, 200));
    CHECK(DeadlockFindings(AnalyzeText(text), "MS006").empty());
  }
}

TEST_CASE("MS007 fires on application locks in opposite orders", "[rules][MS007]") {
  auto f = DeadlockFindings(AnalyzeText(ms_reports::AppLocks()), "MS007");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "process81 holds APP: 7:0:[order-17]:(8e0b5c0b) and waits for APP: 7:0:[order-18]:(5f1a7b3c); "
        "process82 holds APP: 7:0:[order-18]:(5f1a7b3c) and waits for APP: 7:0:[order-17]:(8e0b5c0b)");
  CHECK(Has(f[0].hint, "@LockOwner = 'Session' outlives the transaction"));
  auto tx = DeadlockFindings(AnalyzeText(ms_reports::AppLocks("Transaction")), "MS007");
  REQUIRE(tx.size() == 1);
  CHECK_FALSE(Has(tx[0].hint, "'Session'"));
  CHECK(Has(tx[0].hint, "A @LockTimeout only turns the deadlock into a timeout"));
  for (const char* name : {kKeyLookup, kTally, k1222, k1204, kMultiVictim}) {
    INFO(name);
    CHECK(DeadlockFindings(AnalyzeText(SampleText(name)), "MS007").empty());
  }
}

TEST_CASE("MS008 names the procedures and lines, silent on ad hoc batches", "[rules][MS008]") {
  auto f = DeadlockFindings(AnalyzeText(SampleText(k1222)), "MS008");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kNote);
  CHECK(f[0].message ==
        "process689978 (spid 55) in AdventureWorks2022.dbo.usp_p2 line 6 (UPDATE T1 SET COL1 = 4 "
        "WHERE COL1 = 1;); process6891f8 (spid 54) in AdventureWorks2022.dbo.usp_p1 line 6 (UPDATE "
        "T2 SET COL1 = 3 WHERE COL1 = 1;)");
  CHECK(Has(f[0].hint, "touch T1, T2 in one order"));
  auto xe = DeadlockFindings(AnalyzeText(SampleText(kKeyLookup)), "MS008");
  REQUIRE(xe.size() == 1);
  CHECK(Has(xe[0].hint, "The other findings on this deadlock say what to change there."));
  for (const char* name : {kTally, k1204, kMultiVictim}) {
    INFO(name);
    CHECK(DeadlockFindings(AnalyzeText(SampleText(name)), "MS008").empty());
  }
}

TEST_CASE("engines: no PG rule on SQL Server reports, no MS rule on PostgreSQL logs",
          "[rules][sqlserver]") {
  for (const std::string& text :
       {SampleText(kKeyLookup), SampleText(kTally), SampleText(k1222), SampleText(k1204),
        SampleText(kMultiVictim), ms_reports::RangeLocks(), ms_reports::Parallel(),
        ms_reports::Escalation(), ms_reports::AppLocks(), ms_reports::Conversion(),
        ms_reports::ReaderWriter()}) {
    Report r = AnalyzeText(text);
    for (const Event& ev : r.events)
      for (const Finding& f : ev.findings) CHECK(f.rule_id.rfind("MS", 0) == 0);
    CHECK(r.findings.empty());
  }
  Report pg = AnalyzeSample("postgresql/rules.log");
  size_t pg_findings = 0;
  for (const Event& ev : pg.events)
    for (const Finding& f : ev.findings) {
      CHECK(f.rule_id.rfind("PG", 0) == 0);
      ++pg_findings;
    }
  CHECK(pg_findings > 0);
}

TEST_CASE("SQL Server deadlocks group by statements and objects, not ids or keys",
          "[rules][sqlserver][groups]") {
  std::string xe = SampleText(kKeyLookup);
  // The same deadlock again with other sessions, process ids, keys and parameter.
  std::string again = Replace(Replace(Replace(Replace(xe, "process27b9b0b9848", "process3aa01"),
                                              "spid=\"62\"", "spid=\"90\""),
                                      "1a39e6095155", "0b0b0b0b0b0b"),
                              "EXEC p1 4", "EXEC p1 17");
  Report r = AnalyzeText(xe + again + SampleText(kTally));
  REQUIRE(r.events.size() == 3);
  CHECK(r.events[0].signature == r.events[1].signature);
  CHECK(r.events[0].signature != r.events[2].signature);
  REQUIRE(r.groups.size() == 2);
  CHECK(r.groups[0].count == 2);
  CHECK(r.groups[1].count == 1);
  // T-SQL auto-parameters and brackets normalized; what each waits for named.
  const auto& tally = r.groups[1].members;
  REQUIRE(tally.size() == 2);
  CHECK(tally[0].statement == "update dbo.tally_sm set n = n - ? where n = ?");
  CHECK(tally[0].wait == "X keylock Sandbox.dbo.Tally_sm PK_Tally_sm");
  CHECK(tally[1].statement == "update dbo.tally set n = n - ? where n = ?");
  CHECK(tally[1].wait == "X keylock Sandbox.dbo.Tally PK_Tally");
}

TEST_CASE("hostile report text in MS findings reaches no output raw", "[rules][sqlserver][hostile]") {
  std::string xe = Replace(SampleText(kKeyLookup), "SELECT c2, c3 FROM t1 WHERE c2 BETWEEN @p1 AND @p1+",
                           "SELECT c2, c3 FROM t1 WHERE c2 = '&lt;script&gt;x&lt;/script&gt;{}' &#x1B;[31m");
  xe = Replace(xe, "indexname=\"idx1\"", "indexname=\"idx1&quot;&lt;b&gt;\"");
  Report r = AnalyzeText(xe);
  auto f = DeadlockFindings(r, "MS001");
  REQUIRE(f.size() == 1);
  CHECK(Has(f[0].message, "through index idx1\"<b> and waits"));  // raw in the model
  CHECK(Has(f[0].hint, "'<script>x</script>{}' \x1b[31m"));
  for (auto& e : RegisterBuiltinEmitters()) {
    std::ostringstream out;
    for (const Event& ev : r.events) e->OnEvent(ev, out);
    e->Write(r, out);
    INFO(e->Name());
    CHECK(out.str().find('\x1b') == std::string::npos);  // no terminal escape in any format
    if (e->Name() == "json" || e->Name() == "ndjson")
      CHECK(Has(out.str(), "idx1\\\"<b>"));  // JSON-escaped quote
    if (e->Name() == "dot") CHECK_FALSE(Has(out.str(), "idx1\"<b>"));  // no raw quote in a DOT string
  }
}
