// sarif, github and codequality render each event at OnEvent into an
// EventSpool, with holes that Write fills (src/emit/hole_text.h): the output
// must be the same, byte for byte, as when Write renders every event from
// the report. Here the holes that the samples never need: a wait key whose
// relation OID is named only at Finish (by the input's relation names, per
// input), a finding without a line (run-level location), an event without a
// file (codequality: the first input), events made out of log order.
#include <catch2/catch.hpp>

#include <sstream>

#include "analysis/signature.h"
#include "emit/emitter.h"
#include "emit/hole_text.h"
#include "emit/source_paths.h"
#include "gate/baseline.h"

namespace lockgraph {
namespace {

// Outside any git work tree, so that the CI paths are the file names whatever
// the directory the test runs in (ctest runs it in the build directory).
const char* const kFileA = "/tmp/lockgraph-ci-spool/a.log";
const char* const kFileB = "/tmp/lockgraph-ci-spool/b.log";

Event Wait(const std::string& file, uint64_t line, const std::string& relation_name,
           const std::string& rule) {
  Event ev;
  ev.type = EventType::kLockWait;
  ev.time = "2026-12-03 10:00:0" + std::to_string(line % 10) + ".000 UTC";
  ev.source.file = file;
  ev.source.first_line = line;
  ev.source.last_line = line ? line + 2 : 0;
  LockWait w;
  w.waiter = "4211";
  w.mode = "AccessExclusiveLock";
  w.lock.type = "relation";
  w.lock.fields = {{"database", "5", true}, {"relation", "16411", true}};
  w.lock.relation_name = relation_name;
  w.statement = "alter table accounts add column \"x\" int";
  ev.lock_wait = w;
  Finding f;
  f.rule_id = rule;
  f.rule_name = "long-lock-wait";
  f.severity = Severity::kError;
  f.message = "waited \"long\"\n\x01 for \"uri\": \"\\u0001\"";  // looks like a hole
  f.hint = "take the lock first";
  ev.findings = {f};
  return ev;
}

struct Case {
  // What OnEvent sees, in the order events are made, with their input.
  std::vector<std::pair<size_t, Event>> made;
  // The same events as Analyzer::Finish leaves them: sorted, names resolved.
  std::vector<Event> resolved;
};

Case MakeCase() {
  Case c;
  // Input 0 names OID 16411 "accounts" only later: Finish names both waits.
  // The second is made first but starts earlier.
  c.made.push_back({0, Wait(kFileA, 20, "", "PG010")});
  c.made.push_back({0, Wait(kFileA, 10, "", "PG011")});
  c.made.push_back({0, Wait(kFileA, 30, "accounts", "PG010")});
  // Input 1: the same OID, not named there.
  c.made.push_back({1, Wait(kFileB, 5, "", "PG010")});
  // No line: sarif points at the run; no file: codequality names input 0.
  c.made.push_back({1, Wait("", 0, "", "PG012")});
  for (size_t i : {1, 0, 2}) {
    Event ev = c.made[i].second;
    ev.lock_wait->lock.relation_name = "accounts";
    c.resolved.push_back(ev);
  }
  c.resolved.push_back(c.made[4].second);  // line 0 sorts first in its input
  c.resolved.push_back(c.made[3].second);
  return c;
}

Report BaseReport() {
  Report r;
  for (const char* f : {kFileA, kFileB}) {
    InputInfo in;
    in.file = f;
    in.format = "stderr";
    r.inputs.push_back(in);
  }
  RelationName name;
  name.file = kFileA;
  name.database = "5";
  name.relation = "16411";
  name.name = "accounts";
  name.input = 0;
  r.summary.relation_names = {name};
  return r;
}

std::string Streamed(const std::string& format, const Case& c) {
  std::unique_ptr<Emitter> e;
  for (auto& x : RegisterBuiltinEmitters())
    if (x->Name() == format) e = std::move(x);
  REQUIRE(e->RendersOnEvent());
  std::ostringstream out;
  size_t input = size_t(-1);
  for (const auto& [in, ev] : c.made) {
    if (in != input) e->OnInputStart(input = in);
    e->OnEvent(ev, out);
  }
  CHECK(out.str().empty());  // nothing is written before Write
  e->Write(BaseReport(), out);
  return out.str();
}

std::string FromReport(const std::string& format, const Case& c) {
  std::unique_ptr<Emitter> e;
  for (auto& x : RegisterBuiltinEmitters())
    if (x->Name() == format) e = std::move(x);
  Report r = BaseReport();
  r.events = c.resolved;
  std::ostringstream out;
  e->Write(r, out);
  return out.str();
}

}  // namespace

TEST_CASE("ci spool: results rendered at OnEvent equal those rendered at Write", "[ci_spool]") {
  const Case c = MakeCase();
  const std::string named = WaitKey(c.resolved[0]);
  const std::string unnamed = WaitKey(c.made[3].second);
  REQUIRE(named != unnamed);
  for (const char* format : {"sarif", "github", "codequality"}) {
    INFO(format);
    const std::string streamed = Streamed(format, c);
    CHECK(streamed == FromReport(format, c));
  }
  // The fingerprints rest on the names Finish gives, input by input.
  const std::string sarif = Streamed("sarif", c);
  CHECK(sarif.find(Fnv1a64Hex("PG010|" + named)) != std::string::npos);
  CHECK(sarif.find(Fnv1a64Hex("PG011|" + named)) != std::string::npos);
  CHECK(sarif.find(Fnv1a64Hex("PG010|" + unnamed)) != std::string::npos);
  // sarif maps each input's path from the source root it finds (docs/ci.md#paths).
  const std::string root = DefaultSourceRoot({kFileA, kFileB});
  CHECK(sarif.find("\"uri\": \"" + RepoPath(kFileA, root) + "\"") != std::string::npos);
  CHECK(sarif.find("\"uri\": \"" + RepoPath(kFileB, root) + "\"") != std::string::npos);
  const std::string cq = Streamed("codequality", c);
  CHECK(cq.find("\"fingerprint\": \"" + Fnv1a64Hex("PG011|" + named) + "\"") != std::string::npos);
  CHECK(cq.find("\"fingerprint\": \"" + Fnv1a64Hex("PG010|" + unnamed) + "\"") != std::string::npos);
  // PG010 on the two named waits of a.log has one fingerprint: written once.
  size_t count = 0;
  for (size_t at = cq.find(Fnv1a64Hex("PG010|" + named)); at != std::string::npos;
       at = cq.find(Fnv1a64Hex("PG010|" + named), at + 1))
    ++count;
  CHECK(count == 1);
  // The wait without a file is placed on the first input.
  CHECK(cq.find("\"path\": \"" + std::string(kFileA) + "\",\n      \"lines\": {\n        \"begin\": 1\n") !=
        std::string::npos);
}

TEST_CASE("ci spool: hole texts keep any bytes and fill in order", "[ci_spool]") {
  HoleText t;
  t.Append(std::string("a\0b", 3));
  t.AddHole('x', PackFields({"1", std::string("\0\x01", 2), ""}));
  t.Append("c");
  std::string out;
  REQUIRE(FillHoles(t.packed(), [](char kind, std::string_view arg) {
    std::vector<std::string_view> f = UnpackFields(arg);
    return std::string(1, kind) + std::to_string(f.size()) + std::string(f[1]);
  }, &out));
  CHECK(out == std::string("a\0bx3\0\x01" "c", 8));
  HoleText j;
  CHECK(j.AppendJson("{\n  \"k\": \"\\\"k\\\": \\\"\\\\u0001\\\"\",\n  \"k\": \"\\u0001\"\n}",
                     {{"k", 'h', "arg"}}));
  out.clear();
  REQUIRE(FillHoles(j.packed(), [](char, std::string_view arg) { return "<" + std::string(arg) + ">"; },
                    &out));
  CHECK(out == "{\n  \"k\": \"\\\"k\\\": \\\"\\\\u0001\\\"\",\n  \"k\": <arg>\n}");
  HoleText missing;
  CHECK(!missing.AppendJson("{}", {{"k", 'h', ""}}));
  CHECK(missing.packed().size() == 1 + 4 + 2);  // kept whole, as a literal
  out.clear();
  CHECK(!FillHoles(std::string("\0\x09\0\0\0abc", 8), [](char, std::string_view) { return ""; }, &out));
}

}  // namespace lockgraph
