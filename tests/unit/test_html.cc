// The HTML report (issue 9): escaping of hostile log text in HTML text,
// attributes and the SVG that Graphviz draws; the chart's buckets; the
// page's counts, groups and caps. The whole page is checked by the golden
// files (expected.html) and in Chromium (tests/browser).
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "emit/dot_events.h"
#include "emit/emitter.h"
#include "emit/html_chart.h"
#include "emit/html_escape.h"
#include "emit/html_svg.h"
#include "support.h"

using namespace lockgraph;

namespace {

std::string HtmlOf(const Report& report) {
  std::ostringstream out;
  MakeHtmlEmitter()->Write(report, out);
  return out.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

Event HostileDeadlock(const std::string& query) {
  Event ev;
  ev.time = "2026-12-02 10:00:01 UTC";
  Deadlock d;
  d.victim = "11";
  Participant a, b;
  a.id = "11";
  a.query = query;
  b.id = "12";
  b.query = "UPDATE t SET k = '\"}{' -- \\N \\l";
  d.processes = {a, b};
  WaitEdge e1, e2;
  e1.waiter = "11", e1.blocker = "12", e1.mode = "ShareLock";
  e1.lock.text = "transaction <5> & \"x\"";
  e2.waiter = "12", e2.blocker = "11", e2.mode = "ExclusiveLock";
  d.edges = {e1, e2};
  ev.deadlock = d;
  return ev;
}

const char* kTwoDeadlocks =
    "2026-12-02 10:00:05.000 UTC [31] ERROR:  deadlock detected\n"
    "2026-12-02 10:00:05.000 UTC [31] DETAIL:  Process 31 waits for ShareLock on transaction "
    "9; blocked by process 32.\n"
    "\tProcess 32 waits for ShareLock on transaction 8; blocked by process 31.\n"
    "\tProcess 31: update a set x = 1 where id = 1\n"
    "\tProcess 32: update a set x = 1 where id = 2\n"
    "2026-12-02 10:00:05.000 UTC [31] HINT:  See server log for query details.\n"
    "2026-12-02 11:30:05.000 UTC [41] ERROR:  deadlock detected\n"
    "2026-12-02 11:30:05.000 UTC [41] DETAIL:  Process 41 waits for ShareLock on transaction "
    "19; blocked by process 42.\n"
    "\tProcess 42 waits for ShareLock on transaction 18; blocked by process 41.\n"
    "\tProcess 41: update a set x = 7 where id = 5\n"
    "\tProcess 42: update a set x = 7 where id = 6\n"
    "2026-12-02 11:30:05.000 UTC [41] HINT:  See server log for query details.\n";

}  // namespace

TEST_CASE("HtmlText escapes markup, quotes, controls and invalid UTF-8", "[html]") {
  CHECK(HtmlText("<script>alert(\"x\")</script>") ==
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  CHECK(HtmlText("a'b&c") == "a&#39;b&amp;c");
  CHECK(HtmlText(std::string("nul\0bell\a", 9)) == "nul\\x00bell\\x07");
  CHECK(HtmlText("bad \xff\xfe utf8") == "bad \xef\xbf\xbd\xef\xbf\xbd utf8");
  CHECK(HtmlText("line\n\tnext") == "line\n\tnext");
  CHECK(HtmlId("group", "930e54d877c0bf21") == "group-930e54d877c0bf21");
  CHECK(HtmlId("rule", "PG\"001<") == "rule-PG_001_");
}

TEST_CASE("Graphviz's SVG escapes hostile labels and shows them exactly", "[html]") {
  Event ev = HostileDeadlock("UPDATE t SET note = '</script><script>alert(\"x\")</script>' "
                             "-- &lt; & &amp;");
  DotGraph graph;
  AddDeadlockCluster(graph, ev, "d1", "deadlock 1");
  SvgRenderer renderer;
  std::string svg = renderer.Render(graph, "g1");
  REQUIRE(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(svg.find("<script") == std::string::npos);
  CHECK(svg.find("</script") == std::string::npos);
  // The label: markup escaped, and "&lt;" in the log shown as "&lt;", not "<".
  CHECK(svg.find("&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;") !=
        std::string::npos);
  CHECK(svg.find("&#45;&#45; &amp;lt; &amp; &amp;amp;") != std::string::npos);
  // The tooltip attribute (the edge's lock text).
  CHECK(svg.find("xlink:title=\"transaction &lt;5&gt; &amp; &quot;x&quot;\"") !=
        std::string::npos);
  CHECK(svg.find("id=\"g1_node1\"") != std::string::npos);
  CHECK(svg.find("'\"}{'") == std::string::npos);
  CHECK(svg.find("&#39;&quot;}{&#39;") != std::string::npos);
}

TEST_CASE("the hostile golden input: one <script> element, the page's own", "[html]") {
  Report report = test::AnalyzeText(test::ReadFile(std::string(LOCKGRAPH_TEST_DIR) +
                                                   "/golden/hostile-text/input.log"));
  REQUIRE(report.summary.deadlocks == 1);
  std::string html = HtmlOf(report);
  CHECK(Count(html, "<script") == 1);
  CHECK(Count(html, "</script>") == 1);
  CHECK(html.find("&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;") !=
        std::string::npos);
  CHECK(html.find('\0') == std::string::npos);
  CHECK(html.find('\x1b') == std::string::npos);
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(Count(html, "<details class=\"group\"") == 1);
}

TEST_CASE("the page: counts, groups largest first, collapsed, drawn", "[html]") {
  Report report = test::AnalyzeText(kTwoDeadlocks);
  REQUIRE(report.summary.deadlocks == 2);
  REQUIRE(report.groups.size() == 1);
  std::string html = HtmlOf(report);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<span class=\"n\" id=\"count-deadlocks\">2</span>") != std::string::npos);
  CHECK(html.find("<span class=\"n\" id=\"count-groups\">1</span>") != std::string::npos);
  CHECK(html.find("Group 1: 2 deadlocks of 2 processes") != std::string::npos);
  CHECK(Count(html, "<details class=\"group\"") == 1);
  CHECK(Count(html, "<details class=\"group\" open") == 0);
  CHECK(Count(html, "<svg class=\"chart\"") == 1);
  CHECK(Count(html, "<div class=\"drawn\" title=\"click: full size / fit\"><svg") == 1);  // one example per group
  // No network: no URL to fetch anything from.
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("default-src 'none'") != std::string::npos);
}

