// SinkThread: what a parser delivers reaches the target in order, unparsed
// lines only as many as the target keeps, and a failure in the target comes
// back to the caller instead of being lost on the other thread. Idle work
// (the parser's next read) runs on the sink's thread when asked for, and
// never reorders what is delivered.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "app/sink_thread.h"

namespace lockgraph {
namespace {

class Recorder : public ParseSink {
 public:
  void OnEvent(Event&& event) override {
    seen.push_back("event " + std::to_string(event.source.first_line));
    threads.push_back(std::this_thread::get_id());
    if (throw_at && event.source.first_line == throw_at) throw std::runtime_error("emitter failed");
  }
  void OnUnparsed(const std::string& file, uint64_t line, std::string_view text) override {
    seen.push_back("unparsed " + file + ":" + std::to_string(line) + " " + std::string(text));
  }
  void OnDiagnostic(Diagnostic&& diag) override { seen.push_back("diagnostic " + diag.message); }

  std::vector<std::string> seen;
  std::vector<std::thread::id> threads;
  uint64_t throw_at = 0;
};

Event At(uint64_t line) {
  Event ev;
  ev.source.first_line = ev.source.last_line = line;
  return ev;
}

}  // namespace

TEST_CASE("SinkThread delivers everything in order on its own thread", "[sink_thread]") {
  Recorder target;
  {
    SinkThread sink(target, 2);
    for (uint64_t i = 1; i <= 10000; ++i) {
      sink.OnEvent(At(i));
      if (i == 5000) {
        std::string text = "not a log line";
        sink.OnUnparsed("a.log", 5000, text);
        text = "overwritten: the sink must have copied it";
        sink.OnDiagnostic({Diagnostic::Severity::kWarning, "a.log", 5000, "cut record", ""});
        sink.OnUnparsed("a.log", 5001, "second");
        sink.OnUnparsed("a.log", 5002, "third: beyond keep_unparsed");
      }
    }
    sink.Finish();
  }
  REQUIRE(target.seen.size() == 10000 + 3);
  CHECK(target.seen[0] == "event 1");
  CHECK(target.seen[4999] == "event 5000");
  CHECK(target.seen[5000] == "unparsed a.log:5000 not a log line");
  CHECK(target.seen[5001] == "diagnostic cut record");
  CHECK(target.seen[5002] == "unparsed a.log:5001 second");
  CHECK(target.seen[5003] == "event 5001");
  CHECK(target.seen.back() == "event 10000");
  for (size_t i = 0; i < 10000; ++i) REQUIRE(target.threads[i] != std::this_thread::get_id());
}

TEST_CASE("SinkThread runs its idle work on its own thread, in order with the rest",
          "[sink_thread]") {
  Recorder target;
  std::atomic<int> runs{0};
  std::atomic<bool> other_thread{true};
  const std::thread::id caller = std::this_thread::get_id();
  {
    SinkThread sink(target, 0);
    sink.SetIdleWork([&] {
      ++runs;
      if (std::this_thread::get_id() == caller) other_thread = false;
    });
    for (uint64_t i = 1; i <= 20000; ++i) {
      sink.OnEvent(At(i));
      if (i % 7 == 0) sink.WakeForIdleWork();
      if (i % 2000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
    // Nothing queued: the work runs at once.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const int before = runs;
    sink.WakeForIdleWork();
    for (int wait = 0; wait < 1000 && runs == before; ++wait)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK(runs > before);
    sink.Finish();
  }
  CHECK(other_thread);
  REQUIRE(target.seen.size() == 20000);
  for (size_t i = 0; i < target.seen.size(); ++i)
    REQUIRE(target.seen[i] == "event " + std::to_string(i + 1));
}

TEST_CASE("SinkThread hands a failure of its target back at Finish", "[sink_thread]") {
  Recorder target;
  target.throw_at = 3;
  SinkThread sink(target, 0);
  // More than the queue holds: the parser must not block once the target
  // has failed.
  for (uint64_t i = 1; i <= 20000; ++i) sink.OnEvent(At(i));
  CHECK_THROWS_WITH(sink.Finish(), "emitter failed");
  CHECK(target.seen.size() == 3);
}

}  // namespace lockgraph
