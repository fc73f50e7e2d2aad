// The Prometheus text exposition format, version 0.0.4: HELP and TYPE lines,
// then one line per series, label values escaped, histograms as cumulative
// `_bucket{le=...}` lines with `_sum` and `_count`. docs/metrics.md.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/registry.h"

namespace lockgraph {

/// The Content-Type of the format.
inline constexpr const char* kExpositionContentType = "text/plain; version=0.0.4; charset=utf-8";

/// Writes every family in order, series sorted by label values. A family
/// without series is written with its HELP and TYPE lines only.
/// Deterministic: the same families always give the same bytes.
void WriteExposition(const std::vector<MetricFamily>& families, std::ostream& out);

/// A label value as the format quotes it: invalid UTF-8 replaced by U+FFFD,
/// then `\` as `\\`, `"` as `\"`, a line feed as `\n`.
std::string EscapeLabelValue(std::string_view value);
/// HELP text: invalid UTF-8 replaced, `\` as `\\`, a line feed as `\n`.
std::string EscapeHelp(std::string_view help);
/// A sample value: integers without a fraction ("3"), others in the
/// shortest form that reads back the same ("0.25"), "+Inf", "-Inf", "NaN".
std::string FormatSampleValue(double value);

}  // namespace lockgraph
