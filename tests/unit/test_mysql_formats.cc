// The InnoDB report layouts MariaDB does not print (reference B2-B6): MySQL 8
// error log ([MY-012469], HOLDS for every transaction), MySQL 5.7 error log,
// 5.0 two-part ids and db/tbl names, ANSI quotes, a session paste, a cut
// report; and the line recognisers on their own. Inputs are written here in
// the documented shapes.
#include <catch2/catch.hpp>

#include <string>

#include "parsers/mysql/innodb_lines.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string Cycle(const Deadlock& d) {
  std::string s;
  for (const WaitEdge& e : d.edges)
    s += (s.empty() ? "" : "; ") + e.waiter + " -" + e.mode + "/" + e.lock.Label() + "-> " +
         e.blocker + " holding " + e.blocker_mode + " [" + EdgeBasisName(e.basis) + "]";
  return s;
}

const char kMysql8[] =
    "2025-11-10T08:52:25.728726+08:00 0 [Note] [MY-012468] [InnoDB] Transactions deadlock detected, dumping detailed information.\n"
    "2025-11-10T08:52:25.728850+08:00 0 [Note] [MY-012469] [InnoDB]  *** (1) TRANSACTION:\n"
    "TRANSACTION 3109, ACTIVE 25 sec starting index read\n"
    "mysql tables in use 1, locked 1\n"
    "LOCK WAIT 3 lock struct(s), heap size 1128, 2 row lock(s), undo log entries 1\n"
    "MySQL thread id 2243, OS thread handle 140566786410240, query id 16117 localhost app updating\n"
    "update t set name = 'a' where id = 1\n"
    "\n"
    "2025-11-10T08:52:25.728929+08:00 0 [Note] [MY-012469] [InnoDB]  *** (1) HOLDS THE LOCK(S):\n"
    "RECORD LOCKS space id 3 page no 4 n bits 72 index PRIMARY of table `db`.`t` trx id 3109 lock_mode X locks rec but not gap\n"
    "Record lock, heap no 3 PHYSICAL RECORD: n_fields 4; compact format; info bits 0\n"
    " 0: len 4; hex 80000002; asc     ;;\n"
    "\n"
    "\n"
    "2025-11-10T08:52:25.729000+08:00 0 [Note] [MY-012469] [InnoDB]  *** (1) WAITING FOR THIS LOCK TO BE GRANTED:\n"
    "RECORD LOCKS space id 3 page no 4 n bits 72 index PRIMARY of table `db`.`t` trx id 3109 lock_mode X locks rec but not gap waiting\n"
    "Record lock, heap no 2 PHYSICAL RECORD: n_fields 4; compact format; info bits 0\n"
    " 0: len 4; hex 80000001; asc     ;;\n"
    "\n"
    "2025-11-10T08:52:25.729100+08:00 0 [Note] [MY-012469] [InnoDB]  *** (2) TRANSACTION:\n"
    "TRANSACTION 3110, ACTIVE 20 sec starting index read\n"
    "mysql tables in use 1, locked 1\n"
    "LOCK WAIT 3 lock struct(s), heap size 1128, 2 row lock(s), undo log entries 1\n"
    "MySQL thread id 2244, OS thread handle 140566786410241, query id 16118 10.0.0.5 app updating\n"
    "update t set name = 'b' where id = 2\n"
    "\n"
    "2025-11-10T08:52:25.729200+08:00 0 [Note] [MY-012469] [InnoDB]  *** (2) HOLDS THE LOCK(S):\n"
    "RECORD LOCKS space id 3 page no 4 n bits 72 index PRIMARY of table `db`.`t` trx id 3110 lock_mode X locks rec but not gap\n"
    "Record lock, heap no 2 PHYSICAL RECORD: n_fields 4; compact format; info bits 0\n"
    " 0: len 4; hex 80000001; asc     ;;\n"
    "\n"
    "2025-11-10T08:52:25.729300+08:00 0 [Note] [MY-012469] [InnoDB]  *** (2) WAITING FOR THIS LOCK TO BE GRANTED:\n"
    "RECORD LOCKS space id 3 page no 4 n bits 72 index PRIMARY of table `db`.`t` trx id 3110 lock_mode X locks rec but not gap waiting\n"
    "Record lock, heap no 3 PHYSICAL RECORD: n_fields 4; compact format; info bits 0\n"
    " 0: len 4; hex 80000002; asc     ;;\n"
    "\n"
    "2025-11-10T08:52:25.730272+08:00 0 [Note] [MY-012469] [InnoDB] *** WE ROLL BACK TRANSACTION (2)\n"
    "2025-11-10T08:52:26.000000+08:00 0 [Note] [MY-010914] [Server] Aborted connection 12.\n";

}  // namespace

