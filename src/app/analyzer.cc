// See analyzer.h.
#include "app/analyzer.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>

#include "analysis/redact.h"
#include "app/sink_thread.h"
#include "io/line_reader.h"
#include "io/log_series.h"
#include "parsers/block_parser.h"
#include "parsers/flushable.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

constexpr size_t kSniffLines = 200;

/// The formats a framing may hold: PostgreSQL's own text logs.
bool IsFramable(const InputFormat& format) {
  const std::string name = format.Name();
  return name == "stderr" || name == "csvlog" || name == "jsonlog" || name == "syslog";
}

}  // namespace

Analyzer::Analyzer(AnalyzeOptions options, EventStream* stream)
    : options_(std::move(options)),
      stream_(stream),
      formats_(RegisterBuiltinFormats()),
      framings_(RegisterBuiltinFramings()),
      rules_(options_.rules) {
  std::string error;
  time_ = TimeResolver::Make(options_.timezone, &error);
  if (!time_) time_ = TimeResolver::Make("", &error);  // the caller checked the zone
}

bool Analyzer::InWindow(const Event& event) {
  if (!options_.since_us && !options_.until_us) return true;
  if (!event.epoch_ms) {
    ++report_.summary.outside_window_no_time;
    return false;
  }
  const int64_t us = *event.epoch_ms * 1000;
  if ((options_.since_us && us < *options_.since_us) || (options_.until_us && us >= *options_.until_us)) {
    ++report_.summary.outside_window;
    return false;
  }
  return true;
}

FramingChoice Analyzer::ChooseFramingOf(const std::vector<std::string>& head,
                                        const std::vector<const InputFormat*>& inner) const {
  return ChooseFraming(framings_, inner, head, options_.parse);
}

const InputFormat* Analyzer::Choose(const std::vector<std::string>& head,
                                    const std::string& path, std::string* detected,
                                    FramingChoice* framing, std::string* error) const {
  std::string names;
  for (const auto& f : formats_) names += (names.empty() ? "" : ", ") + f->Name();
  if (!options_.input_format.empty()) {
    for (const auto& f : formats_) {
      if (f->Name() != options_.input_format) continue;
      SniffResult r = f->Sniff(head, options_.parse);
      *detected = r.detected;
      // A forced format may still sit inside frames: unless its own lines
      // fit better, the frames come off.
      if (IsFramable(*f)) {
        FramingChoice c = ChooseFramingOf(head, {f.get()});
        if (c.framing && (r.verdict != SniffResult::Verdict::kMatch || c.score > r.score)) {
          *framing = c;
          *detected = c.detected;
        }
      }
      return f.get();
    }
    *error = "unknown --input-format '" + options_.input_format + "' (formats: " + names + ")";
    return nullptr;
  }
  // The highest score wins; a match that is only a catch-all (stderr's "any
  // text, then a label") loses to any specific one.
  const InputFormat* best = nullptr;
  std::pair<bool, int> best_rank{false, 0};
  std::string reasons;
  std::vector<const InputFormat*> framable;
  for (const auto& f : formats_) {
    if (IsFramable(*f)) framable.push_back(f.get());
    SniffResult r = f->Sniff(head, options_.parse);
    const std::pair<bool, int> rank{!r.fallback, r.score};
    if (r.verdict == SniffResult::Verdict::kMatch && rank > best_rank) {
      best = f.get();
      best_rank = rank;
      *detected = r.detected;
    } else if (r.verdict != SniffResult::Verdict::kMatch) {
      reasons += "\n  " + f->Name() + ": " + r.reason;
    }
  }
  // Framed lines also fit stderr's catch-all prefix "%*" (any text before
  // the severity): a framing wins over any catch-all match, and over a
  // format that fits fewer lines than carry the frame.
  FramingChoice c = ChooseFramingOf(head, framable);
  if (c.framing && (!best || !best_rank.first || c.score > best_rank.second)) {
    *framing = c;
    *detected = c.detected;
    return c.inner;
  }
  // No log of a server: application or test output (`pytest | lockgraph
  // check -`), read for the deadlocks a driver printed.
  for (const auto& f : formats_)
    if (!best && f->ReadsAnyText()) best = f.get();
  if (!best) {
    *error = path + ": unknown input format" + reasons + c.reason +
             "\nforce one with --input-format (" + names + ")";
  }
  return best;
}

