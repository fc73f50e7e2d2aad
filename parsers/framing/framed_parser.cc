// See framed_parser.h. Algorithm and the list of framings:
// docs/postgresql.md#framings.
#include "parsers/framing/framed_parser.h"

#include <map>
#include <unordered_map>

#include "io/log_series.h"
#include "parsers/flushable.h"
#include "parsers/server_sink.h"

namespace lockgraph {
namespace {

constexpr size_t kHoldLines = 200;  // inner lines held to decide a stream

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

/// A line without a frame that continues the framed line before it: TAB or
/// space indented (CloudWatch keeps no frame on them), or empty.
bool IsContinuation(std::string_view line) {
  return line.empty() || line == "\r" || line[0] == '\t' || line[0] == ' ';
}

bool HasPrefixOption(const InputFormat& format) {
  return format.Name() == "stderr" || format.Name() == "syslog";
}

/// The head split by one framing: framed lines, and each stream's inner lines.
struct HeadSplit {
  int lines = 0;   // non-blank lines that are not continuations
  int framed = 0;  // of those, lines with the frame
  std::map<std::string, std::vector<std::string>> streams;
};

HeadSplit SplitHead(const Framing& framing, const std::vector<std::string>& head) {
  HeadSplit split;
  std::unique_ptr<FrameStripper> stripper = framing.NewStripper(head);
  std::vector<std::string>* last = nullptr;
  StrippedLine s;
  for (const std::string& line : head) {
    stripper->Strip(line, &s);
    if (s.kind == StrippedLine::Kind::kLine) {
      ++split.lines;
      ++split.framed;
      last = &split.streams[std::string(s.stream)];
      last->emplace_back(s.inner);
    } else if (s.kind == StrippedLine::Kind::kSkip) {
      ++split.lines;
      ++split.framed;
      last = nullptr;
    } else if (last && IsContinuation(line)) {
      last->push_back(line);
    } else {
      if (!IsBlank(line)) ++split.lines;
      last = nullptr;
    }
  }
  return split;
}

/// Sniffs one stream's inner lines; for stderr, the framing's known
/// prefixes first (a majority of the prefixed lines must fit one).
SniffResult SniffStream(const Framing& framing, const InputFormat& format,
                        const std::vector<std::string>& lines, const ParseOptions& options) {
  if (format.Name() == "stderr" && !options.has_prefix) {
    int prefixed = 0;
    for (const std::string& line : lines) prefixed += !IsContinuation(line);
    for (const std::string& prefix : framing.InnerPrefixes()) {
      ParseOptions forced{prefix, true};
      SniffResult r = format.Sniff(lines, forced);
      if (r.verdict == SniffResult::Verdict::kMatch && r.score * 2 > prefixed) return r;
    }
  }
  return format.Sniff(lines, options);
}

}  // namespace

FramingChoice ChooseFraming(const std::vector<std::unique_ptr<Framing>>& framings,
                            const std::vector<const InputFormat*>& inner_formats,
                            const std::vector<std::string>& head,
                            const ParseOptions& options) {
  FramingChoice best;
  int best_inner = 0;
  for (const auto& framing : framings) {
    HeadSplit split = SplitHead(*framing, head);
    if (split.framed == 0 || split.framed * 2 <= split.lines) {
      best.reason += "\n  framing " + framing->Name() + ": " + std::to_string(split.framed) +
                     " of " + std::to_string(split.lines) + " lines carry its frame";
      continue;
    }
    const InputFormat* inner = nullptr;
    std::string detected;
    int inner_total = 0;
    for (const InputFormat* format : inner_formats) {
      int total = 0, top = 0;
      std::string top_detected;
      for (const auto& [name, lines] : split.streams) {
        SniffResult r = SniffStream(*framing, *format, lines, options);
        if (r.verdict != SniffResult::Verdict::kMatch) continue;
        if (framing->Weak() && format->Name() == "stderr" && r.detected == "%*") continue;
        total += r.score;
        if (r.score > top) {
          top = r.score;
          top_detected = r.detected;
        }
      }
      if (total > inner_total) {
        inner = format;
        inner_total = total;
        detected = top_detected;
      }
    }
    if (!inner) {
      best.reason += "\n  framing " + framing->Name() + ": " + std::to_string(split.framed) +
                     " of " + std::to_string(split.lines) +
                     " lines carry its frame, but no stream inside is a PostgreSQL log";
      continue;
    }
    if (split.framed > best.score || (split.framed == best.score && inner_total > best_inner)) {
      best.framing = framing.get();
      best.inner = inner;
      best.detected = detected;
      best.score = split.framed;
      best_inner = inner_total;
    }
  }
  return best;
}

namespace {

class FramedParser : public LineParser, public FlushableParser {
 public:
  FramedParser(const Framing& framing, const InputFormat& inner, std::string detected,
               std::string file, ParseOptions options, const std::vector<std::string>& head,
               ParseSink& sink)
      : inner_(inner),
        detected_(std::move(detected)),
        file_(std::move(file)),
        options_(std::move(options)),
        sink_(sink),
        stripper_(framing.NewStripper(head)),
        streams_kind_(framing.Streams()) {
    sniff_options_ = options_;
    if (HasPrefixOption(inner_) && !options_.has_prefix && !detected_.empty())
      sniff_options_ = ParseOptions{detected_, true};
  }

