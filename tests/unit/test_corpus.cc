// Corpus of real PostgreSQL log excerpts that other people published
// (tests/corpus/<case>/input.* with a hand-derived expected.json; sources in
// tests/corpus/README.md). Each input goes through the Analyzer exactly as
// `lockgraph analyze FILE` would (format sniffed, no flag) and its deadlocks
// and lock-wait count are compared with expected.json. Cases that fail today
// are listed with their root cause in tests/corpus/KNOWN_FAILURES: the test
// fails when an unlisted case fails and when a listed case passes.
#include <catch2/catch.hpp>

#include <filesystem>

#include "corpus_support.h"

TEST_CASE("corpus: published PostgreSQL excerpts against their hand-derived events", "[corpus]") {
  lockgraph::test::RunCorpus(std::filesystem::path(LOCKGRAPH_TEST_DIR) / "corpus", 40, "corpus");
}
