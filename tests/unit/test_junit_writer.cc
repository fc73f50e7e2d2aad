// JunitWriter writes, case by case and a failure's text piece by piece,
// what saving the whole document with pugixml writes (the junit output
// before it streamed), hostile text included.
#include <catch2/catch.hpp>

#include <pugixml.hpp>

#include <sstream>

#include "emit/junit_writer.h"
#include "emit/text_safety.h"

namespace lockgraph {
namespace {

struct TestCase {
  std::string classname, name, file;
  enum Kind { kPass, kSkip, kFail } kind = kPass;
  std::string type, message;
  std::vector<std::string> pieces;
};

// The document as one pugixml tree, saved whole.
std::string Whole(const std::vector<TestCase>& cases, const JunitCounts& c) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node suites = doc.append_child("testsuites");
  pugi::xml_node suite = suites.append_child("testsuite");
  for (const TestCase& t : cases) {
    pugi::xml_node tc = suite.append_child("testcase");
    tc.append_attribute("classname") = PrintableText(t.classname).c_str();
    tc.append_attribute("name") = PrintableText(t.name).c_str();
    if (!t.file.empty()) tc.append_attribute("file") = PrintableText(t.file).c_str();
    if (t.kind == TestCase::kSkip)
      tc.append_child("skipped").append_attribute("message") = t.message.c_str();
    if (t.kind == TestCase::kFail) {
      pugi::xml_node f = tc.append_child("failure");
      f.append_attribute("type") = t.type.c_str();
      f.append_attribute("message") = PrintableText(t.message).c_str();
      std::string text;
      for (const std::string& p : t.pieces) text += p;
      f.append_child(pugi::node_pcdata).set_value(PrintableText(text).c_str());
    }
  }
  for (pugi::xml_node n : {suites, suite}) {
    n.append_attribute("name") = n == suites ? "lockgraph" : "lockgraph check";
    n.append_attribute("tests") = c.tests;
    n.append_attribute("failures") = c.failures;
    n.append_attribute("errors") = 0;
    n.append_attribute("skipped") = c.skipped;
  }
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

std::string Streamed(const std::vector<TestCase>& cases, const JunitCounts& c, int* pieces_put) {
  std::ostringstream out;
  JunitWriter junit(out, c);
  for (const TestCase& t : cases) {
    pugi::xml_node tc = junit.Case(t.classname, t.name);
    if (!t.file.empty()) tc.append_attribute("file") = PrintableText(t.file).c_str();
    if (t.kind == TestCase::kPass) junit.Pass();
    if (t.kind == TestCase::kSkip) junit.Skip(t.message);
    if (t.kind == TestCase::kFail)
      junit.Fail(t.type, t.message, [&](const std::function<void(std::string_view)>& put) {
        for (const std::string& p : t.pieces) put(p), ++*pieces_put;
      });
  }
  junit.Finish();
  return out.str();
}

}  // namespace

TEST_CASE("JunitWriter writes what pugixml saves of the whole document, piece by piece",
          "[junit]") {
  const std::string hostile = "a & b < c > d \"e\" 'f' ]]> &#01; \x01\x02\x7f \xff\xfe\xc3 é\t\n";
  const std::vector<TestCase> cases = {
      {"lockgraph.deadlocks", "no deadlocks", "", TestCase::kPass, "", "", {}},
      {"lockgraph.deadlocks", "deadlock " + hostile, "logs/" + hostile, TestCase::kFail, "deadlock",
       "message " + hostile, {"line one\n", hostile + "\n", "\n", "last\n"}},
      {"lockgraph.lock_waits", "lock wait k", "pg.log", TestCase::kPass, "", "", {}},
      {"lockgraph.rules", "PG010 (--fail-on)", "", TestCase::kFail, "finding", "first",
       {std::string(100000, 'x') + "\n"}},
      {"lockgraph.baseline", "baseline deadlock " + hostile, "", TestCase::kSkip, "",
       "no longer seen in this run", {}},
      {"lockgraph.rules", "one piece", "", TestCase::kFail, "finding", "m", {"only\n"}},
  };
  const JunitCounts counts{6, 3, 1};
  int put = 0;
  const std::string streamed = Streamed(cases, counts, &put);
  CHECK(streamed == Whole(cases, counts));
  CHECK(put == 6);
  // The marker the writer cuts at cannot come from the text: it stays
  // escaped where the text had it, and no control character gets through.
  CHECK(streamed.find("&amp;#01;") != std::string::npos);
  CHECK(streamed.find('\x01') == std::string::npos);

  // Silent: one passing case, nothing else.
  const std::vector<TestCase> one = {cases.front()};
  CHECK(Streamed(one, {1, 0, 0}, &put) == Whole(one, {1, 0, 0}));
}

}  // namespace lockgraph
