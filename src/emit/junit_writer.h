// A JUnit XML document written one test case at a time, so that a report
// of many failing cases (`check --max-lock-wait 0` on a large log) is never
// held whole. pugixml writes every piece (escaping by the library): the
// envelope, each case, and each piece of a failure's text; the result is
// byte for byte what saving the whole document with pugixml gives.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include <pugixml.hpp>

namespace lockgraph {

struct JunitCounts {
  int tests = 0, failures = 0, skipped = 0;
};

/// Not copyable. Every text goes through PrintableText first, because XML
/// 1.0 has no way to write NUL or most control characters, nor invalid
/// UTF-8.
class JunitWriter {
 public:
  /// Writes the declaration and the opening testsuites and testsuite tags,
  /// with the counts of the cases to come.
  JunitWriter(std::ostream& out, const JunitCounts& counts);
  JunitWriter(const JunitWriter&) = delete;
  JunitWriter& operator=(const JunitWriter&) = delete;

  /// A new case: its attributes are added to the node given back, which
  /// Pass(), Skip() or Fail() then writes.
  pugi::xml_node Case(const std::string& classname, const std::string& name);
  void Pass();
  void Skip(const std::string& message);
  /// A failure whose text comes in pieces: `text` calls its argument with
  /// each. A piece must not end inside a UTF-8 sequence.
  using Pieces = std::function<void(const std::function<void(std::string_view)>&)>;
  void Fail(const std::string& type, const std::string& message, const Pieces& text);
  /// Closes the testsuite and testsuites tags.
  void Finish();

 private:
  std::ostream& out_;
  std::string tail_;
  pugi::xml_document case_;
};

}  // namespace lockgraph
