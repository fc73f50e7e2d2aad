// See event_codec.h. One list of fields per type, read by the writer and the
// reader alike, so the two cannot drift apart; the size checks at the end
// stop a build whose types gained a field the lists do not name.
#include "model/event_codec.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

namespace lockgraph {
namespace {

// The fields of each type, in declaration order. `ar` is a Writer or a Reader.
template <class Ar> void Fields(Ar& ar, SourceSpan& x) {
  ar(x.file, x.first_line, x.last_line, x.kind);
}
template <class Ar> void Fields(Ar& ar, SessionInfo& x) {
  ar(x.user, x.database, x.application, x.host, x.session_id, x.backend_type, x.command_tag,
     x.vxid, x.xid, x.session_line, x.query_id);
}
template <class Ar> void Fields(Ar& ar, ContextFrame& x) {
  ar(x.kind, x.text, x.action, x.tuple, x.relation, x.function, x.line, x.statement);
}
template <class Ar> void Fields(Ar& ar, LockField& x) { ar(x.name, x.value, x.numeric); }
template <class Ar> void Fields(Ar& ar, LockTarget& x) {
  ar(x.type, x.fields, x.text, x.relation_name);
}
template <class Ar> void Fields(Ar& ar, Finding& x) {
  ar(x.rule_id, x.rule_name, x.severity, x.message, x.hint, x.evidence, x.signatures);
}
template <class Ar> void Fields(Ar& ar, Participant& x) {
  ar(x.id, x.pid, x.query, x.query_clipped, x.session, x.spid, x.ecid, x.isolation_level,
     x.wait_mode, x.wait_resource, x.wait_ms, x.transaction_name, x.log_used, x.frames,
     x.attributes);
}
template <class Ar> void Fields(Ar& ar, WaitEdge& x) {
  ar(x.waiter, x.blocker, x.mode, x.lock, x.basis, x.line, x.derived, x.blocker_mode, x.request);
}
template <class Ar> void Fields(Ar& ar, LockRequest& x) { ar(x.process, x.mode, x.request); }
template <class Ar> void Fields(Ar& ar, LockResource& x) {
  ar(x.lock, x.mode, x.owners, x.waiters);
}
template <class Ar> void Fields(Ar& ar, Deadlock& x) {
  ar(x.victim, x.victims, x.processes, x.edges, x.message, x.sqlstate, x.hint, x.statement,
     x.context, x.other_edges, x.resources, x.parallel, x.complete, x.problems, x.before_watch);
}
template <class Ar> void Fields(Ar& ar, WaitReport& x) {
  ar(x.kind, x.time, x.after_ms, x.line);
}
template <class Ar> void Fields(Ar& ar, LockWait& x) {
  ar(x.waiter, x.pid, x.mode, x.lock, x.outcome, x.start_time, x.end_time, x.waited_ms,
     x.holders, x.queue, x.reports, x.chain, x.chain_is_cycle, x.statement, x.context, x.session);
}
template <class Ar> void Fields(Ar& ar, HeldLock& x) { ar(x.mode, x.lock); }
template <class Ar> void Fields(Ar& ar, Backend& x) {
  ar(x.id, x.pid, x.state, x.backend_type, x.wait_event, x.xid, x.xact_age_ms, x.state_age_ms,
     x.query, x.session, x.wait_mode, x.wait_lock, x.wait_age_ms, x.holds, x.rows_locked);
}
template <class Ar> void Fields(Ar& ar, BlockingTree::Member& x) { ar(x.backend, x.depth); }
template <class Ar> void Fields(Ar& ar, BlockingTree& x) { ar(x.members, x.edges); }
template <class Ar> void Fields(Ar& ar, WaitCycle& x) {
  ar(x.members, x.edges, x.also_deadlocked, x.waiting_behind);
}
template <class Ar> void Fields(Ar& ar, SnapshotInfo& x) {
  ar(x.sampled_at, x.blocking, x.locks, x.backends, x.waiting, x.chains, x.cycles, x.poll_ms);
}
template <class Ar> void Fields(Ar& ar, WaitChange& x) {
  ar(x.waiter, x.blocked_by, x.waited_ms, x.previous_mode, x.previous_lock);
}
template <class Ar> void Fields(Ar& ar, UniqueViolation& x) {
  ar(x.constraint, x.key, x.statement);
}
template <class Ar> void Fields(Ar& ar, Event& x) {
  ar(x.type, x.engine, x.time, x.epoch_ms, x.time_iso, x.time_zone_from, x.source, x.server,
     x.pid, x.session, x.truncated, x.deadlock, x.lock_wait, x.snapshot, x.chain, x.cycle,
     x.wait_change, x.unique_violation, x.findings, x.signature);
}

// Numbers as LEB128 varints (signed ones zigzagged), doubles as their 8
// bytes, strings and lists with their length first, optionals with a flag.
class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  template <class... T> void operator()(T&... values) { (Put(values), ...); }

