// The SQL tokenizer, the token normalizer, statement facts and shapes
// (src/analysis/sql_lexer.h, statement.h) on statements as logs show them.
#include <catch2/catch.hpp>

#include "analysis/statement.h"

using namespace lockgraph;

namespace {

std::string Keys(const StatementFacts& f) {
  std::string s;
  for (const KeyLiteral& k : f.keys) s += (s.empty() ? "" : "; ") + k.Text();
  return s;
}

std::string Calls(const StatementFacts& f) {
  std::string s;
  for (const std::string& c : f.calls) s += (s.empty() ? "" : " ") + c;
  return s;
}

}  // namespace

TEST_CASE("tokenizer: literals, quoted names, comments, clipped text", "[statement]") {
  auto t = TokenizeSql("SELECT \"Id\", E'it''s', $1, $q$a'b$q$, 4.2e3 -- done\nFROM t /* x /* y */ */");
  std::string kinds;
  for (const SqlToken& k : t) kinds += std::to_string(int(k.kind)) + ":" + k.text + " ";
  CHECK(kinds ==
        "0:select 1:Id 5:, 3:it's 5:, 4:$1 5:, 3:a'b 5:, 2:4.2e3 0:from 0:t ");
  // Cut inside a comment or a string, as track_activity_query_size cuts.
  CHECK(NormalizeSql("UPDATE stock SET qty = qty + 2 WHERE sku = 5 /* padding padd") ==
        "update stock set qty = qty + ? where sku = ?");
  CHECK(NormalizeSql("INSERT INTO t VALUES ('abc") == "insert into t values ( ?");
}

TEST_CASE("normalizer: literals, lists and case do not matter", "[statement]") {
  CHECK(NormalizeSql("UPDATE accounts SET balance = balance - 30 WHERE id = 4;") ==
        "update accounts set balance = balance - ? where id = ?");
  CHECK(NormalizeSql("update ACCOUNTS set balance=balance-$1 where id=$2") ==
        "update accounts set balance = balance - ? where id = ?");
  CHECK(NormalizeSql("SELECT * FROM t WHERE id IN (1, 2, 3)") ==
        NormalizeSql("select * from t where id in (7)"));
  CHECK(NormalizeSql("SELECT pg_advisory_lock(7, 201)") == "select pg_advisory_lock ( ? )");
  CHECK(NormalizeSql("a b c d e", 3) == "a b c");
}

TEST_CASE("statement facts: verb, table, row lock, keys, calls", "[statement]") {
  StatementFacts u = ReadStatement("UPDATE public.accounts SET balance = balance - 40 WHERE id = 3;");
  CHECK(u.verb == "update");
  CHECK(u.table == "accounts");
  CHECK(Keys(u) == "id = 3");
  CHECK_FALSE(u.ddl);

  StatementFacts s = ReadStatement("SELECT id FROM accounts WHERE id = 9 FOR UPDATE;");
  CHECK(s.table == "accounts");
  CHECK(s.row_lock == "for update");
  CHECK(Keys(s) == "id = 9");
  CHECK(ReadStatement("select * from t where k = 'x' for no key update").row_lock == "for no key update");
  CHECK(Keys(ReadStatement("select * from t where 'x' = k for share")) == "k = 'x'");
  CHECK(Keys(ReadStatement("DELETE FROM ONLY t WHERE id IN (1, 2) RETURNING id")) == "id = 1; id = 2");
  CHECK(Keys(ReadStatement("UPDATE t SET a = 1 WHERE id = $2")) == "id = $2");

  StatementFacts ri = ReadStatement(
      R"(SELECT 1 FROM ONLY "public"."orders" x WHERE "id" OPERATOR(pg_catalog.=) $1 FOR KEY SHARE OF x)");
  CHECK(ri.table == "orders");
  CHECK(ri.row_lock == "for key share");
  CHECK(ri.keys.empty());

  CHECK(ReadStatement("INSERT INTO order_lines (order_id, sku) VALUES (2, 8);").table == "order_lines");
  CHECK(ReadStatement("SELECT * FROM history_tables()").table.empty());
  CHECK(Calls(ReadStatement("SELECT pg_advisory_xact_lock(101);")) == "pg_advisory_xact_lock");
  CHECK(Calls(ReadStatement("SELECT transfer(18, 19, 2.0);")) == "transfer");

  StatementFacts lock = ReadStatement("LOCK TABLE audit IN SHARE MODE;");
  CHECK(lock.table == "audit");
  CHECK(lock.lock_mode == "share");
  CHECK_FALSE(lock.ddl);
  CHECK(ReadStatement("LOCK audit").ddl);  // ACCESS EXCLUSIVE by default
  StatementFacts alter = ReadStatement("ALTER TABLE IF EXISTS settings ADD COLUMN note text;");
  CHECK(alter.ddl);
  CHECK(alter.table == "settings");
  CHECK(ReadStatement("CREATE INDEX CONCURRENTLY i ON ONLY t (a)").table == "t");
  CHECK(ReadStatement("TRUNCATE audit").ddl);
  CHECK_FALSE(ReadStatement("VACUUM audit").ddl);
}

