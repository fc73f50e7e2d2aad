// Trace flag 1204 text (reference A9): one `Node:n` per resource of the
// chain, with its Grant / Convert / Wait lists and the request that waits
// (`Requested By:`), then the victim (`Victim Resource Owner:`). There are
// no process ids: a process is named "spid<SPID>" (ECID 0) or
// "spid<SPID>_ecid<ECID>". Tf1204Block builds the same pugixml tree as
// the XML report, so one builder reads both (deadlock_builder.h).
#pragma once

#include <pugixml.hpp>

#include <string>
#include <string_view>

namespace lockgraph {

class Tf1204Block {
 public:
  /// `doc` receives the <deadlock> element; it must outlive the block.
  explicit Tf1204Block(pugi::xml_document* doc);

  /// One line without its indentation. The first is the "Deadlock
  /// encountered" line. Returns false when the line is not part of the
  /// report (not consumed).
  bool Add(std::string_view content);
  void Finish();

  pugi::xml_node deadlock() const { return deadlock_; }

 private:
  enum class List { kNone, kGrant, kConvert, kWait, kRequested, kVictim };
  bool Structure(std::string_view c);
  void Owner(std::string_view c);
  void Request(std::string_view c);
  pugi::xml_node Process(const std::string& spid, const std::string& ecid);
  void EndText();

  pugi::xml_node deadlock_, processes_, resources_, resource_, process_;
  std::string resource_text_;
  List list_ = List::kNone;
  std::string owner_mode_;  // "Owner:0x... Mode: X", until its "Flg: ... SPID:" line
  std::string pending_;     // a request's lines until its SPID
  bool in_text_ = false;
  std::string text_;
  bool started_ = false;
};

}  // namespace lockgraph
