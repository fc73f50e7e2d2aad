// See registry.h.
#include "metrics/registry.h"

#include <algorithm>
#include <cmath>

namespace lockgraph {

const char* MetricTypeName(MetricType t) {
  switch (t) {
    case MetricType::kCounter: return "counter";
    case MetricType::kGauge: return "gauge";
    case MetricType::kHistogram: return "histogram";
  }
  return "untyped";
}

namespace {

bool NameChar(char c, bool first, bool colon) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return true;
  if (colon && c == ':') return true;
  return !first && c >= '0' && c <= '9';
}

bool ValidName(const std::string& name, bool colon) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (!NameChar(name[i], i == 0, colon)) return false;
  return true;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

bool IsValidMetricName(const std::string& name) { return ValidName(name, true); }

bool IsValidLabelName(const std::string& name) {
  return ValidName(name, false) && name.rfind("__", 0) != 0;
}

bool MetricRegistry::Declare(const std::string& name, MetricType type, const std::string& help,
                             std::vector<std::string> label_names, std::vector<double> buckets) {
  if (!IsValidMetricName(name)) return false;
  if (type == MetricType::kCounter && !EndsWith(name, "_total")) return false;
  for (const std::string& l : label_names)
    if (!IsValidLabelName(l) || (type == MetricType::kHistogram && l == "le")) return false;
  if (type == MetricType::kHistogram) {
    if (buckets.empty() || !std::is_sorted(buckets.begin(), buckets.end()) ||
        std::adjacent_find(buckets.begin(), buckets.end()) != buckets.end() ||
        !std::all_of(buckets.begin(), buckets.end(), [](double b) { return std::isfinite(b); }))
      return false;
  } else if (!buckets.empty()) {
    return false;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (const MetricFamily& f : families_)
    if (f.name == name) return false;
  MetricFamily f;
  f.name = name;
  f.help = help;
  f.type = type;
  f.label_names = std::move(label_names);
  f.buckets = std::move(buckets);
  families_.push_back(std::move(f));
  return true;
}

// Called with mutex_ held.
MetricFamily* MetricRegistry::Find(const std::string& name, MetricType type, size_t labels) {
  for (MetricFamily& f : families_)
    if (f.name == name) return f.type == type && f.label_names.size() == labels ? &f : nullptr;
  return nullptr;
}

void MetricRegistry::Add(const std::string& name, const std::vector<std::string>& labels,
                         double delta) {
  if (!(delta >= 0)) return;  // counters only go up (NaN is refused too)
  std::lock_guard<std::mutex> lock(mutex_);
  if (MetricFamily* f = Find(name, MetricType::kCounter, labels.size())) f->series[labels].value += delta;
}

void MetricRegistry::Set(const std::string& name, const std::vector<std::string>& labels,
                         double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (MetricFamily* f = Find(name, MetricType::kGauge, labels.size())) f->series[labels].value = value;
}

void MetricRegistry::SetAll(const std::vector<GaugeValue>& values) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const GaugeValue& v : values)
    if (MetricFamily* f = Find(v.name, MetricType::kGauge, v.labels.size())) f->series[v.labels].value = v.value;
}

void MetricRegistry::Observe(const std::string& name, const std::vector<std::string>& labels,
                             double value) {
  if (std::isnan(value)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  MetricFamily* f = Find(name, MetricType::kHistogram, labels.size());
  if (!f) return;
  MetricSeries& s = f->series[labels];
  s.bucket_counts.resize(f->buckets.size());
  // The first bucket whose upper bound holds the value; above all: +Inf only.
  auto it = std::lower_bound(f->buckets.begin(), f->buckets.end(), value);
  if (it != f->buckets.end()) ++s.bucket_counts[size_t(it - f->buckets.begin())];
  s.sum += value;
  ++s.count;
}

void MetricRegistry::Remove(const std::string& name, const std::vector<std::string>& labels) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (MetricFamily& f : families_)
    if (f.name == name) f.series.erase(labels);
}

std::vector<MetricFamily> MetricRegistry::Families() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return families_;
}

}  // namespace lockgraph
