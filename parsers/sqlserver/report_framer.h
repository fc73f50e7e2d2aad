// Cuts a stream of XML lines into reports without parsing the XML: each
// <event ...>...</event> element and, outside events, each <deadlock ...>
// ...</deadlock> element (never <deadlock-list>), found by their tags alone.
// pugixml then parses one piece at a time, so a system_health export of
// thousands of reports streams in the memory of its largest report. Events
// whose start tag names another event than a deadlock report are skipped
// unbuffered. Markup inside text is escaped in XML (&lt;), so a tag found is
// markup; comments and CDATA holding these tags are not supported.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace lockgraph {

class ReportFramer {
 public:
  struct Piece {
    std::string_view xml;  // from the start tag to the end tag, lines joined by '\n'
    uint64_t first_line = 0, last_line = 0;
    bool is_event = false;  // an <event>, else a <deadlock>
    bool cut = false;       // the input ended before the end tag
    bool too_large = false; // more than max_bytes: `xml` is empty
  };
  using PieceFn = std::function<void(const Piece&)>;

  ReportFramer(PieceFn fn, size_t max_bytes) : fn_(std::move(fn)), max_bytes_(max_bytes) {}

  /// One line without its '\n'. Returns true when some of it is inside a
  /// report or a skipped event.
  bool Feed(std::string_view line, uint64_t line_no);
  /// End of input: a report still open is delivered with `cut`.
  void Finish();

  /// The most bytes ever held at once (one report).
  size_t max_buffered() const { return max_buffered_; }

 private:
  enum class State { kOutside, kEvent, kDeadlock, kSkipEvent, kSkipDeadlock };
  size_t Open(std::string_view line, size_t pos, uint64_t line_no);
  size_t Close(std::string_view line, size_t pos, uint64_t line_no);
  void Append(std::string_view text);
  void Deliver(uint64_t last_line, bool cut);

  PieceFn fn_;
  size_t max_bytes_;
  State state_ = State::kOutside;
  std::string buffer_;
  uint64_t first_line_ = 0, last_line_ = 0;
  bool too_large_ = false;
  size_t max_buffered_ = 0;
};

/// True for the names of the events that carry a deadlock graph:
/// xml_deadlock_report, database_xml_deadlock_report,
/// xml_deadlock_report_filtered.
bool IsDeadlockEventName(std::string_view name);

}  // namespace lockgraph
