// Corpus of real MySQL and MariaDB InnoDB deadlock reports that other people
// published (tests/corpus-mysql/<case>/input.txt with a hand-derived
// expected.json; sources and derivation rules in tests/corpus-mysql/README.md).
// Each input goes through the Analyzer as `lockgraph analyze FILE` would and
// its deadlocks (victim connection id, cycle of connection ids from the victim,
// the data_locks modes waited for, complete) are compared with expected.json.
// Cases that fail today are listed with their root cause in
// tests/corpus-mysql/KNOWN_FAILURES.
#include <catch2/catch.hpp>

#include <filesystem>

#include "corpus_support.h"

TEST_CASE("corpus: published InnoDB deadlock reports against their hand-derived events",
          "[corpus][mysql]") {
  lockgraph::test::RunCorpus(std::filesystem::path(LOCKGRAPH_TEST_DIR) / "corpus-mysql", 8,
                             "corpus-mysql");
}
