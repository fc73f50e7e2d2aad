// See part_workers.h.
#include "parsers/part_workers.h"

namespace lockgraph {

PartWorkers::PartWorkers(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { Work(i); });
}

PartWorkers::~PartWorkers() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void PartWorkers::Run(size_t parts, const std::function<void(size_t)>& fn) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    fn_ = &fn;
    parts_ = parts;
    running_ = parts > 1 ? parts - 1 : 0;
    failure_ = nullptr;
    ++round_;
  }
  if (parts > 1) start_.notify_all();
  std::exception_ptr mine;
  try {
    if (parts > 0) fn(0);
  } catch (...) {
    mine = std::current_exception();
  }
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [this] { return running_ == 0; });
  fn_ = nullptr;
  if (mine) std::rethrow_exception(mine);
  if (failure_) std::rethrow_exception(failure_);
}

void PartWorkers::Work(size_t index) {
  unsigned long seen = 0;
  for (;;) {
    const std::function<void(size_t)>* fn = nullptr;
    {
      std::unique_lock<std::mutex> lock(mu_);
      start_.wait(lock, [&] { return stop_ || (round_ != seen && index < parts_); });
      if (stop_) return;
      seen = round_;
      fn = fn_;
    }
    std::exception_ptr failure;
    try {
      (*fn)(index);
    } catch (...) {
      failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (failure && !failure_) failure_ = failure;
    if (--running_ == 0) done_.notify_one();
  }
}

}  // namespace lockgraph