TEST_CASE("mysql 8 error log: HOLDS for each transaction, both edges reported", "[mysql]") {
  Report r = test::AnalyzeText(kMysql8);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "mysql");
  CHECK(r.inputs[0].lines.total == 38);
  CHECK(r.inputs[0].lines.parsed == 37);
  CHECK(r.inputs[0].lines.skipped == 1);
  CHECK(r.inputs[0].lines.unparsed == 0);
  REQUIRE(r.events.size() == 1);
  const Event& ev = r.events[0];
  const Deadlock& d = *ev.deadlock;
  CHECK(ev.engine == "mysql");
  CHECK(ev.time == "2025-11-10T08:52:25.728726+08:00");
  CHECK(ev.source.first_line == 1);
  CHECK(ev.source.last_line == 37);
  CHECK(d.complete);
  CHECK(d.victim == "2244");
  CHECK(Cycle(d) ==
        "2244 -X,REC_NOT_GAP/record db.t index PRIMARY heap 3-> 2243 holding X,REC_NOT_GAP [reported]; "
        "2243 -X,REC_NOT_GAP/record db.t index PRIMARY heap 2-> 2244 holding X,REC_NOT_GAP [reported]");
  REQUIRE(d.processes.size() == 2);
  const Participant& p = d.processes[1];
  CHECK(p.id == "2243");
  CHECK(p.session.host == "localhost");
  CHECK(p.session.user == "app");
  CHECK(p.query == "update t set name = 'a' where id = 1");
  CHECK(d.processes[0].session.host == "10.0.0.5");
  std::string attrs;
  for (const LockField& a : p.attributes) attrs += a.name + "=" + a.value + ";";
  CHECK(attrs ==
        "trx_id=3109;state=ACTIVE 25 sec starting index read;tables_in_use=1;tables_locked=1;"
        "lock_wait=true;lock_structs=3;heap_size=1128;row_locks=2;undo_log_entries=1;"
        "os_thread_handle=140566786410240;thread_state=updating;");
}

