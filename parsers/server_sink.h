// The server an event came from, when the input says it: a framing's
// stream (a compose service, a pod, a syslog host) or a cloud export's
// instance. A ServerSink sits between one server's parser and the input's
// sink and names that server on every event (docs/postgresql.md#servers).
#pragma once

#include <string>
#include <utility>

#include "parsers/input_format.h"

namespace lockgraph {

/// Passes everything on to `sink`, naming `server` on each event that
/// names none. Not thread-safe; `sink` must outlive it.
class ServerSink : public ParseSink {
 public:
  ServerSink(ParseSink& sink, std::string server) : sink_(sink), server_(std::move(server)) {}
  void OnEvent(Event&& event) override {
    if (event.server.empty()) event.server = server_;
    sink_.OnEvent(std::move(event));
  }
  void OnUnparsed(const std::string& file, uint64_t line, std::string_view text) override {
    sink_.OnUnparsed(file, line, text);
  }
  void OnDiagnostic(Diagnostic&& diag) override { sink_.OnDiagnostic(std::move(diag)); }

 private:
  ParseSink& sink_;
  std::string server_;
};

}  // namespace lockgraph
