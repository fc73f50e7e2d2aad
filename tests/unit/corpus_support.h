// Shared runner of the published-excerpt corpora (tests/corpus/ for
// PostgreSQL, tests/corpus-mysql/ for MySQL and MariaDB): each case folder
// holds input.* and a hand-derived expected.json; KNOWN_FAILURES lists the
// cases lockgraph does not read exactly yet, with their root cause.
// Layout and derivation rules: tests/corpus/README.md, tests/corpus-mysql/README.md.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace lockgraph::test {

/// One deadlock as a corpus compares it: what expected.json holds.
struct CorpusDeadlock {
  std::string victim;  // "" = none named
  std::vector<std::string> cycle;
  std::vector<std::string> modes;
  bool complete = true;
  std::string server;  // source.server: "" = none named (one server, no framing name)
};

/// What a corpus compares for one input.
struct CorpusCase {
  std::vector<CorpusDeadlock> deadlocks;
  size_t lock_waits = 0;
  std::string error;  // the Analyzer refused the input
};

/// Reads expected.json; `*error` is set when it is malformed.
CorpusCase ReadCorpusExpected(const std::filesystem::path& file, std::string* error);

/// Runs `input` as `lockgraph analyze FILE` does (format sniffed, no flag).
CorpusCase AnalyzeCorpusInput(const std::filesystem::path& input);

/// Empty when `got` equals `want`; otherwise one line per difference.
std::string CorpusDiff(const CorpusCase& want, const CorpusCase& got);

/// Runs every case folder under `root` inside the current Catch2 test case:
/// fails (FAIL_CHECK) on an unlisted case that differs, on a listed case that
/// is exact, on a KNOWN_FAILURES line naming no case, and when fewer than
/// `min_cases` folders exist. Prints "<label>: N exact of M". With the
/// environment variable LOCKGRAPH_CORPUS_VERBOSE set, prints the listed cases' diffs.
void RunCorpus(const std::filesystem::path& root, size_t min_cases, const std::string& label);

}  // namespace lockgraph::test
