// The pieces that let a 100,000-waiter pg_locks snapshot be analysed
// without making any key twice or copying any process (issue 20): row keys,
// the row index, and trees and cycles that take their backends and edges.
#include <catch2/catch.hpp>

#include "graph/blocking_trees.h"
#include "parsers/postgresql/pg_blocking.h"
#include "parsers/postgresql/pg_row_index.h"

namespace lockgraph {
namespace {

PgLockRow Row(const char* locktype, std::optional<int64_t> pid, bool granted) {
  PgLockRow r;
  r.locktype = locktype;
  r.pid = pid;
  r.granted = granted;
  r.mode = "ExclusiveLock";
  return r;
}

}  // namespace

TEST_CASE("PgLockRowKey is the key of PgLockRowTarget, for every shape and incomplete rows",
          "[snapshot]") {
  std::vector<PgLockRow> rows;
  for (const char* type : {"relation", "extend", "frozenid", "page", "tuple", "transactionid",
                           "virtualxid", "spectoken", "speculative token", "object", "advisory",
                           "userlock", "applytransaction", "brand new type", ""}) {
    PgLockRow full = Row(type, 1, true);
    full.database = "5";
    full.relation = "77";
    full.page = "0";
    full.tuple = "3";
    full.virtualxid = "4/12";
    full.transactionid = "900";
    full.classid = "0";
    full.objid = "101";
    full.objsubid = "1";
    rows.push_back(full);
    PgLockRow some = Row(type, 1, true);  // most columns missing
    some.objid = "7";
    rows.push_back(some);
    rows.push_back(Row(type, 1, true));  // none at all
  }
  for (const PgLockRow& r : rows) {
    INFO(r.locktype << " objid=" << r.objid);
    CHECK(PgLockRowKey(r) == PgLockRowTarget(r).Key());
  }
  CHECK(PgLockRowKey(rows[0]) == "relation:5/77");
  CHECK(PgLockRowKey(rows[1]) == "relation:7");
  CHECK(PgLockRowKey(rows.back()) == "");
}

TEST_CASE("PgLockRows keeps the text of its rows; copies and moves keep it too", "[snapshot]") {
  PgLockRows rows;
  {
    std::string query = "UPDATE accounts SET balance = balance + 1 WHERE id = 12;";
    std::string time = "2026-12-02 10:00:00.232309+00";
    PgLockRow r = Row("transactionid", 100, false);
    r.sampled_at = time;
    r.query = query;
    r.transactionid = "900";
    rows.push_back(r);
    query = "SELECT 1";  // the caller's text changes and dies: the row's does not
    r.pid = 200;
    r.query = query;
    rows.push_back(std::move(r));
    time.assign(time.size(), 'x');
  }
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].query == "UPDATE accounts SET balance = balance + 1 WHERE id = 12;");
  CHECK(rows[1].query == "SELECT 1");
  CHECK(rows[1].sampled_at == "2026-12-02 10:00:00.232309+00");
  // A value repeated from the row before is kept once.
  CHECK(rows[1].sampled_at.data() == rows[0].sampled_at.data());
  CHECK(rows[1].query.data() != rows[0].query.data());
  CHECK(rows[0].locktype == "transactionid");
  CHECK(rows[1].mode == "ExclusiveLock");
  CHECK(rows[0].waitstart.empty());  // NULL stays ""

  PgLockRows copy = rows;
  PgLockRows moved = std::move(rows);
  rows = PgLockRows();
  CHECK(copy[0].query.data() != moved[0].query.data());
  for (const PgLockRows* r : {&copy, &moved}) {
    CHECK(r->size() == 2);
    CHECK((*r)[0].query == "UPDATE accounts SET balance = balance + 1 WHERE id = 12;");
    CHECK((*r)[1].pid == 200);
  }
  // A column may be pointed elsewhere (watch hides unreadable queries).
  for (PgLockRow& r : copy) r.query = {};
  CHECK(copy[0].query.empty());
  CHECK(moved[0].query.size() == 56);

  // A text longer than a block gets a block of its own.
  PgLockRows big;
  std::string huge(3 << 20, 'q');
  PgLockRow r = Row("relation", 1, true);
  r.query = huge;
  big.push_back(r);
  big.push_back(r);
  CHECK(big[0].query == huge);
  CHECK(big[1].query == huge);
  CHECK(PgLockRows({r, r}).size() == 2);
}

TEST_CASE("PgLockRows frees the blocks of text its popped rows alone viewed", "[snapshot]") {
  PgLockRows rows;
  const std::string long_text(400 << 10, 'x');  // three rows' queries fill a 1 MiB block
  for (int i = 0; i < 10; ++i) {
    PgLockRow r = Row("transactionid", 100 + i, true);
    r.sampled_at = "2026-12-02 10:00:00+00";  // the same in every row: shared within a block
    std::string query = long_text + std::to_string(i);
    r.query = query;
    rows.push_back(r);
  }
  const size_t blocks = rows.blocks();
  CHECK(blocks >= 4);
  for (int i = 0; i < 9; ++i) rows.pop_front();
  // The last row's text is whole; the blocks before its own are gone.
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].query == long_text + "9");
  CHECK(rows[0].sampled_at == "2026-12-02 10:00:00+00");
  CHECK(rows[0].locktype == "transactionid");
  CHECK(rows.blocks() <= 2);
  // Silent: rows pushed after the pops still get their text.
  PgLockRow r = Row("relation", 7, false);
  r.sampled_at = "2026-12-02 10:00:00+00";
  r.query = "SELECT 1";
  rows.push_back(r);
  CHECK(rows[1].query == "SELECT 1");
  CHECK(rows[1].sampled_at == "2026-12-02 10:00:00+00");
  rows.pop_front();
  CHECK(rows[0].query == "SELECT 1");
}

