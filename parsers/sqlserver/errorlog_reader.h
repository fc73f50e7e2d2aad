// SQL Server trace flag 1222 and 1204 reports in text (reference A8, A9):
// the ERRORLOG, whose lines carry a "2013-07-09 16:30:49.56 spid8s" prefix
// (date, time, source column), or the bare report text. Each report is
// gathered into a pugixml tree by Tf1222Block / Tf1204Block and read by the
// same builder as the XML (deadlock_builder.h). Indentation is measured
// from the column of the `deadlock-list` line; lines of other sources
// interleaved with a report (another spid logging) are skipped over.
#pragma once

#include <pugixml.hpp>

#include <memory>
#include <string>

#include "parsers/input_format.h"
#include "parsers/sqlserver/tf1204_block.h"
#include "parsers/sqlserver/tf1222_block.h"

namespace lockgraph {

/// An ERRORLOG line prefix: "2013-07-09 16:30:49.56 spid8s      text".
struct ErrorlogPrefix {
  std::string time;    // "2013-07-09 16:30:49.56"
  std::string source;  // "spid8s", "Server", "Logon"
  size_t text = 0;     // where the text starts (after the source's padding)
};

/// Reads the prefix of `line`; false when it has none.
bool ReadErrorlogPrefix(std::string_view line, ErrorlogPrefix* out);

/// True for sources the ERRORLOG writes: spidN, spidNs, Server, Logon, Backup, ...
bool IsErrorlogSource(std::string_view source);

class ErrorlogReader final : public LineParser {
 public:
  ErrorlogReader(std::string file, ParseSink& sink);
  void ParseLine(std::string_view line, uint64_t line_no) override;
  void Finish() override;
  const LineCounts& counts() const override { return counts_; }

 private:
  bool Continue(std::string_view line, uint64_t line_no, bool prefixed, const ErrorlogPrefix& p);
  bool Start(std::string_view line, uint64_t line_no, bool prefixed, const ErrorlogPrefix& p);
  /// Hands the open report on; `at_end`: the input ended inside it.
  void Close(bool at_end = false);

  std::string file_;
  ParseSink& sink_;
  LineCounts counts_;
  std::unique_ptr<pugi::xml_document> doc_;
  std::unique_ptr<Tf1222Block> tf1222_;
  std::unique_ptr<Tf1204Block> tf1204_;
  bool prefixed_ = false;       // the open report's lines have a prefix
  std::string source_, time_;   // its source and time
  size_t base_column_ = 0;      // column of its first line's text
  uint64_t first_line_ = 0, last_line_ = 0;
};

}  // namespace lockgraph
