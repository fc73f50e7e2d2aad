// Google Cloud SQL for PostgreSQL and AlloyDB logs exported from Cloud
// Logging (reference platforms.md §1.3-1.4): NDJSON from a Log Router sink,
// or the console / `gcloud logging read --format json` download, a
// pretty-printed array, newest first. Each entry's textPayload is one
// stderr line of the server (each DETAIL, STATEMENT, ... its own entry).
#include <string>

#include <nlohmann/json.hpp>

#include "parsers/builtin_formats.h"
#include "parsers/platform/json_envelope.h"

namespace lockgraph {
namespace {

bool EndsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// A Cloud Logging entry of the server log: logName ".../postgres.log"
/// ("%2F" or "/" before it), or, without logName, the Cloud SQL / AlloyDB
/// resource type.
EntryVerdict ReadGcpEntry(const nlohmann::json& j, EnvelopeEntry* out) {
  const std::string log_name = JsonText(j, {"logName"});
  const std::string type = JsonText(j, {"resource", "type"});
  const bool postgres_log = EndsWith(log_name, "%2Fpostgres.log") || EndsWith(log_name, "/postgres.log");
  const bool postgres_resource = type == "cloudsql_database" || type == "alloydb.googleapis.com/Instance";
  if (!(postgres_log || (log_name.empty() && postgres_resource))) return EntryVerdict::kSkipped;
  auto it = j.find("textPayload");
  if (it == j.end() || !it->is_string()) return EntryVerdict::kUnparsed;
  out->payload = it->get<std::string>();
  out->time = JsonText(j, {"timestamp"});
  if (out->time.empty()) out->time = JsonText(j, {"receiveTimestamp"});
  // The instance: Cloud SQL's "project:instance", AlloyDB's cluster/instance.
  out->server = JsonText(j, {"resource", "labels", "database_id"});
  if (out->server.empty()) {
    const std::string cluster = JsonText(j, {"resource", "labels", "cluster_id"});
    const std::string instance = JsonText(j, {"resource", "labels", "instance_id"});
    out->server = cluster.empty() || instance.empty() ? cluster + instance : cluster + "/" + instance;
  }
  return EntryVerdict::kParsed;
}

class GcpLoggingFormat : public InputFormat {
 public:
  std::string Name() const override { return "gcp-logging"; }
  std::string Description() const override {
    return "Google Cloud SQL / AlloyDB PostgreSQL logs exported from Cloud Logging (NDJSON or a "
           "JSON array, any order)";
  }
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    return SniffJsonEnvelope(head, &ReadGcpEntry, options, "Cloud Logging");
  }
  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return MakeJsonEnvelopeParser(file, options, detected, &ReadGcpEntry, "Cloud Logging", sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeGcpLoggingFormat() { return std::make_unique<GcpLoggingFormat>(); }

}  // namespace lockgraph
