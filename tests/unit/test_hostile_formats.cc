// Hostile text in the structured formats (issue 8): csvlog, jsonlog and SQL
// Server XML carry quotes, backslashes, braces, newlines, `<script>`, ESC,
// NUL and invalid UTF-8 in queries and names. Each output shows them exactly,
// escaped for its own syntax: text (no raw control byte, a newline in a name
// as \n), JSON (valid UTF-8, \u escapes), DOT (quoted labels). The stderr log
// is covered by tests/golden/hostile-text and test_hostile.cc.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "emit/emitter.h"
#include "support.h"

using namespace lockgraph;
using test::AnalyzeText;
using test::CycleString;

namespace {

std::string Render(const Report& report, const std::string& format) {
  for (auto& e : RegisterBuiltinEmitters()) {
    if (e->Name() != format) continue;
    std::ostringstream out;
    for (const Event& ev : report.events) e->OnEvent(ev, out);
    e->Write(report, out);
    return out.str();
  }
  return "";
}

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// No byte of an output may be a control character other than \n and \t.
bool NoRawControl(const std::string& s) {
  for (unsigned char c : s)
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
  return true;
}

const std::string kQuery1 =
    "UPDATE t SET note = '</script><script>alert(\"x\")</script>' WHERE k = '{\"a\": [1,2]}' "
    "-- \\N \\\\";
const std::string kQuery2 = std::string("UPDATE t SET note = 'line1\nline2\t\x1b[2J") + '\0' +
                            "nul \xff\xfe bad' WHERE k = '}{'";
const std::string kApp = "evil\"app{}\n<script>";
const std::string kContext = "while updating tuple (0,1) in relation \"we\"ird<b>\"";

std::string Detail() {
  return "Process 11 waits for ShareLock on transaction 5; blocked by process 12.\n"
         "Process 12 waits for ShareLock on transaction 6; blocked by process 11.\n"
         "Process 11: " + kQuery1 + "\nProcess 12: " + kQuery2;
}

std::string CsvQuoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A PostgreSQL 15 csvlog record (26 columns) of the deadlock.
std::string CsvlogRecord() {
  return "2026-12-02 10:00:01.000 UTC,\"app\",\"shop\",11,\"10.0.0.7:5000\",6b0fefb6.b,1,"
         "\"UPDATE\",2026-12-02 10:00:00 UTC,3/4,5,ERROR,40P01,\"deadlock detected\"," +
         CsvQuoted(Detail()) + ",\"See server log for query details.\",,," + CsvQuoted(kContext) +
         "," + CsvQuoted(kQuery1) + ",,," + CsvQuoted(kApp) + ",\"client backend\",,0\n";
}

std::string JsonQuoted(const std::string& s) {  // as escape_json: ASCII only
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);  // bytes >= 0x80 as they are, valid UTF-8 or not
    }
  }
  return out + "\"";
}

std::string JsonlogRecord() {
  return "{\"timestamp\":\"2026-12-02 10:00:01.000 UTC\",\"user\":\"app\",\"dbname\":\"shop\","
         "\"pid\":11,\"remote_host\":\"10.0.0.7\",\"remote_port\":5000,\"session_id\":\"6b0fefb6.b\","
         "\"line_num\":1,\"ps\":\"UPDATE\",\"vxid\":\"3/4\",\"txid\":5,\"error_severity\":\"ERROR\","
         "\"state_code\":\"40P01\",\"message\":\"deadlock detected\",\"detail\":" +
         JsonQuoted(Detail()) + ",\"hint\":\"See server log for query details.\",\"context\":" +
         JsonQuoted(kContext) + ",\"statement\":" + JsonQuoted(kQuery1) +
         ",\"application_name\":" + JsonQuoted(kApp) + ",\"backend_type\":\"client backend\"}\n";
}

