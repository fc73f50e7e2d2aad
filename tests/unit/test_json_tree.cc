// JsonTree: the tree JsonText's calls build (emit/json_tree.h).
#include <catch2/catch.hpp>

#include "emit/json_text.h"
#include "emit/json_tree.h"

using lockgraph::JsonText;
using lockgraph::JsonTree;
using json = nlohmann::ordered_json;

namespace {

// The same calls through both writers.
template <class Writer>
void Write(Writer& w) {
  w.BeginObject();
  w.Key("id"), w.Int(-42);
  w.Key("xid"), w.Uint(18446744073709551615u);
  w.Key("age_ms"), w.Double(1.5);
  w.Key("query"), w.String("UPDATE t SET v = '\"x\"'\n");
  w.Key("holds"), w.BeginArray();
  w.BeginObject(), w.Key("mode"), w.String("ShareLock"), w.EndObject();
  w.BeginArray(), w.EndArray();
  w.Bool(true);
  w.EndArray();
  w.Key("lock"), w.Value(json{{"type", "relation"}, {"relation", 16384}});
  w.Key("empty"), w.BeginObject(), w.EndObject();
  w.EndObject();
}

}  // namespace

TEST_CASE("JsonTree builds the tree whose dump is JsonText's text", "[json_text]") {
  JsonTree tree;
  Write(tree);
  const json j = tree.Take();
  CHECK(j == json::parse(R"({"id":-42,"xid":18446744073709551615,"age_ms":1.5,
      "query":"UPDATE t SET v = '\"x\"'\n","holds":[{"mode":"ShareLock"},[],true],
      "lock":{"type":"relation","relation":16384},"empty":{}})"));
  std::string text;
  JsonText w(&text, -1, 0);
  Write(w);
  CHECK(text == j.dump());
}

TEST_CASE("JsonTree: a key given twice keeps its first place and its last value", "[json_text]") {
  JsonTree tree;
  tree.BeginObject();
  tree.Key("type"), tree.String("relation");
  tree.Key("relation"), tree.Uint(1);
  tree.Key("type"), tree.String("tuple");
  tree.EndObject();
  CHECK(tree.Take().dump() == R"({"type":"tuple","relation":1})");
}

TEST_CASE("JsonTree: a lone value is the tree", "[json_text]") {
  JsonTree tree;
  tree.String("process1a2b");
  CHECK(tree.Take() == json("process1a2b"));
}
