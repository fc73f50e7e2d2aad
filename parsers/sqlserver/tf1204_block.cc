// See tf1204_block.h.
#include "parsers/sqlserver/tf1204_block.h"

#include <cctype>
#include <cstring>

#include "parsers/sqlserver/wait_resource.h"

namespace lockgraph {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool StartsNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

// True for the lines that end an input buffer's text.
bool LooksLikeStructure(std::string_view c) {
  for (std::string_view p : {"Wait-for graph", "Next Branch", "Node:", "Grant List", "Convert List",
                             "Wait List", "Requested By:", "Victim Resource Owner:", "Owner:",
                             "Flg:", "SPID:", "Input Buf:", "ResType:"})
    if (StartsNoCase(c, p)) return true;
  return c.find("CleanCnt:") != std::string_view::npos;
}

// The word after `key` ("SPID:" in "SPID: 55 ECID: 0"), or "".
std::string Value(std::string_view s, std::string_view key) {
  size_t at = s.find(key);
  while (at != std::string_view::npos && at > 0 && std::isalnum(static_cast<unsigned char>(s[at - 1])))
    at = s.find(key, at + 1);
  if (at == std::string_view::npos) return "";
  size_t b = at + key.size();
  while (b < s.size() && s[b] == ' ') ++b;
  size_t e = b;
  while (e < s.size() && !std::isspace(static_cast<unsigned char>(s[e]))) ++e;
  return std::string(s.substr(b, e - b));
}

void Set(pugi::xml_node n, const char* name, const std::string& value) {
  if (value.empty()) return;
  pugi::xml_attribute a = n.attribute(name);
  if (!a) a = n.append_attribute(name);
  a.set_value(value.c_str());
}

pugi::xml_node ChildOrNew(pugi::xml_node parent, const char* name) {
  pugi::xml_node n = parent.child(name);
  return n ? n : parent.append_child(name);
}

}  // namespace

Tf1204Block::Tf1204Block(pugi::xml_document* doc) : deadlock_(doc->append_child("deadlock")) {
  processes_ = deadlock_.append_child("process-list");
  resources_ = deadlock_.append_child("resource-list");
}

pugi::xml_node Tf1204Block::Process(const std::string& spid, const std::string& ecid) {
  std::string id = "spid" + spid + (ecid.empty() || ecid == "0" ? "" : "_ecid" + ecid);
  if (pugi::xml_node p = processes_.find_child_by_attribute("process", "id", id.c_str())) return p;
  pugi::xml_node p = processes_.append_child("process");
  Set(p, "id", id);
  Set(p, "spid", spid);
  Set(p, "ecid", ecid);
  return p;
}

// "Flg:0x0 Ref:0 Life:02000000 SPID:55 ECID:0 XactLockInfo: 0x04D9E27C"
// completes an "Owner:0x0315D6A0 Mode: X" entry of the current list.
void Tf1204Block::Owner(std::string_view c) {
  pugi::xml_node p = Process(Value(c, "SPID:"), Value(c, "ECID:"));
  bool waits = list_ == List::kWait;
  pugi::xml_node entry = ChildOrNew(resource_, waits ? "waiter-list" : "owner-list")
                             .append_child(waits ? "waiter" : "owner");
  Set(entry, "id", p.attribute("id").value());
  Set(entry, "mode", owner_mode_);
  if (list_ == List::kConvert) Set(entry, "requestType", "convert");
  if (waits) {
    Set(entry, "requestType", "wait");
    Set(p, "waitresource", resource_text_);
    Set(p, "lockMode", owner_mode_);
  }
  owner_mode_.clear();
}