TEST_CASE("mysql 5.7 error log and a session paste of the status", "[mysql]") {
  std::string log =
      "2019-03-01T10:00:00.123456Z 12 [Note] InnoDB: Transactions deadlock detected, dumping detailed information.\n"
      "2019-03-01T10:00:00.123500Z 12 [Note] InnoDB: \n"
      "*** (1) TRANSACTION:\n"
      "TRANSACTION 421, ACTIVE 3 sec inserting\n"
      "MySQL thread id 12, OS thread handle 0x7f00, query id 99 localhost root update\n"
      "INSERT INTO t VALUES (5)\n"
      "2019-03-01T10:00:00.123600Z 12 [Note] InnoDB: *** (1) WAITING FOR THIS LOCK TO BE GRANTED:\n"
      "RECORD LOCKS space id 7 page no 3 n bits 72 index PRIMARY of table \"db\".\"t\" trx id 421 lock_mode X insert intention waiting\n"
      "Record lock, heap no 1 PHYSICAL RECORD: n_fields 1; compact format; info bits 0\n"
      " 0: len 8; hex 73757072656d756d; asc supremum;;\n"
      "\n"
      "2019-03-01T10:00:00.123700Z 12 [Note] InnoDB: *** (2) TRANSACTION:\n"
      "TRANSACTION 420, ACTIVE 4 sec inserting\n"
      "MySQL thread id 11, OS thread handle 0x7f01, query id 98 localhost root update\n"
      "INSERT INTO t VALUES (6)\n"
      "2019-03-01T10:00:00.123800Z 12 [Note] InnoDB: *** (2) HOLDS THE LOCK(S):\n"
      "RECORD LOCKS space id 7 page no 3 n bits 72 index PRIMARY of table \"db\".\"t\" trx id 420 lock_mode X\n"
      "Record lock, heap no 1 PHYSICAL RECORD: n_fields 1; compact format; info bits 0\n"
      "2019-03-01T10:00:00.123900Z 12 [Note] InnoDB: *** (2) WAITING FOR THIS LOCK TO BE GRANTED:\n"
      "RECORD LOCKS space id 7 page no 3 n bits 72 index PRIMARY of table \"db\".\"t\" trx id 420 lock_mode X insert intention waiting\n"
      "Record lock, heap no 1\n"
      "2019-03-01T10:00:00.124000Z 12 [Note] InnoDB: *** WE ROLL BACK TRANSACTION (2)\n";
  Report r = test::AnalyzeText(log);
  REQUIRE(r.events.size() == 1);
  CHECK(r.inputs[0].lines.unparsed == 0);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.victim == "11");
  CHECK(d.complete);
  CHECK(Cycle(d) ==
        "11 -X,INSERT_INTENTION/supremum of db.t index PRIMARY (page 3)-> 12 holding  [derived]; "
        "12 -X,INSERT_INTENTION/supremum of db.t index PRIMARY (page 3)-> 11 holding X [reported]");
  CHECK(r.events[0].findings.size() == 2);  // MY001, MY008

  std::string paste =
      "mysql> SHOW ENGINE INNODB STATUS\\G\n"
      "*************************** 1. row ***************************\n"
      "  Type: InnoDB\n"
      "  Name: \n"
      "Status: \n"
      "------------------------\n"
      "LATEST DETECTED DEADLOCK\n"
      "------------------------\n"
      "070915 15:34:37\n"
      "*** (1) TRANSACTION:\n"
      "TRANSACTION 0 1286, ACTIVE 5 sec, process no 3, OS thread id 7 starting index read\n"
      "MySQL thread id 4, query id 50 localhost root Updating\n"
      "UPDATE t SET a = 1 WHERE id = 2\n"
      "*** (1) WAITING FOR THIS LOCK TO BE GRANTED:\n"
      "RECORD LOCKS space id 0 page no 52 n bits 72 index `PRIMARY` of table db/t trx id 0 1286 lock_mode X locks rec but not gap waiting\n"
      "Record lock, heap no 3 PHYSICAL RECORD: n_fields 3; compact format; info bits 0 0: len 4; hex 80000002; asc     ;;\n"
      "*** (2) TRANSACTION:\n"
      "TRANSACTION 0 1285, ACTIVE 9 sec, process no 3, OS thread id 8 starting index read\n"
      "MySQL thread id 3, query id 51 localhost root Updating\n"
      "UPDATE t SET a = 1 WHERE id = 1\n"
      "*** (2) HOLDS THE LOCK(S):\n"
      "RECORD LOCKS space id 0 page no 52 n bits 72 index `PRIMARY` of table db/t trx id 0 1285 lock_mode X locks rec but not gap\n"
      "Record lock, heap no 3 PHYSICAL RECORD: n_fields 3; compact format; info bits 0 0: len 4; hex 80000002; asc     ;;\n"
      "*** (2) WAITING FOR THIS LOCK TO BE GRANTED:\n"
      "RECORD LOCKS space id 0 page no 52 n bits 72 index `PRIMARY` of table db/t trx id 0 1285 lock_mode X locks rec but not gap waiting\n"
      "Record lock, heap no 2 PHYSICAL RECORD: n_fields 3; compact format; info bits 0 0: len 4; hex 80000001; asc     ;;\n"
      "*** WE ROLL BACK TRANSACTION (2)\n"
      "------------\n"
      "TRANSACTIONS\n"
      "------------\n"
      "---TRANSACTION 0 1287, not started\n"
      "1 row in set (0.00 sec)\n"
      "\n"
      "mysql> \n";
  Report s = test::AnalyzeText(paste);
  REQUIRE(s.events.size() == 1);
  CHECK(s.inputs[0].lines.total == 34);
  CHECK(s.inputs[0].lines.parsed == 21);
  CHECK(s.inputs[0].lines.unparsed == 0);
  const Deadlock& old = *s.events[0].deadlock;
  CHECK(s.events[0].time == "070915 15:34:37");
  CHECK(old.victim == "3");
  CHECK(Cycle(old) ==
        "3 -X,REC_NOT_GAP/record db.t index PRIMARY heap 2-> 4 holding  [derived]; "
        "4 -X,REC_NOT_GAP/record db.t index PRIMARY heap 3-> 3 holding X,REC_NOT_GAP [reported]");
  CHECK(old.processes[0].attributes[0].value == std::to_string((uint64_t(0) << 32) + 1285));
  CHECK(old.processes[0].attributes[1].value ==
        "ACTIVE 9 sec, process no 3, OS thread id 8 starting index read");
}