// What every PostgreSQL format must give for the record above.
void CheckPostgresOutputs(const Report& r) {
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.complete);
  CHECK(CycleString(d) == "11 -ShareLock/transaction 5-> 12; 12 -ShareLock/transaction 6-> 11");
  CHECK(d.processes[0].query == kQuery1);
  CHECK(d.processes[0].session.application == kApp);
  CHECK(d.context[0].relation == "we\"ird<b>");
  CHECK(r.summary.lines.unparsed == 0);

  std::string text = Render(r, "text");
  CHECK(NoRawControl(text));
  CHECK(Has(text, "  victim: 11 (app@shop, app evil\"app{}\\n<script>, from 10.0.0.7:5000)\n"));
  CHECK(Has(text, "    11 (victim): " + kQuery1 + "\n"));
  CHECK(Has(text, "    12: UPDATE t SET note = 'line1\n        line2\t\\x1b[2J\\x00nul "
                  "\xef\xbf\xbd\xef\xbf\xbd bad' WHERE k = '}{'\n"));
  CHECK(Has(text, "  context: while updating tuple (0,1) in relation \"we\"ird<b>\"\n"));

  std::string json = Render(r, "json");
  CHECK(NoRawControl(json));
  CHECK(Has(json, "\"application\": \"evil\\\"app{}\\n<script>\""));
  CHECK(Has(json, "\"query\": \"UPDATE t SET note = '</script><script>alert(\\\"x\\\")</script>' "
                  "WHERE k = '{\\\"a\\\": [1,2]}' -- \\\\N \\\\\\\\\""));
  CHECK(Has(json, "\"query\": \"UPDATE t SET note = 'line1\\nline2\\t\\u001b[2J\\u0000nul "
                  "\xef\xbf\xbd\xef\xbf\xbd bad' WHERE k = '}{'\""));

  std::string dot = Render(r, "dot");
  CHECK(NoRawControl(dot));
  CHECK(Has(dot, "label=\"pid 11 (victim)\\lUPDATE t SET note = '</script><script>alert(\\\"x\\\")"
                 "</script>' WHERE k = '{\\\"a\\\": [1,2]}' -- \\\\N \\\\\\\\\\l\""));
  CHECK(Has(dot, "[label=\"pid 12\\lUPDATE t SET note = 'line1\\lline2 [2Jnul "
                 "\xef\xbf\xbd\xef\xbf\xbd bad' WHERE k = '}{'\\l\"]"));
  CHECK_FALSE(Has(dot, "label=<"));  // never an HTML-like label
}

}  // namespace

TEST_CASE("csvlog: hostile queries and names, escaped in text, JSON and DOT", "[hostile]") {
  Report r = AnalyzeText(CsvlogRecord());
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "csvlog");
  CheckPostgresOutputs(r);
}

TEST_CASE("jsonlog: hostile queries and names, raw invalid UTF-8 included", "[hostile]") {
  // PostgreSQL writes a non-UTF-8 database's bytes into jsonlog as they are;
  // the record must still be read (it was unparsed, and the file unknown).
  Report r = AnalyzeText(JsonlogRecord());
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "jsonlog");
  CheckPostgresOutputs(r);
}

namespace {

// The key lookup deadlock of the samples with a hostile login, host (an
// escaped newline), object name and input buffer (ESC, invalid UTF-8).
std::string HostileSqlServerReport() {
  std::string xe = test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) +
                                  "/sqlserver/sqlserver-xe-event-keylookup-msdocs.xml");
  size_t b = xe.find("<deadlock>"), e = xe.find("</deadlock>") + 11;
  std::string g = xe.substr(b, e - b);
  auto replace_all = [&g](const std::string& from, const std::string& to, bool once) {
    for (size_t at = g.find(from); at != std::string::npos; at = g.find(from, at + to.size())) {
      g.replace(at, from.size(), to);
      if (once) break;
    }
  };
  replace_all("loginname=\"CONTOSO\\user\"", "loginname=\"evil&quot;user{}&lt;script&gt;\\\\\"", true);
  replace_all("hostname=\"ContosoServer\"", "hostname=\"host&#10;Injected: line\"", true);
  replace_all("objectname=\"AdventureWorks2022.dbo.t1\"", "objectname=\"db.dbo.we&quot;ird&lt;b&gt;\"",
              false);
  replace_all("SET NOCOUNT ON\nWHILE (1=1) \nBEGIN\n    EXEC p1 4\nEND",
              "SELECT '&lt;/script&gt;&lt;script&gt;alert(\"x\")&lt;/script&gt;' -- {\"a\": [1]} \\N "
              "\\\\\n\x1b[2J \xff\xfe bad",
              true);
  return g;
}

}  // namespace