TEST_CASE("shape: libpg_query fingerprint, token normalizer where it does not parse",
          "[statement]") {
  const std::string a = StatementShape("UPDATE accounts SET balance = balance - 30 WHERE id = 4;", false);
  CHECK(a == "fp:ab18cd674d072270");
  CHECK(StatementShape("update accounts set balance = balance-$1 where id=$2", false) == a);
  CHECK(StatementShape("UPDATE accounts SET balance = balance + 30 WHERE id = 4;", false) != a);
  CHECK(QueryFingerprint("<insufficient privilege>").empty());
  CHECK(StatementShape("<insufficient privilege>", false) == "sql:< insufficient privilege >");
  // Two clipped copies of one long statement, cut at different places.
  std::string pad(1100, 'x');
  std::string one = ("UPDATE stock SET qty = qty + 2 WHERE sku = 5 /* " + pad).substr(0, 1023);
  std::string two = ("UPDATE stock SET qty = qty + 2 WHERE sku = 60000 /* " + pad).substr(0, 1021);
  CHECK(StatementShape(one, true) == StatementShape(two, true));
  CHECK(StatementShape(one, true) == "sql:update stock set qty = qty + ? where sku = ?");
}

TEST_CASE("ReadStatementTarget and ReadStatement's normalized text agree with the whole reading",
          "[statement]") {
  // Statements of every verb ReadTarget knows, with a final semicolon or
  // several, comments, quoted names, clipped text, and text that is not SQL.
  const char* const kStatements[] = {
      "UPDATE public.accounts SET balance = balance - 40 WHERE id = 3;",
      "SELECT id FROM accounts WHERE id = 9 FOR UPDATE;;",
      "select * from t where k = 'x' for no key update",
      "INSERT INTO \"Orders\" (id, total) VALUES (1, 2), (3, 4) ON CONFLICT DO NOTHING",
      "DELETE FROM ONLY ledger /* old */ WHERE id IN (1, 2, 3)",
      "LOCK TABLE inventory IN ACCESS EXCLUSIVE MODE",
      "ALTER TABLE IF EXISTS carts ADD COLUMN x int",
      "CREATE INDEX CONCURRENTLY i ON ONLY invoices (customer_id)",
      "TRUNCATE customers",
      "VACUUM FULL ledger_totals",
      "SELECT pg_advisory_xact_lock(42), f(x) FROM g WHERE a = $1",
      "UPDATE accounts SET note = 'it''s' WHERE id = 1 AND name = 'clipped te",
      "",
      ";",
      "<insufficient privilege>",
      "42",
  };
  for (const char* sql : kStatements) {
    INFO(sql);
    const StatementFacts whole = ReadStatement(sql);
    const StatementFacts target = ReadStatementTarget(sql);
    CHECK(target.verb == whole.verb);
    CHECK(target.table == whole.table);
    CHECK(target.row_lock == whole.row_lock);
    CHECK(target.lock_mode == whole.lock_mode);
    CHECK(target.ddl == whole.ddl);
    CHECK(target.keys.empty());
    CHECK(target.normalized.empty());
    CHECK(whole.normalized == NormalizeSql(sql));
  }
  CHECK(ReadStatementTarget("INSERT INTO \"Orders\" (id) VALUES (1)").table == "Orders");
  CHECK(ReadStatement("SELECT 1;;").normalized == "select ?");
}