TEST_CASE("mysql: a report cut by the end of input is kept and flagged", "[mysql]") {
  Report r = test::AnalyzeText(
      "------------------------\nLATEST DETECTED DEADLOCK\n------------------------\n"
      "2024-01-01 10:00:00 0x7f\n*** (1) TRANSACTION:\nTRANSACTION 9, ACTIVE 1 sec updating\n"
      "MySQL thread id 5, OS thread handle 1, query id 2 localhost u updating\nUPDATE t SET a = 1\n"
      "*** (1) WAITING FOR THIS LOCK TO BE GRANTED:\n"
      "TABLE LOCK table `d`.`t` trx id 9 lock mode IX waiting\n"
      "what is this line\n");
  REQUIRE(r.events.size() == 1);
  CHECK(r.inputs[0].lines.unparsed == 0);  // inside a lock section: a record dump piece
  const Event& ev = r.events[0];
  CHECK(ev.truncated);
  CHECK_FALSE(ev.deadlock->complete);
  CHECK(ev.deadlock->problems ==
        std::vector<std::string>{"no WE ROLL BACK TRANSACTION line: the victim is not known",
                                 "the report is cut (end of input or of the section)"});
  CHECK(ev.deadlock->processes.at(0).wait_mode == "IX");
  CHECK(ev.deadlock->processes.at(0).wait_resource == "table d.t");
}

TEST_CASE("mysql lines: modes, names, thread lines", "[mysql]") {
  auto l = ReadInnodbLockLine(
      "RECORD LOCKS space id 6 page no 3 n bits 320 index PRIMARY of table `shop`.`slot` trx id 39 "
      "lock_mode X locks gap before rec insert intention waiting");
  REQUIRE(l);
  CHECK(l->mode == "X,GAP,INSERT_INTENTION");
  CHECK(l->waiting);
  CHECK(l->database == "shop");
  CHECK(l->table == "slot");
  CHECK(l->index == "PRIMARY");
  CHECK(ReadInnodbLockLine("RECORD LOCKS space id 1 page no 2 n bits 8 index \"k\" of table "
                           "\"d\".\"t\" /* Partition `p0` */ trx id AB12 lock mode S locks gap before rec")
            ->mode == "S,GAP");
  CHECK(ReadInnodbLockLine("TABLE LOCK table `db`.`t` trx id 3BF88F886 lock mode AUTO-INC waiting")->mode ==
        "AUTO_INC");
  auto t = ReadInnodbThreadLine("MySQL thread id 9, OS thread handle 3, query id 7 app-1 10.1.1.1 bob Sending data");
  REQUIRE(t);
  CHECK(t->host == "app-1");
  CHECK(t->user == "bob");
  CHECK(t->state == "Sending data");
  auto sys = ReadInnodbThreadLine("MySQL thread id 2, query id 7 system user");
  REQUIRE(sys);
  CHECK(sys->user == "system user");
  CHECK(sys->host.empty());
  CHECK(ReadInnodbTimestamp("130624 17:39:24TOO DEEP OR LONG SEARCH IN THE LOCK TABLE WAITS-FOR GRAPH, WE WILL ROLL BACK FOLLOWING TRANSACTION ")
            ->rest.substr(0, 8) == "TOO DEEP");
  CHECK(ReadInnodbVictim("*** WE ROLL BACK TRANSACTION (0)") == 0);
  CHECK_FALSE(ReadInnodbHeader("*** (1) SOMETHING:"));
}

}  // namespace lockgraph

