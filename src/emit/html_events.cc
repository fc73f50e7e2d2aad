// See html_events.h.
#include "emit/html_events.h"

#include <algorithm>

#include "analysis/late_relation_names.h"
#include "emit/deadlock_text.h"
#include "emit/html_escape.h"
#include "emit/html_findings.h"
#include "emit/html_snapshots.h"
#include "emit/time_text.h"

namespace lockgraph {

struct HtmlEvents::Kept {
  LogPlace place;
  bool late_names = false;
  Event event;
};

struct HtmlEvents::Group {
  size_t count = 0;
  std::vector<std::pair<LogPlace, GroupOccurrences::Row>> rows;  // the first, in log order
  std::unique_ptr<Kept> example;
};

namespace {

// The order the lock-wait table shows: the longest chain first, then the
// longest wait, then log order.
bool ShownBefore(const Event& a, const LogPlace& pa, const Event& b, const LogPlace& pb) {
  const LockWait& x = *a.lock_wait;
  const LockWait& y = *b.lock_wait;
  if (x.chain.size() != y.chain.size()) return x.chain.size() > y.chain.size();
  const double wx = x.waited_ms.value_or(-1), wy = y.waited_ms.value_or(-1);
  if (wx != wy) return wx > wy;
  return pa < pb;
}

}  // namespace

HtmlEvents::HtmlEvents(size_t rows_listed, size_t waits_listed)
    : rows_listed_(rows_listed), waits_listed_(waits_listed) {}

HtmlEvents::~HtmlEvents() = default;

void HtmlEvents::Add(const Event& ev, const LogPlace& place, bool late_names) {
  chart_.Add(ev);
  for (size_t i = 0; i < ev.findings.size(); ++i) {
    const Finding& f = ev.findings[i];
    RuleState& r = rules_[f.rule_id];
    ++r.count.findings;
    if (r.count.findings == 1 || r.last < std::pair(place, i)) {
      r.count.id = f.rule_id;
      r.count.name = f.rule_name;
      r.count.severity = f.severity;
      r.last = {place, i};
    }
  }
  if (ev.deadlock) AddDeadlock(ev, place, late_names);
  if (ev.lock_wait) AddWait(ev, place, late_names);
  if (ev.snapshot) has_snapshots_ = true;
  std::string piece = SnapshotHtmlPiece(ev);
  if (!piece.empty()) snapshot_pieces_.Add(place.input, place.first_line, piece);
}

void HtmlEvents::AddDeadlock(const Event& ev, const LogPlace& place, bool late_names) {
  deadlock_places_.push_back(place);
  std::unique_ptr<Group>& g = groups_[ev.signature];
  if (!g) g = std::make_unique<Group>();
  ++g->count;
  auto& rows = g->rows;
  if (rows.size() < rows_listed_ || place < rows.back().first) {
    GroupOccurrences::Row row{0, HtmlText(DisplayTime(ev)), WhereHtml(ev),
                              HtmlText(VictimsText(*ev.deadlock))};
    auto at = std::upper_bound(rows.begin(), rows.end(), place,
                               [](const LogPlace& p, const auto& r) { return p < r.first; });
    rows.insert(at, {place, std::move(row)});
    if (rows.size() > rows_listed_) rows.pop_back();
  }
  if (!g->example || place < g->example->place)
    g->example.reset(new Kept{place, late_names, ev});
}

void HtmlEvents::AddWait(const Event& ev, const LogPlace& place, bool late_names) {
  wait_places_.push_back(place);
  auto before = [](const std::unique_ptr<Kept>& a, const std::pair<const Event*, LogPlace>& b) {
    return ShownBefore(a->event, a->place, *b.first, b.second);
  };
  const std::pair<const Event*, LogPlace> key{&ev, place};
  auto at = std::lower_bound(waits_.begin(), waits_.end(), key, before);
  if (size_t(at - waits_.begin()) >= waits_listed_) return;
  waits_.insert(at, std::unique_ptr<Kept>(new Kept{place, late_names, ev}));
  if (waits_.size() > waits_listed_) waits_.pop_back();
}

void HtmlEvents::Finish(const Report& report) {
  std::sort(deadlock_places_.begin(), deadlock_places_.end());
  std::sort(wait_places_.begin(), wait_places_.end());
  const LateRelationNames names(report);
  auto name = [&](Kept& k) {
    if (k.late_names) names.Resolve(&k.event, k.place.input);
    k.late_names = false;
  };
  for (auto& [signature, g] : groups_)
    if (g->example) name(*g->example);
  for (auto& w : waits_) name(*w);
}

int HtmlEvents::Number(const std::vector<LogPlace>& places, const LogPlace& place) const {
  return int(std::lower_bound(places.begin(), places.end(), place) - places.begin()) + 1;
}

std::vector<RuleCount> HtmlEvents::Rules(const std::vector<Finding>& run_findings) const {
  std::map<std::string, RuleCount> by_id;
  for (const auto& [id, r] : rules_) by_id[id] = r.count;
  for (const Finding& f : run_findings) {
    RuleCount& c = by_id[f.rule_id];
    c.id = f.rule_id;
    c.name = f.rule_name;
    c.severity = f.severity;
    ++c.findings;
  }
  std::vector<RuleCount> out;
  for (auto& [id, c] : by_id) out.push_back(c);
  std::stable_sort(out.begin(), out.end(),
                   [](const RuleCount& a, const RuleCount& b) { return a.findings > b.findings; });
  return out;
}

GroupOccurrences HtmlEvents::Occurrences(const std::string& signature) const {
  GroupOccurrences occ;
  auto it = groups_.find(signature);
  if (it == groups_.end()) return occ;
  const Group& g = *it->second;
  occ.count = g.count;
  for (const auto& [place, row] : g.rows) {
    occ.rows.push_back(row);
    occ.rows.back().deadlock_no = Number(deadlock_places_, place);
  }
  if (g.example) occ.example = &g.example->event;
  return occ;
}

std::vector<WaitRow> HtmlEvents::Waits() const {
  std::vector<WaitRow> rows;
  for (const auto& w : waits_) rows.push_back({Number(wait_places_, w->place), &w->event});
  return rows;
}

}  // namespace lockgraph
