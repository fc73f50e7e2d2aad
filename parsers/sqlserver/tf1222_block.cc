// See tf1222_block.h.
#include "parsers/sqlserver/tf1222_block.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace lockgraph {
namespace {

// Attribute names of process, frame, resource, owner and waiter lines.
constexpr std::string_view kKnown[] = {
    "id", "taskpriority", "logused", "waitresource", "waittime", "ownerId", "transactionname",
    "lasttranstarted", "XDES", "lockMode", "schedulerid", "kpid", "status", "spid", "sbid", "ecid",
    "priority", "trancount", "transcount", "lastbatchstarted", "lastbatchcompleted",
    "lastattention", "clientapp", "hostname", "hostpid", "loginname", "isolationlevel", "xactid",
    "currentdb", "currentdbname", "lockTimeout", "clientoption1", "clientoption2", "victim",
    "procname", "line", "stmtstart", "stmtend", "sqlhandle", "queryhash", "queryplanhash",
    "hobtid", "dbid", "objectname", "indexname", "associatedObjectId", "fileid", "pageid",
    "lockPartition", "objid", "subresource", "hash", "databasePrincipalId", "classid", "mode",
    "requestType", "WaitType", "nodeId", "waiterType", "ownerActivity", "waiterActivity",
    "merging", "spilling", "waitingToClose", "xdesIdLow", "xdesIdHigh", "tid"};

// Values that are free text: an unknown `word=` inside them is text.
constexpr std::string_view kFreeText[] = {
    "clientapp", "hostname", "loginname", "isolationlevel", "waitresource",
    "transactionname", "objectname", "indexname", "procname", "currentdbname"};

template <size_t N>
bool In(const std::string_view (&set)[N], std::string_view s) {
  return std::find(set, set + N, s) != set + N;
}

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The identifier of an `identifier=` at `pos`, or "".
std::string_view KeyAt(std::string_view s, size_t pos) {
  size_t k = pos;
  while (k < s.size() && IdentChar(s[k])) ++k;
  if (k == pos || k >= s.size() || s[k] != '=') return {};
  return s.substr(pos, k - pos);
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool StartsWord(std::string_view s, std::string_view word) {
  return s.substr(0, word.size()) == word && (s.size() == word.size() || s[word.size()] == ' ');
}

bool Named(const pugi::xml_node& n, const char* name) { return n && std::strcmp(n.name(), name) == 0; }

void SetAttributes(pugi::xml_node node, std::string_view text) {
  for (auto& [name, value] : SplitTf1222Attributes(text)) {
    pugi::xml_attribute a = node.attribute(name.c_str());
    if (!a) a = node.append_attribute(name.c_str());
    a.set_value(value.c_str());
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> SplitTf1222Attributes(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t value_start = 0;
  std::string_view key;
  for (size_t i = 0; i <= text.size(); ++i) {
    std::string_view next;
    if (i < text.size() && (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1])))) {
      next = KeyAt(text, i);
      if (!next.empty() && !In(kKnown, next) && !key.empty() && In(kFreeText, key)) next = {};
    }
    if (next.empty() && i < text.size()) continue;
    if (!key.empty()) {
      std::string name(key == "transcount" ? "trancount" : key);
      std::string_view value = TrimRight(text.substr(value_start, i - value_start));
      out.emplace_back(std::move(name), std::string(value));
    }
    if (i < text.size()) {
      key = next;
      value_start = i + next.size() + 1;
      i = value_start - 1;
    }
  }
  return out;
}

Tf1222Block::Tf1222Block(pugi::xml_document* doc) : deadlock_(doc->append_child("deadlock")) {}

pugi::xml_node Tf1222Block::Element(pugi::xml_node parent, std::string_view name, std::string_view attrs) {
  pugi::xml_node n = parent.append_child(std::string(name).c_str());
  SetAttributes(n, attrs);
  return n;
}

// A structure line in its place: performs it and returns true.
bool Tf1222Block::Structure(std::string_view c, int level) {
  size_t sp = c.find(' ');
  std::string_view word = c.substr(0, sp), rest = sp == std::string_view::npos ? "" : c.substr(sp + 1);
  bool attrs = word.find('=') == std::string_view::npos && rest.find('=') != std::string_view::npos;
  auto enter = [&](auto action) {
    EndText();
    action();
    return true;
  };
  switch (level) {
    case 1:
      if (word == "deadlock") return enter([&] { SetAttributes(deadlock_, rest); });
      return false;
    case 2:
      if (c == "process-list" || c == "resource-list" || c == "victim-list")
        return enter([&] { section_ = deadlock_.append_child(std::string(c).c_str()); element_ = sub_ = {}; });
      return false;
    case 3:
      if ((Named(section_, "process-list") && word == "process" && attrs) ||
          (Named(section_, "resource-list") && attrs) ||
          (Named(section_, "victim-list") && word == "victimProcess"))
        return enter([&] { element_ = Element(section_, word, rest); element_level_ = 3; sub_ = frame_ = {}; });
      return false;
    case 4:
      if (!element_ || rest.size() || c.find('=') != std::string_view::npos) return false;
      if (Named(element_, "process") ? (c == "executionStack" || c == "inputbuf")
                                     : (c == "owner-list" || c == "waiter-list" || c == "UnderlyingResource"))
        return enter([&] {
          sub_ = element_.append_child(std::string(c).c_str());
          frame_ = {};
          if (c == "inputbuf") StartText(Text::kInputbuf);
        });
      return false;
    case 5:
      if ((Named(sub_, "executionStack") && StartsWord(c, "frame")) ||
          (Named(sub_, "owner-list") && word == "owner" && attrs) ||
          (Named(sub_, "waiter-list") && word == "waiter" && attrs) || (Named(sub_, "UnderlyingResource") && attrs))
        return enter([&] { frame_ = Element(sub_, word, rest); element_level_ = 5; });
      return false;
    default:
      return false;
  }
}

bool Tf1222Block::Continuation(std::string_view c, int level) {
  if (level != element_level_) return false;
  std::string_view key = KeyAt(c, 0);
  if (key.empty() || !In(kKnown, key)) return false;
  pugi::xml_node target = element_level_ == 5 ? frame_ : element_;
  if (!target) return false;
  SetAttributes(target, c);
  return true;
}

void Tf1222Block::StartText(Text kind) {
  text_kind_ = kind;
  text_.clear();
  text_indent_ = -1;
}

void Tf1222Block::EndText() {
  if (text_kind_ == Text::kNone) return;
  while (!text_.empty() && text_.back() == '\n') text_.pop_back();
  pugi::xml_node target = text_kind_ == Text::kFrame ? frame_ : sub_;
  target.append_child(pugi::node_pcdata).set_value(text_.c_str());
  text_kind_ = Text::kNone;
}

bool Tf1222Block::Add(std::string_view content, int level) {
  content = TrimRight(content);
  if (!started_) {
    started_ = true;
    return true;  // "deadlock-list"
  }
  if (content.empty()) {
    if (text_kind_ != Text::kNone && !text_.empty()) text_ += '\n';  // a blank line of the text
    return true;
  }
  if (level == 0 && content == "deadlock-list") return false;  // the next report
  if (Structure(content, level)) return true;
  bool frame_text = Named(sub_, "executionStack") && frame_ && text_kind_ == Text::kNone &&
                    frame_.first_child().empty();
  if (text_kind_ == Text::kNone && Continuation(content, level)) return true;
  if (frame_text) StartText(Text::kFrame);
  if (text_kind_ == Text::kNone) return false;
  if (text_indent_ < 0) text_indent_ = level;
  text_.append(size_t(std::max(0, level - text_indent_)), ' ');
  text_.append(content);
  text_ += '\n';  // every text line ends in one; EndText() drops the last ones
  return true;
}

void Tf1222Block::Finish() { EndText(); }

}  // namespace lockgraph
