// See sink_thread.h.
#include "app/sink_thread.h"

#include <chrono>
#include <vector>

namespace lockgraph {
namespace {

// Items waiting at most: events are rare (a few thousand per GB of log),
// so this bounds memory only when the consumer is far behind. An event
// of a snapshot weighs one more for each process and edge of its tree or
// cycle (a 100,000-waiter snapshot's trees hold 50 each, and are made far
// faster than written).
constexpr size_t kCapacity = 256;

// Once woken, the consumer lets this much gather, or this long pass, before
// it takes the queue: a stderr log hands over a record every few
// microseconds, and waking the consumer for each cost a system call on both
// sides (docs/performance.md). A pipe's event waits a millisecond at most.
constexpr size_t kBatch = 64;
constexpr auto kGather = std::chrono::milliseconds(1);

size_t Weight(const Event& ev) {
  size_t weight = 1;
  if (ev.chain) weight += ev.chain->members.size() + ev.chain->edges.size();
  if (ev.cycle) weight += ev.cycle->members.size() + ev.cycle->edges.size();
  return weight;
}

}  // namespace

SinkThread::SinkThread(ParseSink& target, uint64_t keep_unparsed)
    : target_(target), unparsed_left_(keep_unparsed), thread_([this] { Run(); }) {}

SinkThread::~SinkThread() {
  if (thread_.joinable()) Stop();
}

void SinkThread::Finish() {
  Stop();
  if (failure_) std::rethrow_exception(failure_);
}

void SinkThread::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  not_empty_.notify_one();
  thread_.join();  // Run() drains the queue before it returns
}

void SinkThread::OnEvent(Event&& event) {
  const size_t weight = Weight(event);
  Push(std::move(event), weight);
}

void SinkThread::OnUnparsed(const std::string& file, uint64_t line, std::string_view text) {
  if (unparsed_left_ == 0) return;
  --unparsed_left_;
  Push(Unparsed{file, line, std::string(text)}, 1);
}

void SinkThread::OnDiagnostic(Diagnostic&& diag) { Push(std::move(diag), 1); }

void SinkThread::Defer(std::function<void(ParseSink&)> work) { Push(std::move(work), 1); }

void SinkThread::WakeForIdleWork() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle_wanted_ = true;
  }
  not_empty_.notify_one();
}

void SinkThread::Push(Item&& item, size_t weight) {
  bool was_empty;
  size_t queued_before;
  {
    std::unique_lock<std::mutex> lock(mu_);
    // An item heavier than the whole capacity still goes, alone.
    not_full_.wait(lock, [&] { return queued_ == 0 || queued_ + weight <= kCapacity; });
    was_empty = queue_.empty();
    queued_before = queued_;
    queue_.push_back(std::move(item));
    queued_ += weight;
  }
  // The consumer sleeps untimed only on an empty queue; after that it
  // gathers for kGather unless a batch is ready first.
  if (was_empty || (queued_before < kBatch && queued_before + weight >= kBatch))
    not_empty_.notify_one();
}

void SinkThread::Run() {
  std::deque<Item> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      not_empty_.wait(lock, [this] { return done_ || !queue_.empty() || idle_wanted_; });
      if (!queue_.empty() && !done_)
        not_empty_.wait_for(lock, kGather,
                            [this] { return done_ || queued_ >= kBatch || idle_wanted_; });
      // The idle work (the parser's next read) only in time this thread
      // would wait anyway: with nothing queued, or while a batch gathers.
      // A full batch comes first: when this thread is the slower one, the
      // parser reads for itself.
      if (idle_wanted_ && queued_ < kBatch && !done_) {
        idle_wanted_ = false;
        lock.unlock();
        if (idle_work_) idle_work_();
        continue;
      }
      idle_wanted_ = false;  // the parser reads for itself when it needs to
      if (queue_.empty()) return;  // done and drained
      batch.swap(queue_);
      queued_ = 0;
    }
    not_full_.notify_one();
    for (Item& item : batch) {
      if (failure_) break;  // keep draining so that the parser never blocks
      try {
        if (auto* ev = std::get_if<Event>(&item)) {
          target_.OnEvent(std::move(*ev));
        } else if (auto* u = std::get_if<Unparsed>(&item)) {
          target_.OnUnparsed(u->file, u->line, u->text);
        } else if (auto* work = std::get_if<Deferred>(&item)) {
          (*work)(target_);
        } else {
          target_.OnDiagnostic(std::move(std::get<Diagnostic>(item)));
        }
      } catch (...) {
        failure_ = std::current_exception();
      }
    }
    batch.clear();
  }
}

}  // namespace lockgraph
