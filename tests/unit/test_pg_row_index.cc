// The pieces that let a 100,000-waiter pg_locks snapshot be analysed
// without making any key twice or holding every process (issue 20): row
// keys, packed rows, the row index, trees and cycles filled in one at a
// time, and a snapshot's events made tree by tree from its rows.
#include <catch2/catch.hpp>

#include <deque>
#include <random>

#include "emit/event_json.h"
#include "graph/blocking_trees.h"
#include "parsers/postgresql/pg_blocking.h"
#include "parsers/postgresql/pg_row_index.h"
#include "parsers/postgresql/pg_snapshot.h"

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
  CHECK(moved.back().pid == 200);
  CHECK(moved.back().query == "SELECT 1");

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

namespace {

// Every field of a row, for comparing.
std::string Fields(const PgLockRow& r) {
  std::string s = std::to_string(r.line) + "|" + (r.pid ? std::to_string(*r.pid) : "null") + "|" +
                  (r.granted ? "g" : "-") + (r.fastpath ? "f" : "-") + "|";
  if (r.blocking_pids) {
    s += "{";
    for (int64_t p : *r.blocking_pids) s += std::to_string(p) + ",";
    s += "}";
  } else {
    s += "none";
  }
  for (const PgTextColumn& c : PgLockTextColumns()) s += "|" + std::string(r.*c.field);
  return s;
}

}  // namespace

