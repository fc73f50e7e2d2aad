// --format html (and `lockgraph report`): one self-contained page. Inline
// CSS, a few lines of inline JS and inline SVG only; a Content-Security-Policy
// forbids every network access, so the page opens from a CI artifact or an
// e-mail. Deadlocks appear by group, collapsed (<details>), each with one
// drawn example; past kGroupsDrawn groups the graphs are not drawn, so that
// 10,000 distinct deadlocks stay a page a browser can open (docs/report.md).
// Deterministic: no generation time, groups and rows in a stable order.
#include <iostream>
#include <string_view>

#include "emit/cause_text.h"
#include "emit/emitter.h"
#include "emit/html_escape.h"
#include "emit/html_events.h"
#include "emit/html_group.h"
#include "emit/html_snapshots.h"
#include "emit/html_summary.h"
#include "emit/html_svg.h"
#include "emit/html_waits.h"

namespace lockgraph {
namespace {

constexpr size_t kGroupsDrawn = 200;
constexpr size_t kGroupsInSummary = 10;
constexpr size_t kWaitsListed = 50;
constexpr size_t kOccurrencesListed = 20;  // per group; the others are counted

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 40px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:18px 0 4px}h2{border-bottom:1px solid #d6dae3;padding-bottom:4px;margin-top:28px}
code,pre{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",Menlo,monospace}pre{white-space:pre-wrap;word-break:break-word;margin:0}
.muted{color:#667085}.cards{display:flex;flex-wrap:wrap;gap:10px}.card{border:1px solid #d6dae3;border-radius:6px;padding:8px 14px;background:#f7f8fb}
.card .n{font-size:24px;font-weight:600;margin-right:4px}
.chart{width:100%;height:auto;max-height:220px;background:#fbfcfe;border:1px solid #e4e7ee}
.chart text{font-size:11px;fill:#667085}.chart .axis{stroke:#98a2b3}.bar-deadlock{fill:#d92d20}.bar-wait{fill:#2e90fa}
.legend .key{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px}.key.bar-deadlock{background:#d92d20}.key.bar-wait{background:#2e90fa}
table{border-collapse:collapse;margin:6px 0 12px;width:100%}th,td{border:1px solid #e4e7ee;padding:4px 6px;text-align:left;vertical-align:top}th{background:#f2f4f7}td.chain{white-space:nowrap}
details.group{border:1px solid #d6dae3;border-radius:6px;margin:6px 0;background:#fff}
details.group>summary{cursor:pointer;padding:8px 10px;background:#f7f8fb;border-radius:6px}
details.group[open]>summary{border-bottom:1px solid #d6dae3;border-radius:6px 6px 0 0}
details .body{padding:4px 14px 10px}.count{font-weight:700;color:#b42318}
.badge{display:inline-block;border-radius:10px;background:#fee4e2;color:#912018;padding:0 7px;font-size:12px}
.tag{background:#d92d20;color:#fff;border-radius:4px;padding:0 5px;font-size:11px}tr.victim td{background:#fff6f5}
.drawn{overflow-x:auto;margin:8px 0;cursor:zoom-in}.drawn svg{max-width:100%;height:auto}.drawn.full{cursor:zoom-out}.drawn.full svg{max-width:none}
ul.findings{padding-left:18px}.findings li{margin:4px 0}.sev{font-size:12px;border-radius:4px;padding:0 5px;color:#fff;background:#667085}
.warn{color:#b42318;font-weight:600}.sev-error .sev{background:#d92d20}.sev-warning .sev{background:#dc6803}.sev-note .sev{background:#2e90fa}
.hint{background:#f0f9ff;border-left:3px solid #2e90fa;padding:3px 8px;margin:3px 0}.problem{color:#b42318}
details.rulepage{margin:4px 0}details.rulepage pre{background:#f7f8fb;padding:8px;border:1px solid #e4e7ee}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{color:#667085}dd{margin:0}
.tools button{margin-right:6px}
)";

// Opens the <details> a link points into (a rule page, a group); the
// expand/collapse buttons (absent when there is no deadlock); a click on a graph shows it at full size instead
// of fitted to the page width (div.drawn: Graphviz's own <g> elements have
// class "graph"). No network, no eval.
constexpr const char* kScript = R"(
(function(){
function openTarget(){var id=decodeURIComponent(location.hash.slice(1));if(!id)return;
var el=document.getElementById(id);while(el){if(el.tagName==='DETAILS')el.open=true;el=el.parentElement;}}
window.addEventListener('hashchange',openTarget);openTarget();
function setAll(open){document.querySelectorAll('details.group').forEach(function(d){d.open=open;});}
function onClick(id,f){var b=document.getElementById(id);if(b)b.addEventListener('click',f);}
onClick('expand-all',function(){setAll(true);});onClick('collapse-all',function(){setAll(false);});
document.addEventListener('click',function(e){var g=e.target.closest&&e.target.closest('div.drawn');if(g)g.classList.toggle('full');});
})();
)";

class HtmlEmitter : public Emitter {
 public:
  std::string Name() const override { return "html"; }
  std::string Description() const override {
    return "one self-contained HTML page with drawn graphs (see `lockgraph report`)";
  }
  // Under `analyze` and `report`, HtmlEvents takes what the page shows of
  // each event as it is made; no Report::events are kept.
  bool KeepsOwnEvents() const override { return true; }
  void OnInputStart(size_t input) override { input_ = uint32_t(input); }
  void OnEvent(const Event& ev, std::ostream&) override {
    events_.Add(ev, {input_, ev.source.first_line, seq_++}, true);
  }

  void Write(const Report& report, std::ostream& out) override {
    // Events come from OnEvent (`analyze`), else from the report (callers
    // that collect events, named already): never both.
    if (seq_ == 0)
      for (const Event& ev : report.events) events_.Add(ev, {0, seq_, seq_}, false), ++seq_;
    events_.Finish(report);
    WriteHead(out);
    WriteSummaryHtml(report, events_, kGroupsInSummary, out);
    WriteGroups(report, out);
    if (events_.has_snapshots()) {
      SvgRenderer svg;
      SnapshotsHtml section(svg, kGroupsDrawn, out);
      bool intact = true;
      auto write = [&](std::string_view piece) { intact &= section.Write(piece); };
      if (!events_.snapshot_pieces().ForEachSorted(write))
        std::cerr << "lockgraph: cannot read back the snapshots kept in a temporary file\n";
      if (!intact) std::cerr << "lockgraph: internal error: a snapshot could not be written whole\n";
    }
    out << "<section id=\"waits\">\n<h2>Lock waits</h2>\n";
    WriteLockWaitsHtml(events_.Waits(), events_.lock_waits(), out);
    out << "</section>\n";
    WriteRulePagesHtml(FiredRules(report, events_), out);
    out << "<footer class=\"muted\"><p>lockgraph " << LOCKGRAPH_VERSION
        << "</p></footer>\n<script>" << kScript << "</script>\n</body>\n</html>\n";
  }

 private:
  HtmlEvents events_{kOccurrencesListed, kWaitsListed};
  uint32_t input_ = 0;
  uint64_t seq_ = 0;

  static void WriteHead(std::ostream& out) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>lockgraph report</title>\n<style>"
        << kStyle << "</style>\n</head>\n<body>\n<h1>lockgraph report</h1>\n";
  }

  // The causes, then every group cause by cause (largest first inside),
  // with its deadlocks in log order, numbered as in the text output.
  void WriteGroups(const Report& report, std::ostream& out) const {
    out << "<section id=\"deadlocks\">\n<h2>Deadlock groups</h2>\n";
    if (report.groups.empty()) out << "<p class=\"muted\">No deadlocks.</p>\n";
    else
      out << "<p class=\"tools\"><button type=\"button\" id=\"expand-all\">expand all</button>"
             "<button type=\"button\" id=\"collapse-all\">collapse all</button> "
          << report.groups.size() << (report.groups.size() == 1 ? " group" : " groups")
          << " of deadlocks with the same signature, largest first; the graphs of the first "
          << kGroupsDrawn << " are drawn.</p>\n";
    // Causes first, then their groups cause by cause.
    const std::vector<DeadlockGroup> groups = GroupsByCause(report);
    WriteCausesHtml(report.causes, groups, out);
    SvgRenderer svg;
    int group_no = 0;
    for (const DeadlockGroup& g : groups) {
      ++group_no;
      WriteGroupHtml(g, group_no, events_.Occurrences(g.signature),
                     size_t(group_no) <= kGroupsDrawn ? &svg : nullptr, out);
    }
    out << "</section>\n";
  }
};

}  // namespace

std::unique_ptr<Emitter> MakeHtmlEmitter() { return std::make_unique<HtmlEmitter>(); }

}  // namespace lockgraph
