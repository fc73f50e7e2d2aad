// --format github: GitHub Actions workflow commands, one annotation per
// deadlock group, snapshot lock cycle, lock wait over check's limit, finding
// and stale baseline entry: `::error file=F,line=L,endLine=E,title=T::message`,
// F relative to the repository (check rewrote the paths: source_paths.h). Escaping as the
// Actions runner reads it: in the message %, CR and LF; in properties also
// ':' and ','. Other control characters are shown as \x1b and invalid UTF-8
// as U+FFFD (text_safety.h), so that no ESC or NUL reaches the job log.
// Under `analyze` each event's annotations are written when it is made, into
// an EventSpool, and printed from it at Write, so memory stays flat.
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>

#include "gate/baseline.h"
#include "emit/ci_text.h"
#include "emit/keeping_emitter.h"
#include "emit/event_spool.h"
#include "emit/hole_text.h"
#include "emit/text_safety.h"

namespace lockgraph {
namespace {

// %, CR and LF as the runner reads them; other control characters shown
// as \x1b, as PrintableText does, so that no ESC or NUL reaches the log.
std::string EscapeData(std::string_view s) {
  std::string out;
  for (unsigned char c : ValidUtf8(s)) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

std::string EscapeProperty(std::string_view s) {
  std::string out;
  for (char c : EscapeData(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

const char* Command(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "notice";
  }
  return "warning";
}

void Annotate(const char* command, const SourceSpan* source, const std::string& title,
              const std::string& message, std::ostream& out) {
  out << "::" << command << ' ';
  if (source && !source->file.empty() && source->first_line) {
    out << "file=" << EscapeProperty(source->file) << ",line=" << source->first_line;
    if (source->last_line > source->first_line) out << ",endLine=" << source->last_line;
    out << ',';
  }
  out << "title=" << EscapeProperty(title) << "::" << EscapeData(message) << '\n';
}

// Marks a spooled deadlock's annotations with its signature (an empty
// hole): only a group's first deadlock in log order, its example, is shown.
constexpr char kDeadlockHole = 'd';

class GithubEmitter : public KeepingEmitter {
 public:
  std::string Name() const override { return "github"; }
  std::string Description() const override {
    return "GitHub Actions annotations (::error file=...,line=...::...)";
  }

  void Write(const Report& report, std::ostream& out) override {
    std::set<std::string> grouped;
    for (const DeadlockGroup& g : GroupsByCause(report)) {
      grouped.insert(g.signature);
      Annotate(GroupFails(check_, g) ? "error" : "notice", &g.first_source,
               "lockgraph: deadlock " + g.signature + " x" + std::to_string(g.count),
               GroupTitle(g) + "\n" + GroupText(report, g), out);
    }
    // Events come from OnEvent (`analyze`), else from the report (check,
    // callers that collect every event, in log order): never both.
    KeepReportEvents(report);
    std::set<std::string> shown;  // signatures whose example was printed
    bool ok = !spool_failed_ && spool_.ForEachSorted([&](std::string_view packed) {
      std::string signature, text;
      bool deadlock = false;
      FillHoles(packed, [&](char, std::string_view arg) {
        deadlock = true;
        signature = arg;
        return std::string();
      }, &text);
      if (deadlock && grouped.count(signature) && !shown.insert(signature).second) return;
      out << text;
    });
    if (!ok) std::cerr << "lockgraph: cannot read back the annotations kept in a temporary file\n";
    for (const Finding& f : report.findings) AnnotateFinding(report, nullptr, f, out);
    if (!check_) return;
    for (size_t i : check_->cycles) {
      const Event ev = check_->event(i);
      Annotate(check_->deadlocks_failed ? "error" : "notice", &ev.source,
               "lockgraph: " + CycleTitle(ev), CycleText(ev), out);
    }
    for (const LongWait& w : check_->long_waits) {
      const Event ev = check_->event(w.event);
      Annotate(w.known ? "notice" : "error", &ev.source, "lockgraph: " + WaitTitle(ev),
               WaitText(ev), out);
    }
    for (const std::string& stale : check_->stale)
      Annotate("notice", nullptr, "lockgraph: baseline entry no longer seen", stale, out);
  }

 private:
  // Spools the annotations of an event's findings; every deadlock gets an
  // entry, so that Write knows which is its group's first. `report` is
  // null at OnEvent (no check verdict then: FindingFails does not read it).
  void Keep(const Event& ev, const Report* report, uint32_t input, uint64_t line) override {
    if (!ev.deadlock && ev.findings.empty()) return;
    static const Report kNoReport;
    const Report& known = report ? *report : kNoReport;
    std::ostringstream text;
    for (const Finding& f : ev.findings) AnnotateFinding(known, &ev, f, text);
    HoleText entry;
    if (ev.deadlock) entry.AddHole(kDeadlockHole, ev.signature);
    entry.Append(text.str());
    if (!spool_.Add(input, line, entry.packed())) spool_failed_ = true;
  }

  void AnnotateFinding(const Report& report, const Event* ev, const Finding& f,
                       std::ostream& out) {
    const char* command = FindingFails(check_, report, ev, f) ? "error" : Command(f.severity);
    if (check_ && !FindingFails(check_, report, ev, f) && f.severity == Severity::kError)
      command = "warning";  // check decides what fails: only --fail-on rules are errors
    Annotate(command, ev ? &ev->source : nullptr,
             "lockgraph: " + f.rule_id + " " + f.rule_name, f.message + "\nfix: " + f.hint, out);
  }

  EventSpool spool_;
  bool spool_failed_ = false;
};

}  // namespace

std::unique_ptr<Emitter> MakeGithubEmitter() { return std::make_unique<GithubEmitter>(); }

}  // namespace lockgraph