  void ParseLine(std::string_view line, uint64_t line_no) override {
    ++total_;
    stripper_->Strip(line, &stripped_);
    switch (stripped_.kind) {
      case StrippedLine::Kind::kLine:
        last_ = &StreamFor(stripped_.stream);
        Feed(*last_, stripped_.inner, line_no, FrameFields{stripped_.pid, stripped_.time});
        return;
      case StrippedLine::Kind::kSkip:
        ++skipped_[std::string(stripped_.reason)];
        last_ = nullptr;
        return;
      case StrippedLine::Kind::kNoFrame:
        if (last_ && IsContinuation(line)) {
          Feed(*last_, line, line_no, FrameFields{});
          return;
        }
        ++unparsed_;
        last_ = nullptr;
        sink_.OnUnparsed(file_, line_no, line);
        return;
    }
  }

  void Flush(FlushMode mode) override {  // undecided streams hold their lines until decided
    for (auto& stream : streams_)
      if (stream->parser) FlushParser(*stream->parser, mode);
  }

  void Finish() override {
    for (auto& stream : streams_)
      if (stream->state == State::kUndecided) Decide(*stream, true);
    for (auto& stream : streams_) {
      if (stream->parser) stream->parser->Finish();
      if (stream->state == State::kOther) Note(stream->skipped, OtherStreamReason(*stream));
    }
    for (const auto& [reason, n] : skipped_) Note(n, reason);
  }

  const LineCounts& counts() const override {
    counts_ = LineCounts();
    counts_.total = total_;
    counts_.unparsed = unparsed_;
    for (const auto& [reason, n] : skipped_) counts_.skipped += n;
    for (const auto& stream : streams_) {
      counts_.skipped += stream->skipped;
      if (!stream->parser) continue;
      const LineCounts& c = stream->parser->counts();
      counts_.parsed += c.parsed;
      counts_.unparsed += c.unparsed;
      counts_.unattached += c.unattached;
      counts_.skipped += c.skipped;
    }
    return counts_;
  }

 private:
  enum class State { kUndecided, kPostgres, kOther };
  struct Held {
    std::string inner;
    uint64_t line_no;
    std::optional<int64_t> pid;
    std::string time;
  };
  struct Stream {
    std::string name;
    State state = State::kUndecided;
    std::unique_ptr<LineParser> parser;
    std::vector<Held> held;
    uint64_t skipped = 0;
    std::unique_ptr<ServerSink> server;  // a named stream: its events say so
  };

  Stream& StreamFor(std::string_view name) {
    if (last_ && last_->name == name) return *last_;
    auto it = by_name_.find(std::string(name));
    if (it != by_name_.end()) return *it->second;
    streams_.push_back(std::make_unique<Stream>());
    streams_.back()->name = std::string(name);
    by_name_.emplace(std::string(name), streams_.back().get());
    return *streams_.back();
  }

