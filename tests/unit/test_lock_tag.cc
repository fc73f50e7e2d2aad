// Every lock-tag format of DescribeLockTag() (reference §4), with the
// pg_locks field names, and the overlapping forms matched whole.
#include <catch2/catch.hpp>

#include "parsers/postgresql/lock_tag.h"

using lockgraph::LockTarget;
using lockgraph::ParsePgLockTag;

namespace {

std::string Fields(const LockTarget& t) {
  std::string s = t.type;
  for (const auto& f : t.fields) s += " " + f.name + "=" + f.value;
  return s;
}

}  // namespace

TEST_CASE("every PostgreSQL lock tag parses into pg_locks fields", "[lock_tag]") {
  CHECK(Fields(ParsePgLockTag("transaction 748")) == "transactionid transactionid=748");
  CHECK(Fields(ParsePgLockTag("tuple (0,5) of relation 16390 of database 16384")) ==
        "tuple database=16384 relation=16390 page=0 tuple=5");
  CHECK(Fields(ParsePgLockTag("relation 16820 of database 16566")) ==
        "relation database=16566 relation=16820");
  CHECK(Fields(ParsePgLockTag("extension of relation 419652 of database 16400")) ==
        "extend database=16400 relation=419652");
  CHECK(Fields(ParsePgLockTag("page 3 of relation 16390 of database 16384")) ==
        "page database=16384 relation=16390 page=3");
  CHECK(Fields(ParsePgLockTag("pg_database.datfrozenxid of database 5")) ==
        "frozenid database=5");
  CHECK(Fields(ParsePgLockTag("virtual transaction 2/7")) == "virtualxid virtualxid=2/7");
  CHECK(Fields(ParsePgLockTag("speculative token 3 of transaction 900")) ==
        "spectoken transactionid=900 objid=3");
  CHECK(Fields(ParsePgLockTag("object 16400 of class 1259 of database 16384")) ==
        "object database=16384 classid=1259 objid=16400");
  CHECK(Fields(ParsePgLockTag("advisory lock [233136,1,2,2]")) ==
        "advisory database=233136 classid=1 objid=2 objsubid=2");
  CHECK(Fields(ParsePgLockTag("user lock [1,2,3]")) == "userlock database=1 classid=2 objid=3");
  CHECK(Fields(ParsePgLockTag("remote transaction 771 of subscription 16400 of database 5")) ==
        "applytransaction database=5 transactionid=771 objid=16400");
  CHECK(Fields(ParsePgLockTag("unrecognized locktag type 42")) == "unknown locktag_type=42");
}

TEST_CASE("an unknown tag keeps its text and type unknown", "[lock_tag]") {
  LockTarget t = ParsePgLockTag("кортеж (6416,42) в отношении 16390");
  CHECK(t.type == "unknown");
  CHECK(t.fields.empty());
  CHECK(t.text == "кортеж (6416,42) в отношении 16390");
}

TEST_CASE("a translated tag (ru, reference §9.8) is read like the English one", "[lock_tag]") {
  LockTarget t = ParsePgLockTag("кортеж (6416,42) отношения 16390 базы данных 16388");
  CHECK(Fields(t) == "tuple database=16388 relation=16390 page=6416 tuple=42");
  CHECK(t.text == "кортеж (6416,42) отношения 16390 базы данных 16388");
  CHECK(t.Key() == "tuple:16388/16390/6416/42");
}

TEST_CASE("lock target keys and labels", "[lock_tag]") {
  LockTarget t = ParsePgLockTag("tuple (0,5) of relation 16390 of database 16384");
  CHECK(t.Key() == "tuple:16384/16390/0/5");
  CHECK(t.Label() == "tuple (0,5) of 16390");
  t.relation_name = "inventory";
  CHECK(t.Label() == "tuple (0,5) of inventory");
  CHECK(ParsePgLockTag("transaction 748").Label() == "transaction 748");
}
