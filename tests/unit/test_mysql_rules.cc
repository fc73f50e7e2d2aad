// The MySQL rules on small two-transaction reports written in MariaDB's
// status layout: the cases that fire and the cases that must stay silent,
// side by side (the real scenarios are in test_mysql_samples.cc).
#include <catch2/catch.hpp>

#include <string>

#include "rule_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

struct Trx {
  std::string query;  // the statement printed
  std::string wait;   // "index PRIMARY of table `d`.`t` ... lock_mode X ... waiting" tail, heap
  std::string held;   // the lock the other transaction waits for (CONFLICTING WITH)
  int heap_wait = 2, heap_held = 3;
};

std::string Lock(int trx, const std::string& what, int heap) {
  return "RECORD LOCKS space id 4 page no 3 n bits 8 " + what.substr(0, what.find(" trx ")) +
         " trx id " + std::to_string(trx) + what.substr(what.find(" trx ") + 4) +
         "\nRecord lock, heap no " + std::to_string(heap) + " PHYSICAL RECORD: n_fields 2; compact format; info bits 0\n";
}

// (1) is thread 11 (trx 101), (2) thread 12 (trx 102); (1) is rolled back.
std::string Report2(const Trx& a, const Trx& b) {
  std::string s = "------------------------\nLATEST DETECTED DEADLOCK\n------------------------\n"
                  "2026-01-01 10:00:00 0x7f\n";
  const Trx* t[] = {&a, &b};
  for (int i = 0; i < 2; ++i) {
    const Trx& me = *t[i];
    const Trx& other = *t[1 - i];
    s += "*** (" + std::to_string(i + 1) + ") TRANSACTION:\nTRANSACTION " + std::to_string(101 + i) +
         ", ACTIVE 1 sec updating\nMariaDB thread id " + std::to_string(11 + i) +
         ", OS thread handle 1, query id 5 localhost app Updating\n" + me.query + "\n" +
         "*** WAITING FOR THIS LOCK TO BE GRANTED:\n" + Lock(101 + i, me.wait, me.heap_wait) +
         "*** CONFLICTING WITH:\n" + Lock(102 - i, other.held, other.heap_held);
  }
  return s + "*** WE ROLL BACK TRANSACTION (1)\n";
}

std::string Rules(const std::string& text) {
  Report r = test::AnalyzeText(text);
  REQUIRE(r.events.size() == 1);
  REQUIRE(r.events[0].deadlock->complete);
  return rule_test::RuleIds(r.events[0]);
}

const char kX[] = "index PRIMARY of table `d`.`parent` trx lock_mode X locks rec but not gap waiting";
const char kXHeld[] = "index PRIMARY of table `d`.`parent` trx lock_mode X locks rec but not gap";
const char kSHeld[] = "index PRIMARY of table `d`.`parent` trx lock mode S locks rec but not gap";

}  // namespace

TEST_CASE("MY005 fires when the S holder's statement changes another table", "[mysql][rules]") {
  // (2) inserted a child row (S on the parent) and waits; (1) updates the parent.
  Trx update{"UPDATE parent SET n = n + 1 WHERE id = 1", kX, kXHeld, 2, 3};
  Trx child{"INSERT INTO child VALUES (5, 1)", kX, kSHeld, 3, 2};
  CHECK(Rules(Report2(update, child)) == "MY005");
  // The same S lock held by a statement on the parent table itself: MY003's shape, not MY005.
  Trx reader{"UPDATE parent SET n = n + 1 WHERE id = 2", kX, kSHeld, 3, 2};
  CHECK(Rules(Report2(update, reader)).find("MY005") == std::string::npos);
}

TEST_CASE("MY007 fires on two rows in opposite orders; silent on one row", "[mysql][rules]") {
  Trx a{"UPDATE parent SET n = 1 WHERE id = 1", kX, kXHeld, 2, 3};
  Trx b{"UPDATE parent SET n = 1 WHERE id = 2", kX, kXHeld, 3, 2};
  CHECK(Rules(Report2(a, b)) == "MY007");
  // Both wait for the same record: an upgrade, not an order problem.
  Trx same_a{"UPDATE parent SET n = 1 WHERE id = 1", kX, kSHeld, 2, 2};
  Trx same_b{"UPDATE parent SET n = 2 WHERE id = 1", kX, kSHeld, 2, 2};
  CHECK(Rules(Report2(same_a, same_b)) == "MY003");
}

TEST_CASE("MY002 needs INSERTs on both sides; MY001 takes the gap case", "[mysql][rules]") {
  const char ii[] = "index PRIMARY of table `d`.`t` trx lock_mode X locks gap before rec insert intention waiting";
  const char s_next[] = "index PRIMARY of table `d`.`t` trx lock mode S";
  const char x_gap[] = "index PRIMARY of table `d`.`t` trx lock_mode X locks gap before rec";
  Trx ins_a{"INSERT INTO t VALUES (7)", ii, s_next, 2, 2};
  Trx ins_b{"INSERT INTO t VALUES (7)", ii, s_next, 2, 2};
  CHECK(Rules(Report2(ins_a, ins_b)) == "MY002");
  Trx gap_a{"INSERT INTO t VALUES (15)", ii, x_gap, 2, 2};
  Trx gap_b{"INSERT INTO t VALUES (16)", ii, x_gap, 2, 2};
  CHECK(Rules(Report2(gap_a, gap_b)) == "MY001 MY008");
  // An S gap lock left by a locking read (not an INSERT) blocks an insert: MY001, not MY002.
  Trx read_b{"SELECT * FROM t WHERE id > 5 LOCK IN SHARE MODE", ii, s_next, 2, 2};
  CHECK(Rules(Report2(gap_a, read_b)).substr(0, 5) == "MY001");
}

}  // namespace lockgraph