TEST_CASE("sqlserver xml: hostile login, host, object and input buffer, escaped", "[hostile]") {
  Report r = AnalyzeText(HostileSqlServerReport());
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.complete);
  REQUIRE(d.processes.size() == 2);
  const std::string query = "SELECT '</script><script>alert(\"x\")</script>' -- {\"a\": [1]} \\N \\\\\n"
                            "\x1b[2J \xff\xfe bad";
  CHECK(d.processes[0].query == query);
  CHECK(d.processes[0].session.user == "evil\"user{}<script>\\\\");
  CHECK(d.processes[0].session.host == "host\nInjected: line");
  CHECK(d.edges[0].lock.Label() ==
        "keylock on db.dbo.we\"ird<b> index cidx (KEY: 5:72057594214350848 (1a39e6095155))");

  std::string text = Render(r, "text");
  CHECK(NoRawControl(text));
  CHECK(Has(text, "  victim: process27b9b0b9848 (evil\"user{}<script>\\\\, app SQLCMD, from "
                  "host\\nInjected: line)\n"));
  CHECK(Has(text, "      evil\"user{}<script>\\\\, host host\\nInjected: line, app SQLCMD\n"));
  CHECK_FALSE(Has(text, "\nInjected: line"));  // no line of its own
  CHECK(Has(text, "    process27b9b0b9848 (victim): SELECT '</script><script>alert(\"x\")</script>' -- "
                  "{\"a\": [1]} \\N \\\\\n                                 \\x1b[2J "
                  "\xef\xbf\xbd\xef\xbf\xbd bad\n"));
  CHECK(Has(text, "waits for S on keylock on db.dbo.we\"ird<b> index cidx"));

  std::string json = Render(r, "json");
  CHECK(NoRawControl(json));
  CHECK(Has(json, "\"user\": \"evil\\\"user{}<script>\\\\\\\\\""));
  CHECK(Has(json, "\"host\": \"host\\nInjected: line\""));
  CHECK(Has(json, "\"query\": \"SELECT '</script><script>alert(\\\"x\\\")</script>' -- {\\\"a\\\": [1]} "
                  "\\\\N \\\\\\\\\\n\\u001b[2J \xef\xbf\xbd\xef\xbf\xbd bad\""));
  CHECK(Has(json, "\"objectname\": \"db.dbo.we\\\"ird<b>\""));

  std::string dot = Render(r, "dot");
  CHECK(NoRawControl(dot));
  CHECK(Has(dot, "(victim)\\lSELECT '</script><script>alert(\\\"x\\\")</script>' -- {\\\"a\\\": [1]} "
                 "\\\\N \\\\\\\\\\l[2J \xef\xbf\xbd\xef\xbf\xbd bad\\l\""));
  CHECK(Has(dot, "label=\"S on keylock on db.dbo.we\\\"ird<b> index cidx"));
  CHECK_FALSE(Has(dot, "label=<"));
}

TEST_CASE("csvlog and jsonlog: a 10 MB statement in a record between two others", "[hostile]") {
  const std::string big = "SELECT '" + std::string(10 * 1024 * 1024, 'x') + "'";
  const std::string csv_ok = CsvlogRecord();
  std::string csv_big = csv_ok;
  csv_big.replace(csv_big.find(CsvQuoted(kQuery1)), CsvQuoted(kQuery1).size(), CsvQuoted(big));
  Report c = AnalyzeText(csv_ok + csv_big + csv_ok);
  REQUIRE(c.events.size() == 3);
  CHECK(c.events[1].deadlock->statement == big);
  CHECK(c.events[0].deadlock->statement == kQuery1);
  CHECK(c.events[2].deadlock->statement == kQuery1);
  CHECK(c.summary.lines.unparsed == 0);

  const std::string json_ok = JsonlogRecord();
  std::string json_big = json_ok;
  json_big.replace(json_big.find("\"statement\":" + JsonQuoted(kQuery1)),
                   12 + JsonQuoted(kQuery1).size(), "\"statement\":" + JsonQuoted(big));
  Report j = AnalyzeText(json_ok + json_big + json_ok);
  REQUIRE(j.events.size() == 3);
  CHECK(j.events[1].deadlock->statement == big);
  CHECK(j.events[2].deadlock->statement == kQuery1);
  CHECK(j.summary.lines.unparsed == 0);
}
