// PostgreSQL's stderr log layout (reference §6.1): every part of a message
// on a line of its own with the full log_line_prefix, embedded newlines
// followed by one TAB. Lines go through StderrLines (the PrefixMatcher, the
// RecordAssembler), records then through the PgEventBuilder.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parsers/block_parser.h"
#include "parsers/builtin_formats.h"
#include "parsers/flushable.h"
#include "parsers/postgresql/event_builder.h"
#include "parsers/postgresql/prefix.h"
#include "parsers/postgresql/prefix_redetect.h"
#include "parsers/postgresql/stderr_chunks.h"
#include "parsers/postgresql/stderr_lines.h"

namespace lockgraph {
namespace {

class StderrParser final : public LineParser,
                           public FlushableParser,
                           public BlockParser,
                           private StderrOutput {
 public:
  /// `redetect`: the prefix was detected on the first lines, not given.
  StderrParser(const std::string& file, std::unique_ptr<PrefixMatcher> matcher, bool redetect,
               ParseSink& sink)
      : file_(file),
        sink_(sink),
        builder_(std::make_shared<PgEventBuilder>(sink)),
        redetect_(redetect),
        lines_(file, std::move(matcher), &redetect_, this) {}

  void ParseLine(std::string_view line, uint64_t line_no) override {
    lines_.ParseLine(line, line_no);
  }

  void Prepare(const std::vector<std::string>& head) override {
    StderrLines::Mood mood = lines_.mood();
    for (const std::string& line : head) {
      mood.tabs_seen = mood.tabs_seen || (!line.empty() && line[0] == '\t');
      redetect_.Fits(line);
    }
    lines_.set_mood(mood);
  }

  void ParseFramedLine(std::string_view line, uint64_t line_no,
                       const FrameFields& frame) override {
    lines_.set_frame(&frame);
    lines_.ParseLine(line, line_no);
    lines_.set_frame(nullptr);
  }

  void Flush(FlushMode mode) override {
    if (mode == FlushMode::kSameOutput) {
      lines_.assembler().CloseComplete();
    } else {
      lines_.assembler().CloseAll();
    }
  }
  void Finish() override {
    lines_.assembler().Finish();
    sink_.Defer([builder = builder_](ParseSink& sink) {
      builder->set_sink(sink);
      builder->Finish();
    });
  }

  const LineCounts& counts() const override { return lines_.counts(); }

  // BlockParser: a file's lines a block at a time, without a call through
  // the reader and a std::function for each line. With --threads 3 or
  // more, a block's parts are read on threads - 1 threads (the records
  // become events on the other one, the rules' thread): stderr_chunks.h.
  // With fewer, on this thread, which the rules' thread helps by reading
  // ahead (ParsesOnThreads() false: io/read_ahead.h).
  void UseThreads(unsigned threads) override {
    if (threads >= 3) chunks_ = std::make_unique<StderrChunks>(file_, threads - 1);
  }
  size_t BlockBytes() const override {
    return chunks_ ? std::min(kPartBytes * chunks_->threads(), kMaxBlockBytes) : size_t{128} << 10;
  }
  bool ParsesOnThreads() const override { return false; }
  size_t ParseBlock(std::string_view lines, bool /*at_end*/) override {
    if (chunks_) {
      chunks_->ParseBlock(lines, lines_);
    } else {
      lines_.ParseLines(lines);
    }
    return lines.size();
  }

 private:
  // A part of 512 KiB per parsing thread, blocks of at most 16 MiB (the
  // reader holds two); 128 KiB on one thread, where the block read is
  // still in the core's cache when it is parsed (1 MiB: 0.87 s of the 1 GiB
  // file on one core, 128 KiB 0.74 s, docs/performance.md "Reads that fit
  // the cache"). Parts of 4 MiB took 0.62 s of the 1 GiB file with three
  // threads on two cores, 512 KiB 0.46 s, less than 512 KiB no less
  // (docs/performance.md#parallel-stderr-2026-12-06-night).
  static constexpr size_t kPartBytes = 512 << 10;
  static constexpr size_t kMaxBlockBytes = 16 << 20;

  // StderrOutput. A whole record becomes events where the sink says
  // (ParseSink::Defer): with two threads, on the one that runs the rules,
  // beside the reading. The work holds the builder, which may outlive this
  // parser.
  void OnRecord(LogRecord&& record) override {
    sink_.Defer([builder = builder_, record = std::move(record)](ParseSink& sink) mutable {
      builder->set_sink(sink);
      builder->OnRecord(std::move(record));
    });
  }
  void OnUnparsed(uint64_t line_no, std::string_view text) override {
    sink_.OnUnparsed(file_, line_no, text);
  }
  void OnNote(Diagnostic&& note) override { sink_.OnDiagnostic(std::move(note)); }

  std::string file_;
  ParseSink& sink_;
  std::shared_ptr<PgEventBuilder> builder_;  // used only by the work handed to sink_
  PrefixRedetector redetect_;  // the first lines, for a line the prefix does not fit
  StderrLines lines_;
  std::unique_ptr<StderrChunks> chunks_;  // with --threads 3 or more
};

class StderrFormat : public InputFormat {
 public:
  std::string Name() const override { return "stderr"; }
  std::string Description() const override {
    return "PostgreSQL stderr log with any log_line_prefix (detected, or --prefix)";
  }

  SniffResult Sniff(const std::vector<std::string>& head,
                    const ParseOptions& options) const override {
    SniffResult result;
    if (options.has_prefix) {
      std::string error;
      auto m = PrefixMatcher::Compile(options.log_line_prefix, &error);
      if (!m) {
        result.reason = error;
        return result;
      }
      PrefixedLine out;
      for (const std::string& line : head) result.score += m->Match(line, &out, nullptr);
      result.verdict = result.score > 0 ? SniffResult::Verdict::kMatch
                                        : SniffResult::Verdict::kNoMatch;
      result.detected = options.log_line_prefix;
      if (!result.score) result.reason = "no line matches --prefix '" + options.log_line_prefix + "'";
      return result;
    }
    int matched = 0;
    std::optional<std::string> prefix = DetectPrefix(head, &matched);
    result.score = matched;
    if (!prefix) {
      result.reason = "no log_line_prefix followed by a severity (LOG:, ERROR:, ...) fits most lines";
      result.detected = "%*";  // what --input-format stderr then falls back to
      return result;
    }
    result.verdict = SniffResult::Verdict::kMatch;
    result.detected = *prefix;
    // "Any text, then a label" is a guess: its lines count half against
    // another catch-all (application output that names a driver).
    result.fallback = *prefix == "%*";
    if (result.fallback) result.score = (result.score + 1) / 2;
    return result;
  }

  std::unique_ptr<LineParser> CreateParser(const std::string& file,
                                           const ParseOptions& options,
                                           const std::string& detected,
                                           ParseSink& sink) const override {
    std::string prefix = options.has_prefix ? options.log_line_prefix : detected;
    std::string error;
    auto matcher = PrefixMatcher::Compile(prefix, &error);
    if (!matcher) matcher = PrefixMatcher::Compile("%*", &error);
    return std::make_unique<StderrParser>(file, std::move(matcher), !options.has_prefix, sink);
  }
};

}  // namespace

std::unique_ptr<InputFormat> MakePgStderrFormat() { return std::make_unique<StderrFormat>(); }

}  // namespace lockgraph
