// The cursor position PostgreSQL appends to a message when the error (or
// the lock wait) happened while a statement was being parsed: elog.c writes
// " at character N" (translated: "bei Zeichen N", "(N文字目)", ...) right
// after the primary text in stderr and syslog; csvlog and jsonlog keep it in
// a field of its own. Reference: postgresql-logs.md §3.2, §6.1 and §8.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace lockgraph {

/// The message without a trailing cursor position (English or any catalogue
/// translation), and the position in *position when one was there.
/// Returns `message` unchanged when it ends in no position. Cheap when the
/// message does not end in a digit or ')' (the common case).
std::string_view StripCursorPosition(std::string_view message,
                                     std::optional<int64_t>* position = nullptr);

}  // namespace lockgraph
