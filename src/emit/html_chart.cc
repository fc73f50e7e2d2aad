// See html_chart.h. Times are the parsed UTC time when the parser knew the
// zone (SQL Server, snapshots), else the wall-clock time as the server wrote
// it (LogClockMs: PostgreSQL logs), so labels carry no zone name. Only
// non-empty buckets are drawn, so that a year of logs
// with a few bursts stays small; each bar group has a <title> tooltip.
#include "emit/html_chart.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>

#include "analysis/log_time.h"
#include "emit/html_escape.h"

namespace lockgraph {
namespace {

constexpr double kWidth = 900, kHeight = 180, kPlotTop = 20, kPlotHeight = 120;

// Buckets of a second while the log spans at most 10 minutes (a test run, a
// burst), of a minute up to 6 hours, of an hour up to 60 days, of a day
// beyond: between a few and a few hundred bars in every case.
int64_t BucketSeconds(int64_t span_s) {
  if (span_s <= 600) return 1;
  if (span_s <= 6 * 3600) return 60;
  if (span_s <= 60 * 86400) return 3600;
  return 86400;
}

std::string BucketLabel(int64_t bucket_start_s, int64_t bucket_s) {
  std::time_t t = static_cast<std::time_t>(bucket_start_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  const char* format = bucket_s == 1 ? "%Y-%m-%d %H:%M:%S"
                       : bucket_s == 86400 ? "%Y-%m-%d" : "%Y-%m-%d %H:%M";
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

const char* UnitName(int64_t bucket_s) {
  return bucket_s == 1 ? "second" : bucket_s == 60 ? "minute" : bucket_s == 3600 ? "hour" : "day";
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string Bar(double x, double w, uint64_t count, uint64_t max, const char* cls) {
  if (count == 0) return {};
  double h = kPlotHeight * double(count) / double(max);
  return "<rect class=\"" + std::string(cls) + "\" x=\"" + Num(x) + "\" y=\"" +
         Num(kPlotTop + kPlotHeight - h) + "\" width=\"" + Num(w) + "\" height=\"" + Num(h) +
         "\"/>";
}

}  // namespace

void TimeChart::Add(const Event& ev) {
  if (!(ev.deadlock || ev.lock_wait)) return;
  std::optional<int64_t> ms = ev.epoch_ms;
  if (!ms) ms = LogClockMs(ev.lock_wait ? ev.lock_wait->start_time : ev.time);
  if (!ms || *ms < 0) return;
  Counts& c = by_second_[*ms / 1000];
  (ev.deadlock ? c.deadlocks : c.waits)++;
}

std::string TimeChart::Svg() const {
  const std::map<int64_t, Counts>& by_second = by_second_;
  if (by_second.empty())
    return "<p class=\"muted\">No chart: no deadlock or lock wait has a time lockgraph can read.</p>";
  int64_t first = by_second.begin()->first, last = by_second.rbegin()->first;
  int64_t bucket_s = BucketSeconds(last - first);
  int64_t first_b = first / bucket_s, last_b = last / bucket_s;
  std::map<int64_t, Counts> buckets;
  uint64_t max = 1;
  for (const auto& [s, c] : by_second) {
    Counts& b = buckets[s / bucket_s];
    b.deadlocks += c.deadlocks;
    b.waits += c.waits;
    max = std::max({max, b.deadlocks, b.waits});
  }
  double slot = kWidth / double(last_b - first_b + 1);
  std::string svg = "<svg class=\"chart\" viewBox=\"0 0 " + Num(kWidth) + " " + Num(kHeight) +
                    "\" role=\"img\" aria-label=\"deadlocks and lock waits per " +
                    UnitName(bucket_s) + "\">";
  svg += "<line class=\"axis\" x1=\"0\" y1=\"" + Num(kPlotTop + kPlotHeight) + "\" x2=\"" +
         Num(kWidth) + "\" y2=\"" + Num(kPlotTop + kPlotHeight) + "\"/>";
  for (const auto& [b, c] : buckets) {
    double x = double(b - first_b) * slot;
    std::string label = BucketLabel(b * bucket_s, bucket_s);
    svg += "<g><title>" + HtmlText(label) + ": " + std::to_string(c.deadlocks) +
           " deadlocks, " + std::to_string(c.waits) + " lock waits</title>";
    svg += Bar(x, slot / 2, c.deadlocks, max, "bar-deadlock");
    svg += Bar(x + slot / 2, slot / 2, c.waits, max, "bar-wait");
    svg += "</g>";
  }
  double text_y = kPlotTop + kPlotHeight + 18;
  svg += "<text x=\"0\" y=\"" + Num(text_y) + "\">" + BucketLabel(first_b * bucket_s, bucket_s) +
         "</text>";
  svg += "<text x=\"" + Num(kWidth) + "\" y=\"" + Num(text_y) + "\" text-anchor=\"end\">" +
         BucketLabel(last_b * bucket_s, bucket_s) + "</text>";
  svg += "<text x=\"0\" y=\"12\">max " + std::to_string(max) + " per " + UnitName(bucket_s) +
         "</text></svg>";
  return svg;
}

}  // namespace lockgraph
