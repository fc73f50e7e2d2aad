// See xml_report_reader.h.
#include "parsers/sqlserver/xml_report_reader.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "parsers/sqlserver/deadlock_builder.h"

namespace lockgraph {
namespace {

constexpr unsigned kParseOptions = pugi::parse_default;

// The file line of a byte offset into a piece.
uint64_t LineAt(std::string_view xml, uint64_t first_line, ptrdiff_t offset) {
  size_t end = std::min(xml.size(), size_t(std::max<ptrdiff_t>(offset, 0)));
  return first_line + uint64_t(std::count(xml.begin(), xml.begin() + ptrdiff_t(end), '\n'));
}

// Wrapper markup and blank lines outside reports count as parsed.
bool IsWrapperLine(std::string_view line) {
  size_t b = line.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return true;
  size_t e = line.find_last_not_of(" \t\r");
  return line[b] == '<' && line[e] == '>';
}

// The <deadlock> of a report: `root` itself, or its first <deadlock> child
// (<deadlock-list>, <value>).
pugi::xml_node DeadlockOf(const pugi::xml_node& root) {
  if (std::strcmp(root.name(), "deadlock") == 0) return root;
  if (pugi::xml_node d = root.child("deadlock")) return d;
  return root.child("deadlock-list").child("deadlock");
}

ReportOrigin Origin(const std::string& file, const ReportFramer::Piece& piece, const char* form) {
  ReportOrigin o;
  o.file = file;
  o.first_line = piece.first_line;
  o.last_line = piece.last_line;
  o.form = form;
  o.cut = piece.cut;
  // Newline offsets, found once on the first call (a report's resources all ask).
  auto newlines = std::make_shared<std::vector<size_t>>();
  std::string_view xml = piece.xml;
  uint64_t first = piece.first_line;
  o.line_of = [xml, first, newlines, scanned = false](ptrdiff_t offset) mutable {
    if (!scanned) {
      for (size_t i = xml.find('\n'); i != std::string_view::npos; i = xml.find('\n', i + 1))
        newlines->push_back(i);
      scanned = true;
    }
    auto before = std::lower_bound(newlines->begin(), newlines->end(), size_t(std::max<ptrdiff_t>(offset, 0)));
    return first + uint64_t(before - newlines->begin());
  };
  return o;
}

std::string Malformed(const pugi::xml_parse_result& r, uint64_t line) {
  return std::string("malformed XML at line ") + std::to_string(line) + ": " + r.description();
}

}  // namespace

XmlReportReader::XmlReportReader(std::string file, ParseSink& sink, size_t max_report_bytes)
    : file_(std::move(file)),
      sink_(sink),
      framer_([this](const ReportFramer::Piece& p) { OnPiece(p); }, max_report_bytes) {}

void XmlReportReader::ParseLine(std::string_view line, uint64_t line_no) {
  ++counts_.total;
  if (framer_.Feed(line, line_no) || IsWrapperLine(line)) {
    ++counts_.parsed;
  } else {
    ++counts_.unparsed;
    sink_.OnUnparsed(file_, line_no, line);
  }
}

void XmlReportReader::Finish() { framer_.Finish(); }

void XmlReportReader::Flag(const ReportFramer::Piece& piece, uint64_t line, const std::string& problem) {
  sink_.OnDiagnostic({Diagnostic::Severity::kWarning, file_, line, problem, ""});
}

// A report pugixml could not read whole: cut by the end of input (the
// origin says so), or malformed (a problem of the deadlock); a diagnostic.
void XmlReportReader::Problem(const ReportFramer::Piece& piece, const pugi::xml_parse_result& r,
                              ReportOrigin* origin) {
  uint64_t line = LineAt(piece.xml, piece.first_line, r.offset);
  if (piece.cut) return Flag(piece, line, "deadlock report cut by the end of input");
  origin->malformed = Malformed(r, line);
  Flag(piece, line, origin->malformed);
}

void XmlReportReader::OnPiece(const ReportFramer::Piece& piece) {
  if (piece.too_large) {
    Flag(piece, piece.first_line,
         "deadlock report of more than " + std::to_string(kMaxReportBytes >> 20) + " MiB skipped");
    return;
  }
  if (piece.is_event) return OnEvent(piece);
  pugi::xml_document doc;
  pugi::xml_parse_result r =
      doc.load_buffer(piece.xml.data(), piece.xml.size(), kParseOptions, pugi::encoding_utf8);
  ReportOrigin origin = Origin(file_, piece, "deadlock");
  pugi::xml_node deadlock = doc.child("deadlock");
  if (deadlock.attribute("victim") || !deadlock.child("victim-list")) origin.form = "deadlock-list";
  if (!r) Problem(piece, r, &origin);
  sink_.OnEvent(BuildSqlServerDeadlock(deadlock, origin));
}

// An Extended Events <event>: the graph in data[@name=xml_report]/value,
// as elements or as escaped text parsed a second time.
void XmlReportReader::OnEvent(const ReportFramer::Piece& piece) {
  pugi::xml_document doc;
  pugi::xml_parse_result r =
      doc.load_buffer(piece.xml.data(), piece.xml.size(), kParseOptions, pugi::encoding_utf8);
  pugi::xml_node event = doc.child("event");
  if (r && !IsDeadlockEventName(event.attribute("name").value())) return;
  ReportOrigin origin = Origin(file_, piece, "xml_deadlock_report");
  if (*event.attribute("name").value()) origin.form = event.attribute("name").value();
  origin.time = event.attribute("timestamp").value();
  origin.epoch_ms = UtcEpochMs(origin.time);
  if (!r) Problem(piece, r, &origin);
  pugi::xml_node value = event.find_child_by_attribute("data", "name", "xml_report").child("value");
  pugi::xml_node deadlock = DeadlockOf(value);
  pugi::xml_document inner;
  if (!deadlock && !value.text().empty()) {
    const char* text = value.child_value();
    pugi::xml_parse_result ri = inner.load_buffer(text, std::strlen(text), kParseOptions, pugi::encoding_utf8);
    origin.line_of = nullptr;  // offsets into the unescaped text
    if (!ri && origin.malformed.empty()) {
      origin.malformed = std::string("malformed escaped XML report: ") + ri.description();
      Flag(piece, piece.first_line, origin.malformed);
    }
    deadlock = DeadlockOf(inner);
  }
  if (!deadlock && origin.malformed.empty()) {
    origin.malformed = "the event has no deadlock graph in data name=\"xml_report\"";
    Flag(piece, piece.first_line, origin.malformed);
  }
  sink_.OnEvent(BuildSqlServerDeadlock(deadlock, origin));
}

}  // namespace lockgraph
