// See exposition.h. Format: https://prometheus.io/docs/instrumenting/exposition_formats/
#include "metrics/exposition.h"

#include <charconv>
#include <cmath>

#include "text/utf8.h"

namespace lockgraph {
namespace {

std::string Escape(std::string_view text, bool quote) {
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quote) out += "\\\"";
    else out += c;
  }
  return out;
}

// `{a="x",b="y"}`, with an extra last label (a histogram's `le`) when given.
std::string Labels(const std::vector<std::string>& names, const std::vector<std::string>& values,
                   const std::string& extra_name = "", const std::string& extra_value = "") {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (out.empty() ? "" : ",") + names[i] + "=\"" + EscapeLabelValue(values[i]) + "\"";
  if (!extra_name.empty()) out += (out.empty() ? "" : ",") + extra_name + "=\"" + extra_value + "\"";
  return out.empty() ? out : "{" + out + "}";
}

void WriteHistogram(const MetricFamily& f, const std::vector<std::string>& labels,
                    const MetricSeries& s, std::ostream& out) {
  uint64_t cumulative = 0;
  for (size_t i = 0; i < f.buckets.size(); ++i) {
    cumulative += i < s.bucket_counts.size() ? s.bucket_counts[i] : 0;
    out << f.name << "_bucket" << Labels(f.label_names, labels, "le", FormatSampleValue(f.buckets[i]))
        << ' ' << cumulative << '\n';
  }
  out << f.name << "_bucket" << Labels(f.label_names, labels, "le", "+Inf") << ' ' << s.count << '\n';
  out << f.name << "_sum" << Labels(f.label_names, labels) << ' ' << FormatSampleValue(s.sum) << '\n';
  out << f.name << "_count" << Labels(f.label_names, labels) << ' ' << s.count << '\n';
}

}  // namespace

std::string EscapeLabelValue(std::string_view value) { return Escape(value, true); }

std::string EscapeHelp(std::string_view help) { return Escape(help, false); }

std::string FormatSampleValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(value));
    return std::string(buf, r.ptr);
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, value);  // shortest round trip
  return std::string(buf, r.ptr);
}

void WriteExposition(const std::vector<MetricFamily>& families, std::ostream& out) {
  for (const MetricFamily& f : families) {
    out << "# HELP " << f.name << ' ' << EscapeHelp(f.help) << '\n';
    out << "# TYPE " << f.name << ' ' << MetricTypeName(f.type) << '\n';
    for (const auto& [labels, s] : f.series) {
      if (f.type == MetricType::kHistogram) WriteHistogram(f, labels, s, out);
      else out << f.name << Labels(f.label_names, labels) << ' ' << FormatSampleValue(s.value) << '\n';
    }
  }
}

}  // namespace lockgraph
