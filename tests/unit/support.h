// Helpers shared by the unit tests: run the real pipeline on inline text,
// and render cycles as one string so that tests assert whole values.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <memory>
#include <sstream>

#include "app/analyzer.h"
#include "app/command_util.h"

namespace lockgraph::test {

/// Writes `text` to a temporary file and analyzes it like `lockgraph
/// analyze`; `input_format`/`prefix` as the flags (prefix applies when
/// `has_prefix`).
Report AnalyzeText(const std::string& text, const std::string& input_format = "",
                   const std::string& prefix = "", bool has_prefix = false);

/// "4508 -ShareLock/transaction 6207443-> 4496; ..." in edge order.
std::string CycleString(const Deadlock& d);

/// Reads a whole file (golden files, samples).
std::string ReadFile(const std::string& path);

/// Every input file of samples/, tests/corpus/ and tests/golden/ (not the
/// expected outputs, READMEs and scripts), sorted.
std::vector<std::string> SampleInputs();

/// A PostgreSQL stderr log of two lock waits on a tuple of relation 16385:
/// the first record gives the OID alone, the second's CONTEXT names it
/// "accounts" (parsers/postgresql/relation_names.h): a name learned later.
extern const char* const kLateRelationName;

/// `bytes` in a new file under /tmp; its path.
std::string TempFile(const std::string& bytes);

/// `text` compressed as one gzip member (zlib, level 6).
std::string Gzip(const std::string& text);

/// The lines of `text`, without their '\n'.
std::vector<std::string> SplitLines(const std::string& text);

/// The first `per_file` lines of every .log and .txt file of samples/ and
/// tests/corpus/ (the text logs other people and we wrote), in no set order.
std::vector<std::string> SampleTextLines(size_t per_file);

/// Hands `text` to `parse` as LineReader::ForEachBlock hands a file over:
/// `block` bytes cut back to whole lines, but the last, at the end of input
/// (`at_end`); doubled when no line ends in it or when `parse` took nothing.
/// `parse` returns how many bytes it took; the rest comes again in front.
void ForEachBlockOf(std::string_view text, size_t block,
                    const std::function<size_t(std::string_view, bool)>& parse);

/// An Analyzer whose events are written as `analyze --format ndjson`
/// writes them, into `out` (one thread, no collected events).
struct NdjsonAnalyzer {
  NdjsonAnalyzer();
  std::unique_ptr<Emitter> emitter;
  std::ostringstream out;
  std::unique_ptr<StreamToEmitter> stream;
  std::unique_ptr<Analyzer> analyzer;
};

/// `lockgraph analyze --format ndjson PATH...`, one thread, no collected
/// events: the output text; `*first_lines` (when given) gets the first
/// input's line counts. Fails the test on an input it cannot read.
std::string AnalyzeNdjson(const std::vector<std::string>& paths, LineCounts* first_lines = nullptr);

}  // namespace lockgraph::test