namespace lockgraph {

TEST_CASE("mysql 8 JSON error log: headers only, said so, each report kept", "[mysql]") {
  Report r = test::AnalyzeText(
      R"({"log_type": 1, "prio": 3, "err_code": 12468, "subsystem": "InnoDB", "msg": "Transactions deadlock detected, dumping detailed information.", "time": "2025-11-10T08:52:25.728726+08:00", "err_symbol": "ER_IB_MSG_643", "label": "Note"})" "\n"
      R"({"log_type": 1, "prio": 3, "err_code": 12469, "subsystem": "InnoDB", "msg": "\n*** (1) TRANSACTION:\n", "time": "2025-11-10T08:52:25.728850+08:00", "err_symbol": "ER_IB_MSG_644", "label": "Note"})" "\n"
      R"({"log_type": 1, "prio": 3, "err_code": 12469, "subsystem": "InnoDB", "msg": "*** WE ROLL BACK TRANSACTION (2)\n", "time": "2025-11-10T08:52:25.730272+08:00", "err_symbol": "ER_IB_MSG_644", "label": "Note"})" "\n"
      R"({"log_type": 1, "prio": 2, "err_code": 10914, "subsystem": "Server", "msg": "Aborted connection", "time": "2025-11-10T08:53:00.000000+08:00", "label": "Note"})" "\n");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "mysql");
  CHECK(r.inputs[0].lines.parsed == 3);
  CHECK(r.inputs[0].lines.skipped == 1);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 1);
  REQUIRE(r.events.size() == 1);
  const Event& ev = r.events[0];
  CHECK(ev.time == "2025-11-10T08:52:25.728726+08:00");
  CHECK_FALSE(ev.truncated);
  CHECK(ev.source.last_line == 3);
  CHECK(ev.deadlock->problems ==
        std::vector<std::string>{
            "the report prints no transaction",
            "the report rolls back transaction (2), which it does not print",
            "the JSON error log (log_sink_json) prints only the report's headers: no transaction, "
            "lock or victim"});
}

}  // namespace lockgraph

namespace lockgraph {
namespace {

// One 8.0.18+ transaction block: (n) TRANSACTION, HOLDS heap `held`, WAITING heap `wanted`.
std::string Block(int n, int thread, int held, int wanted) {
  auto lock = [&](int heap, const char* tail) {
    return "RECORD LOCKS space id 2 page no 4 n bits 72 index PRIMARY of table `db`.`t` trx id " +
           std::to_string(100 + n) + " lock_mode X locks rec but not gap" + tail + "\nRecord lock, heap no " +
           std::to_string(heap) + " PHYSICAL RECORD: n_fields 3; compact format; info bits 0\n\n";
  };
  std::string id = std::to_string(n);
  return "*** (" + id + ") TRANSACTION:\nTRANSACTION " + std::to_string(100 + n) +
         ", ACTIVE 2 sec starting index read\nMySQL thread id " + std::to_string(thread) +
         ", OS thread handle 1, query id 9 localhost u updating\nUPDATE t SET v = v + 1 WHERE id = " +
         std::to_string(wanted) + "\n\n*** (" + id + ") HOLDS THE LOCK(S):\n" + lock(held, "") + "*** (" +
         id + ") WAITING FOR THIS LOCK TO BE GRANTED:\n" + lock(wanted, " waiting");
}

}  // namespace

TEST_CASE("mysql 8.0.18+ status: a cycle of three, every edge reported", "[mysql]") {
  // (1) holds heap 2 and waits for 3, (2) holds 3 and waits for 4, (3) holds 4 and waits for 2.
  Report r = test::AnalyzeText("------------------------\nLATEST DETECTED DEADLOCK\n------------------------\n"
                               "2022-11-25 15:58:22 139815661168384\n" +
                               Block(1, 51, 2, 3) + Block(2, 52, 3, 4) + Block(3, 53, 4, 2) +
                               "*** WE ROLL BACK TRANSACTION (3)\n------------\nTRANSACTIONS\n------------\n");
  REQUIRE(r.events.size() == 1);
  CHECK(r.inputs[0].lines.unparsed == 0);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.complete);
  CHECK(d.victim == "53");
  CHECK(Cycle(d) ==
        "53 -X,REC_NOT_GAP/record db.t index PRIMARY heap 2-> 51 holding X,REC_NOT_GAP [reported]; "
        "51 -X,REC_NOT_GAP/record db.t index PRIMARY heap 3-> 52 holding X,REC_NOT_GAP [reported]; "
        "52 -X,REC_NOT_GAP/record db.t index PRIMARY heap 4-> 53 holding X,REC_NOT_GAP [reported]");
  CHECK(r.events[0].findings.at(0).rule_id == "MY007");
}