TEST_CASE("the chart buckets by second, minute or hour, after the span", "[html]") {
  Event a, b;
  a.lock_wait = LockWait{};
  a.type = EventType::kLockWait;
  a.epoch_ms = 1764669600000;  // 2025-12-02 10:00:00 UTC
  b.deadlock = Deadlock{};
  b.epoch_ms = *a.epoch_ms + 25 * 60 * 1000 + 30000;
  // The chart of `events`, added in the order given.
  auto chart_of = [](const std::vector<Event>& events) {
    TimeChart chart;
    for (const Event& ev : events) chart.Add(ev);
    return chart.Svg();
  };
  std::string chart = chart_of({a, b});
  CHECK(chart_of({b, a}) == chart);
  CHECK(chart.find("per minute") != std::string::npos);
  CHECK(chart.find("<title>2025-12-02 10:00: 0 deadlocks, 1 lock waits</title>") !=
        std::string::npos);
  CHECK(chart.find("<title>2025-12-02 10:25: 1 deadlocks, 0 lock waits</title>") !=
        std::string::npos);
  CHECK(Count(chart, "<rect ") == 2);
  b.epoch_ms = *a.epoch_ms + 9500;  // a burst of seconds
  chart = chart_of({a, b});
  CHECK(chart.find("per second") != std::string::npos);
  CHECK(chart.find("<title>2025-12-02 10:00:09: 1 deadlocks, 0 lock waits</title>") !=
        std::string::npos);
  b.epoch_ms = *a.epoch_ms + 30LL * 3600 * 1000;
  chart = chart_of({a, b});
  CHECK(chart.find("per hour") != std::string::npos);
  CHECK(chart.find("<title>2025-12-03 16:00: 1 deadlocks, 0 lock waits</title>") !=
        std::string::npos);
  CHECK(chart_of({}).rfind("<p", 0) == 0);
}
