// PgEventBuilder::IsOrphanDetail (parsers/postgresql/event_builder.cc)
// rules a DETAIL out by its first byte before it cuts the first line: the
// same answers as the first-line test it kept, here as the oracle, on every
// DETAIL of samples/ and tests/corpus/, every translation of a deadlock's
// first edge, and the same texts with a newline at each of their first 40
// places.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "parsers/postgresql/catalog.h"
#include "parsers/postgresql/catalog_match.h"
#include "parsers/postgresql/event_builder.h"
#include "support.h"

namespace lockgraph {
namespace {

bool Oracle(std::string_view detail) {
  const std::string_view first = detail.substr(0, detail.find('\n'));
  if (first.starts_with("Process ")) return first.find(" waits for ") != std::string_view::npos;
  static const PgPrefixSet kPrefixes({PgText::kDeadlockEdge});
  return kPrefixes.MayMatch(first) && MatchPgText(PgText::kDeadlockEdge, first);
}

std::vector<std::string> Details() {
  std::vector<std::string> details;
  for (const std::string& line : test::SampleTextLines(2000)) {
    const size_t at = line.find("DETAIL:  ");
    if (at != std::string::npos) details.push_back(line.substr(at + 9));
  }
  // Each translation's first edge, filled in, and its first third.
  for (const PgTextVariant& v : PgTextVariants(PgText::kDeadlockEdge)) {
    std::string filled;
    for (size_t i = 0; i < v.text.size(); ++i) {
      const char conversion = i + 1 < v.text.size() ? v.text[i + 1] : '\0';
      if (v.text[i] == '%' && (conversion == 'd' || conversion == 's')) {
        filled += conversion == 'd' ? "4242" : "ShareLock";
        ++i;
      } else {
        filled += v.text[i];
      }
    }
    details.push_back(filled);
    details.push_back(filled.substr(0, filled.size() / 3));
  }
  for (const char* odd : {"", "\n", "P", "Process", "Process ", "Process 1 waits for", "12", "12 ",
                          "parameters: $1 = '7'", "Key (id)=(1) already exists."})
    details.push_back(odd);
  return details;
}

}  // namespace

TEST_CASE("IsOrphanDetail answers as the first line alone would", "[orphan]") {
  const std::vector<std::string> details = Details();
  REQUIRE(details.size() > 1000);
  size_t orphans = 0;
  for (const std::string& d : details) {
    INFO("'" << d << "'");
    const bool is = PgEventBuilder::IsOrphanDetail(d);
    REQUIRE(is == Oracle(d));
    orphans += is;
    for (size_t at = 0; at <= std::min<size_t>(d.size(), 40); ++at) {
      std::string cut = d;
      cut.insert(at, "\n");
      INFO("newline at " << at);
      REQUIRE(PgEventBuilder::IsOrphanDetail(cut) == Oracle(cut));
    }
  }
  CHECK(orphans > 20);  // real edges among them, in several languages
}

}  // namespace lockgraph
