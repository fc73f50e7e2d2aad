// See junit_writer.h. The envelope is a document whose testsuite holds one
// comment, saved and cut there; each case is a document of its own, printed
// at the depth of the testsuite's children; a failure's text is a marker,
// cut there too, and each piece printed as a text node of its own. The
// markers cannot come from the text: a control character, which
// PrintableText never lets through, written by pugixml as a reference.
#include "emit/junit_writer.h"

#include <sstream>

#include "emit/text_safety.h"

namespace lockgraph {
namespace {

constexpr const char* kIndent = "  ";
constexpr unsigned kCaseDepth = 2;  // testsuites > testsuite > testcase
constexpr const char* kMarker = "\x01";
constexpr std::string_view kWrittenMarker = "&#01;";

std::string Safe(std::string_view s) { return PrintableText(s); }

}  // namespace

JunitWriter::JunitWriter(std::ostream& out, const JunitCounts& counts) : out_(out) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node suites = doc.append_child("testsuites");
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_child(pugi::node_pcdata).set_value(kMarker);
  for (pugi::xml_node n : {suites, suite}) {
    n.append_attribute("name") = n == suites ? "lockgraph" : "lockgraph check";
    n.append_attribute("tests") = counts.tests;
    n.append_attribute("failures") = counts.failures;
    n.append_attribute("errors") = 0;
    n.append_attribute("skipped") = counts.skipped;
  }
  std::ostringstream envelope;
  doc.save(envelope, kIndent, pugi::format_default, pugi::encoding_utf8);
  // A testsuite with only a text child is written on one line: open tag,
  // the marker, close tag. The cases go between, each on lines of its own.
  const std::string text = envelope.str();
  const size_t at = text.find(kWrittenMarker);
  out_ << text.substr(0, at) << "\n";
  tail_ = std::string(kIndent) + text.substr(at + kWrittenMarker.size());
}

pugi::xml_node JunitWriter::Case(const std::string& classname, const std::string& name) {
  case_.reset();
  pugi::xml_node tc = case_.append_child("testcase");
  tc.append_attribute("classname") = Safe(classname).c_str();
  tc.append_attribute("name") = Safe(name).c_str();
  return tc;
}

void JunitWriter::Pass() {
  case_.first_child().print(out_, kIndent, pugi::format_default, pugi::encoding_utf8, kCaseDepth);
}

void JunitWriter::Skip(const std::string& message) {
  case_.first_child().append_child("skipped").append_attribute("message") = message.c_str();
  Pass();
}

void JunitWriter::Fail(const std::string& type, const std::string& message, const Pieces& text) {
  pugi::xml_node f = case_.first_child().append_child("failure");
  f.append_attribute("type") = type.c_str();
  f.append_attribute("message") = Safe(message).c_str();
  f.append_child(pugi::node_pcdata).set_value(kMarker);
  std::ostringstream written;
  case_.first_child().print(written, kIndent, pugi::format_default, pugi::encoding_utf8,
                            kCaseDepth);
  const std::string around = written.str();
  const size_t at = around.find(kWrittenMarker);
  out_ << std::string_view(around).substr(0, at);
  pugi::xml_document piece;
  pugi::xml_node node = piece.append_child(pugi::node_pcdata);
  text([&](std::string_view part) {
    node.set_value(Safe(part).c_str());
    piece.save(out_, "", pugi::format_raw | pugi::format_no_declaration, pugi::encoding_utf8);
  });
  out_ << std::string_view(around).substr(at + kWrittenMarker.size());
}

void JunitWriter::Finish() { out_ << tail_; }

}  // namespace lockgraph