TEST_CASE("mariadb error log: another thread's entries inside a report", "[mysql]") {
  Report r = test::AnalyzeText(
      "2026-01-20 14:15:31 2231 [Note] InnoDB: Transactions deadlock detected, dumping detailed information.\n"
      "2026-01-20 14:15:31 2231 [Note] InnoDB: \n*** (1) TRANSACTION:\n\n"
      "TRANSACTION 6737, ACTIVE 0 sec starting index read\n"
      "MariaDB thread id 2231, OS thread handle 1, query id 5 127.0.0.1 root Updating\n"
      "UPDATE d SET v = 1 WHERE id = 1\n"
      "2026-01-20 14:15:31 17 [Warning] Aborted connection 17 to db: 'x' user: 'y' host: 'z' (Got an error reading communication packets)\n"
      "2026-01-20 14:15:31 0 [Note] InnoDB: page_cleaner: 1000ms intended loop took 4013ms\n"
      "2026-01-20 14:15:31 2231 [Note] InnoDB: *** WAITING FOR THIS LOCK TO BE GRANTED:\n\n"
      "RECORD LOCKS space id 9 page no 3 n bits 8 index PRIMARY of table `e`.`d` trx id 6737 lock_mode X locks rec but not gap waiting\n"
      "2026-01-20 14:15:31 2231 [Note] InnoDB: *** CONFLICTING WITH:\n\n"
      "RECORD LOCKS space id 9 page no 3 n bits 8 index PRIMARY of table `e`.`d` trx id 6731 lock_mode X locks rec but not gap\n"
      "2026-01-20 14:15:31 2231 [Note] InnoDB: \n*** (2) TRANSACTION:\n\n"
      "TRANSACTION 6731, ACTIVE 1 sec starting index read\n"
      "MariaDB thread id 2230, OS thread handle 2, query id 4 127.0.0.1 root Updating\n"
      "UPDATE d SET v = 1 WHERE id = 2\n"
      "2026-01-20 14:15:31 2231 [Note] InnoDB: *** WAITING FOR THIS LOCK TO BE GRANTED:\n\n"
      "RECORD LOCKS space id 9 page no 3 n bits 8 index PRIMARY of table `e`.`d` trx id 6731 lock_mode X locks rec but not gap waiting\n"
      "2026-01-20 14:15:31 2231 [Note] InnoDB: *** CONFLICTING WITH:\n\n"
      "RECORD LOCKS space id 9 page no 3 n bits 8 index PRIMARY of table `e`.`d` trx id 6737 lock_mode X locks rec but not gap\n"
      "2026-01-20 14:15:31 2231 [Note] InnoDB: *** WE ROLL BACK TRANSACTION (2)\n");
  REQUIRE(r.events.size() == 1);
  CHECK(r.inputs[0].lines.unparsed == 0);
  CHECK(r.inputs[0].lines.skipped == 2);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.complete);
  CHECK(d.victim == "2230");
  CHECK(d.processes.at(1).query == "UPDATE d SET v = 1 WHERE id = 1");  // nothing of the other entries
  CHECK(Cycle(d) ==
        "2230 -X,REC_NOT_GAP/records of e.d index PRIMARY (page 3)-> 2231 holding X,REC_NOT_GAP [reported]; "
        "2231 -X,REC_NOT_GAP/records of e.d index PRIMARY (page 3)-> 2230 holding X,REC_NOT_GAP [reported]");
}

}  // namespace lockgraph