bool Analyzer::AnalyzeInput(const std::string& path, std::string* error) {
  std::unique_ptr<LineReader> reader = LineReader::Open(path, error);
  if (!reader) {
    report_.failed_inputs.push_back({path, *error});
    return false;
  }
  // A copy: reading the lines clears the reader's, and CheckUnderstood
  // sniffs them again afterwards.
  const std::vector<std::string> head = reader->Head(kSniffLines);
  const std::string name = path == "-" ? "-" : path;
  if (head.empty()) {  // nothing to read is no error: no events, no lines
    InputInfo empty;
    empty.file = name;
    empty.format = "empty";
    empty.gzip = reader->gzip();
    report_.inputs.push_back(std::move(empty));
    ++input_index_;
    return true;
  }
  std::string detected;
  FramingChoice framing;
  const InputFormat* format = Choose(head, path, &detected, &framing, error);
  if (!format) {
    report_.failed_inputs.push_back({path, *error});
    return false;
  }
  if (stream_) stream_->OnInputStart(input_index_);
  std::optional<SinkThread> async;
  ParseSink* sink = this;
  if (options_.threads > 1) {
    const size_t kept = std::min(report_.unparsed.size(), options_.keep_unparsed);
    sink = &async.emplace(*this, options_.keep_unparsed - kept);
  }
  std::unique_ptr<LineParser> parser =
      framing.framing ? MakeFramedParser(*framing.framing, *format, detected, name,
                                         options_.parse, head, *sink)
                      : format->CreateParser(name, options_.parse, detected, *sink);
  parser->Prepare(head);
  // `tail -F log | lockgraph analyze -`: a pipe quiet between messages
  // closes the open records now, not at the next message (flushable.h).
  reader->OnPause(kQuietFlushMs, [&parser] { FlushParser(*parser, FlushMode::kSameOutput); });
  bool ok = ReadAll(*reader, *parser, async ? &*async : nullptr, error);
  parser->Finish();
  if (async) async->Finish();  // every event of this input seen before the next one starts
  InputInfo info;
  info.file = name;
  info.format = format->Name();
  info.detected = detected;
  info.gzip = reader->gzip();
  info.lines = parser->counts();
  if (framing.framing) info.framing = framing.framing->Name();
  report_.summary.lines.total += info.lines.total;
  report_.summary.lines.parsed += info.lines.parsed;
  report_.summary.lines.unparsed += info.lines.unparsed;
  report_.summary.lines.skipped += info.lines.skipped;
  report_.summary.lines.unattached += info.lines.unattached;
  CheckUnderstood(head, *format, &info);
  NoteRepeats(info.file);
  report_.inputs.push_back(std::move(info));
  ++input_index_;
  return ok;
}

bool Analyzer::ReadAll(LineReader& reader, LineParser& parser, SinkThread* async,
                       std::string* error) const {
  // A file of csvlog or jsonlog is parsed on every thread (block_parser.h),
  // a file of stderr a block at a time on one; a pipe line by line, so that
  // each event leaves as its lines come.
  BlockParser* blocks = reader.regular_file() ? AsBlockParser(parser) : nullptr;
  if (blocks && blocks->ParsesOnThreads() && options_.threads <= 1) blocks = nullptr;
  if (!blocks)
    return reader.ForEachLine(
        [&](std::string_view line, uint64_t no) { parser.ParseLine(line, no); }, error);
  if (async && !blocks->ParsesOnThreads()) {
    // One parsing thread: the rules' thread, when it waits for records,
    // reads the file's next block for it (io/read_ahead.h). (A parser on
    // every thread keeps every core busy without it.)
    async->SetIdleWork([&reader] { reader.ReadForOther(); });
    reader.ShareReads([async] { async->WakeForIdleWork(); });
  }
  blocks->UseThreads(options_.threads);
  return reader.ForEachBlock(
      blocks->BlockBytes(),
      [&](std::string_view lines, bool at_end) { return blocks->ParseBlock(lines, at_end); },
      error);
}

void Analyzer::NoteRepeats(const std::string& file) {
  for (const auto& [earlier, n] : repeated_) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::kWarning;
    d.file = file;
    std::string what;
    if (n.first) what = Plural(n.first, "deadlock", "deadlocks");
    if (n.second) what += (what.empty() ? "" : " and ") + Plural(n.second, "lock wait", "lock waits");
    d.message = "repeats " + what + " of " + report_.inputs[earlier].file +
                " (the same pids, times and locks: the same server run in another format?); each is "
                "counted and shown once";
    report_.diagnostics.push_back(std::move(d));
  }
  repeated_.clear();
}

void Analyzer::CheckUnderstood(const std::vector<std::string>& head, const InputFormat& format,
                               InputInfo* info) {
  const LineCounts& n = info->lines;
  const uint64_t claimed = n.total - n.skipped;
  if (claimed == 0 || n.parsed * 2 >= claimed) return;
  info->poorly_understood = true;
  const InputFormat* better = nullptr;
  int best_score = 0;
  for (const auto& f : formats_) {
    if (f.get() == &format) continue;
    SniffResult r = f->Sniff(head, options_.parse);
    if (r.verdict == SniffResult::Verdict::kMatch && r.score > best_score) {
      better = f.get();
      best_score = r.score;
    }
  }
  Diagnostic d;
  d.severity = Diagnostic::Severity::kError;
  d.file = info->file;
  d.message = "the " + format.Name() + " reader understood only " + std::to_string(n.parsed) +
              " of " + std::to_string(claimed) + " lines: events may be missing; " +
              (better ? better->Name() + " fits the first lines better (--input-format " +
                            better->Name() + ")"
                      : std::string("no other format fits better (--show-unparsed lists them)"));
  report_.diagnostics.push_back(std::move(d));
}

