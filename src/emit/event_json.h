// The JSON contract of events and summaries, shared by the json and ndjson
// emitters. Documented field by field in docs/json-schema.md; bump
// kSchemaVersion on any incompatible change.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/report.h"

namespace lockgraph {

inline constexpr int kSchemaVersion = 1;

nlohmann::ordered_json EventToJson(const Event& event);
nlohmann::ordered_json LinesToJson(const LineCounts& lines);
nlohmann::ordered_json DiagnosticsToJson(const std::vector<Diagnostic>& diagnostics);
nlohmann::ordered_json SummaryToJson(const Summary& summary);
nlohmann::ordered_json InputsToJson(const std::vector<InputInfo>& inputs);

/// Adds the fields of the snapshot, chain, cycle, wait_started and
/// wait_ended events (snapshot_json.cc); nothing for other events.
/// `bulk`: a chain's or cycle's members and edges are left null, to be
/// written by SnapshotBulkField().
void SnapshotEventFields(const Event& event, nlohmann::ordered_json& j, bool bulk = false);

/// Writes the value of a chain's or cycle's "members" or "edges" (`key`)
/// straight to text, as EventToJson() would have it.
class JsonText;
void SnapshotBulkField(const Event& event, std::string_view key, JsonText& w);

/// The text of EventToJson(event): DumpJson(…, -1) when `indent` is -1,
/// else DumpJsonAt(…, depth), byte for byte; a chain's or cycle's members
/// and edges are written without building their JSON tree (a
/// 100,000-waiter snapshot has as many of each).
std::string EventJsonText(const Event& event, int indent, unsigned depth);

/// Serializes without ever throwing: invalid UTF-8 from a log is replaced
/// by U+FFFD, everything else is escaped by nlohmann::json.
std::string DumpJson(const nlohmann::ordered_json& j, int indent);

/// DumpJson with an indent of 2 for a value that sits `depth` spaces deep
/// in a larger document: every line after the first starts `depth` spaces
/// further in, written in the same pass (no re-indenting copy).
std::string DumpJsonAt(const nlohmann::ordered_json& j, unsigned depth);

}  // namespace lockgraph
