// Lines that another tool prefixed with its own RFC 3339 UTC time and a
// space: `docker logs --timestamps` / `kubectl logs --timestamps`
// (RFC3339Nano, `2026-12-02T10:15:18.556123456Z line`) and CloudWatch Logs
// exports and console downloads (milliseconds, `2019-08-09T18:00:00.000Z
// line`, platforms.md §1.2). Two framings, told apart by the fraction's
// digits (CloudWatch: always 3), so that the report names the right one. Continuation lines of a
// CloudWatch export carry no time: the FramedParser gives a TAB-indented
// line without a frame to the stream before it.
#include "parsers/framing/frame_util.h"
#include "parsers/framing/framing.h"

namespace lockgraph {
namespace {

class TimestampStripper : public FrameStripper {
 public:
  explicit TimestampStripper(bool millis) : millis_(millis) {}

  void Strip(std::string_view line, StrippedLine* out) override {
    *out = StrippedLine();
    size_t digits = 0;
    size_t ts = Rfc3339Length(line, &digits);
    if (!ts || line.size() <= ts || line[ts] != ' ' || line[ts - 1] != 'Z') return;
    // CloudWatch always writes milliseconds; docker writes nanoseconds (kubectl
    // may trim trailing zeros), so that a tie goes to CloudWatch (listed first).
    if (millis_ && digits != 3) return;
    out->kind = StrippedLine::Kind::kLine;
    out->time = line.substr(0, ts);
    out->inner = line.substr(ts + 1);
  }

 private:
  bool millis_;
};

class TimestampFraming : public Framing {
 public:
  explicit TimestampFraming(bool millis) : millis_(millis) {}
  std::string Name() const override { return millis_ ? "cloudwatch" : "docker-timestamps"; }
  std::string Description() const override {
    return millis_ ? "CloudWatch Logs export: `2019-08-09T18:00:00.000Z <line>`"
                   : "docker/kubectl logs --timestamps: `2026-12-02T10:15:18.556123456Z <line>`";
  }
  std::unique_ptr<FrameStripper> NewStripper(const std::vector<std::string>&) const override {
    return std::make_unique<TimestampStripper>(millis_);
  }

 private:
  bool millis_;
};

}  // namespace

std::unique_ptr<Framing> MakeDockerTimestampsFraming() {
  return std::make_unique<TimestampFraming>(false);
}
std::unique_ptr<Framing> MakeCloudWatchFraming() {
  return std::make_unique<TimestampFraming>(true);
}

}  // namespace lockgraph
