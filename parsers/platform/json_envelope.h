// The parser shared by the JSON cloud exports (Cloud Logging, Azure
// diagnostic settings): JsonEntrySplitter finds the entries, a format's
// EntryReader takes the server text out of each, EntryOrderer puts them in
// server order, StderrPayload turns them into records and events.
// See docs/postgresql.md#cloud-exports.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "parsers/input_format.h"
#include "parsers/platform/json_entries.h"

namespace lockgraph {

/// What a format takes out of one parsed entry.
struct EnvelopeEntry {
  std::string time;     // the entry's timestamp as written (for ordering)
  std::string payload;  // stderr-format server text, lines joined by '\n'
  /// The instance that wrote it, as the export names it ("project:instance");
  /// empty when the entry does not say. Entries of each server are read
  /// apart, and their events name it (docs/postgresql.md#servers).
  std::string server;
};

/// Reads one JSON entry: kParsed with *entry filled for a PostgreSQL log
/// entry, kSkipped for an entry of another service or log, kUnparsed for a
/// PostgreSQL entry without server text. Must not throw.
using EntryReader = std::function<EntryVerdict(const nlohmann::json& entry, EnvelopeEntry* out)>;

/// Sniffs `head` as a JSON export read by `reader`: a match when entries
/// are PostgreSQL log entries and their text has a log_line_prefix;
/// `detected` is that prefix. `what` names the format in reasons.
SniffResult SniffJsonEnvelope(const std::vector<std::string>& head, const EntryReader& reader,
                              const ParseOptions& options, const std::string& what);

/// A LineParser over a JSON export; `prefix` from SniffJsonEnvelope().
std::unique_ptr<LineParser> MakeJsonEnvelopeParser(const std::string& file,
                                                   const ParseOptions& options,
                                                   const std::string& prefix,
                                                   EntryReader reader, std::string what,
                                                   ParseSink& sink);

/// The string at `key` of object `j` (nested keys: {"properties",
/// "message"}), or "" when absent or not a string.
std::string JsonText(const nlohmann::json& j, std::initializer_list<const char*> keys);

}  // namespace lockgraph