  void Feed(Stream& stream, std::string_view inner, uint64_t line_no, const FrameFields& frame) {
    switch (stream.state) {
      case State::kPostgres:
        stream.parser->ParseFramedLine(inner, line_no, frame);
        return;
      case State::kOther:
        ++stream.skipped;
        return;
      case State::kUndecided: {
        stream.held.push_back({std::string(inner), line_no, frame.pid, std::string(frame.time)});
        const size_t n = stream.held.size();
        // Sniff at 1, 2, 4, ... lines: a PostgreSQL stream is usually known
        // at its first line; one that starts with other output later.
        if ((n & (n - 1)) == 0 || n >= kHoldLines) Decide(stream, n >= kHoldLines);
        return;
      }
    }
  }

  /// Sniffs the held lines; a match makes the stream PostgreSQL and replays
  /// them into its new parser. `final`: no match makes it another stream.
  void Decide(Stream& stream, bool final) {
    std::vector<std::string> lines;
    lines.reserve(stream.held.size());
    for (const Held& h : stream.held) lines.push_back(h.inner);
    SniffResult r = inner_.Sniff(lines, sniff_options_);
    if (r.verdict == SniffResult::Verdict::kMatch) {
      stream.state = State::kPostgres;
      ParseSink* sink = &sink_;
      if (!stream.name.empty() && streams_kind_ != Framing::StreamKind::kProcess) {
        stream.server = std::make_unique<ServerSink>(
            sink_, streams_kind_ == Framing::StreamKind::kFile ? LogSeriesName(stream.name) : stream.name);
        sink = stream.server.get();
      }
      stream.parser = inner_.CreateParser(file_, options_, detected_, *sink);
      stream.parser->Prepare(lines);
      for (const Held& h : stream.held)
        stream.parser->ParseFramedLine(h.inner, h.line_no, FrameFields{h.pid, h.time});
    } else if (final) {
      stream.state = State::kOther;
      stream.skipped += stream.held.size();
    } else {
      return;
    }
    stream.held.clear();
    stream.held.shrink_to_fit();
  }

  std::string OtherStreamReason(const Stream& stream) const {
    std::string layout = inner_.Name();
    if (HasPrefixOption(inner_)) layout += " with log_line_prefix '" + sniff_options_.log_line_prefix + "'";
    return "stream '" + stream.name + "' is not a PostgreSQL log: none of its first " +
           std::to_string(kHoldLines) + " lines fits " + layout;
  }

  void Note(uint64_t lines, const std::string& reason) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::kNote;
    d.file = file_;
    d.message = std::to_string(lines) + (lines == 1 ? " line" : " lines") + " skipped: " + reason;
    sink_.OnDiagnostic(std::move(d));
  }

  const InputFormat& inner_;
  std::string detected_;
  std::string file_;
  ParseOptions options_;
  ParseOptions sniff_options_;
  ParseSink& sink_;
  std::unique_ptr<FrameStripper> stripper_;
  Framing::StreamKind streams_kind_;  // what a stream's name says
  StrippedLine stripped_;
  std::vector<std::unique_ptr<Stream>> streams_;  // in order of their first line
  std::unordered_map<std::string, Stream*> by_name_;
  Stream* last_ = nullptr;  // stream of the last framed line: continuations go there
  std::map<std::string, uint64_t> skipped_;  // the framing's own lines, by reason
  uint64_t total_ = 0;
  uint64_t unparsed_ = 0;
  mutable LineCounts counts_;
};

}  // namespace

std::unique_ptr<LineParser> MakeFramedParser(const Framing& framing, const InputFormat& inner,
                                             const std::string& detected,
                                             const std::string& file,
                                             const ParseOptions& options,
                                             const std::vector<std::string>& head,
                                             ParseSink& sink) {
  return std::make_unique<FramedParser>(framing, inner, detected, file, options, head, sink);
}

}  // namespace lockgraph
