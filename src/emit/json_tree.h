// A JSON tree built through JsonText's calls (json_text.h), so that one
// function listing an object's fields writes it both straight to text and
// as a tree: the values of json_values.h and snapshot_json.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockgraph {

/// The caller pairs Begin/End calls and puts a Key() before each value in
/// an object, as with JsonText; a key given twice keeps its first place and
/// takes the later value, as `j[key] = value` does. Take() the tree once
/// every container is closed.
class JsonTree {
 public:
  void BeginObject() { Open(nlohmann::ordered_json::object()); }
  void EndObject() { open_.pop_back(); }
  void BeginArray() { Open(nlohmann::ordered_json::array()); }
  void EndArray() { open_.pop_back(); }
  void Key(std::string_view key) { key_.assign(key); }
  void String(std::string_view s) { Put(std::string(s)); }
  void Int(int64_t v) { Put(v); }
  void Uint(uint64_t v) { Put(v); }
  void Double(double v) { Put(v); }
  void Bool(bool v) { Put(v); }
  void Value(const nlohmann::ordered_json& j) { Put(j); }

  nlohmann::ordered_json Take() { return std::move(root_); }

 private:
  nlohmann::ordered_json& Put(nlohmann::ordered_json v);
  void Open(nlohmann::ordered_json v) { open_.push_back(&Put(std::move(v))); }

  nlohmann::ordered_json root_;
  // The containers open, outermost first. A value is only ever added to
  // the innermost, so the others do not move.
  std::vector<nlohmann::ordered_json*> open_;
  std::string key_;
};

}  // namespace lockgraph