void Analyzer::set_input_paths(const std::vector<std::string>& paths) {
  std::set<std::string> series;
  for (const std::string& path : paths) series.insert(LogSeriesName(path));
  several_series_ = series.size() > 1;
}

void Analyzer::OnEvent(Event&& event) {
  time_->Apply(&event);
  if (!InWindow(event)) return;
  // A unique violation is evidence for PG016 alone, not an event of the
  // report (docs/json-schema.md#unique-violations): its record stays counted
  // as a parsed line, and PG016's run-level finding cites its line.
  if (event.type == EventType::kUniqueViolation) {
    ++report_.summary.unique_violations;
    rules_.OnEvent(&event);
    return;
  }
  if (std::optional<size_t> earlier = repeats_.Repeats(event, input_index_)) {
    bool deadlock = event.type == EventType::kDeadlock;
    ++(deadlock ? report_.summary.repeated_deadlocks : report_.summary.repeated_lock_waits);
    auto& n = repeated_[*earlier];
    ++(deadlock ? n.first : n.second);
    return;  // shown once: as the earlier input gave it
  }
  if (event.type == EventType::kDeadlock) {
    ++report_.summary.deadlocks;
    if (event.deadlock && !event.deadlock->complete) ++report_.summary.deadlocks_incomplete;
  } else if (event.type == EventType::kLockWait) {
    ++report_.summary.lock_waits;
  } else if (event.type == EventType::kSnapshot) {
    ++report_.summary.snapshots;
  } else if (event.type == EventType::kChain) {
    ++report_.summary.chains;
  } else if (event.type == EventType::kCycle) {
    ++report_.summary.cycles;
  }
  if (several_series_ && event.server.empty() && !event.source.file.empty()) {
    auto [it, fresh] = series_of_file_.try_emplace(event.source.file);
    if (fresh) it->second = LogSeriesName(event.source.file);
    event.server = it->second;
  }
  relations_.Learn(event, input_index_, event.source.file);
  rules_.OnEvent(&event);  // before any emitter sees it: streamed events carry findings
  if (options_.redact) RedactEvent(&event);  // after the rules: they compare key values
  if (stream_) stream_->OnEvent(event);
  if (options_.collect_events) Collect(std::move(event));
}

void Analyzer::Collect(Event&& event) {
  const uint64_t seq = next_seq_++;
  if (options_.examples_only) {
    if (!event.deadlock) {
      if (!options_.keep_findings || event.findings.empty()) return;
    } else {
      auto [it, fresh] = example_of_.try_emplace(event.signature, report_.events.size());
      if (!fresh) {
        // Events are made when they end: a later one may start earlier,
        // and then it is the example Finish's sort would put first.
        const size_t slot = it->second;
        if (std::pair(input_index_, event.source.first_line) >=
            std::pair(event_input_[slot], report_.events[slot].source.first_line))
          return;
        report_.events[slot] = std::move(event);
        event_input_[slot] = input_index_;
        event_seq_[slot] = seq;
        return;
      }
    }
  }
  report_.events.push_back(std::move(event));
  event_input_.push_back(input_index_);
  event_seq_.push_back(seq);
}

void Analyzer::OnUnparsed(const std::string& file, uint64_t line, std::string_view text) {
  if (report_.unparsed.size() < options_.keep_unparsed)
    report_.unparsed.push_back({file, line, options_.redact ? RedactSql(text) : std::string(text)});
}

void Analyzer::OnDiagnostic(Diagnostic&& diag) {
  if (report_.diagnostics.size() < 1000) report_.diagnostics.push_back(std::move(diag));
}

Report& Analyzer::Finish() {
  // Names learned later in an input name its earlier events too.
  for (size_t i = 0; i < report_.events.size(); ++i) relations_.Resolve(&report_.events[i], event_input_[i]);
  report_.summary.relation_names = relations_.Entries();
  // Events are made when they end (a wait when it is acquired): sort them
  // by where they start so that every output reads in log order.
  std::vector<size_t> order(report_.events.size());
  std::iota(order.begin(), order.end(), 0);
  // Ties keep the order of arrival.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Event& x = report_.events[a];
    const Event& y = report_.events[b];
    if (event_input_[a] != event_input_[b]) return event_input_[a] < event_input_[b];
    if (x.source.first_line != y.source.first_line) return x.source.first_line < y.source.first_line;
    return event_seq_[a] < event_seq_[b];
  });
  std::vector<Event> sorted;
  sorted.reserve(order.size());
  for (size_t i : order) sorted.push_back(std::move(report_.events[i]));
  report_.events = std::move(sorted);
  std::vector<RunFacts::Input> inputs;
  for (const InputInfo& in : report_.inputs) inputs.push_back({in.file, in.format, in.detected});
  rules_.Finish(std::move(inputs), &report_.findings, &report_.groups, &report_.causes);
  if (options_.redact)
    for (Finding& f : report_.findings) RedactRunFinding(&f);
  return report_;
}

}  // namespace lockgraph
