// InnoDB reports as people paste them (tests/corpus-mysql/): indented error
// logs, MySQL 5.6's glued `<thread>InnoDB:` prefix, hand-edited lock lines,
// double-spaced pastes, one thread id printed twice; and record dumps, which
// hold row data, never kept in a query nor listed as an unparsed line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/analyzer.h"
#include "parsers/mysql/innodb_lines.h"
#include "parsers/mysql/innodb_reader.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string CorpusInput(const std::string& name) {
  return std::string(LOCKGRAPH_TEST_DIR) + "/corpus-mysql/" + name + "/input.txt";
}

/// Every text of the report that lockgraph can print: queries, lock lines,
/// unparsed lines. Empty when none of their lines is a record dump's field.
std::string DumpLinesShown(const Report& r) {
  std::string shown;
  auto check = [&](const std::string& text) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (IsInnodbRecordField(line) || line.find("; hex ") != std::string::npos) shown += line + "\n";
  };
  for (const Event& ev : r.events) {
    if (!ev.deadlock) continue;
    for (const Participant& p : ev.deadlock->processes) check(p.query);
    for (const WaitEdge& e : ev.deadlock->edges) check(e.lock.text);
    for (const WaitEdge& e : ev.deadlock->other_edges) check(e.lock.text);
  }
  for (const UnparsedLine& u : r.unparsed) check(u.text);
  return shown;
}

}  // namespace

TEST_CASE("mysql pastes: error-log entries indented as a whole", "[mysql]") {
  auto e = ReadMysqlErrorlogLine(
      "  2020-04-24T12:18:06.804257+08:00 4106 [Note] InnoDB: *** (1) WAITING FOR THIS LOCK TO BE GRANTED:");
  REQUIRE(e);
  CHECK(e->time == "2020-04-24T12:18:06.804257+08:00");
  CHECK(e->thread == "4106");
  CHECK(e->subsystem == "InnoDB");
  CHECK(e->message == "*** (1) WAITING FOR THIS LOCK TO BE GRANTED:");
}

TEST_CASE("mysql pastes: an indented status section's timestamp line", "[mysql]") {
  auto t = ReadInnodbTimestamp("    2014-08-16 22:50:47 1301d4000");
  REQUIRE(t);
  CHECK(t->time == "2014-08-16 22:50:47");
  CHECK(t->thread == "1301d4000");
  CHECK(t->rest.empty());
}

TEST_CASE("mysql pastes: 5.6's thread id glued to InnoDB:", "[mysql]") {
  auto e = ReadMysqlErrorlogLine(
      "2016-06-15 20:28:25 7f72c0043700InnoDB: transactions deadlock detected, dumping detailed "
      "information.");
  REQUIRE(e);
  CHECK(e->time == "2016-06-15 20:28:25");
  CHECK(e->thread == "7f72c0043700");
  CHECK(e->subsystem == "InnoDB");
  CHECK(e->message == "transactions deadlock detected, dumping detailed information.");
}

TEST_CASE("mysql pastes: a lock line edited by hand is still read", "[mysql]") {
  auto l = ReadInnodbLockLine(
      "RECORD LOCKS space id 46 page no 693076 n bits 664 index`unq_fk_key` of table `dbname`.`t` "
      "trx  id 151506715 lock_mode X locks gap before rec insert intention waiting");
  REQUIRE(l);
  CHECK(l->index == "unq_fk_key");
  CHECK(l->database == "dbname");
  CHECK(l->table == "t");
  CHECK(l->trx_id == "151506715");
  CHECK(l->mode == "X,GAP,INSERT_INTENTION");
  CHECK(l->waiting);
}

TEST_CASE("mysql pastes: 5.0's quoted internal name db/tbl", "[mysql]") {
  std::string db, table;
  SplitInnodbTableName("`test/ad_data`", &db, &table);
  CHECK(db == "test");
  CHECK(table == "ad_data");
  SplitInnodbTableName("test/ad_data", &db, &table);
  CHECK(db == "test");
  CHECK(table == "ad_data");
  SplitInnodbTableName("`orders`", &db, &table);
  CHECK(db.empty());
  CHECK(table == "orders");
}

TEST_CASE("mysql pastes: AliSQL names the holder and the victim by trx id", "[mysql]") {
  auto h = ReadInnodbHeader(
      "***  WAITING FOR THIS LOCK TO BE GRANTED, WHICH CONFLICTS WITH THE LOCK HELD BY TRANSACTION "
      "128872002:");
  REQUIRE(h);
  CHECK(h->kind == InnodbHeader::Kind::kWaiting);
  CHECK(h->number == 0);
  CHECK(h->conflicts_with == "128872002");
  auto holds = ReadInnodbHeader("*** HOLDS THE LOCK:");
  REQUIRE(holds);
  CHECK(holds->kind == InnodbHeader::Kind::kHolds);
  CHECK(holds->conflicts_with.empty());
  CHECK(ReadInnodbVictimTrxId("*** WE ROLL BACK TRANSACTION 128872002") == "128872002");
  CHECK_FALSE(ReadInnodbVictimTrxId("*** WE ROLL BACK TRANSACTION (2)"));
  Report r = test::AnalyzeText(test::ReadFile(CorpusInput("21-aliyun-rds57-trx-id-victim")));
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.problems.empty());
  REQUIRE(d.edges.size() == 2);
  CHECK(d.edges[0].basis == EdgeBasis::kReported);
  CHECK(d.edges[0].blocker_mode == "X,REC_NOT_GAP");
  CHECK(d.edges[1].basis == EdgeBasis::kReported);
  CHECK(d.processes.at(0).query ==
        "UPDATE coupon_goods  SET is_delete=1,update_time='2021-11-18 00:19:05.147'  \n WHERE  "
        "is_delete=0\n\nAND (coupon_id = 10626 AND sku_id IN (3706865))");
}

