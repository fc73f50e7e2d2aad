// Hands what a parser delivers (events, unparsed lines, diagnostics, and
// work that makes events: ParseSink::Defer) to another ParseSink on a
// thread of its own, in the order it was delivered. Parsing a log is one
// thread's work (reading, splitting lines, assembling records); making a
// stderr record's events and what happens to each event after it is made
// (rules, statement fingerprints, rendering) is another's: on two cores the
// two overlap (docs/performance.md). The queue is bounded (by items, a snapshot's trees
// weighing as many as their processes and edges), so a slow consumer slows
// the parser instead of growing memory.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

#include "parsers/input_format.h"

namespace lockgraph {

/// Not copyable. Call the ParseSink methods from one thread only (the
/// parser's); `target` is called from the sink's own thread until Finish().
class SinkThread : public ParseSink {
 public:
  /// `keep_unparsed`: how many unparsed lines `target` will keep; later
  /// ones are not copied across (the parser counts them).
  SinkThread(ParseSink& target, uint64_t keep_unparsed);
  ~SinkThread() override;
  SinkThread(const SinkThread&) = delete;
  SinkThread& operator=(const SinkThread&) = delete;

  /// Work for this sink's thread when it has nothing else (the next read
  /// of the file being parsed: io/read_ahead.h), done after each
  /// WakeForIdleWork(). Set it before the first call to Wake..., and keep
  /// what it uses alive until Finish().
  void SetIdleWork(std::function<void()> work) { idle_work_ = std::move(work); }
  /// Any thread: asks for the idle work to run once more. Does not block
  /// for long (it takes the queue's lock).
  void WakeForIdleWork();

  /// Waits until `target` has seen everything, then stops the thread.
  /// Rethrows what `target` threw, if anything did.
  void Finish();

  // ParseSink
  void OnEvent(Event&& event) override;
  void OnUnparsed(const std::string& file, uint64_t line, std::string_view text) override;
  void OnDiagnostic(Diagnostic&& diag) override;
  /// Runs `work` on this sink's thread, in order, with `target` as its sink.
  void Defer(std::function<void(ParseSink&)> work) override;

 private:
  struct Unparsed {
    std::string file;
    uint64_t line;
    std::string text;
  };
  using Deferred = std::function<void(ParseSink&)>;
  using Item = std::variant<Event, Unparsed, Diagnostic, Deferred>;

  void Push(Item&& item, size_t weight);
  void Run();
  void Stop();  // lets Run() drain the queue, then joins it

  ParseSink& target_;
  uint64_t unparsed_left_;
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::deque<Item> queue_;
  size_t queued_ = 0;  // the weight of queue_'s items
  bool done_ = false;
  bool idle_wanted_ = false;  // WakeForIdleWork() came
  std::function<void()> idle_work_;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace lockgraph
