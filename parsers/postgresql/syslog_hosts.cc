// See syslog_hosts.h.
#include "parsers/postgresql/syslog_hosts.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <vector>

#include "parsers/block_parser.h"
#include "parsers/flushable.h"
#include "parsers/postgresql/part_findings.h"
#include "parsers/postgresql/record_reader_parser.h"
#include "parsers/postgresql/syslog_blocks.h"
#include "parsers/postgresql/syslog_frame.h"
#include "parsers/postgresql/syslog_reader.h"
#include "parsers/server_sink.h"

namespace lockgraph {
namespace {

/// Not thread-safe; not copyable. A file's blocks are read on several
/// threads while it has one host (syslog_blocks.h).
class SyslogHostsParser final : public LineParser, public FlushableParser, public BlockParser {
 public:
  SyslogHostsParser(const std::string& file, std::optional<std::string> prefix, bool redetect,
                    ParseSink& sink)
      : file_(file), prefix_(std::move(prefix)), redetect_(redetect), sink_(sink) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    // Split once, here: the host's reader takes the frame as it is.
    SyslogFrame frame;
    const bool framed = SplitSyslogLine(&line, &frame);
    if (framed && (!last_ || frame.host != last_->host)) last_ = &HostOf(frame.host);
    if (!last_) last_ = &HostOf("");  // lines before the first framed one
    last_->parser.reader().ParseFramed(line, framed ? &frame : nullptr, line_no);
  }

  // BlockParser: the blocks of a file, from --threads 2 on, on threads - 1
  // threads but at least 2 (the rules, light for syslog, share the cores);
  // else line by line. On the 1 GiB file on two cores: one thread 3.1 s,
  // two threads one parsing 2.7 s, two parsing 2.3 s.
  void UseThreads(unsigned threads) override {
    if (threads >= 2) blocks_ = std::make_unique<SyslogBlocks>(file_, std::max(2u, threads - 1));
  }
  size_t BlockBytes() const override {
    return blocks_ ? std::min(kPartBytes * blocks_->threads(), kMaxBlockBytes) : size_t{128} << 10;
  }
  bool ParsesOnThreads() const override { return false; }
  size_t ParseBlock(std::string_view lines, bool /*at_end*/) override {
    const SyslogBlocks::ReadLine read_line = [this](std::string_view line, uint64_t line_no) {
      ParseLine(line, line_no);
    };
    if (blocks_ && hosts_.size() == 1) {
      Host& host = *hosts_.front();
      blocks_->ParseBlock(lines, host.parser.reader(), host.host, read_line,
                          [this] { return hosts_.size() == 1; }, &next_line_);
    } else {
      EachLineOf(lines, [&](std::string_view line) {
        ParseLine(line, ++next_line_);
        return true;
      });
    }
    return lines.size();
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

  // A part of 2 MiB per parsing thread, blocks of at most 8 MiB (the
  // reader holds two, and a third read ahead); 128 KiB on one thread (as
  // stderr_format.cc, for the cache: 3.29 s to 3.17 s at 1 GiB). A part
  // is taken over only after about a thousand lines (syslog_blocks.h): on
  // the 1 GiB file with three threads, parts of 512 KiB took 4.3 s, of
  // 1 MiB 2.8 s, of 2 MiB 2.3 s (one thread: 3.0 s). Blocks of 8 MiB:
  // 78 MB of peak RSS with five threads.
  static constexpr size_t kPartBytes = 2 << 20;
  static constexpr size_t kMaxBlockBytes = 8 << 20;

  std::string file_;
  std::optional<std::string> prefix_;
  bool redetect_;
  ParseSink& sink_;
  std::vector<std::unique_ptr<Host>> hosts_;  // in order of their first line
  std::unordered_map<std::string, Host*> by_name_;
  Host* last_ = nullptr;  // host of the last framed line: unframed lines go there
  std::unique_ptr<SyslogBlocks> blocks_;  // --threads 2 and more
  uint64_t next_line_ = 0;                // lines read by blocks
  mutable LineCounts counts_;
};

}  // namespace

std::unique_ptr<LineParser> MakeSyslogHostsParser(const std::string& file,
                                                  std::optional<std::string> prefix, bool redetect,
                                                  ParseSink& sink) {
  return std::make_unique<SyslogHostsParser>(file, std::move(prefix), redetect, sink);
}

}  // namespace lockgraph