TEST_CASE("mysql pastes: record dump fields are recognised", "[mysql]") {
  CHECK(IsInnodbRecordField(" 0: len 4; hex 80000001; asc     ;;"));
  CHECK(IsInnodbRecordField("   10: len 4; hex 43f24430; asc C D0;;"));
  CHECK(IsInnodbRecordField(" 5: SQL NULL;"));
  CHECK_FALSE(IsInnodbRecordField("Record lock, heap no 2 PHYSICAL RECORD: n_fields 2;"));
  CHECK_FALSE(IsInnodbRecordField("update t set d=d+1 where c=10"));
}

TEST_CASE("mysql pastes: one thread id printed twice keeps two transactions, flagged", "[mysql]") {
  Report r = test::AnalyzeText(test::ReadFile(CorpusInput("10-status-anonymised-same-thread-elided")));
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  REQUIRE(d.edges.size() == 2);
  CHECK(d.edges[0].waiter == "99999");
  CHECK(d.edges[0].lock.text.find("`orders`") != std::string::npos);
  CHECK(d.edges[1].waiter == "99999");
  CHECK(d.edges[1].lock.text.find("`stocks`") != std::string::npos);
  CHECK(d.processes.size() == 2);
  CHECK(d.problems == std::vector<std::string>{
                          "more than one transaction prints thread id 99999 (an edited paste?): the "
                          "connections cannot be told apart"});
  CHECK_FALSE(d.complete);
}

TEST_CASE("mysql pastes: a whole status printed as one escaped string", "[mysql]") {
  std::vector<std::string> pieces =
      SplitEscapedInnodbText(R"([('InnoDB', '', "\n*** (1) TRANSACTION:\nasc 5   \\  ;;\n\t'x\'")])");
  CHECK(pieces == std::vector<std::string>{"[('InnoDB', '', \"", "*** (1) TRANSACTION:",
                                           "asc 5   \\  ;;", "\t'x'\")]"});
  CHECK(SplitEscapedInnodbText(R"(SELECT '\n' FROM t; -- \n)").empty());  // no report line
  Report r = test::AnalyzeText(test::ReadFile(CorpusInput("14-mariadb-python-repr-one-line")));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "mysql");
  CHECK(r.inputs[0].lines.total == 1);
  CHECK(r.inputs[0].lines.parsed == 1);
  CHECK(r.inputs[0].lines.skipped == 0);
  CHECK(r.inputs[0].lines.unparsed == 0);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].deadlock->processes.at(0).query == "update t1 set f1 = 5 where id = 1");
}

TEST_CASE("mysql pastes: filler lines around the SQL text are not SQL", "[mysql]") {
  Report r = test::AnalyzeText(test::ReadFile(CorpusInput("13-mariadb-errorlog-obsidian-spaced-victim-0")));
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  REQUIRE(d.processes.size() == 2);
  CHECK(d.processes[0].query == "select * from target_table where col1=134 for update");
  CHECK(d.processes[1].query == "select * from target_table where col1=74 for update");
  Report r9 = test::AnalyzeText(test::ReadFile(CorpusInput("09-mysql57-errorlog-separator-in-report")));
  REQUIRE(r9.events.size() == 1);
  REQUIRE(r9.events[0].deadlock->processes.size() == 2);
  CHECK(r9.events[0].deadlock->processes[1].query == "insert into t values(8,8,8)");
}

TEST_CASE("mysql pastes: record dumps are never shown (query, lock text, unparsed lines)", "[mysql]") {
  for (const char* name : {"02-mysql80-errorlog-trailing-spaces", "04-mysql57-errorlog-indented-markdown",
                           "05-mariadb-errorlog-conflicting-with", "09-mysql57-errorlog-separator-in-report",
                           "10-status-anonymised-same-thread-elided",
                           "12-mariadb-status-trailing-double-spaces-victim-0",
                           "13-mariadb-errorlog-obsidian-spaced-victim-0",
                           "14-mariadb-python-repr-one-line"}) {
    AnalyzeOptions options;
    options.keep_unparsed = 1000;
    Analyzer analyzer(options, nullptr);
    std::string error;
    REQUIRE(analyzer.AnalyzeInput(CorpusInput(name), &error));
    const Report& r = analyzer.Finish();
    INFO(name);
    CHECK(DumpLinesShown(r).empty());
  }
  // A dump line that cannot be placed is listed by number, not by text.
  AnalyzeOptions options;
  options.keep_unparsed = 10;
  Analyzer analyzer(options, nullptr);
  std::string error;
  const std::string file = (std::filesystem::temp_directory_path() / "lockgraph_dump_only.txt").string();
  {
    std::ofstream out(file);
    out << "*** (1) TRANSACTION:\nTRANSACTION 5, ACTIVE 1 sec\n"
           "MySQL thread id 7, OS thread handle 1, query id 2 localhost root\n"
           "SELECT 1\n*** WE ROLL BACK TRANSACTION (1)\n 0: len 5; hex 4c494e4441; asc LINDA;;\n";
  }
  REQUIRE(analyzer.AnalyzeInput(file, &error));
  const Report& r = analyzer.Finish();
  REQUIRE(r.unparsed.size() == 1);
  CHECK(r.unparsed[0].line == 6);
  CHECK(r.unparsed[0].text == "(a field of a record dump: row data, not shown)");
  std::filesystem::remove(file);
}

}  // namespace lockgraph
