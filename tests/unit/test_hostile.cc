// Hostile and broken input (issue 8): huge statements, NUL bytes, a log
// rotated in the middle of a deadlock report. Every broken record is counted
// or flagged; every good record around it survives.
#include <catch2/catch.hpp>

#include <sstream>

#include "emit/emitter.h"
#include "support.h"

using namespace lockgraph;
using test::AnalyzeText;
using test::CycleString;

namespace {

const char* kDeadlock =
    "2026-12-02 10:00:05.000 UTC [31] ERROR:  deadlock detected\n"
    "2026-12-02 10:00:05.000 UTC [31] DETAIL:  Process 31 waits for ShareLock on transaction "
    "9; blocked by process 32.\n"
    "\tProcess 32 waits for ShareLock on transaction 8; blocked by process 31.\n"
    "\tProcess 31: update a\n"
    "\tProcess 32: update b\n"
    "2026-12-02 10:00:05.000 UTC [31] HINT:  See server log for query details.\n";

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

}  // namespace

TEST_CASE("a 10 MB statement on TAB lines and on one line", "[hostile]") {
  std::string big(10 * 1024 * 1024, 'x');
  std::string log = std::string(kDeadlock) +
                    "2026-12-02 10:00:05.000 UTC [31] STATEMENT:  SELECT '" + big + "'\n\t'" +
                    big + "'\n" + kDeadlock;
  Report r = AnalyzeText(log);
  REQUIRE(r.events.size() == 2);
  CHECK(r.events[0].deadlock->statement.size() == 2 * big.size() + 12);
  CHECK(r.events[0].deadlock->complete);
  CHECK(r.events[1].deadlock->complete);
  CHECK(r.summary.lines.unparsed == 0);
}

TEST_CASE("NUL bytes and invalid UTF-8 in a query reach no output raw", "[hostile]") {
  std::string log = kDeadlock;
  std::string evil = std::string("update a set x = '\0\xff<script>", 28) + "'";
  log.replace(log.find("update a"), 8, evil);
  Report r = AnalyzeText(log);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].deadlock->processes[0].query == evil);
  std::string json = Render(r, "json");
  CHECK(json.find("\\u0000") != std::string::npos);
  CHECK(json.find('\0') == std::string::npos);
  CHECK(json.find("\xef\xbf\xbd") != std::string::npos);  // U+FFFD for \xff
  std::string text = Render(r, "text");
  CHECK(text.find("\\x00") != std::string::npos);
  CHECK(text.find('\0') == std::string::npos);
  std::string dot = Render(r, "dot");
  CHECK(dot.find('\0') == std::string::npos);
  CHECK(dot.find("<script>") != std::string::npos);  // inside a quoted label
  CHECK(dot.find("label=<") == std::string::npos);   // never an HTML label
}

TEST_CASE("a log rotated in the middle of a deadlock report", "[hostile]") {
  std::string all = kDeadlock;
  size_t cut = all.find("\tProcess 31: update a");
  Report first = AnalyzeText(all.substr(0, cut));
  REQUIRE(first.events.size() == 1);
  CHECK(first.events[0].truncated);
  CHECK_FALSE(first.events[0].deadlock->complete);
  CHECK(CycleString(*first.events[0].deadlock) ==
        "31 -ShareLock/transaction 9-> 32; 32 -ShareLock/transaction 8-> 31");

  // The next file starts with the rest of the report, then a whole one.
  std::string rest = all.substr(cut) + kDeadlock;
  Report second = AnalyzeText(rest, "stderr", "%m [%p] ", true);
  REQUIRE(second.events.size() == 1);
  CHECK(second.events[0].deadlock->complete);
  CHECK(second.summary.lines.unparsed == 2);  // the two orphan TAB lines
  REQUIRE(second.unparsed.size() == 2);
  CHECK(second.unparsed[0].line == 1);
  CHECK(second.unparsed[0].text == "\tProcess 31: update a");
}
