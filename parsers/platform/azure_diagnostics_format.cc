// Azure Database for PostgreSQL logs from diagnostic settings (reference
// platforms.md §1.5): Event Hub batches {"records": [...]} (one line or
// pretty-printed) and storage-account PT1H.json (one record per line).
// properties.message is the server's stderr line with its prefix (Flexible
// Server; Single Server gave properties.prefix and errorLevel apart), and
// properties.detail its DETAIL, which becomes a DETAIL line again here.
#include <string>

#include <nlohmann/json.hpp>

#include "parsers/builtin_formats.h"
#include "parsers/platform/json_envelope.h"
#include "parsers/platform/stderr_payload.h"

namespace lockgraph {
namespace {

EntryVerdict ReadAzureRecord(const nlohmann::json& j, EnvelopeEntry* out) {
  const std::string category = JsonText(j, {"category"});
  if (category != "PostgreSQLLogs") return EntryVerdict::kSkipped;
  std::string message = JsonText(j, {"properties", "message"});
  if (message.empty()) return EntryVerdict::kUnparsed;
  const std::string prefix = JsonText(j, {"properties", "prefix"});
  const std::string level = JsonText(j, {"properties", "errorLevel"});
  if (!prefix.empty() && !level.empty()) message = prefix + level + ":  " + message;
  out->payload = WithDetailLine(std::move(message), JsonText(j, {"properties", "detail"}));
  out->time = JsonText(j, {"properties", "timestamp"});
  if (out->time.empty()) out->time = JsonText(j, {"time"});
  // ".../PROVIDERS/MICROSOFT.DBFORPOSTGRESQL/FLEXIBLESERVERS/LG-SERVER": the
  // server is the last segment, as Azure writes it (upper case).
  const std::string resource = JsonText(j, {"resourceId"});
  out->server = resource.substr(resource.rfind('/') + 1);
  return EntryVerdict::kParsed;
}

class AzureDiagnosticsFormat : public InputFormat {
 public:
  std::string Name() const override { return "azure-diagnostics"; }
  std::string Description() const override {
    return "Azure Database for PostgreSQL diagnostic-settings JSON ({\"records\":[...]} or "
           "PT1H.json)";
  }
  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    return SniffJsonEnvelope(head, &ReadAzureRecord, options, "Azure diagnostics");
  }
  std::unique_ptr<LineParser> CreateParser(const std::string& file, const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    return MakeJsonEnvelopeParser(file, options, detected, &ReadAzureRecord, "Azure diagnostics",
                                  sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakeAzureDiagnosticsFormat() {
  return std::make_unique<AzureDiagnosticsFormat>();
}

}  // namespace lockgraph