TEST_CASE("IndexPgRows: process ids, locks numbered in key order, groups in row order",
          "[snapshot]") {
  PgLockRows rows;
  PgLockRow a = Row("transactionid", 20, false);
  a.transactionid = "901";
  PgLockRow b = Row("transactionid", 10, true);
  b.transactionid = "900";
  PgLockRow c = Row("transactionid", 30, true);
  c.transactionid = "901";
  PgLockRow d = Row("transactionid", std::nullopt, true);  // a prepared transaction
  d.transactionid = "900";
  d.virtualtransaction = "-1/900";
  rows = {a, b, c, d};
  PgRowIndex index = IndexPgRows(rows);
  CHECK(index.process == std::vector<std::string>{"20", "10", "30", "prepared -1/900"});
  REQUIRE(index.locks() == 2);
  // "transactionid:900" sorts before "transactionid:901".
  CHECK(index.lock == std::vector<uint32_t>{1, 0, 1, 0});
  CHECK(index.by_lock == std::vector<uint32_t>{1, 3, 0, 2});
  CHECK(index.lock_begin == std::vector<uint32_t>{0, 2, 4});
  CHECK(index.contested == std::vector<bool>{false, true});

  PgRowIndex none = IndexPgRows(PgLockRows());
  CHECK(none.locks() == 0);
  CHECK(none.by_lock.empty());
}

namespace {

// Members (with their query) and edges of every tree and cycle.
std::string Text(const TreesAndCycles& found) {
  std::string s;
  for (const BlockingTree& t : found.trees) {
    s += "tree";
    for (const auto& m : t.members) s += " " + m.backend.id + "(" + m.backend.query + ")";
    for (const WaitEdge& e : t.edges) s += " " + e.waiter + ">" + e.blocker + ":" + e.lock.text;
    s += "\n";
  }
  for (const WaitCycle& c : found.cycles) {
    s += "cycle";
    for (const Backend& b : c.members) s += " " + b.id + "(" + b.query + ")";
    for (const WaitEdge& e : c.edges) s += " " + e.waiter + ">" + e.blocker + ":" + e.lock.text;
    s += "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("TakeTreesAndCycles gives what FindTreesAndCycles gives, a process in two trees included",
          "[snapshot]") {
  // 3 waits for the roots 1 and 2 (in both trees); 4 waits for 3; 5 and 6
  // wait for each other, and 7 for 5; 8 has no description.
  std::vector<WaitEdge> edges;
  auto wait = [&](const char* w, const char* b) {
    WaitEdge e;
    e.waiter = w;
    e.blocker = b;
    e.mode = "ShareLock";
    e.lock.type = "transactionid";
    e.lock.text = std::string("transaction of ") + b;
    edges.push_back(e);
  };
  wait("3", "1"), wait("3", "2"), wait("4", "3"), wait("5", "6"), wait("6", "5"), wait("7", "5"),
      wait("8", "1");
  WaitForGraph graph;
  for (WaitEdge e : edges) graph.AddWait(std::move(e));
  std::map<std::string, Backend> backends;
  for (const char* id : {"1", "2", "3", "4", "5", "6", "7"}) {
    Backend& b = backends[id];
    b.id = id;
    b.query = std::string("a query long enough not to fit in a small string, of ") + id;
  }
  const std::string copied = Text(FindTreesAndCycles(graph, graph.edges(), backends));
  CHECK(copied ==
        "tree 1(a query long enough not to fit in a small string, of 1) "
        "3(a query long enough not to fit in a small string, of 3) 8() "
        "4(a query long enough not to fit in a small string, of 4) "
        "3>1:transaction of 1 3>2:transaction of 2 8>1:transaction of 1 4>3:transaction of 3\n"
        "tree 2(a query long enough not to fit in a small string, of 2) "
        "3(a query long enough not to fit in a small string, of 3) "
        "4(a query long enough not to fit in a small string, of 4) "
        "3>1:transaction of 1 3>2:transaction of 2 4>3:transaction of 3\n"
        "cycle 5(a query long enough not to fit in a small string, of 5) "
        "6(a query long enough not to fit in a small string, of 6) "
        "5>6:transaction of 6 6>5:transaction of 5\n");
  std::vector<WaitEdge> taken_edges = graph.edges();
  CHECK(Text(TakeTreesAndCycles(graph, std::move(taken_edges), std::move(backends))) == copied);

  // Silent: a graph with no wait gives nothing either way.
  WaitForGraph empty;
  CHECK(Text(TakeTreesAndCycles(empty, {}, {})).empty());
}

}  // namespace lockgraph