TEST_CASE("PgLockRows gives back every field of every row, values repeated or not, across blocks",
          "[snapshot]") {
  std::mt19937 rng(20);
  auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
  const std::vector<std::string> values = {"", "a", "ExclusiveLock", "2026-12-02 10:00:00+00",
                                           std::string(300, 'q'),
                                           std::string("\xff\x00 \xc3\xa9", 5)};
  const std::string long_value(70000, 'w');  // starts a block of its own
  std::vector<std::vector<std::string>> texts;  // the caller's text, kept for comparing
  std::vector<PgLockRow> want;
  PgLockRows rows;
  for (int i = 0; i < 3000; ++i) {
    std::vector<std::string> text;
    for (size_t c = 0; c < PgLockTextColumns().size(); ++c)
      // Often the row before's value (kept once), sometimes long enough
      // to start a block.
      text.push_back(i > 0 && pick(3) == 0 ? texts.back()[c]
                     : pick(300) == 0  ? long_value
                                       : values[pick(int(values.size()))]);
    PgLockRow r;
    for (size_t c = 0; c < text.size(); ++c) r.*PgLockTextColumns()[c].field = text[c];
    r.line = pick(2) ? uint64_t(i) : UINT64_MAX - uint64_t(i);
    if (pick(4)) r.pid = pick(2) ? int64_t(pick(100000)) : INT64_MIN + pick(5);
    r.granted = pick(2);
    r.fastpath = pick(2);
    if (pick(2)) {
      std::vector<int64_t> pids;
      for (int k = pick(4); k > 0; --k) pids.push_back(pick(2) ? pick(70000) : -1 - pick(9));
      r.blocking_pids = pids;
    }
    rows.push_back(r);
    CHECK(Fields(rows.back()) == Fields(r));
    want.push_back(r);
    texts.push_back(std::move(text));
  }
  REQUIRE(rows.size() == want.size());
  size_t i = 0;
  for (const PgLockRow& r : rows) {
    INFO("row " << i);
    REQUIRE(Fields(r) == Fields(want[i]));
    ++i;
  }
  CHECK(i == want.size());
  // A value repeated from the row before is kept once: a thousand rows
  // like the first take a few bytes a column each beyond its text.
  PgLockRows same;
  size_t text_bytes = 0;
  for (const std::string& v : texts.front()) text_bytes += v.size();
  for (int k = 0; k < 1000; ++k) same.push_back(want.front());
  CHECK(same.bytes() < text_bytes + 1000 * (16 + 4 * PgLockTextColumns().size()));
  CHECK(Fields(same[999]) == Fields(want.front()));
  // Silent: no rows.
  const PgLockRows none;
  CHECK(none.empty());
  CHECK(none.begin() == none.end());
  CHECK(rows.begin() != rows.end());
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

TEST_CASE("trees and cycles filled in one at a time, over links or edges, are FindTreesAndCycles'",
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
  WaitForGraph graph, linked;
  for (WaitEdge e : edges) {
    linked.AddLink(e.waiter, e.blocker);
    graph.AddWait(std::move(e));
  }
  std::map<std::string, Backend> backends;
  for (const char* id : {"1", "2", "3", "4", "5", "6", "7"}) {
    Backend& b = backends[id];
    b.id = id;
    b.query = std::string("a query long enough not to fit in a small string, of ") + id;
  }
  const std::string found = Text(FindTreesAndCycles(graph, graph.edges(), backends));
  CHECK(found ==
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
  // The graph of links numbers its edges as the graph of edges does, and
  // keeps none of them.
  CHECK(linked.edges().empty());
  CHECK(linked.edge_count() == edges.size());
  const TreeAndCycleShapes shapes(linked);
  TreesAndCycles one_at_a_time;
  const TreeAndCycleShapes::Describe describe = shapes.DescribeFrom(backends);
  auto edge = [&](size_t e) { return edges[e]; };
  for (size_t i = 0; i < shapes.trees(); ++i)
    one_at_a_time.trees.push_back(shapes.Tree(i, describe, edge));
  for (size_t i = 0; i < shapes.cycles(); ++i)
    one_at_a_time.cycles.push_back(shapes.Cycle(i, describe, edge));
  CHECK(Text(one_at_a_time) == found);

  // Silent: a graph with no wait gives nothing.
  WaitForGraph empty;
  CHECK(Text(FindTreesAndCycles(empty, {}, {})).empty());
  CHECK(TreeAndCycleShapes(empty).trees() == 0);
  CHECK(TreeAndCycleShapes(empty).cycles() == 0);
}

namespace {

struct Events : ParseSink {
  std::vector<Event> events;
  void OnEvent(Event&& ev) override { events.push_back(std::move(ev)); }
  void OnUnparsed(const std::string&, uint64_t, std::string_view) override {}
  void OnDiagnostic(Diagnostic&&) override {}
};

std::string Json(const std::vector<Event>& events) {
  std::string s;
  for (const Event& ev : events) s += DumpJson(EventToJson(ev), -1) + "\n";
  return s;
}

// A snapshot of `processes` processes over a few locks of every kind:
// holders, waiters (with pg_blocking_pids or without), prepared
// transactions, a process in two trees, cycles, blockers with no row.
PgSnapshot RandomSnapshot(uint32_t seed, int processes, bool blocking_pids) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
  static const char* kModes[] = {"AccessShareLock", "RowExclusiveLock", "ShareLock",
                                 "ShareRowExclusiveLock", "ExclusiveLock", "AccessExclusiveLock"};
  // Few enough sessions per lock that trees stay small (a dense graph's
  // trees hold every process many times over).
  const int objects = 4 + processes / 4, xids = 2 + processes / 8;
  static const char* kStates[] = {"active", "idle in transaction", ""};
  static const char* kQueries[] = {"UPDATE t SET v = v + 1 WHERE id = 1", "SELECT 1",
                                   "LOCK TABLE t IN ACCESS EXCLUSIVE MODE", ""};
  std::deque<std::string> texts;  // what the rows view until they are added
  PgSnapshot s;
  s.has_blocking_pids = blocking_pids;
  s.source.file = "random.csv";
  for (int p = 0; p < processes; ++p) {
    const bool prepared = pick(12) == 0;
    const std::string vtx = std::to_string(p % 7) + "/" + std::to_string(p);
    for (int k = 1 + pick(3); k > 0; --k) {
      PgLockRow r;
      r.line = s.rows.size() + 2;
      r.sampled_at = "2026-12-02 10:00:00.5+00";
      if (!prepared) r.pid = 1000 + (p * 37) % (processes + 50);
      r.virtualtransaction = vtx;
      const bool xid = pick(3) == 0;
      r.locktype = xid ? "transactionid" : (pick(2) ? "relation" : "advisory");
      if (xid) {
        texts.push_back(std::to_string(900 + pick(xids)));
        r.transactionid = texts.back();
      } else {
        r.database = "5";
        texts.push_back(std::to_string(1 + pick(objects)));
        r.relation = texts.back();
        r.classid = "0", r.objid = r.relation, r.objsubid = "1";
      }
      r.mode = xid ? (pick(2) ? "ShareLock" : "ExclusiveLock") : kModes[pick(6)];
      r.granted = prepared || pick(5) < 2;
      if (!r.granted) {
        r.waitstart = pick(2) ? "2026-12-02 10:00:00.1+00" : "2026-12-02 09:59:59+00";
        if (blocking_pids) {
          std::vector<int64_t> pids;
          for (int b = pick(3); b > 0; --b)
            pids.push_back(pick(9) == 0 ? 0 : 1000 + pick(processes + 60));
          r.blocking_pids = pids;
        }
      }
      r.state = prepared ? "" : kStates[pick(3)];
      r.query = kQueries[pick(4)];
      r.xact_start = "2026-12-02 09:59:00+00";
      s.rows.push_back(r);
    }
  }
  s.source.first_line = 2;
  s.source.last_line = s.rows.size() + 1;
  return s;
}

}  // namespace

TEST_CASE("a snapshot's events, made tree by tree from its rows, are AnalyzePgSnapshot's",
          "[snapshot]") {
  size_t chains = 0, cycles = 0;
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    for (bool blocking_pids : {false, true}) {
      INFO("seed " << seed << (blocking_pids ? " with" : " without") << " blocking_pids");
      const PgSnapshot s = RandomSnapshot(seed, 5 + int(seed) * 6, blocking_pids);
      const PgSnapshotAnalysis whole = AnalyzePgSnapshot(s);
      Events sink;
      PgSnapshotCollector collector("random.csv", sink);
      collector.set_has_blocking_pids(blocking_pids);
      for (PgLockRow r : s.rows) collector.Add(std::move(r), r.line);
      collector.Finish();
      REQUIRE(!whole.events.empty());
      CHECK(Json(sink.events) == Json(whole.events));
      for (const Event& ev : whole.events) chains += bool(ev.chain), cycles += bool(ev.cycle);
    }
  }
  // The seeds make trees and cycles both (1,561 and 29).
  CHECK(chains > 1000);
  CHECK(cycles > 20);
}

}  // namespace lockgraph
