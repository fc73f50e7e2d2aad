// --redact (src/analysis/redact.h): literals replaced in place, everything
// else kept as written; findings lose the values they quote.
#include <catch2/catch.hpp>

#include "analysis/redact.h"
#include "support.h"

using namespace lockgraph;

TEST_CASE("redact: strings with doubled and escaped quotes", "[redact]") {
  CHECK(RedactSql("UPDATE t SET note = 'it''s O''Brien' WHERE k = 'a'") ==
        "UPDATE t SET note = ? WHERE k = ?");
  CHECK(RedactSql("SELECT E'line\\nbreak \\' quote', e'x'") == "SELECT ?, ?");
  CHECK(RedactSql("SELECT N'national', B'1010', X'1F', U&'d\\0061t'") == "SELECT ?, ?, ?, U&?");
}

TEST_CASE("redact: dollar quotes, with and without a tag", "[redact]") {
  CHECK(RedactSql("SELECT $$secret 'x' $$, $body$a $$ b$body$ FROM t") == "SELECT ?, ? FROM t");
  CHECK(RedactSql("DO $fn$ BEGIN PERFORM 1; END $fn$") == "DO ?");
}

TEST_CASE("redact: numbers and arrays", "[redact]") {
  CHECK(RedactSql("UPDATE accounts SET balance = balance - 10.5 WHERE id = 42") ==
        "UPDATE accounts SET balance = balance - ? WHERE id = ?");
  CHECK(RedactSql("SELECT 1e3, 0x1F, .5, -7") == "SELECT ?, ?, ?, -?");
  CHECK(RedactSql("SELECT * FROM t WHERE id = ANY(ARRAY[1, 2,3]) OR tags && '{a,b}'") ==
        "SELECT * FROM t WHERE id = ANY(ARRAY[?, ?,?]) OR tags && ?");
  CHECK(RedactSql("SELECT * FROM t WHERE id IN (7, 8)") == "SELECT * FROM t WHERE id IN (?, ?)");
}

TEST_CASE("redact: identifiers, parameters, keywords and layout stay", "[redact]") {
  CHECK(RedactSql("SELECT \"Col 1\", t2.c3, $1 FROM \"Order\"\n  WHERE x = $2::int") ==
        "SELECT \"Col 1\", t2.c3, $1 FROM \"Order\"\n  WHERE x = $2::int");
  CHECK(RedactSql("") == "");
  CHECK(RedactSql("<insufficient privilege>") == "<insufficient privilege>");
}

TEST_CASE("redact: clipped statements lose the rest of a cut literal", "[redact]") {
  CHECK(RedactSql("UPDATE t SET note = 'customer name that was cu") == "UPDATE t SET note = ?");
  CHECK(RedactSql("SELECT $x$ never closed") == "SELECT ?");
}

TEST_CASE("redact: CONTEXT lines", "[redact]") {
  CHECK(RedactContextLine("SQL statement \"UPDATE accounts SET balance = 5 WHERE id = 3\"") ==
        "SQL statement \"UPDATE accounts SET balance = ? WHERE id = ?\"");
  CHECK(RedactContextLine("while updating tuple (0,3) in relation \"accounts\"") ==
        "while updating tuple (0,3) in relation \"accounts\"");
  CHECK(RedactContextLine("COPY accounts, line 2, column owner: \"Jane Doe\"") ==
        "COPY accounts, line 2, column owner: ?");
  CHECK(RedactContextLine("PL/pgSQL function transfer(integer,integer,double precision) line 3 "
                          "at SQL statement") ==
        "PL/pgSQL function transfer(integer,integer,double precision) line 3 at SQL statement");
}

