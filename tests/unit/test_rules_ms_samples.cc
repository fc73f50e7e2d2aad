// The SQL Server rules on every real report in samples/sqlserver/ (copies of
// ../shared/samples/sqlserver/): which MS rules fire on which report, with
// which facts; no PostgreSQL rule fires on a SQL Server report and no SQL
// Server rule on a PostgreSQL log; SQL Server deadlocks are grouped by
// statement and object, not by process ids or times.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fstream>

#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;

namespace {

Report Sample(const std::string& name) { return AnalyzeSample("sqlserver/" + name); }

}  // namespace

TEST_CASE("MS rules on the real SQL Server samples: which fire", "[rules][sqlserver][samples]") {
  const std::pair<const char*, const char*> expected[] = {
      {"sqlserver-xe-event-keylookup-msdocs.xml", "MS001 MS008"},
      {"sqlserver-multivictim-objectlock-tempdb.xdl", "MS002"},
      {"sqlserver-1222-msdocs-ridlock-keylock.txt", "MS008 MS009"},
      {"sqlserver-1204-msdocs-rid-key.txt", ""},  // no objectname: MS009 stays silent
      {"sqlserver-deadlocklist-2proc-keylock-tally.xdl", "MS009"},
  };
  for (const auto& [name, rules] : expected) {
    INFO(name);
    Report r = Sample(name);
    CHECK(RuleIds(OnlyDeadlock(r)) == rules);
    CHECK(r.findings.empty());  // no run-level finding (PG011 reads PostgreSQL logs only)
  }
}

TEST_CASE("MS009 names the tables each process holds and waits in", "[rules][sqlserver][samples]") {
  Report r = Sample("sqlserver-deadlocklist-2proc-keylock-tally.xdl");
  const Finding* f = nullptr;
  for (const Finding& x : OnlyDeadlock(r).findings)
    if (x.rule_id == "MS009") f = &x;
  REQUIRE(f);
  CHECK(f->message.find("holds Tally_sm and waits in Tally") != std::string::npos);
  CHECK(f->message.find("holds Tally and waits in Tally_sm") != std::string::npos);
  CHECK(f->hint.find("Sandbox.dbo.Tally, then Sandbox.dbo.Tally_sm") != std::string::npos);
  CHECK(f->hint.find("holds Tally_sm and then runs `UPDATE dbo.Tally set N = N-@1 WHERE N=@2` at "
                     "adhoc line 5: run that statement before the one on Tally_sm") !=
        std::string::npos);
}

TEST_CASE("the shared samples are the ones tested", "[rules][sqlserver][samples]") {
  for (const char* name : {"sqlserver-xe-event-keylookup-msdocs.xml",
                           "sqlserver-multivictim-objectlock-tempdb.xdl",
                           "sqlserver-1222-msdocs-ridlock-keylock.txt",
                           "sqlserver-1204-msdocs-rid-key.txt",
                           "sqlserver-deadlocklist-2proc-keylock-tally.xdl"}) {
    INFO(name);
    std::string shared = std::string(LOCKGRAPH_SHARED_DIR) + "/samples/sqlserver/" + name;
    if (!std::ifstream(shared)) {
      WARN("no " << shared << ": the copy in samples/sqlserver/ is tested alone");
      continue;
    }
    CHECK(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/sqlserver/" + name) ==
          test::ReadFile(shared));
  }
}

TEST_CASE("5,000 concatenated reports stream through the rules, one group, nothing kept",
          "[rules][sqlserver][stream]") {
  // The reader's own bound (one report at a time) is tested in
  // test_sqlserver_formats.cc; here the whole pipeline with the rules: each
  // event is passed on with its findings and dropped, the groups are counted.
  struct Count : EventStream {
    size_t events = 0, ms001 = 0;
    void OnEvent(const Event& ev) override {
      ++events;
      for (const Finding& f : ev.findings) ms001 += f.rule_id == "MS001";
    }
  } count;
  std::string one = test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) +
                                   "/sqlserver/sqlserver-xe-event-keylookup-msdocs.xml");
  char path[] = "/tmp/lockgraph-ms-stream-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  bool written = true;
  for (int i = 0; i < 5000; ++i) written = written && write(fd, one.data(), one.size()) == ssize_t(one.size());
  REQUIRE(written);
  close(fd);
  AnalyzeOptions options;
  options.collect_events = false;
  Analyzer analyzer(options, &count);
  std::string error;
  REQUIRE(analyzer.AnalyzeInput(path, &error));
  unlink(path);
  Report& report = analyzer.Finish();
  CHECK(count.events == 5000);
  CHECK(count.ms001 == 5000);
  CHECK(report.events.empty());
  REQUIRE(report.groups.size() == 1);
  CHECK(report.groups[0].count == 5000);
  CHECK(report.groups[0].rules == std::vector<std::string>{"MS001", "MS008"});
}
