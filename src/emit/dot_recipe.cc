// See dot_recipe.h. A recipe is a PackFields list of calls, each itself a
// PackFields list: "C" name-tail label-tail; "N" id-tail label; "E" from to label
// hole-arg (empty: no hole); "S" object key value. Objects are numbered
// from 1 in the order they were made. A name or id that does not start
// with the recorded prefix (never, with dot_events.h's drawings) is kept
// whole under "c" or "n".
#include "emit/dot_recipe.h"

#include <cstdint>

#include "emit/hole_text.h"
#include "text/number.h"

namespace lockgraph {

DotRecipe::DotRecipe(std::string prefix, std::string title, std::vector<Marker> markers)
    : prefix_(std::move(prefix)), title_(std::move(title)), markers_(std::move(markers)) {}

std::string DotRecipe::Tail(const std::string& text, const std::string& head) const {
  return text.substr(head.size());
}

DotObject DotRecipe::AddCluster(const std::string& name, const std::string& label) {
  const bool ours = name == prefix_ && label.rfind(title_, 0) == 0;
  Put({ours ? "C" : "c", ours ? "" : name, ours ? Tail(label, title_) : label});
  return Next();
}

DotObject DotRecipe::AddNode(DotObject, const std::string& id, const std::string& label) {
  auto [it, fresh] = nodes_.try_emplace(id, nullptr);
  if (!fresh) return it->second;
  const bool ours = id.rfind(prefix_, 0) == 0;
  Put({ours ? "N" : "n", ours ? Tail(id, prefix_) : id, label});
  it->second = Next();
  return it->second;
}

DotObject DotRecipe::FindNode(DotObject, const std::string& id) {
  auto it = nodes_.find(id);
  return it == nodes_.end() ? nullptr : it->second;
}

DotObject DotRecipe::AddEdge(DotObject, DotObject from, DotObject to, const std::string& label) {
  std::string_view head = label, arg;
  for (const Marker& m : markers_)
    if (head.size() >= m.text.size() && head.substr(head.size() - m.text.size()) == m.text) {
      head.remove_suffix(m.text.size());
      arg = m.arg;
      break;
    }
  const std::string f = std::to_string(reinterpret_cast<uintptr_t>(from));
  const std::string t = std::to_string(reinterpret_cast<uintptr_t>(to));
  Put({"E", f, t, head, arg});
  return Next();
}

void DotRecipe::SetAttr(DotObject object, const char* key, const std::string& value) {
  Put({"S", std::to_string(reinterpret_cast<uintptr_t>(object)), key, value});
}

void DotRecipe::Put(const std::vector<std::string_view>& call) {
  packed_ += PackFields({PackFields(call)});
}

bool ReplayDotRecipe(std::string_view recipe, const std::string& prefix, const std::string& title,
                     const DotRelationFill& fill, DotSink& graph) {
  std::vector<DotObject> objects;  // [number - 1]
  DotObject cluster = nullptr;
  auto object = [&](std::string_view number) -> DotObject {
    const size_t i = ParseNumber<size_t>(number).value_or(0);
    return i >= 1 && i <= objects.size() ? objects[i - 1] : nullptr;
  };
  const std::vector<std::string_view> calls = UnpackFields(recipe);
  size_t read = 0;
  for (std::string_view call : calls) read += 4 + call.size();
  if (read != recipe.size()) return false;  // cut: UnpackFields stops at a part it cannot read whole
  for (std::string_view call : calls) {
    std::vector<std::string_view> f = UnpackFields(call);
    const size_t fields = f.empty() ? 0 : f[0] == "E" ? 5 : f[0] == "S" ? 4 : 3;
    if (fields == 0 || f.size() != fields) return false;
    const std::string_view kind = f[0];
    if (kind == "C" || kind == "c") {
      const std::string name = kind == "C" ? prefix + std::string(f[1]) : std::string(f[1]);
      const std::string label = kind == "C" ? title + std::string(f[2]) : std::string(f[2]);
      cluster = graph.AddCluster(name, label);
      objects.push_back(cluster);
    } else if (!cluster) {
      return false;  // every recording starts with its cluster
    } else if (kind == "N" || kind == "n") {
      const std::string id = kind == "N" ? prefix + std::string(f[1]) : std::string(f[1]);
      objects.push_back(graph.AddNode(cluster, id, std::string(f[2])));
    } else if (kind == "E") {
      DotObject from = object(f[1]), to = object(f[2]);
      if (!from || !to) return false;
      std::string label(f[3]);
      if (!f[4].empty()) label += fill(f[4]);
      objects.push_back(graph.AddEdge(cluster, from, to, label));
    } else if (kind == "S") {
      DotObject o = object(f[1]);
      if (!o) return false;
      graph.SetAttr(o, std::string(f[2]).c_str(), std::string(f[3]));
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace lockgraph
