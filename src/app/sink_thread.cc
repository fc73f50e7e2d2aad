// See sink_thread.h.
#include "app/sink_thread.h"

#include <vector>

namespace lockgraph {
namespace {

// Items waiting at most: events are rare (a few thousand per GB of log),
// so this bounds memory only when the consumer is far behind.
constexpr size_t kCapacity = 1024;

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

void SinkThread::OnEvent(Event&& event) { Push(std::move(event)); }

void SinkThread::OnUnparsed(const std::string& file, uint64_t line, std::string_view text) {
  if (unparsed_left_ == 0) return;
  --unparsed_left_;
  Push(Unparsed{file, line, std::string(text)});
}

void SinkThread::OnDiagnostic(Diagnostic&& diag) { Push(std::move(diag)); }

void SinkThread::Push(Item&& item) {
  bool was_empty;
  {
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock, [this] { return queue_.size() < kCapacity; });
    was_empty = queue_.empty();
    queue_.push_back(std::move(item));
  }
  // The consumer sleeps only on an empty queue: waking it for every item
  // would cost a system call per event.
  if (was_empty) not_empty_.notify_one();
}

void SinkThread::Run() {
  std::deque<Item> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      not_empty_.wait(lock, [this] { return done_ || !queue_.empty(); });
      if (queue_.empty()) return;  // done and drained
      batch.swap(queue_);
    }
    not_full_.notify_one();
    for (Item& item : batch) {
      if (failure_) break;  // keep draining so that the parser never blocks
      try {
        if (auto* ev = std::get_if<Event>(&item)) {
          target_.OnEvent(std::move(*ev));
        } else if (auto* u = std::get_if<Unparsed>(&item)) {
          target_.OnUnparsed(u->file, u->line, u->text);
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