 private:
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_->push_back(char(v | 0x80));
      v >>= 7;
    }
    out_->push_back(char(v));
  }
  void Put(std::string& s) {
    Varint(s.size());
    out_->append(s);
  }
  void Put(bool b) { out_->push_back(b ? 1 : 0); }
  void Put(double d) {
    char bytes[sizeof d];
    std::memcpy(bytes, &d, sizeof d);
    out_->append(bytes, sizeof d);
  }
  template <class T>
    requires std::is_integral_v<T>
  void Put(T v) {
    if constexpr (std::is_signed_v<T>)
      Varint((uint64_t(int64_t(v)) << 1) ^ uint64_t(int64_t(v) >> 63));
    else
      Varint(v);
  }
  template <class T>
    requires std::is_enum_v<T>
  void Put(T v) { Varint(uint64_t(v)); }
  template <class T> void Put(std::optional<T>& v) {
    Put(v.has_value());
    if (v) Put(*v);
  }
  template <class T> void Put(std::vector<T>& v) {
    Varint(v.size());
    for (T& x : v) Put(x);
  }
  template <class T>
    requires std::is_class_v<T>
  void Put(T& x) { Fields(*this, x); }

  std::string* out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_ && in_.empty(); }

  template <class... T> void operator()(T&... values) { (Get(values), ...); }

 private:
  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) break;
      const uint8_t b = uint8_t(in_.front());
      in_.remove_prefix(1);
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok_ = false;
    return 0;
  }
  // A length no longer than the bytes left: a cut encoding never makes a
  // huge allocation.
  size_t Length() {
    const uint64_t n = Varint();
    if (n > in_.size()) ok_ = false;
    return ok_ ? size_t(n) : 0;
  }
  void Get(std::string& s) {
    const size_t n = Length();
    s.assign(in_.substr(0, n));
    in_.remove_prefix(n);
  }
  void Get(bool& b) { b = Varint() != 0; }
  void Get(double& d) {
    if (in_.size() < sizeof d) return void(ok_ = false);
    std::memcpy(&d, in_.data(), sizeof d);
    in_.remove_prefix(sizeof d);
  }
  template <class T>
    requires std::is_integral_v<T>
  void Get(T& v) {
    const uint64_t u = Varint();
    if constexpr (std::is_signed_v<T>)
      v = T(int64_t(u >> 1) ^ -int64_t(u & 1));
    else
      v = T(u);
  }
  template <class T>
    requires std::is_enum_v<T>
  void Get(T& v) { v = T(Varint()); }
  template <class T> void Get(std::optional<T>& v) {
    bool present = false;
    Get(present);
    v.reset();
    if (present && ok_) Get(v.emplace());
  }
  template <class T> void Get(std::vector<T>& v) {
    const size_t n = Length();  // every element takes a byte at least
    v.clear();
    v.resize(n);
    for (T& x : v) {
      if (!ok_) return;
      Get(x);
    }
  }
  template <class T>
    requires std::is_class_v<T>
  void Get(T& x) { Fields(*this, x); }

  std::string_view in_;
  bool ok_ = true;
};

// A type that gained a field fails here: name the field in its Fields()
// above, then write the new size. (The sizes with libstdc++ on x86-64, the
// builds CI runs. A field that fits in padding escapes this; the round trip
// in tests/unit/test_event_codec.cc compares every event of the samples.)
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(SourceSpan) == 80);
static_assert(sizeof(SessionInfo) == 304);
static_assert(sizeof(ContextFrame) == 208);
static_assert(sizeof(LockField) == 72);
static_assert(sizeof(LockTarget) == 120);
static_assert(sizeof(Finding) == 184);
static_assert(sizeof(Participant) == 632);
static_assert(sizeof(WaitEdge) == 304);
static_assert(sizeof(LockRequest) == 96);
static_assert(sizeof(LockResource) == 200);
static_assert(sizeof(Deadlock) == 344);
static_assert(sizeof(WaitReport) == 88);
static_assert(sizeof(LockWait) == 752);
static_assert(sizeof(HeldLock) == 152);
static_assert(sizeof(Backend) == 736);
static_assert(sizeof(BlockingTree::Member) == 744);
static_assert(sizeof(BlockingTree) == 48);
static_assert(sizeof(WaitCycle) == 96);
static_assert(sizeof(SnapshotInfo) == 120);
static_assert(sizeof(WaitChange) == 928);
static_assert(sizeof(UniqueViolation) == 96);
static_assert(sizeof(Event) == 3064);
#endif

}  // namespace

void EncodeEvent(const Event& event, std::string* out) {
  Writer writer(out);
  // The writer only reads: Fields() takes one non-const list for both ways.
  Fields(writer, const_cast<Event&>(event));
}

bool DecodeEvent(std::string_view bytes, Event* event) {
  Reader reader(bytes);
  Fields(reader, *event);
  return reader.ok();
}

}  // namespace lockgraph
