// --format sarif: SARIF 2.1.0 for code-scanning uploads. One result per
// deadlock group (rule LG-DEADLOCK) and per finding (the group's first
// deadlock stands for its group; lock waits each; run-level ones), one per
// lock wait over check's --max-lock-wait (rule LG-LOCK-WAIT), one per lock
// cycle of a snapshot (LG-LOCK-CYCLE), and with a baseline one "absent"
// result per entry no longer seen. Every result has a location, as GitHub
// requires: run-level ones point at the groups they name or at the first
// input's first line. URIs are relative to %SRCROOT% (check rewrote the
// paths, source_paths.h; originalUriBaseIds names the root when known).
// Rule metadata carries each rule's page (docs/rules/*.md, embedded) as
// fullDescription (its first paragraph) and help (text and Markdown).
// partialFingerprints come from the signature and wait keys, so a result
// keeps its identity across runs. Built with nlohmann_json: escaping and
// invalid UTF-8 (replaced) are the library's.
// Under `analyze` each lock wait's results are rendered when the wait is
// made, into an EventSpool, with holes for what only Write knows (the URI,
// a fingerprint that needs the input's relation names, a run-level
// location), and spliced into the document at Write, so memory stays flat.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <iostream>
#include <map>

#include "analysis/signature.h"
#include "gate/baseline.h"
#include "gate/check_gate.h"
#include "emit/ci_text.h"
#include "emit/keeping_emitter.h"
#include "emit/event_json.h"
#include "emit/event_spool.h"
#include "emit/hole_text.h"
#include "emit/late_wait_key.h"
#include "emit/source_paths.h"
#include "rules/rule.h"
#include "rules/rule_docs.h"