namespace lockgraph {

TEST_CASE("mysql: a HOLDS lock that does not conflict names no blocker", "[mysql]") {
  auto report = [](const std::string& held) {
    return "------------------------\nLATEST DETECTED DEADLOCK\n------------------------\n"
           "2019-01-01 10:00:00 0x7f\n*** (1) TRANSACTION:\nTRANSACTION 11, ACTIVE 1 sec fetching rows\n"
           "MySQL thread id 1, OS thread handle 2, query id 3 localhost u Sending data\n"
           "SELECT * FROM t WHERE id = 5 LOCK IN SHARE MODE\n"
           "*** (1) WAITING FOR THIS LOCK TO BE GRANTED:\n"
           "RECORD LOCKS space id 1 page no 3 n bits 8 index PRIMARY of table `d`.`t` trx id 11 lock mode S locks rec but not gap waiting\n"
           "Record lock, heap no 4\n*** (2) TRANSACTION:\nTRANSACTION 12, ACTIVE 2 sec updating\n"
           "MySQL thread id 2, OS thread handle 3, query id 4 localhost u updating\nUPDATE t SET v = 1 WHERE id = 5\n"
           "*** (2) HOLDS THE LOCK(S):\n"
           "RECORD LOCKS space id 1 page no 3 n bits 8 index PRIMARY of table `d`.`t` trx id 12 " + held + "\n"
           "Record lock, heap no 4\n*** (2) WAITING FOR THIS LOCK TO BE GRANTED:\n"
           "RECORD LOCKS space id 1 page no 3 n bits 8 index PRIMARY of table `d`.`t` trx id 12 lock_mode X locks rec but not gap waiting\n"
           "Record lock, heap no 4\n*** WE ROLL BACK TRANSACTION (1)\n";
  };
  Report x = test::AnalyzeText(report("lock_mode X locks rec but not gap"));
  REQUIRE(x.events.size() == 1);
  CHECK(Cycle(*x.events[0].deadlock) ==
        "1 -S,REC_NOT_GAP/record d.t index PRIMARY heap 4-> 2 holding X,REC_NOT_GAP [reported]; "
        "2 -X,REC_NOT_GAP/record d.t index PRIMARY heap 4-> 1 holding  [derived]");
  // S held does not block S: the report's HOLDS is no proof; the edge is InnoDB's order.
  Report s = test::AnalyzeText(report("lock mode S locks rec but not gap"));
  REQUIRE(s.events.size() == 1);
  CHECK(Cycle(*s.events[0].deadlock) ==
        "1 -S,REC_NOT_GAP/record d.t index PRIMARY heap 4-> 2 holding  [derived]; "
        "2 -X,REC_NOT_GAP/record d.t index PRIMARY heap 4-> 1 holding  [derived]");
  // A gap lock blocks no record request.
  Report gap = test::AnalyzeText(report("lock_mode X locks gap before rec"));
  REQUIRE(gap.events.size() == 1);
  CHECK(gap.events[0].deadlock->edges.at(0).basis == EdgeBasis::kDerived);
}

}  // namespace lockgraph

namespace lockgraph {

TEST_CASE("mysql 5.6 error log: unlabelled InnoDB note, then the raw section", "[mysql]") {
  Report r = test::AnalyzeText(
      "2014-06-02 11:56:30 1234 [Note] /usr/sbin/mysqld: ready for connections.\n"
      "2014-06-02 11:56:35 7f5a5c0d7700 InnoDB: Transactions deadlock detected, dumping detailed information.\n"
      "2014-06-02 11:56:35 7f5a5c0d7700\n"
      "*** (1) TRANSACTION:\n"
      "TRANSACTION 5001, ACTIVE 2 sec starting index read\n"
      "MySQL thread id 8, OS thread handle 0x7f5a5c0d7700, query id 60 localhost root updating\n"
      "UPDATE t SET v = 2 WHERE id = 2\n"
      "*** (1) WAITING FOR THIS LOCK TO BE GRANTED:\n"
      "TABLE LOCK table `d`.`t` trx id 5001 lock mode X waiting\n"
      "*** (2) TRANSACTION:\n"
      "TRANSACTION 5000, ACTIVE 3 sec starting index read\n"
      "MySQL thread id 7, OS thread handle 0x7f5a5c0e8700, query id 61 localhost root updating\n"
      "UPDATE t SET v = 1 WHERE id = 1\n"
      "*** (2) HOLDS THE LOCK(S):\n"
      "TABLE LOCK table `d`.`t` trx id 5000 lock mode IX\n"
      "*** (2) WAITING FOR THIS LOCK TO BE GRANTED:\n"
      "TABLE LOCK table `d`.`t` trx id 5000 lock mode X waiting\n"
      "*** WE ROLL BACK TRANSACTION (2)\n"
      "2014-06-02 11:57:00 7f5a5c0d7700 InnoDB: page_cleaner: 1000ms intended loop took 1500ms.\n");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "mysql");
  CHECK(r.inputs[0].lines.total == 19);
  CHECK(r.inputs[0].lines.parsed == 17);
  CHECK(r.inputs[0].lines.skipped == 2);
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(r.events[0].time == "2014-06-02 11:56:35");
  CHECK(d.complete);
  CHECK(d.victim == "7");
  CHECK(Cycle(d) ==
        "7 -X/table d.t-> 8 holding  [derived]; "
        "8 -X/table d.t-> 7 holding IX [reported]");
}

}  // namespace lockgraph