// "ResType:LockOwner Stype:'OR'Xdes:0x03A3DAD0 Mode: U SPID:54 BatchID:0
// ECID:0 TaskProxy:(0x04976374) Value:0x315d200 Cost:(0/868)", on one or two lines.
void Tf1204Block::Request(std::string_view c) {
  pending_ += std::string(c) + " ";
  std::string spid = Value(pending_, "SPID:");
  if (spid.empty()) return;
  pugi::xml_node p = Process(spid, Value(pending_, "ECID:"));
  std::string mode = Value(pending_, "Mode:"), cost = Value(pending_, "Cost:");
  size_t slash = cost.find('/');
  if (slash != std::string::npos && cost.back() == ')') Set(p, "logused", cost.substr(slash + 1, cost.size() - slash - 2));
  if (list_ == List::kVictim) {
    Set(deadlock_, "victim", p.attribute("id").value());
  } else if (resource_) {
    pugi::xml_node w = ChildOrNew(resource_, "waiter-list").append_child("waiter");
    Set(w, "id", p.attribute("id").value());
    Set(w, "mode", mode);
    Set(w, "requestType", "wait");
    Set(p, "waitresource", resource_text_);
    Set(p, "lockMode", mode);
  }
  pending_.clear();
  list_ = List::kNone;
}

// A line of the 1204 layout; performs it and returns true.
bool Tf1204Block::Structure(std::string_view c) {
  if (c == "Wait-for graph" || StartsNoCase(c, "Next Branch")) return true;
  if (StartsNoCase(c, "Node:")) {
    resource_ = {};
    return true;
  }
  if (size_t at = c.find("CleanCnt:"); at != std::string_view::npos) {
    resource_text_ = std::string(Trim(c.substr(0, at)));
    WaitResource wr;
    bool known = ParseWaitResource(resource_text_, &wr);
    resource_ = resources_.append_child(known ? wr.element.c_str() : "resource");
    for (auto& [name, value] : wr.parts) Set(resource_, name.c_str(), value);
    if (!known) Set(resource_, "resource", resource_text_);
    Set(resource_, "mode", Value(c, "Mode:"));
    return true;
  }
  if (StartsNoCase(c, "Grant List")) return list_ = List::kGrant, true;
  if (StartsNoCase(c, "Convert List")) return list_ = List::kConvert, true;
  if (StartsNoCase(c, "Wait List")) return list_ = List::kWait, true;
  if (StartsNoCase(c, "Requested By:")) return list_ = List::kRequested, pending_.clear(), true;
  if (StartsNoCase(c, "Victim Resource Owner:")) return list_ = List::kVictim, pending_.clear(), true;
  if (StartsNoCase(c, "Owner:") && resource_) return owner_mode_ = Value(c, "Mode:"), true;
  if (StartsNoCase(c, "Flg:") && c.find("SPID:") != std::string_view::npos && resource_) return Owner(c), true;
  if (StartsNoCase(c, "SPID:") && c.find("Statement Type:") != std::string_view::npos) {
    process_ = Process(Value(c, "SPID:"), Value(c, "ECID:"));
    size_t st = c.find("Statement Type:"), ln = c.find("Line #:");
    Set(process_, "statementtype", std::string(Trim(c.substr(st + 15, ln == std::string_view::npos ? std::string_view::npos : ln - st - 15))));
    if (ln != std::string_view::npos) Set(process_, "line", std::string(Trim(c.substr(ln + 7))));
    return true;
  }
  if (StartsNoCase(c, "Input Buf:") && process_) {
    std::string_view rest = Trim(c.substr(10));
    if (StartsNoCase(rest, "Language Event:")) rest = Trim(rest.substr(15));
    in_text_ = true;
    text_ = std::string(rest);
    return true;
  }
  if ((list_ == List::kRequested || list_ == List::kVictim) &&
      (StartsNoCase(c, "ResType:") || StartsNoCase(c, "Mode:") || !pending_.empty()))
    return Request(c), true;
  return false;
}

void Tf1204Block::EndText() {
  if (!in_text_) return;
  in_text_ = false;
  while (!text_.empty() && (text_.back() == '\n' || text_.back() == ' ')) text_.pop_back();
  ChildOrNew(process_, "inputbuf").text().set(text_.c_str());
}

bool Tf1204Block::Add(std::string_view content) {
  std::string_view c = Trim(content);
  if (!started_) return started_ = true;
  if (c.empty()) {
    if (in_text_) text_ += '\n';
    return true;
  }
  if (StartsNoCase(c, "Deadlock encountered")) return false;
  if (in_text_ && !LooksLikeStructure(c)) {
    if (!text_.empty() && text_.back() != '\n') text_ += '\n';
    text_ += std::string(TrimRight(content));
    return true;
  }
  EndText();
  return Structure(c);
}

void Tf1204Block::Finish() { EndText(); }

}  // namespace lockgraph
