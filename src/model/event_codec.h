// An Event as bytes and back, every field: for a command that must put whole
// events aside while it reads and take them back later (`check` decides its
// verdict only after the last line, then writes each event with it:
// docs/performance.md#check-event-by-event). Not a file format: the bytes
// are read back by the same build only.
#pragma once

#include <string>
#include <string_view>

#include "model/event.h"

namespace lockgraph {

/// Appends the bytes of `event` to *out.
void EncodeEvent(const Event& event, std::string* out);

/// Reads back what EncodeEvent wrote, all of `bytes`. Returns false (and
/// *event half filled) when the bytes are cut or are not an encoding.
bool DecodeEvent(std::string_view bytes, Event* event);

}  // namespace lockgraph
