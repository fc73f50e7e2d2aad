// See syslog_hosts.h.
#include "parsers/postgresql/syslog_hosts.h"

#include <unordered_map>
#include <vector>

#include "parsers/flushable.h"
#include "parsers/postgresql/record_reader_parser.h"
#include "parsers/postgresql/syslog_frame.h"
#include "parsers/postgresql/syslog_reader.h"
#include "parsers/server_sink.h"

namespace lockgraph {
namespace {

/// Not thread-safe; not copyable.
class SyslogHostsParser final : public LineParser, public FlushableParser {
 public:
  SyslogHostsParser(const std::string& file, std::optional<std::string> prefix, bool redetect,
                    ParseSink& sink)
      : file_(file), prefix_(std::move(prefix)), redetect_(redetect), sink_(sink) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    // Split once, here: the host's reader takes the frame as it is.
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    SyslogFrame frame;
    const bool framed = ParseSyslogFrame(line, &frame);
    if (framed && (!last_ || frame.host != last_->host)) last_ = &HostOf(frame.host);
    if (!last_) last_ = &HostOf("");  // lines before the first framed one
    last_->parser.reader().ParseFramed(line, framed ? &frame : nullptr, line_no);
  }

  void Flush(FlushMode mode) override {  // the file went quiet between whole messages
    for (auto& host : hosts_) host->parser.Flush(mode);
  }

  void Finish() override {
    for (auto& host : hosts_) host->parser.Finish();
  }

  const LineCounts& counts() const override {
    counts_ = LineCounts();
    for (const auto& host : hosts_) counts_ += host->parser.counts();
    return counts_;
  }

 private:
  struct Host {
    Host(const std::string& file, const std::optional<std::string>& prefix, bool redetect,
         ParseSink& sink, std::string_view name)
        : host(name), named(sink, host), parser(file, host.empty() ? sink : named, prefix, redetect) {}
    std::string host;
    ServerSink named;
    RecordReaderParser<SyslogReader> parser;
  };

  Host& HostOf(std::string_view name) {
    auto it = by_name_.find(std::string(name));
    if (it != by_name_.end()) return *it->second;
    hosts_.push_back(std::make_unique<Host>(file_, prefix_, redetect_, sink_, name));
    by_name_.emplace(hosts_.back()->host, hosts_.back().get());
    return *hosts_.back();
  }

  std::string file_;
  std::optional<std::string> prefix_;
  bool redetect_;
  ParseSink& sink_;
  std::vector<std::unique_ptr<Host>> hosts_;  // in order of their first line
  std::unordered_map<std::string, Host*> by_name_;
  Host* last_ = nullptr;  // host of the last framed line: unframed lines go there
  mutable LineCounts counts_;
};

}  // namespace

std::unique_ptr<LineParser> MakeSyslogHostsParser(const std::string& file,
                                                  std::optional<std::string> prefix, bool redetect,
                                                  ParseSink& sink) {
  return std::make_unique<SyslogHostsParser>(file, std::move(prefix), redetect, sink);
}

}  // namespace lockgraph
