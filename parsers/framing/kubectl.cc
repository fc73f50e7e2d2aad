// `kubectl logs --prefix`: `[pod/NAME/CONTAINER] line`, with --timestamps
// also an RFC 3339 time after it. Each pod/container is a stream
// (docs/postgresql.md#framings).
#include <re2/re2.h>

#include "parsers/framing/frame_util.h"
#include "parsers/framing/framing.h"

namespace lockgraph {
namespace {

class KubectlStripper : public FrameStripper {
 public:
  void Strip(std::string_view line, StrippedLine* out) override {
    // Group 1: "pod/NAME/CONTAINER".
    static const RE2 kFrame(R"(\[(pod/[^/\]\s]+/[^\]\s]+)\](?: |$))");
    std::string_view g[2];
    *out = StrippedLine();
    if (!MatchFrame(kFrame, line, g, 2)) return;
    TakeTimedLine(g[1], line.substr(g[0].size()), out);
  }
};

class KubectlFraming : public Framing {
 public:
  std::string Name() const override { return "kubectl"; }
  std::string Description() const override {
    return "kubectl logs --prefix [--timestamps]: `[pod/NAME/CONTAINER] [<RFC 3339 time>] "
           "<line>`, one stream per container";
  }
  std::unique_ptr<FrameStripper> NewStripper(const std::vector<std::string>&) const override {
    return std::make_unique<KubectlStripper>();
  }
};

}  // namespace

std::unique_ptr<Framing> MakeKubectlFraming() { return std::make_unique<KubectlFraming>(); }

}  // namespace lockgraph
