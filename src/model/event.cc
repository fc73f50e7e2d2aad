// Names of the model's enums, as they appear in every output format.
#include "model/event.h"

namespace lockgraph {

bool SessionInfo::Empty() const {
  return user.empty() && database.empty() && application.empty() &&
         host.empty() && session_id.empty() && backend_type.empty() &&
         command_tag.empty() && vxid.empty() && !xid && !session_line &&
         !query_id;
}

const char* EventTypeName(EventType t) {
  switch (t) {
    case EventType::kDeadlock: return "deadlock";
    case EventType::kLockWait: return "lock_wait";
    case EventType::kSnapshot: return "snapshot";
    case EventType::kChain: return "chain";
    case EventType::kCycle: return "cycle";
    case EventType::kWaitStarted: return "wait_started";
    case EventType::kWaitEnded: return "wait_ended";
    case EventType::kWaitChanged: return "wait_changed";
    case EventType::kChainEnded: return "chain_ended";
    case EventType::kCycleEnded: return "cycle_ended";
    case EventType::kUniqueViolation: return "unique_violation";
  }
  return "unknown";
}

const char* WaitOutcomeName(WaitOutcome o) {
  switch (o) {
    case WaitOutcome::kAcquired: return "acquired";
    case WaitOutcome::kDeadlock: return "deadlock";
    case WaitOutcome::kTimeout: return "timeout";
    case WaitOutcome::kCancelled: return "cancelled";
    case WaitOutcome::kFailed: return "failed";
    case WaitOutcome::kUnknown: return "unknown";
  }
  return "unknown";
}

const char* EdgeBasisName(EdgeBasis b) {
  switch (b) {
    case EdgeBasis::kReported: return "reported";
    case EdgeBasis::kHard: return "hard";
    case EdgeBasis::kSoft: return "soft";
    case EdgeBasis::kDerived: return "derived";
  }
  return "reported";
}

const char* ZoneFromName(ZoneFrom z) {
  switch (z) {
    case ZoneFrom::kLog: return "log";
    case ZoneFrom::kOption: return "option";
    case ZoneFrom::kDefault: return "default";
    case ZoneFrom::kNone: break;
  }
  return "";
}

}  // namespace lockgraph
