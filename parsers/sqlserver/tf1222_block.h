// Trace flag 1222 text (reference A8): the deadlock graph written as an
// indented tree of `element name=value ...` lines, one space of indentation
// per level, values unquoted and possibly holding spaces. TF1222Block takes
// the lines of one report and builds the same pugixml tree as the XML
// report, so one builder (deadlock_builder.h) reads both. Long element lines
// wrapped onto several lines (the published example) are joined: a line at
// the element's level that starts with a known `attribute=` continues it.
// Frame statements and input buffers are free text, ended only by a line
// that has the shape of a structure line at its level.
#pragma once

#include <pugixml.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockgraph {

/// The `name=value` pairs of an element line (after its name): split at
/// known attribute names (A3, A4, A5) preceded by white space, and at other
/// `identifier=` words unless the value being read is free text (clientapp,
/// isolationlevel, waitresource, ...). `transcount` is renamed `trancount`.
std::vector<std::pair<std::string, std::string>> SplitTf1222Attributes(std::string_view text);

class Tf1222Block {
 public:
  /// `doc` receives the <deadlock> element; it must outlive the block.
  explicit Tf1222Block(pugi::xml_document* doc);

  /// One line: `content` without its indentation, `level` its indentation
  /// relative to the `deadlock-list` line (the first line given). A blank
  /// line has level -1. Returns false when the line is not part of the
  /// report (the report ended before it); the line is then not consumed.
  bool Add(std::string_view content, int level);

  /// Ends open text; the tree is complete.
  void Finish();

  pugi::xml_node deadlock() const { return deadlock_; }

 private:
  enum class Text { kNone, kFrame, kInputbuf };
  bool Structure(std::string_view content, int level);
  bool Continuation(std::string_view content, int level);
  void StartText(Text kind);
  void EndText();
  pugi::xml_node Element(pugi::xml_node parent, std::string_view name, std::string_view attrs);

  pugi::xml_node deadlock_, section_, element_, sub_, frame_;
  int element_level_ = -1;
  Text text_kind_ = Text::kNone;
  std::string text_;
  int text_indent_ = -1;  // indentation of the first text line, removed from all
  bool started_ = false;
};

}  // namespace lockgraph
