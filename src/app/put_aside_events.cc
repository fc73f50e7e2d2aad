// See put_aside_events.h.
#include "app/put_aside_events.h"

#include <cstring>
#include <iostream>

#include "emit/source_paths.h"
#include "model/event_codec.h"

namespace lockgraph {

void PutAsideEvents::OnInputStart(size_t input) {
  input_ = uint32_t(input);
  if (next_) next_->OnInputStart(input);
}

// Each entry: the input's number (4 bytes), then the event.
void PutAsideEvents::OnEvent(const Event& event) {
  if (next_) next_->OnEvent(event);
  buffer_.assign(reinterpret_cast<const char*>(&input_), sizeof input_);
  EncodeEvent(event, &buffer_);
  if (!spool_.Add(input_, event.source.first_line, buffer_)) failed_ = true;
}

void PutAsideEvents::Finish(const Report& report, const std::string& root) {
  names_.emplace(report);
  root_ = root;
  buffer_ = std::string();
}

bool PutAsideEvents::Load(std::string_view bytes, Event* event, uint32_t* input) const {
  if (bytes.size() < sizeof *input) return false;
  std::memcpy(input, bytes.data(), sizeof *input);
  *event = Event();
  if (!DecodeEvent(bytes.substr(sizeof *input), event)) return false;
  if (names_) names_->Resolve(event, *input);
  if (!root_.empty()) RelocateEvent(event, root_);
  return true;
}

bool PutAsideEvents::ForEach(
    const std::function<void(const Event&, uint32_t input, size_t index)>& fn) {
  if (failed_) return false;
  std::string text;
  Event event;
  for (uint32_t index : spool_.SortedOrder()) {
    uint32_t input = 0;
    if (!spool_.Read(index, &text) || !Load(text, &event, &input)) return false;
    fn(event, input, index);
  }
  return true;
}

Event PutAsideEvents::Get(size_t index) {
  std::string text;
  Event event;
  uint32_t input = 0;
  if (failed_ || !spool_.Read(uint32_t(index), &text) || !Load(text, &event, &input)) {
    std::cerr << "lockgraph: cannot read back an event put aside in a temporary file\n";
    return {};
  }
  return event;
}

std::optional<CheckResult> DecideCheck(const Report& report, const CheckLimits& limits,
                                       PutAsideEvents& events) {
  CheckGate gate(report, limits);
  if (!events.ForEach([&](const Event& ev, uint32_t, size_t index) { gate.Add(ev, index); }))
    return std::nullopt;
  return gate.Finish([&events](size_t index) { return events.Get(index); });
}

bool HandOverChecked(PutAsideEvents& events, const Report& report, Emitter& emitter,
                     std::ostream& out) {
  std::optional<uint32_t> current;
  return events.ForEach([&](const Event& ev, uint32_t input, size_t) {
    if (current != input) emitter.OnInputStart(input), current = input;
    emitter.OnCheckedEvent(ev, report, out);
  });
}

}  // namespace lockgraph