namespace lockgraph {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kDeadlockRule = "LG-DEADLOCK";
constexpr const char* kWaitRule = "LG-LOCK-WAIT";
constexpr const char* kCycleRule = "LG-LOCK-CYCLE";

const char* Level(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "warning";
}

constexpr const char* kSrcRoot = "%SRCROOT%";

// A URI reference for a path: unreserved characters and '/' kept,
// everything else percent-encoded. Input paths are relative to the source
// root here (source_paths.h); the root itself is absolute.
std::string PathUri(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The first paragraph after a page's title.
std::string FirstParagraph(std::string_view page) {
  size_t start = page.find("\n\n");
  if (start == std::string_view::npos) return std::string(page);
  start += 2;
  size_t end = page.find("\n\n", start);
  std::string p(page.substr(start, end == std::string_view::npos ? end : end - start));
  for (char& c : p)
    if (c == '\n') c = ' ';
  return p;
}

json Rule(const std::string& id, const std::string& name, const std::string& summary,
          const std::string& full, const std::string& help, const char* level) {
  return {{"id", id},
          {"name", name},
          {"shortDescription", {{"text", summary}}},
          {"fullDescription", {{"text", full}}},
          {"help", {{"text", help}, {"markdown", help}}},
          {"defaultConfiguration", {{"level", level}}}};
}

json Rules(std::vector<std::string>* ids) {
  json rules = json::array();
  const std::string deadlock_help =
      "The server aborted a transaction to break a cycle of lock waits. lockgraph groups "
      "deadlocks by signature (docs/rules.md#signatures): the statements and the locks they "
      "wait for, whatever the pids, keys and times. Fix the cause the PG rules name; "
      "`lockgraph explain PG001` prints a rule's page.";
  rules.push_back(Rule(kDeadlockRule, "deadlock", "a deadlock the server broke",
                       "Deadlocks of one signature: the same statements waiting for the same "
                       "kinds of locks.",
                       deadlock_help, "error"));
  rules.push_back(Rule(kWaitRule, "long-lock-wait", "a lock wait longer than the limit",
                       "A backend waited for a lock longer than `lockgraph check "
                       "--max-lock-wait`.",
                       "A lock wait longer than the limit of `lockgraph check --max-lock-wait`. "
                       "See PG010 (`lockgraph explain PG010`) for who held the lock and why.",
                       "error"));
  rules.push_back(Rule(kCycleRule, "snapshot-lock-cycle", "processes waiting in a circle in a snapshot",
                       "A pg_locks snapshot shows processes that wait for each other in a circle: "
                       "a deadlock the server has not broken yet, or never will.",
                       "Processes of a pg_locks snapshot wait for each other in a circle. "
                       "`lockgraph check` counts each such cycle as a deadlock against "
                       "`--max-deadlocks`. Advisory locks and a high `deadlock_timeout` are the "
                       "usual causes; see docs/watch.md.",
                       "error"));
  ids->assign({kDeadlockRule, kWaitRule, kCycleRule});
  for (const auto& r : RegisterBuiltinRules(RuleSettings{})) {
    const RuleInfo& i = r->info();
    std::string page(RuleDoc(i.id));
    rules.push_back(Rule(std::string(i.id), std::string(i.name), std::string(i.summary),
                         page.empty() ? std::string(i.summary) : FirstParagraph(page),
                         page.empty() ? std::string(i.summary) : page, Level(i.severity)));
    ids->push_back(std::string(i.id));
  }
  return rules;
}

// Input paths as SARIF names them: relative to the source root. check has
// rewritten them already (source_paths.h); analyze gives them as typed, so
// they are made relative to the default root here.
using PathMap = std::map<std::string, std::string>;

const std::string& MappedPath(const PathMap& paths, const std::string& file) {
  auto it = paths.find(file);
  return it == paths.end() ? file : it->second;
}

// `uri`: the span's file as a URI, or kJsonHoleValue for a hole.
json PhysicalLocation(const SourceSpan& s, const std::string& uri) {
  json region = {{"startLine", std::max<uint64_t>(s.first_line, 1)}};
  if (s.last_line > s.first_line) region["endLine"] = s.last_line;
  return {{"physicalLocation",
           {{"artifactLocation", {{"uri", uri}, {"uriBaseId", kSrcRoot}}}, {"region", region}}}};
}

json PhysicalLocation(const SourceSpan& s, const PathMap& paths) {
  return PhysicalLocation(s, PathUri(MappedPath(paths, s.file)));
}

json Location(const SourceSpan& s, const PathMap& paths) {
  return json::array({PhysicalLocation(s, paths)});
}

// The holes of a spooled result (hole_text.h): the URI of a file, a
// finding's fingerprint from a late wait key, a run-level location.
constexpr char kUriHole = 'u';
constexpr char kWaitFingerprintHole = 'w';
constexpr char kRunLocationHole = 'r';

// Results are items of runs[0].results: dumped at this depth, as the
// document's dump would.
constexpr unsigned kResultDepth = 8;

// Where a run-level result points (GitHub code scanning rejects a result
// without a location): the deadlock groups whose signatures it names, else
// the first line of the first input.
json RunLocation(const Report& report, const std::vector<std::string>& signatures,
                 const PathMap& paths) {
  json locations = json::array();
  for (const DeadlockGroup& g : GroupsByCause(report)) {
    if (std::find(signatures.begin(), signatures.end(), g.signature) == signatures.end()) continue;
    SourceSpan span = g.first_source;
    if (g.last_source.file == span.file && g.last_source.last_line > span.last_line)
      span.last_line = g.last_source.last_line;
    locations.push_back(PhysicalLocation(span, paths));
  }
  if (locations.empty()) {
    SourceSpan first;
    first.file = report.inputs.empty() ? "-" : report.inputs.front().file;
    first.first_line = first.last_line = 1;
    locations.push_back(PhysicalLocation(first, paths));
  }
  return locations;
}

// The absolute source root as a file URI ending in '/', as SARIF asks.
std::string RootUri(const std::string& root) {
  std::string uri = "file://" + PathUri(root);
  if (uri.back() != '/') uri += '/';
  return uri;
}

class SarifEmitter : public KeepingEmitter {
 public:
  std::string Name() const override { return "sarif"; }
  std::string Description() const override {
    return "SARIF 2.1.0 for code scanning (redacted unless --no-redact; docs/ci.md)";
  }
  bool RedactsByDefault() const override { return true; }

  void Write(const Report& report, std::ostream& out) override {
    MapPaths(report);
    json rules = Rules(&ids_);
    // Lock waits come from OnEvent (`analyze`), else from the report
    // (check, callers that collect every event, in log order): never both.
    KeepReportEvents(report);
    json run = {{"tool",
                 {{"driver",
                   {{"name", "lockgraph"},
                    {"version", LOCKGRAPH_VERSION},
                    {"semanticVersion", LOCKGRAPH_VERSION},
                    {"rules", std::move(rules)}}}}},
                {"columnKind", "utf16CodeUnits"}};
    run["originalUriBaseIds"] = {{kSrcRoot, {{"uri", RootUri(root_)}}}};
    run["results"] = json::array();
    json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", json::array({std::move(run)})}};
    // The results are spliced in where the document has its empty array:
    // "results" is the last key of the last run.
    const std::string text = doc.dump(2, ' ', false, json::error_handler_t::replace);
    const std::string empty = "\"results\": []";
    const size_t at = text.rfind(empty) + empty.size() - 1;
    out << std::string_view(text).substr(0, at);
    bool first = true;
    auto item = [&](std::string_view result) {
      out << (first ? "\n" : ",\n") << std::string(kResultDepth, ' ') << result;
      first = false;
    };
    const LateWaitKeys keys(report);
    for (const DeadlockGroup& g : GroupsByCause(report)) AddGroup(report, keys, g, item);
    if (spool_failed_ || !spool_.ForEachSorted([&](std::string_view packed) {
          item(Fill(report, keys, packed));
        }))
      std::cerr << "lockgraph: cannot read back the results kept in a temporary file\n";
    if (check_) AddCheck(report, item);
    for (const Finding& f : report.findings)
      item(Fill(report, keys, FindingResult(&report, nullptr, f, 0).packed()));
    if (!first) out << '\n' << std::string(kResultDepth - 2, ' ');
    out << std::string_view(text).substr(at) << '\n';
  }

 private:
  using Item = std::function<void(std::string_view)>;

  // Spools the results of a lock wait's findings (the only events of the
  // body): `report` is null when it is not known yet (OnEvent).
  void Keep(const Event& ev, const Report* report, uint32_t input, uint64_t line) override {
    if (!ev.lock_wait) return;
    if (ids_.empty()) Rules(&ids_);
    for (const Finding& f : ev.findings)
      if (!spool_.Add(input, line, FindingResult(report, &ev, f, input).packed()))
        spool_failed_ = true;
  }

  // A spooled result with its holes filled.
  std::string Fill(const Report& report, const LateWaitKeys& keys, std::string_view packed) const {
    std::string out;
    FillHoles(packed, [&](char kind, std::string_view arg) { return Hole(report, keys, kind, arg); },
              &out);
    return out;
  }

  // The JSON value of a hole, as the whole document's dump would write it.
  std::string Hole(const Report& report, const LateWaitKeys& keys, char kind,
                   std::string_view arg) const {
    if (kind == kUriHole) return DumpJsonAt(json(PathUri(MappedPath(paths_, std::string(arg)))), 0);
    std::vector<std::string_view> fields = UnpackFields(arg);
    if (kind == kWaitFingerprintHole && fields.size() == 2) {
      const std::string identity = std::string(fields[0]) + "|" + keys.WaitKey(fields[1]);
      return DumpJsonAt(json(Fnv1a64Hex(identity)), 0);
    }
    std::vector<std::string> signatures(fields.begin(), fields.end());  // kRunLocationHole
    return DumpJsonAt(RunLocation(report, signatures, paths_), kResultDepth + 2);
  }

  json Result(const std::string& rule, const char* level, const std::string& text) const {
    size_t index = 0;
    while (index < ids_.size() && ids_[index] != rule) ++index;
    return {{"ruleId", rule}, {"ruleIndex", index}, {"level", level}, {"message", {{"text", text}}}};
  }

  void Baseline(const Report& report, bool known, json& r) const {
    if (check_ && check_->has_baseline) r["baselineState"] = known ? "unchanged" : "new";
  }

  void AddGroup(const Report& report, const LateWaitKeys& keys, const DeadlockGroup& g,
                const Item& item) const {
    const bool fails = GroupFails(check_, g);
    json r = Result(kDeadlockRule, fails ? "error" : "note",
                    GroupTitle(g) + "\n" + GroupText(report, g));
    r["locations"] = Location(g.first_source, paths_);
    r["partialFingerprints"] = {{"lockgraphSignature/v1", g.signature}};
    r["properties"] = {{"count", g.count}, {"firstSeen", g.first_time},
                       {"lastSeen", g.last_time}, {"rules", g.rules}};
    if (!g.cause.empty()) r["properties"]["cause"] = g.cause;
    Baseline(report, check_ && !check_->IsNew(g.signature), r);
    item(DumpJsonAt(r, kResultDepth));
    if (const Event* ev = GroupExample(report, g))
      for (const Finding& f : ev->findings)
        item(Fill(report, keys, FindingResult(&report, ev, f, 0).packed()));
  }

  // The result of a finding of `ev` (run-level when null), with holes for
  // what only Write knows. `report` is null when rendered at OnEvent; then
  // `input` is the number of ev's input.
  HoleText FindingResult(const Report* report, const Event* ev, const Finding& f,
                         uint32_t input) const {
    json r = Result(f.rule_id, Level(f.severity), FindingTitle(f) + "\n" + FindingText(f));
    std::vector<HoleText::JsonHole> holes;
    if (ev && ev->source.first_line) {
      r["locations"] = json::array({PhysicalLocation(ev->source, kJsonHoleValue)});
      holes.push_back({"uri", kUriHole, ev->source.file});
    } else {
      r["locations"] = kJsonHoleValue;
      std::vector<std::string_view> signatures(f.signatures.begin(), f.signatures.end());
      holes.push_back({"locations", kRunLocationHole, PackFields(signatures)});
    }
    std::string identity = f.rule_id;
    std::string late;
    if (ev) {
      if (!report && ev->lock_wait && !ev->deadlock) late = LateWaitKeyArg(*ev, input);
      if (late.empty())
        identity += "|" + (ev->deadlock ? ev->signature : ev->lock_wait ? WaitKey(*ev) : "");
    } else {
      identity += "|" + FindingKey(f);
    }
    if (late.empty()) {
      r["partialFingerprints"] = {{"lockgraphFinding/v1", Fnv1a64Hex(identity)}};
    } else {
      r["partialFingerprints"] = {{"lockgraphFinding/v1", kJsonHoleValue}};
      holes.push_back({"lockgraphFinding/v1", kWaitFingerprintHole, PackFields({f.rule_id, late})});
    }
    if (check_ && report) {
      Baseline(*report, !IsNewFinding(*check_, *report, ev, f), r);
      r["properties"] = {{"failsCheck", FindingFails(check_, *report, ev, f)}};
    }
    HoleText text;
    text.AppendJson(DumpJsonAt(r, kResultDepth), holes);
    return text;
  }

  void AddCheck(const Report& report, const Item& item) const {
    const CheckResult& c = *check_;
    for (size_t i : c.cycles) {
      const Event ev = c.event(i);
      json r = Result(kCycleRule, c.deadlocks_failed ? "error" : "note", CycleText(ev));
      r["locations"] = Location(ev.source, paths_);
      r["partialFingerprints"] = {{"lockgraphCycle/v1", Fnv1a64Hex(CycleTitle(ev))}};
      item(DumpJsonAt(r, kResultDepth));
    }
    for (const LongWait& w : c.long_waits) {
      const Event ev = c.event(w.event);
      json r = Result(kWaitRule, w.known ? "note" : "error", WaitText(ev));
      r["locations"] = Location(ev.source, paths_);
      r["partialFingerprints"] = {{"lockgraphWait/v1", w.key}};
      Baseline(report, w.known, r);
      item(DumpJsonAt(r, kResultDepth));
    }
    for (const std::string& stale : c.stale) {
      const char* rule = stale.rfind("lock wait", 0) == 0 ? kWaitRule : kDeadlockRule;
      json r = Result(rule, "none", "baseline entry no longer seen: " + stale);
      r["kind"] = "pass";
      r["locations"] = RunLocation(report, {}, paths_);
      r["baselineState"] = "absent";
      r["partialFingerprints"] = {{"lockgraphBaseline/v1", Fnv1a64Hex(stale)}};
      item(DumpJsonAt(r, kResultDepth));
    }
  }

  // check: the paths are relative to source_root_ already; analyze: each
  // input's path made relative to DefaultSourceRoot() of the inputs.
  void MapPaths(const Report& report) {
    paths_.clear();
    root_ = source_root_;
    if (!root_.empty()) return;
    std::vector<std::string> files;
    for (const InputInfo& in : report.inputs) files.push_back(in.file);
    root_ = DefaultSourceRoot(files);
    for (const std::string& f : files) paths_[f] = RepoPath(f, root_);
  }

  std::vector<std::string> ids_;
  PathMap paths_;
  std::string root_;
  EventSpool spool_;
  bool spool_failed_ = false;
};

}  // namespace

std::unique_ptr<Emitter> MakeSarifEmitter() { return std::make_unique<SarifEmitter>(); }

}  // namespace lockgraph
