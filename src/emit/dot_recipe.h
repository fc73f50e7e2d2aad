// A wait-for graph cluster recorded as the DotSink calls that draw it, so
// that `--format dot` can render each event when it is made and keep only
// this text (in an EventSpool) until Write, when the cluster's number (its
// place in log order) and the relation names learned later in the input
// (as Analyzer::Finish gives them) are known. docs/performance.md#dot-drawn-event-by-event-night-of-2026-12-05.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "emit/dot_sink.h"

namespace lockgraph {

/// Records the calls of one cluster drawing. Not copyable; not thread-safe.
class DotRecipe : public DotSink {
 public:
  /// `prefix` and `title` are what the drawing function is given (with a
  /// placeholder number): the recording keeps what follows them in the
  /// cluster's name and label and in node ids, and replays them with others.
  /// An edge label that ends with one of `markers` (a relation name the
  /// caller put in place of one not known yet) keeps, instead of the marker,
  /// a hole with the marker's argument.
  struct Marker {
    std::string text;
    std::string arg;
  };
  DotRecipe(std::string prefix, std::string title, std::vector<Marker> markers = {});
  DotRecipe(const DotRecipe&) = delete;
  DotRecipe& operator=(const DotRecipe&) = delete;

  DotObject AddCluster(const std::string& name, const std::string& label) override;
  DotObject AddNode(DotObject cluster, const std::string& id, const std::string& label) override;
  DotObject FindNode(DotObject cluster, const std::string& id) override;
  DotObject AddEdge(DotObject cluster, DotObject from, DotObject to, const std::string& label) override;
  void SetAttr(DotObject object, const char* key, const std::string& value) override;

  /// The recording; empty when nothing was drawn.
  const std::string& packed() const { return packed_; }

 private:
  std::string Tail(const std::string& text, const std::string& head) const;
  void Put(const std::vector<std::string_view>& call);
  DotObject Next() { return reinterpret_cast<DotObject>(++objects_); }

  std::string prefix_, title_;
  std::vector<Marker> markers_;
  std::unordered_map<std::string, DotObject> nodes_;  // by full id
  uintptr_t objects_ = 0;
  std::string packed_;
};

/// The text a relation hole's argument stands for (the relation's name, or
/// its OID when no name is known).
using DotRelationFill = std::function<std::string(std::string_view arg)>;

/// Replays `recipe` (DotRecipe::packed) into `graph` with `prefix` and
/// `title` in place of the recorded ones. Returns false for a malformed
/// recipe (then what was read is drawn).
bool ReplayDotRecipe(std::string_view recipe, const std::string& prefix, const std::string& title,
                     const DotRelationFill& fill, DotSink& graph);

}  // namespace lockgraph
