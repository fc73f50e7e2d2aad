// The SQL Server input formats on every wrapper and encoding: escaped
// Extended Events values, ring buffers mixing other events, UTF-16 with and
// without a BOM, CRLF, ERRORLOG prefixes with other sessions' lines between,
// malformed and cut reports, and a stream of 10,000 reports held one at a
// time.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "parsers/sqlserver/text_decoder.h"
#include "parsers/sqlserver/tf1222_block.h"
#include "parsers/sqlserver/xml_report_reader.h"
#include "sqlserver_describe.h"
#include "support.h"

namespace lockgraph {
namespace {

std::string Sample(const std::string& name) {
  return test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/sqlserver/" + name);
}

// The <deadlock> element of the key lookup sample, as its own document.
std::string KeyLookupGraph() {
  std::string xe = Sample("sqlserver-xe-event-keylookup-msdocs.xml");
  size_t b = xe.find("<deadlock>"), e = xe.find("</deadlock>") + 11;
  return xe.substr(b, e - b);
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string Utf16(const std::string& ascii, bool little_endian, bool bom) {
  std::string out;
  if (bom) out += little_endian ? "\xFF\xFE" : "\xFE\xFF";
  for (char c : ascii) {
    if (little_endian) out += c, out += '\0';
    else out += '\0', out += c;
  }
  return out;
}

std::string Cycle(const Report& r, size_t i = 0) {
  REQUIRE(r.events.size() > i);
  std::string s;
  for (const WaitEdge& e : r.events[i].deadlock->edges) s += (s.empty() ? "" : "; ") + test::EdgeString(e);
  return s;
}

const char* kKeyLookupCycle =
    "process27b9b0b9848 -S(wait)/keylock:lock27b9dd26a00-> process27b9ee33c28 holding X [hard]; "
    "process27b9ee33c28 -X(wait)/keylock:lock27afa392600-> process27b9b0b9848 holding S [hard]";

class CountingSink : public ParseSink {
 public:
  void OnEvent(Event&& event) override {
    ++events;
    if (!event.deadlock->complete) ++incomplete;
  }
  void OnUnparsed(const std::string&, uint64_t, std::string_view) override { ++unparsed; }
  void OnDiagnostic(Diagnostic&&) override { ++diagnostics; }
  size_t events = 0, incomplete = 0, unparsed = 0, diagnostics = 0;
};

}  // namespace

TEST_CASE("sqlserver xml: the value of an event as escaped text", "[sqlserver]") {
  std::string text = "<event name=\"xml_deadlock_report\" package=\"sqlserver\" timestamp=\"2024-01-02T03:04:05.6Z\">"
                     "<data name=\"xml_report\"><value>" + Escape(KeyLookupGraph()) + "</value></data></event>\n";
  Report r = test::AnalyzeText(text);
  REQUIRE(r.events.size() == 1);
  CHECK(r.inputs[0].format == "sqlserver-xml");
  CHECK(r.events[0].time == "2024-01-02T03:04:05.6Z");
  CHECK(r.events[0].epoch_ms == 1704164645600);
  CHECK(Cycle(r) == kKeyLookupCycle);
  CHECK(r.events[0].deadlock->complete);
}

TEST_CASE("sqlserver xml: a ring buffer of many events, other events skipped", "[sqlserver]") {
  std::string text = "<RingBufferTarget truncated=\"0\" eventCount=\"5\">\n";
  for (int i = 0; i < 3; ++i) {
    text += "<event name=\"sp_server_diagnostics_component_result\" timestamp=\"x\"><data name=\"data\"><value>"
            "<deadlock><victim-list/></deadlock></value></data></event>\n";
    text += "<event name=\"database_xml_deadlock_report\" timestamp=\"2024-01-02T03:04:0" + std::to_string(i) +
            "Z\"><action name=\"session_id\" package=\"sqlserver\"><value>7</value></action>"
            "<data name=\"xml_report\"><value>" + KeyLookupGraph() + "</value></data></event>";
  }
  text += "</RingBufferTarget>\n";
  Report r = test::AnalyzeText(text);
  REQUIRE(r.events.size() == 3);
  CHECK(r.events[2].time == "2024-01-02T03:04:02Z");
  CHECK(r.events[1].deadlock->message == "database_xml_deadlock_report");
  CHECK(Cycle(r, 2) == kKeyLookupCycle);
  CHECK(r.summary.lines.unparsed == 0);
}

TEST_CASE("sqlserver xml: several reports on one line, and a <deadlock-list> of two", "[sqlserver]") {
  std::string g = KeyLookupGraph();
  std::string flat;
  for (char c : g) flat += c == '\n' ? ' ' : c;
  Report r = test::AnalyzeText("<deadlock-list>" + flat + flat + "</deadlock-list>" + flat + "\n");
  REQUIRE(r.events.size() == 3);
  for (size_t i = 0; i < 3; ++i) CHECK(Cycle(r, i) == kKeyLookupCycle);
}

TEST_CASE("sqlserver xml: UTF-16 little and big endian, with and without BOM, CRLF", "[sqlserver]") {
  std::string xdl = Sample("sqlserver-deadlocklist-2proc-keylock-tally.xdl");
  std::string crlf;
  for (char c : xdl) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  std::string expected = test::DescribeSqlServerEvent(test::AnalyzeText(xdl).events.at(0));
  for (bool le : {true, false})
    for (bool bom : {true, false}) {
      INFO("little endian " << le << ", bom " << bom);
      Report r = test::AnalyzeText(Utf16(crlf, le, bom));
      REQUIRE(r.inputs.size() == 1);
      CHECK(r.inputs[0].format == "sqlserver-xml");
      CHECK(r.inputs[0].lines.total == 53);
      REQUIRE(r.events.size() == 1);
      CHECK(test::DescribeSqlServerEvent(r.events[0]) == expected);
    }
}

TEST_CASE("sqlserver text decoder: non-ASCII UTF-16, a 0x0A byte inside a character", "[sqlserver]") {
  // U+010A has the byte 0x0A: the LineReader cuts there, the decoder rejoins.
  std::string raw = "\xFF\xFE" "a\0\x0A\x01\n\0" "b\0\x3D\xD8\x00\xDE\n\0";  // a Ċ \n b 😀 \n
  raw = std::string("\xFF\xFE", 2) + std::string("a\0\x0A\x01\n\0b\0\x3D\xD8\x00\xDE\n\0", 14);
  std::vector<std::string> lines;
  TextDecoder decoder([&](std::string_view l, uint64_t no) { lines.emplace_back(std::to_string(no) + ":" + std::string(l)); });
  size_t start = 0, no = 0;
  for (size_t i = 0; i <= raw.size(); ++i)
    if (i == raw.size() || raw[i] == '\n') {
      if (i > start || i < raw.size()) decoder.Feed(std::string_view(raw).substr(start, i - start), ++no);
      start = i + 1;
    }
  decoder.Finish();
  CHECK(lines == std::vector<std::string>{"1:a\xC4\x8A", "2:b\xF0\x9F\x98\x80"});
}

TEST_CASE("sqlserver xml: a malformed report is a diagnostic and a flagged deadlock", "[sqlserver]") {
  std::string g = KeyLookupGraph();
  std::string bad = g;
  bad.replace(bad.find("</owner-list>"), 13, "</owner-lst>");
  Report r = test::AnalyzeText(bad + "\n" + g + "\n");
  REQUIRE(r.events.size() == 2);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK_FALSE(d.complete);
  REQUIRE_FALSE(d.problems.empty());
  CHECK(d.problems[0].find("malformed XML at line 41") == 0);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 41);
  CHECK(r.events[1].deadlock->complete);  // the next report is read as usual
}

TEST_CASE("sqlserver xml: a report cut by the end of input", "[sqlserver]") {
  std::string g = KeyLookupGraph();
  Report r = test::AnalyzeText(g.substr(0, g.find("<resource-list>")));
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].truncated);
  CHECK(r.events[0].deadlock->processes.size() == 2);  // what was read is kept
  CHECK_FALSE(r.events[0].deadlock->complete);
}

