// The rule engine: the registry (IDs, names, pages), --rules / --disable,
// and findings in front of the stream (NDJSON sees them).
#include <catch2/catch.hpp>

#include <cstdio>
#include <regex>
#include <set>

#include "rule_excerpts.h"
#include "rule_test_util.h"
#include "rules/rule_docs.h"
#include "rules/rule_engine.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;

TEST_CASE("registry: permanent IDs in order, kebab-case names, one page each", "[rules][engine]") {
  auto rules = RegisterBuiltinRules(RuleSettings{});
  REQUIRE(rules.size() == 35);
  std::set<std::string_view> names;
  for (size_t i = 0; i < rules.size(); ++i) {
    const RuleInfo& info = rules[i]->info();
    // PostgreSQL rules first, then SQL Server's, then MySQL's, each numbered from 1.
    const bool pg = i < 17, ms = !pg && i < 26;
    char id[32];
    std::snprintf(id, sizeof id, pg ? "PG%03zu" : ms ? "MS%03zu" : "MY%03zu",
                  pg ? i + 1 : ms ? i - 16 : i - 25);
    CHECK(info.id == id);
    CHECK(info.engine == (pg ? "postgresql" : ms ? "sqlserver" : "mysql"));
    CHECK(std::regex_match(std::string(info.name), std::regex("[a-z0-9]+(-[a-z0-9]+)+")));
    CHECK(names.insert(info.name).second);
    CHECK_FALSE(info.summary.empty());
    std::string page(RuleDoc(info.id));
    INFO(info.id);
    CHECK(page.rfind("# " + std::string(info.id) + " " + std::string(info.name) + "\n", 0) == 0);
    for (const char* section : {"\n## What it detects\n", "\n## Bad\n", "\n## Good\n",
                                "\n## When it can be wrong\n", "\n## Silent when\n"})
      CHECK(page.find(section) != std::string::npos);
    CHECK(page.find(std::string("Severity: **") + SeverityName(info.severity) + "**") !=
          std::string::npos);
  }
  CHECK(RuleDocIds().size() == rules.size());
}

TEST_CASE("selection: IDs in any case or names; unknown ones are an error", "[rules][engine]") {
  std::string error;
  RuleSelection ok;
  ok.only = {"pg001", "numeric-keys-in-text-order"};
  ok.disable = {"PG011"};
  CHECK(RuleEngine::CheckSelection(ok, &error));
  RuleEngine engine(ok);
  CHECK(engine.Selected() == std::vector<std::string>{"PG001", "PG002"});

  RuleSelection bad;
  bad.only = {"PG001", "PG099"};
  bad.disable = {"no-such-rule"};
  CHECK_FALSE(RuleEngine::CheckSelection(bad, &error));
  CHECK(error ==
        "unknown rule 'PG099', 'no-such-rule' (rules: PG001, PG002, PG003, PG004, PG005, PG006, "
        "PG007, PG008, PG009, PG010, PG011, PG012, PG013, PG014, PG015, PG016, PG017, MS001, "
        "MS002, MS003, MS004, MS005, MS006, MS007, MS008, MS009, MY001, MY002, MY003, MY004, "
        "MY005, MY006, MY007, MY008, MY009; "
        "`lockgraph rules` lists them)");
}

TEST_CASE("selection: --rules keeps only the listed rules, --disable drops rules",
          "[rules][engine]") {
  RuleSelection only;
  only.only = {"PG002"};
  Report r = AnalyzeWithRules(excerpts::kTextOrder, only);
  CHECK(RuleIds(OnlyDeadlock(r)) == "PG002");
  CHECK(r.findings.empty());  // PG011 was not selected
  RuleSelection without;
  without.disable = {"PG001", "PG011"};
  Report d = AnalyzeWithRules(excerpts::kTextOrder, without);
  CHECK(RuleIds(OnlyDeadlock(d)) == "PG002");
  CHECK(d.findings.empty());
  // Signatures and groups do not depend on the rules.
  CHECK(OnlyDeadlock(d).signature == OnlyDeadlock(r).signature);
  CHECK(d.groups.size() == 1);
}

TEST_CASE("streamed events carry their findings and signature", "[rules][engine]") {
  struct Capture : EventStream {
    std::vector<Event> events;
    void OnEvent(const Event& ev) override { events.push_back(ev); }
  } capture;
  char path[] = "/tmp/lockgraph-rule-stream-XXXXXX";
  int fd = mkstemp(path);
  std::string text = excerpts::kFunction;
  REQUIRE(write(fd, text.data(), text.size()) == ssize_t(text.size()));
  close(fd);
  AnalyzeOptions options;
  options.collect_events = false;
  Analyzer analyzer(options, &capture);
  std::string error;
  REQUIRE(analyzer.AnalyzeInput(path, &error));
  unlink(path);
  Report& report = analyzer.Finish();
  REQUIRE(capture.events.size() == 1);
  CHECK(RuleIds(capture.events[0]) == "PG001 PG008");
  CHECK(capture.events[0].signature.size() == 16);
  CHECK(report.events.empty());
  REQUIRE(report.groups.size() == 1);  // grouped while streaming, nothing kept
  CHECK(report.groups[0].signature == capture.events[0].signature);
  CHECK(report.groups[0].rules == std::vector<std::string>{"PG001", "PG008"});
}
