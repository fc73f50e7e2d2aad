// `docker compose logs` / `docker-compose logs`: `db-1  | line`, the service
// name padded to the longest one, optionally coloured (ANSI) and, with -t,
// followed by an RFC 3339 time. Each service is a stream (reference
// postgresql-logs.md §9.5; docs/postgresql.md#framings).
#include <re2/re2.h>

#include "parsers/framing/frame_util.h"
#include "parsers/framing/framing.h"

namespace lockgraph {
namespace {

class DockerComposeStripper : public FrameStripper {
 public:
  void Strip(std::string_view line, StrippedLine* out) override {
    // Groups: service name, the rest after "| " (or after a bare "|").
    static const RE2 kFrame(R"(([A-Za-z0-9][A-Za-z0-9_.-]*) +(?:\x1b\[[0-9;]*m)*\|(?: |$))");
    std::string_view g[2];
    *out = StrippedLine();
    if (!MatchFrame(kFrame, SkipAnsi(line), g, 2)) return;
    // `docker compose logs -t`: "2026-12-02T10:15:18.556123456Z line".
    TakeTimedLine(g[1], SkipAnsi(line.substr(g[0].data() + g[0].size() - line.data())), out);
  }
};

class DockerComposeFraming : public Framing {
 public:
  std::string Name() const override { return "docker-compose"; }
  std::string Description() const override {
    return "docker compose logs: `db-1  | <line>` (docker-compose: `db_1  | `), one stream per "
           "service";
  }
  std::unique_ptr<FrameStripper> NewStripper(const std::vector<std::string>&) const override {
    return std::make_unique<DockerComposeStripper>();
  }
};

}  // namespace

std::unique_ptr<Framing> MakeDockerComposeFraming() {
  return std::make_unique<DockerComposeFraming>();
}

}  // namespace lockgraph