TEST_CASE("sqlserver xml: 10,000 reports stream one at a time", "[sqlserver][stream]") {
  std::string xe = Sample("sqlserver-xe-event-keylookup-msdocs.xml");
  std::vector<std::string_view> lines;
  for (size_t b = 0, e; b < xe.size(); b = e + 1) {
    e = xe.find('\n', b);
    if (e == std::string::npos) e = xe.size();
    lines.push_back(std::string_view(xe).substr(b, e - b));
  }
  CountingSink sink;
  XmlReportReader reader("many.xml", sink);
  uint64_t no = 0;
  for (int copy = 0; copy < 10000; ++copy)
    for (std::string_view line : lines) reader.ParseLine(line, ++no);
  reader.Finish();
  CHECK(sink.events == 10000);
  CHECK(sink.incomplete == 0);
  CHECK(sink.diagnostics == 0);
  CHECK(reader.counts().parsed == no);
  CHECK(reader.max_buffered_bytes() <= xe.size());  // never more than one report
}

TEST_CASE("sqlserver xml: a report over the size limit is skipped with a diagnostic", "[sqlserver]") {
  std::string g = KeyLookupGraph();
  CountingSink sink;
  XmlReportReader reader("big.xml", sink, 1000);
  uint64_t no = 0;
  for (int i = 0; i < 2; ++i)
    for (size_t b = 0, e; b < g.size(); b = e + 1) {
      e = g.find('\n', b);
      if (e == std::string::npos) e = g.size();
      reader.ParseLine(std::string_view(g).substr(b, e - b), ++no);
    }
  reader.Finish();
  CHECK(sink.events == 0);
  CHECK(sink.diagnostics == 2);
  CHECK(reader.max_buffered_bytes() <= 1000 + 400);
}

