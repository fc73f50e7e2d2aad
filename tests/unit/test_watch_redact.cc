// `watch --redact` (src/watch/watcher.h, WatchOptions::redact): the queries
// of a polled snapshot's processes lose their literals, comments' included,
// in every output; without it they are shown as the server gave them. The
// snapshot comes from a fake source (the real server: tests/e2e/watch.sh).
#include <catch2/catch.hpp>

#include <sstream>

#include "watch/snapshot_source.h"
#include "watch/watcher.h"

using namespace lockgraph;

namespace {

// Backend 200 waits for ShareLock on the transaction of 100, which holds it.
class FakeSource : public SnapshotSource {
 public:
  std::string label() const override { return "fake"; }
  Result Poll() override {
    Result r;
    r.snapshot.has_blocking_pids = true;
    r.snapshot.server = "fake";
    PgLockRow holder;
    holder.sampled_at = "2026-12-03 13:45:28.089692+00";
    holder.pid = 100;
    holder.locktype = "transactionid";
    holder.transactionid = "725";
    holder.mode = "ExclusiveLock";
    holder.granted = true;
    holder.state = "idle in transaction";
    holder.query = "UPDATE acc SET owner = 'Jane Secret' WHERE id = 1";
    PgLockRow waiter = holder;
    waiter.pid = 200;
    waiter.mode = "ShareLock";
    waiter.granted = false;
    waiter.blocking_pids = std::vector<int64_t>{100};
    waiter.wait_event_type = "Lock";
    waiter.wait_event = "transactionid";
    waiter.state = "active";
    waiter.query = "UPDATE acc SET owner = 'John Secret' /* order 4242 */ WHERE id = 1";
    r.snapshot.rows = {holder, waiter};
    return r;
  }
};

std::string Watch(bool redact, const std::string& format) {
  std::vector<std::unique_ptr<SnapshotSource>> sources;
  sources.push_back(std::make_unique<FakeSource>());
  WatchOptions options;
  options.once = true;
  options.format = format;
  options.redact = redact;
  std::ostringstream out, err;
  CHECK(RunWatch(std::move(sources), options, out, err) == 0);
  return out.str();
}

}  // namespace

TEST_CASE("watch --redact: literals in the shown queries become ?", "[watch][redact]") {
  for (const char* format : {"text", "json", "ndjson"}) {
    INFO(format);
    const std::string plain = Watch(false, format);
    CHECK(plain.find("Jane Secret") != std::string::npos);
    CHECK(plain.find("order 4242") != std::string::npos);
    const std::string redacted = Watch(true, format);
    CHECK(redacted.find("Secret") == std::string::npos);
    CHECK(redacted.find("4242") == std::string::npos);
    CHECK(redacted.find("UPDATE acc SET owner = ? /* order ? */ WHERE id = ?") != std::string::npos);
  }
}