TEST_CASE("redact: a deadlock's queries and its findings", "[redact]") {
  const std::string log =
      "2026-12-02 11:26:16.484 UTC [9828] LOG:  statement: SELECT 1\n"
      "2026-12-02 11:26:16.484 UTC [9828] ERROR:  deadlock detected\n"
      "2026-12-02 11:26:16.484 UTC [9828] DETAIL:  Process 9828 waits for ShareLock on "
      "transaction 742; blocked by process 9809.\n"
      "\tProcess 9809 waits for ShareLock on transaction 743; blocked by process 9828.\n"
      "\tProcess 9828: UPDATE accounts SET owner = 'Jane ''JD'' Doe' WHERE id = 9;\n"
      "\tProcess 9809: UPDATE accounts SET owner = 'John Roe' WHERE id = 10;\n"
      "2026-12-02 11:26:16.484 UTC [9828] HINT:  See server log for query details.\n"
      "2026-12-02 11:26:16.484 UTC [9828] CONTEXT:  while updating tuple (0,9) in relation "
      "\"accounts\"\n"
      "2026-12-02 11:26:16.484 UTC [9828] STATEMENT:  UPDATE accounts SET owner = 'Jane ''JD'' "
      "Doe' WHERE id = 9;\n";
  Report plain = test::AnalyzeText(log);
  REQUIRE(plain.events.size() == 1);
  REQUIRE(plain.events[0].deadlock);
  REQUIRE(!plain.events[0].findings.empty());
  Event ev = plain.events[0];
  RedactEvent(&ev);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.processes[0].query == "UPDATE accounts SET owner = ? WHERE id = ?;");
  CHECK(d.processes[1].query == "UPDATE accounts SET owner = ? WHERE id = ?;");
  CHECK(d.statement == "UPDATE accounts SET owner = ? WHERE id = ?;");
  CHECK(d.context[0].text == "while updating tuple (0,9) in relation \"accounts\"");
  CHECK(ev.signature == plain.events[0].signature);  // signed before redaction
  for (const Finding& f : ev.findings) {
    INFO(f.rule_id << ": " << f.message);
    for (const std::string* s : {&f.message, &f.hint}) {
      CHECK(s->find("Jane") == std::string::npos);
      CHECK(s->find("id = 9") == std::string::npos);
      CHECK(s->find("id = 10") == std::string::npos);
    }
    for (const std::string& e : f.evidence) {
      INFO(e);
      CHECK(e.find("Jane") == std::string::npos);
      CHECK(e.find("John") == std::string::npos);
      CHECK(e.find("= 10") == std::string::npos);
    }
    CHECK(f.message.find("9828") != std::string::npos);  // pids are kept
  }
}

TEST_CASE("redact: literals in comments, nested and clipped ones too", "[redact]") {
  CHECK(RedactSql("UPDATE t SET a = 1 -- customer 'Jane Doe', order 42\nWHERE id = 7") ==
        "UPDATE t SET a = ? -- customer ?, order ?\nWHERE id = ?");
  CHECK(RedactSql("/* app: shop, user 'jd@example.com' /* nested 99 */ */ SELECT 5") ==
        "/* app: shop, user ? /* nested ? */ */ SELECT ?");
  CHECK(RedactSql("SELECT 1 /* clipped at 'track_act") == "SELECT ? /* clipped at ?");
  CHECK(RedactSql("SELECT \"a--b\", '/* not a comment */' FROM t") == "SELECT \"a--b\", ? FROM t");
}

TEST_CASE("redact: lockgraph's own hint text stays, $1 parameters included", "[redact]") {
  // The issue: a query with the literal 1 turned the hint's ANY($1) into ANY($?).
  const std::string log =
      "2026-12-02 11:26:16.484 UTC [9828] ERROR:  deadlock detected\n"
      "2026-12-02 11:26:16.484 UTC [9828] DETAIL:  Process 9828 waits for ShareLock on "
      "transaction 742; blocked by process 9809.\n"
      "\tProcess 9809 waits for ShareLock on transaction 743; blocked by process 9828.\n"
      "\tProcess 9828: UPDATE accounts SET balance = balance - 1 WHERE id = 3;\n"
      "\tProcess 9809: UPDATE accounts SET balance = balance - 1 WHERE id = 4;\n"
      "2026-12-02 11:26:16.484 UTC [9828] CONTEXT:  while updating tuple (0,3) in relation "
      "\"accounts\"\n";
  Report plain = test::AnalyzeText(log);
  REQUIRE(plain.events.size() == 1);
  Event ev = plain.events[0];
  REQUIRE(!ev.findings.empty());
  REQUIRE(ev.findings[0].rule_id == "PG001");
  RedactEvent(&ev);
  const std::string& hint = ev.findings[0].hint;
  INFO(hint);
  CHECK(hint.find("`SELECT 1 FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`") !=
        std::string::npos);
  CHECK(hint.find("id = 3") == std::string::npos);
  CHECK(hint.find("id = 4") == std::string::npos);
}
