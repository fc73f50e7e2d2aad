// The SQL Server deadlock XML reader (reference A1, A2): .xdl files
// (<deadlock-list><deadlock victim=...>), bare <deadlock> with a
// <victim-list>, Extended Events (<event name="xml_deadlock_report"> with the
// graph in <data name="xml_report"><value>, as elements or as escaped text),
// ring buffer and system_health exports of many events. Lines are framed
// into one report at a time (report_framer.h) and only that report is
// parsed, with pugixml. A malformed report becomes a diagnostic (file:line)
// and a deadlock flagged incomplete with what could be read.
#pragma once

#include <string>

#include <pugixml.hpp>

#include "parsers/input_format.h"
#include "parsers/sqlserver/report_framer.h"

namespace lockgraph {

struct ReportOrigin;  // deadlock_builder.h

class XmlReportReader final : public LineParser {
 public:
  /// Reports larger than this are reported and skipped.
  static constexpr size_t kMaxReportBytes = 64 << 20;

  XmlReportReader(std::string file, ParseSink& sink, size_t max_report_bytes = kMaxReportBytes);

  void ParseLine(std::string_view line, uint64_t line_no) override;
  void Finish() override;
  const LineCounts& counts() const override { return counts_; }

  /// The most bytes of input held at once: the largest report.
  size_t max_buffered_bytes() const { return framer_.max_buffered(); }

 private:
  void OnPiece(const ReportFramer::Piece& piece);
  void OnEvent(const ReportFramer::Piece& piece);
  void Problem(const ReportFramer::Piece& piece, const pugi::xml_parse_result& r,
               ReportOrigin* origin);
  void Flag(const ReportFramer::Piece& piece, uint64_t line, const std::string& problem);

  std::string file_;
  ParseSink& sink_;
  ReportFramer framer_;
  LineCounts counts_;
};

}  // namespace lockgraph
