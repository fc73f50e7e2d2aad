// Normalized SQL as people read it (analysis/statement.h ReadableSql), and
// the canonical text signatures use, which must not change.
#include <catch2/catch.hpp>

#include "analysis/statement.h"

namespace lockgraph {

TEST_CASE("normalized SQL reads like SQL", "[sql]") {
  CHECK(ReadableSql("UPDATE dbo.tally_sm SET x = @p1 WHERE id = @p2") ==
        "update dbo.tally_sm set x = @p1 where id = @p2");
  CHECK(ReadableSql("select * from t where id = any(array[1,2,3])") ==
        "select * from t where id = any(array[?])");
  CHECK(ReadableSql("SELECT f(a, b), x::int FROM s.t WHERE y IN (1, 2) FOR UPDATE;") ==
        "select f(a, b), x::int from s.t where y in (?) for update");
  CHECK(ReadableSql("INSERT INTO t (a, b) VALUES (1, 'x') ON CONFLICT (a) DO NOTHING") ==
        "insert into t (a, b) values (?) on conflict (a) do nothing");
  CHECK(ReadableSql("update \"Orders\" set n = n + 1 where id = $1") ==
        "update \"Orders\" set n = n + ? where id = ?");
  CHECK(ReadableSql("SELECT pg_advisory_xact_lock(42)") == "select pg_advisory_xact_lock(?)");
}

TEST_CASE("the canonical text keeps its token spacing", "[sql]") {
  // Signatures and cause keys are made of it: their ids must not move.
  CHECK(NormalizeSql("UPDATE dbo.tally_sm SET x = @p1") == "update dbo . tally_sm set x = @ p1");
  CHECK(NormalizeSql("select * from t where id = any(array[1,2,3])") ==
        "select * from t where id = any ( array [ ? ] )");
  CHECK(NormalizeSql("INSERT INTO t (a, b) VALUES (1, 'x');") == "insert into t ( a , b ) values ( ? )");
}

}  // namespace lockgraph