TEST_CASE("sqlserver errorlog: trace flag 1222 with ERRORLOG prefixes, other sessions between", "[sqlserver]") {
  std::string plain = Sample("sqlserver-1222-msdocs-ridlock-keylock.txt");
  std::string log = "2022-02-05 11:22:40.11 Server      Microsoft SQL Server 2022 (RTM) - 16.0.1000.6 (X64)\n"
                    "2022-02-05 11:22:40.12 Server      UTF-16 and other noise\n";
  size_t n = 0;
  for (size_t b = 0, e; b < plain.size(); b = e + 1) {
    e = plain.find('\n', b);
    log += "2022-02-05 11:22:47.75 spid21s     " + plain.substr(b, e - b) + "\r\n";
    if (++n == 20) log += "2022-02-05 11:22:47.76 Logon       Login succeeded for user 'x'.\r\n";
  }
  log += "2022-02-05 11:22:48.00 spid52      Using 'dbghelp.dll' version '4.0.5'\n";
  Report r = test::AnalyzeText(Utf16(log, true, true));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "sqlserver-errorlog");
  CHECK(r.summary.lines.unparsed == 0);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].time == "2022-02-05 11:22:47.75");
  CHECK(r.events[0].source.first_line == 3);
  Event plain_event = test::AnalyzeText(plain).events.at(0);
  plain_event.time = r.events[0].time;
  plain_event.epoch_ms = r.events[0].epoch_ms;  // read from the time (analysis/event_time.h)
  plain_event.source = r.events[0].source;
  CHECK(test::DescribeSqlServerEvent(r.events[0]) == test::DescribeSqlServerEvent(plain_event));
}

TEST_CASE("sqlserver errorlog: attribute lines split at known names only", "[sqlserver]") {
  auto split = SplitTf1222Attributes(
      "id=process1 clientapp=Microsoft SQL Server Management Studio - Query hostname=H "
      "isolationlevel=read committed (2) newattr=7 waitresource=KEY: 6:720 (35) transcount=2");
  std::string s;
  for (auto& [k, v] : split) s += k + "=[" + v + "] ";
  CHECK(s == "id=[process1] clientapp=[Microsoft SQL Server Management Studio - Query] hostname=[H] "
             "isolationlevel=[read committed (2) newattr=7] waitresource=[KEY: 6:720 (35)] trancount=[2] ");
}

TEST_CASE("sqlserver formats: PostgreSQL logs are not taken for SQL Server", "[sqlserver]") {
  Report r = test::AnalyzeText(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/scenarios.log"));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "stderr");
}

}  // namespace lockgraph
