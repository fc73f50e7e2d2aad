// The threads that parse the parts of one block of an input at once
// (parsers/block_parser.h): the caller's thread takes part 0, each worker
// thread one of the others, and Run() returns when every part is done.
// docs/performance.md#parallel-parsing.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lockgraph {

/// Not copyable. Run() is called from one thread at a time.
class PartWorkers {
 public:
  /// `threads` in all, the caller's included: threads - 1 are started.
  explicit PartWorkers(unsigned threads);
  ~PartWorkers();
  PartWorkers(const PartWorkers&) = delete;
  PartWorkers& operator=(const PartWorkers&) = delete;

  /// How many parts Run() can do at once.
  size_t threads() const { return workers_.size() + 1; }

  /// Calls `fn(i)` for every i < parts (parts <= threads()), part 0 on the
  /// caller's thread, and returns when all are done. Rethrows what a
  /// worker's call threw (after every part is done).
  void Run(size_t parts, const std::function<void(size_t)>& fn);

 private:
  void Work(size_t index);

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable start_, done_;
  const std::function<void(size_t)>* fn_ = nullptr;
  size_t parts_ = 0;
  size_t running_ = 0;        // workers still at the current round's part
  unsigned long round_ = 0;   // bumped for every Run()
  bool stop_ = false;
  std::exception_ptr failure_;
};

}  // namespace lockgraph
